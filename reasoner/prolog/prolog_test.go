package prolog_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

func mustLoad(t *testing.T, rules string) *prolog.Reasoner {
	t.Helper()
	r, err := loadRules(rules, prolog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func loadRules(rules string, opts prolog.Options) (*prolog.Reasoner, error) {
	d, err := gdl.ParseFile("test.kif", []byte(rules))
	if err != nil {
		return nil, err
	}
	return prolog.NewWithOptions(context.Background(), d, opts)
}

func ask(t *testing.T, r *prolog.Reasoner, s *reasoner.State, q string) []string {
	t.Helper()
	sent, err := gdl.ParseSentence(q)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Ask(context.Background(), s, sent)
	if err != nil {
		t.Fatalf("ask %s: %v", q, err)
	}
	return got
}

func facts(s *reasoner.State) []string {
	var out []string
	for _, f := range s.Facts() {
		out = append(out, string(f))
	}
	return out
}

// A two-step counter game used by several tests.
const counter = `
(role p)
(init (count 0))
(succ 0 1) (succ 1 2)
(<= (legal p (inc)) (true (count ?x)) (succ ?x ?y))
(<= (legal p stay) (true (count ?x)))
(<= (next (count ?y)) (does p (inc)) (true (count ?x)) (succ ?x ?y))
(<= (next (count ?x)) (does p stay) (true (count ?x)))
(<= terminal (true (count 2)))
(<= (goal p 100) (true (count 2)))
(<= (goal p 0) (not (true (count 2))))
`

func TestStateMachine(t *testing.T) {
	ctx := context.Background()
	r := mustLoad(t, counter)
	if got := r.Roles(); !slices.Equal(got, []string{"p"}) {
		t.Fatalf("roles %v", got)
	}
	s, _ := r.Initial(ctx)
	if got := facts(s); !slices.Equal(got, []string{"(count 0)"}) {
		t.Fatalf("initial %v", got)
	}
	legal, err := r.Legal(ctx, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	// (inc) with no arguments reads as the constant inc.
	if want := []reasoner.Move{"inc", "stay"}; !slices.Equal(legal, want) {
		t.Fatalf("legal %v, want %v", legal, want)
	}
	for _, step := range []string{"(count 1)", "(count 2)"} {
		if term, _ := r.Terminal(ctx, s); term {
			t.Fatalf("terminal before %s", step)
		}
		if s, err = r.Next(ctx, s, []reasoner.Move{"inc"}); err != nil {
			t.Fatal(err)
		}
		if got := facts(s); !slices.Equal(got, []string{step}) {
			t.Fatalf("next %v, want %s", got, step)
		}
	}
	if term, _ := r.Terminal(ctx, s); !term {
		t.Fatal("not terminal at (count 2)")
	}
	if goals, err := r.Goals(ctx, s); err != nil || !slices.Equal(goals, []int{100}) {
		t.Fatalf("goals %v, %v", goals, err)
	}
	if legal, _ := r.Legal(ctx, s, 0); !slices.Equal(legal, []reasoner.Move{"stay"}) {
		t.Fatalf("legal at the end %v", legal)
	}
}

// TestSandbox checks that relations named like Prolog built-ins are
// ordinary game relations: nothing halts, opens files or writes.
func TestSandbox(t *testing.T) {
	rules := `
(role p)
(init (s 0))
(halt a) (call b) (write c) (open d) (consult e) (assertz f) (! g)
(<= (fail x) (halt ?x))
(<= (legal p (go ?x)) (open ?x))
(<= (next (s 1)) (does p (go ?x)) (call b) (write c) (not (consult zzz)))
(<= terminal (true (s 1)) (fail x))
(<= (goal p 100) (true (s 1)))
(<= (goal p 0) (true (s 0)))
`
	ctx := context.Background()
	r := mustLoad(t, rules)
	s, _ := r.Initial(ctx)
	legal, err := r.Legal(ctx, s, 0)
	if err != nil || !slices.Equal(legal, []reasoner.Move{"(go d)"}) {
		t.Fatalf("legal %v, %v", legal, err)
	}
	s, err = r.Next(ctx, s, legal)
	if err != nil || !slices.Equal(facts(s), []string{"(s 1)"}) {
		t.Fatalf("next %v, %v", s, err)
	}
	if term, err := r.Terminal(ctx, s); err != nil || !term {
		t.Fatalf("terminal %v, %v", term, err)
	}
	if got := ask(t, r, s, "(! ?x)"); !slices.Equal(got, []string{"(! g)"}) {
		t.Errorf("ask (! ?x) = %v", got)
	}
}

func TestSemantics(t *testing.T) {
	tests := []struct {
		name  string
		rules string
		query string
		want  []string
	}{
		{"case is kept", "(role p) (cellOpen a) (cellopen b)", "(cellOpen ?x)", []string{"(cellOpen a)"}},
		{"keywords fold", "(ROLE p) (Role q) (init (x)) (<= TERMINAL (TRUE (x)))", "(role ?r)", []string{"(role p)", "(role q)"}},
		{"scattered clauses", "(role p) (q a) (r z) (q b) (<= (q ?x) (r ?x))", "(q ?x)", []string{"(q a)", "(q b)", "(q z)"}},
		{"unknown relation fails", "(role p) (<= (q a) (nowhere a)) (q b)", "(q ?x)", []string{"(q b)"}},
		{"answers are sets", "(role p) (r a) (r a) (<= (q ?x) (r ?x)) (<= (q ?x) (r ?x))", "(q ?x)", []string{"(q a)"}},
		{"negation after binding", "(role p) (d a) (d b) (bad a) (<= (q ?x) (not (bad ?x)) (d ?x))", "(q ?x)", []string{"(q b)"}},
		{"distinct after binding", "(role p) (d a) (d b) (<= (q ?x ?y) (distinct ?x ?y) (d ?x) (d ?y))", "(q ?x ?y)", []string{"(q a b)", "(q b a)"}},
		{"or", "(role p) (d a) (d b) (d c) (<= (q ?x) (d ?x) (or (distinct ?x a) (distinct ?x b)))", "(q ?x)", []string{"(q a)", "(q b)", "(q c)"}},
		{"or binds", "(role p) (d a) (e b) (<= (q ?x) (or (d ?x) (e ?x)))", "(q ?x)", []string{"(q a)", "(q b)"}},
		{"nested terms", "(role p) (f (g a (h b)))", "(f (g ?x (h ?y)))", []string{"(f (g a (h b)))"}},
		{"recursion", "(role p) (s 1 2) (s 2 3) (s 3 4) (<= (lt ?x ?y) (s ?x ?y)) (<= (lt ?x ?z) (s ?x ?y) (lt ?y ?z))", "(lt 1 ?z)", []string{"(lt 1 2)", "(lt 1 3)", "(lt 1 4)"}},
		{"negated recursion", "(role p) (s 1 2) (s 2 3) (n 1) (n 3) (<= (lt ?x ?y) (s ?x ?y)) (<= (lt ?x ?z) (s ?x ?y) (lt ?y ?z)) (<= (top ?x) (n ?x) (not (lt ?x 3)))", "(top ?x)", []string{"(top 3)"}},
		{"test over nine variables", "(role p) (init (s 1 2 3 4 5 6 7 8 9)) (<= (q ?a) (true (s ?a ?b ?c ?d ?e ?f ?g ?h ?i)) (not (true (t ?a ?b ?c ?d ?e ?f ?g ?h ?i))))", "(q ?a)", []string{"(q 1)"}},
		{"proposition", "(role p) (<= ready (q a)) (q a)", "ready", []string{"ready"}},
		{"false proposition", "(role p) (<= ready (q b)) (q a)", "ready", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustLoad(t, tt.rules)
			s, _ := r.Initial(context.Background())
			if got := ask(t, r, s, tt.query); !slices.Equal(got, tt.want) {
				t.Errorf("ask %s = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
}

// TestStateDependent checks relations that depend on the state, through
// true and does, under the indexing natives.
func TestStateDependent(t *testing.T) {
	rules := `
(role a) (role b)
(init (cell 1 x)) (init (cell 2 o)) (init (cell 3 x)) (init (big 1 2 3 4 5 6 7 8 9))
(<= (marked ?c) (true (cell ?c x)))
(<= (any ?f) (true ?f))
(<= (nine ?i) (true (big 1 2 3 4 5 6 7 8 ?i)))
(<= (legal ?r noop) (role ?r))
(<= (next (played ?r ?m)) (does ?r ?m))
(<= (next (saw ?r)) (does ?r noop))
`
	ctx := context.Background()
	r := mustLoad(t, rules)
	s, _ := r.Initial(ctx)
	if got := ask(t, r, s, "(marked ?c)"); !slices.Equal(got, []string{"(marked 1)", "(marked 3)"}) {
		t.Errorf("marked: %v", got)
	}
	if got := ask(t, r, s, "(any (cell ?c o))"); !slices.Equal(got, []string{"(any (cell 2 o))"}) {
		t.Errorf("any: %v", got)
	}
	if got := ask(t, r, s, "(nine ?i)"); !slices.Equal(got, []string{"(nine 9)"}) {
		t.Errorf("nine: %v", got)
	}
	next, err := r.Next(ctx, s, []reasoner.Move{"noop", "noop"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"(played a noop)", "(played b noop)", "(saw a)", "(saw b)"}
	if got := facts(next); !slices.Equal(got, want) {
		t.Errorf("next %v, want %v", got, want)
	}
}

func TestGoalErrors(t *testing.T) {
	rules := `
(role a) (role b) (role c)
(init (s))
(<= (goal a 100) (true (s)))
(<= (goal b 0) (true (s)))
(<= (goal b 100) (true (s)))
`
	ctx := context.Background()
	r := mustLoad(t, rules)
	s, _ := r.Initial(ctx)
	goals, err := r.Goals(ctx, s)
	var ge *reasoner.GoalError
	if !errors.As(err, &ge) {
		t.Fatalf("error %v, want a GoalError", err)
	}
	if !slices.Equal(goals, []int{100, -1, -1}) {
		t.Errorf("goals %v", goals)
	}
	if !slices.Equal(ge.Roles, []string{"b", "c"}) {
		t.Errorf("roles in error %v", ge.Roles)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, rules, want string }{
		{"no role", "(init (s))", "no role"},
		{"true in head", "(role p) (<= (true (s)) (q))", "cannot be defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadRules(tt.rules, prolog.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// TestDepthLimit checks that a relation that recurses forever, in the state
// or at load time, gives an error instead of a hang; and that a recursion on
// the very same subgoal fails by the loop check instead.
func TestDepthLimit(t *testing.T) {
	rules := `
(role p)
(init (s a))
(<= (loop ?x) (true (s ?x)) (loop ?x))
(<= (grow ?x) (true (s a)) (grow (f ?x)))
(<= terminal (grow a))
`
	ctx := context.Background()
	r, err := loadRules(rules, prolog.Options{MaxDepth: 500})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Initial(ctx)
	if _, err = r.Terminal(ctx, s); err == nil || !errors.Is(err, reasoner.ErrDepth) && !strings.Contains(err.Error(), reasoner.ErrDepth.Error()) {
		t.Fatalf("terminal: %v, want a depth error", err)
	}
	if got := ask(t, r, s, "(loop a)"); got != nil {
		t.Errorf("ask (loop a) = %v, want no answer", got)
	}

	// A static relation too wide for a table is evaluated top-down too.
	wide := "(role p) (<= (loop ?a ?b ?c ?d ?e ?f ?g ?h ?i) (loop ?a ?b ?c ?d ?e ?f ?g ?h ?i)) (<= (q ?x) (loop ?x ?x ?x ?x ?x ?x ?x ?x ?x)) (init (q a))"
	if _, err := loadRules(wide, prolog.Options{MaxDepth: 500}); err == nil ||
		!strings.Contains(err.Error(), reasoner.ErrDepth.Error()) {
		t.Fatalf("load: %v, want a depth error", err)
	}
}

// TestStaticFixpoint checks that recursive state-independent relations get
// their least fixpoint, however the recursion is written.
func TestStaticFixpoint(t *testing.T) {
	tests := []struct {
		name, rules, query string
		want               []string
	}{
		{
			"left recursion on a cycle",
			"(role p) (edge a b) (edge b c) (edge c a) (<= (reach ?x ?y) (edge ?x ?y)) (<= (reach ?x ?z) (reach ?x ?y) (edge ?y ?z))",
			"(reach a ?y)", []string{"(reach a a)", "(reach a b)", "(reach a c)"},
		},
		{
			"right recursion on a cycle",
			"(role p) (edge a b) (edge b a) (<= (reach ?x ?y) (edge ?x ?y)) (<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))",
			"(reach b ?y)", []string{"(reach b a)", "(reach b b)"},
		},
		{"self loop is empty", "(role p) (<= (loop ?x) (loop ?x)) (<= (q ?x) (loop ?x)) (d a)", "(q ?x)", nil},
		{
			// Two recursive components evaluated one after the other, with
			// rules in the same positions.
			"two components",
			"(role p) (n 0) (n 1) (n 2) (n 3) (s 0 1) (s 1 2) (s 2 3) " +
				"(<= (add ?x 0 ?x) (n ?x)) (<= (add ?x ?y ?z) (s ?x ?x1) (s ?y1 ?y) (add ?x1 ?y1 ?z)) " +
				"(<= (sub ?x 0 ?x) (n ?x)) (<= (sub ?x ?y ?z) (s ?x1 ?x) (s ?y1 ?y) (sub ?x1 ?y1 ?z))",
			"(sub 3 ?y ?z)", []string{"(sub 3 0 3)", "(sub 3 1 2)", "(sub 3 2 1)", "(sub 3 3 0)"},
		},
		{
			// The depth argument would take a native past the engine's
			// arity limit of 8.
			"recursion at the arity limit",
			"(role p) (s 0 1) (s 1 2) (<= (r8 ?a 0 0 0 0 0 0 0) (s ?a ?b)) (<= (r8 ?b 0 0 0 0 0 0 0) (r8 ?a 0 0 0 0 0 0 0) (s ?a ?b))",
			"(r8 ?a 0 0 0 0 0 0 0)", []string{"(r8 0 0 0 0 0 0 0 0)", "(r8 1 0 0 0 0 0 0 0)", "(r8 2 0 0 0 0 0 0 0)"},
		},
		{
			"mutual recursion",
			"(role p) (s 0 1) (s 1 2) (s 2 3) (even 0) (<= (odd ?y) (even ?x) (s ?x ?y)) (<= (even ?y) (odd ?x) (s ?x ?y))",
			"(even ?x)", []string{"(even 0)", "(even 2)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustLoad(t, tt.rules)
			s, _ := r.Initial(context.Background())
			if got := ask(t, r, s, tt.query); !slices.Equal(got, tt.want) {
				t.Errorf("ask %s = %v, want %v", tt.query, got, tt.want)
			}
		})
	}

	// An infinite relation (the rules break GDL's recursion restriction)
	// fails within the load deadline.
	infinite := "(role p) (nat 0) (<= (nat (s ?x)) (nat ?x))"
	const deadline = 500 * time.Millisecond
	start := time.Now()
	_, err := loadRules(infinite, prolog.Options{LoadTimeout: deadline})
	if err == nil {
		t.Fatal("loaded an infinite relation")
	}
	if elapsed := time.Since(start); elapsed > 2*deadline {
		t.Errorf("failed after %v, deadline %v", elapsed, deadline)
	}
}

// TestDeadline checks that a query that explodes returns an error within
// twice its deadline.
// TestFork checks that forked instances answer independently.
func TestFork(t *testing.T) {
	ctx := context.Background()
	r := mustLoad(t, counter)
	f, err := r.Fork()
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := r.Initial(ctx)
	s1, err := r.Next(ctx, s0, []reasoner.Move{"inc"})
	if err != nil {
		t.Fatal(err)
	}
	// The fork must not see r's loaded state: ask it about s0 and s1 in turn.
	s1f, err := f.Next(ctx, s0, []reasoner.Move{"inc"})
	if err != nil {
		t.Fatal(err)
	}
	if !s1.Equal(s1f) || s1.Hash() != s1f.Hash() {
		t.Errorf("fork computed %v, original %v", s1f, s1)
	}
	done := make(chan error, 2)
	for _, inst := range []reasoner.Reasoner{r, f} {
		go func() {
			for i := 0; i < 200; i++ {
				if _, err := inst.Legal(ctx, s1, 0); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestCyclicRecursion checks a state-dependent recursion that runs around
// a cycle of the state: a ring of stones with no liberty must be found to
// have none, not loop to the depth limit; with one liberty, every stone of
// the ring has it.
func TestCyclicRecursion(t *testing.T) {
	rules := `
(role p)
(adj a b) (adj b c) (adj c d) (adj d a)
(<= (near ?x ?y) (adj ?x ?y))
(<= (near ?x ?y) (adj ?y ?x))
(<= (free ?x) (true (stone ?x)) (near ?x ?y) (true (empty ?y)))
(<= (free ?x) (true (stone ?x)) (near ?x ?y) (free ?y))
(<= (dead ?x) (true (stone ?x)) (not (free ?x)))
(init (stone a)) (init (stone b)) (init (stone c)) (init (stone d))
(<= (legal p (open ?x)) (true (stone ?x)))
(<= (next (empty ?x)) (does p (open ?x)))
(<= (next (stone ?x)) (true (stone ?x)) (not (does p (open ?x))))
`
	ctx := context.Background()
	r := mustLoad(t, rules)
	s, _ := r.Initial(ctx)
	if got, want := ask(t, r, s, "(dead ?x)"), []string{"(dead a)", "(dead b)", "(dead c)", "(dead d)"}; !slices.Equal(got, want) {
		t.Errorf("closed ring: dead %v, want %v", got, want)
	}
	s, err := r.Next(ctx, s, []reasoner.Move{"(open c)"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ask(t, r, s, "(free ?x)"), []string{"(free a)", "(free b)", "(free d)"}; !slices.Equal(got, want) {
		t.Errorf("opened ring: free %v, want %v", got, want)
	}
	if got := ask(t, r, s, "(dead ?x)"); got != nil {
		t.Errorf("opened ring: dead %v, want none", got)
	}
}
