package propnet_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

func parse(t *testing.T, rules string) *gdl.Description {
	t.Helper()
	d, err := gdl.ParseFile("test.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func newBoth(t *testing.T, rules string) (*propnet.Reasoner, *prolog.Reasoner) {
	t.Helper()
	d := parse(t, rules)
	pn, err := propnet.New(context.Background(), d, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := prolog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return pn, pl
}

// paths is a game whose terminal and goals depend on a recursive relation
// over the state with cycles: which nodes the edges laid so far connect.
// Edges are laid and removed by the moves, so reachability both grows and
// shrinks, and the ground network has cycles through reach. A blocked node
// passes nothing on for a turn: the cycles then have inputs that are true
// in the empty state, and open, recursive too, holds in it.
const paths = `
(role builder) (role breaker)
(node a) (node b) (node c) (node d)
(init (edge a b)) (init (edge b a))
(<= (legal builder (lay ?x ?y)) (node ?x) (node ?y) (distinct ?x ?y) (not (true (edge ?x ?y))))
(legal builder wait)
(<= (legal breaker (cut ?x ?y)) (true (edge ?x ?y)))
(<= (legal breaker (block ?x)) (node ?x) (not (true (blocked ?x))))
(<= (next (blocked ?x)) (does breaker (block ?x)))
(legal breaker wait)
(<= (next (edge ?x ?y)) (does builder (lay ?x ?y)))
(<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does breaker (cut ?x ?y))))
(<= (next (tick ?n)) (true (tick ?m)) (succ ?m ?n))
(init (tick 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(<= (reach ?x ?y) (true (edge ?x ?y)))
(<= (reach ?x ?z) (reach ?x ?y) (true (edge ?y ?z)) (not (true (blocked ?y))))
(<= (free ?x) (node ?x) (not (true (blocked ?x))))
(<= (open ?x) (free ?x))
(<= (open ?x) (open ?y) (true (edge ?x ?y)))
(<= (next (seen ?x)) (open ?x))
(<= terminal (reach d a))
(<= terminal (true (tick 8)))
(<= (goal builder 100) (reach d a))
(<= (goal builder 50) (reach a c) (not (reach d a)))
(<= (goal builder 0) (not (reach a c)) (not (reach d a)))
(<= (goal breaker 100) (not (reach d a)))
(<= (goal breaker 0) (reach d a))
`

func TestRecursionThroughTheStateAgreesWithProlog(t *testing.T) {
	pn, pl := newBoth(t, paths)
	if pn.Stats().Cycles == 0 {
		t.Fatalf("no cycle in the network: %v", pn.Stats())
	}
	ctx := context.Background()
	for p := range 200 {
		rng := rand.New(rand.NewPCG(uint64(p), 3))
		if _, err := compare(ctx, pn, pl, rng, 20); err != nil {
			t.Fatalf("playout %d: %v", p, err)
		}
	}
}

func TestGoalsNotSingleValued(t *testing.T) {
	pn, _ := newBoth(t, `
(role a) (role b) (role c)
(init s)
(legal a go) (legal b go) (legal c go)
(<= terminal (true s))
(goal a 100) (goal a 0)
(goal b 50)
`)
	ctx := context.Background()
	s, err := pn.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	goals, err := pn.Goals(ctx, s)
	var ge *reasoner.GoalError
	if !errors.As(err, &ge) {
		t.Fatalf("goals %v, error %v: want a GoalError", goals, err)
	}
	if !slices.Equal(goals, []int{-1, 50, -1}) {
		t.Errorf("goals %v, want [-1 50 -1]", goals)
	}
	if !slices.Equal(ge.Roles, []string{"a", "c"}) || !slices.Equal(ge.Values[0], []int{0, 100}) || len(ge.Values[1]) != 0 {
		t.Errorf("goal error %+v", ge)
	}
}

func TestNonNumericGoal(t *testing.T) {
	pn, _ := newBoth(t, `(role a) (init s) (legal a go) (<= terminal (true s)) (goal a high)`)
	ctx := context.Background()
	s, _ := pn.Initial(ctx)
	if _, err := pn.Goals(ctx, s); err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Errorf("error %v, want a goal that is not a number", err)
	}
}

func TestStatesAndMoves(t *testing.T) {
	pn, pl := newBoth(t, paths)
	ctx := context.Background()
	s0, err := pn.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A state of the other backend, made of facts, is read by its facts.
	f0, err := pl.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	legal, err := pn.Legal(ctx, f0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []reasoner.Move{"(block a)", "(block b)", "(block c)", "(block d)", "(cut a b)", "(cut b a)", "wait"}; !slices.Equal(legal, want) {
		t.Errorf("legal moves of the breaker %v, want %v", legal, want)
	}
	// A fork shares the encoding: its states hash and compare alike.
	fork, err := pn.Fork()
	if err != nil {
		t.Fatal(err)
	}
	joint := []reasoner.Move{"(lay b c)", "wait"}
	s1, err := pn.Next(ctx, s0, joint)
	if err != nil {
		t.Fatal(err)
	}
	t1, err := fork.Next(ctx, s0, joint)
	if err != nil {
		t.Fatal(err)
	}
	if !s1.Equal(t1) || s1.Hash() != t1.Hash() {
		t.Errorf("states of a fork differ: %s (%x), %s (%x)", s1, s1.Hash(), t1, t1.Hash())
	}
	if got, want := s1.String(), "(edge a b) (edge b a) (edge b c) (seen a) (seen b) (seen c) (seen d) (tick 1)"; got != want {
		t.Errorf("next state %s, want %s", got, want)
	}
	// A move the rules can never allow is an error, not a silent no-op.
	if _, err := pn.Next(ctx, s0, []reasoner.Move{"(lay a z)", "wait"}); err == nil {
		t.Error("no error for a move that is never legal")
	}
	if _, err := pn.Next(ctx, s0, joint[:1]); err == nil {
		t.Error("no error for a joint move of one role in a game of two")
	}
	// A fact that is no base proposition is an error.
	if _, err := pn.Terminal(ctx, reasoner.NewState([]reasoner.Fact{"(edge a z)"})); err == nil {
		t.Error("no error for a state with a fact outside the game")
	}
}

// generic hides a reasoner's Playouter, so reasoner.Playout runs its own
// loop.
type generic struct{ reasoner.Reasoner }

func TestPlayoutFastPathMatchesGenericLoop(t *testing.T) {
	pn, _ := newBoth(t, paths)
	ctx := context.Background()
	s0, _ := pn.Initial(ctx)
	for seed := range uint64(50) {
		fast, n, err := reasoner.Playout(ctx, pn, s0, rand.New(rand.NewPCG(seed, 1)), 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		slow, m, err := reasoner.Playout(ctx, generic{pn}, s0, rand.New(rand.NewPCG(seed, 1)), 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n != m || !fast.Equal(slow) {
			t.Fatalf("seed %d: fast path %d steps to %s, generic loop %d steps to %s", seed, n, fast, m, slow)
		}
	}
	// A playout cut short by maxSteps stops there.
	_, n, err := reasoner.Playout(ctx, pn, s0, rand.New(rand.NewPCG(1, 1)), 2, nil)
	if err != nil || n != 2 {
		t.Errorf("playout of at most 2 steps: %d steps, %v", n, err)
	}
}

// lastMove is a Policy that plays the last of the legal moves and keeps
// what it was offered.
type lastMove struct {
	pn      *propnet.Reasoner
	offered [][]reasoner.Move // per call: the legal moves offered
	roles   []int
}

func (p *lastMove) Choose(role int, legal []int32) int {
	var ms []reasoner.Move
	for _, id := range legal {
		ms = append(ms, p.pn.Moves(role)[id])
	}
	p.offered = append(p.offered, ms)
	p.roles = append(p.roles, role)
	return len(legal) - 1
}

// TestPolicyPlayout checks a policy playout against the same choices made
// through Legal and Next: the policy is offered exactly the legal moves of
// every role with a choice, in role order, and its choices are played.
func TestPolicyPlayout(t *testing.T) {
	pn, _ := newBoth(t, paths)
	ctx := context.Background()
	s0, _ := pn.Initial(ctx)
	p := &lastMove{pn: pn}
	end, n, err := pn.PolicyPlayout(ctx, s0, p, 100)
	if err != nil {
		t.Fatal(err)
	}
	s, asked := s0, 0
	for step := 0; ; step++ {
		term, err := pn.Terminal(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if term {
			if step != n || !s.Equal(end) {
				t.Fatalf("policy playout: %d steps to %s; through Legal and Next: %d steps to %s", n, end, step, s)
			}
			break
		}
		joint := make([]reasoner.Move, len(pn.Roles()))
		for role := range joint {
			legal, err := pn.Legal(ctx, s, role)
			if err != nil {
				t.Fatal(err)
			}
			joint[role] = legal[len(legal)-1]
			if len(legal) == 1 {
				continue
			}
			if asked >= len(p.offered) || p.roles[asked] != role || !slices.Equal(p.offered[asked], legal) {
				t.Fatalf("step %d, role %d: the policy was not offered the legal moves %v", step, role, legal)
			}
			asked++
		}
		if s, err = pn.Next(ctx, s, joint); err != nil {
			t.Fatal(err)
		}
	}
	if asked != len(p.offered) || asked == 0 {
		t.Errorf("the policy was asked %d times, the playout had %d choices", len(p.offered), asked)
	}
	// A choice out of range is an error, not a wrong move.
	if _, _, err := pn.PolicyPlayout(ctx, s0, badPolicy{}, 100); err == nil {
		t.Error("no error for a choice out of range")
	}
}

type badPolicy struct{}

func (badPolicy) Choose(role int, legal []int32) int { return len(legal) }

func TestPlayoutAllocatesNothingPerStep(t *testing.T) {
	pn, _ := newBoth(t, paths)
	ctx := context.Background()
	s0, _ := pn.Initial(ctx)
	rng := rand.New(rand.NewPCG(1, 1))
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := pn.Playout(ctx, s0, rng, 1000); err != nil {
			t.Fatal(err)
		}
	})
	// The final state and its words: two allocations a playout, whatever
	// its length.
	if allocs > 2 {
		t.Errorf("%v allocations per playout", allocs)
	}
}

func TestUngroundable(t *testing.T) {
	tests := []struct {
		name, rules string
		want        string
	}{
		{"terms grow without bound", `(role a) (init (s 0)) (<= (legal a go) (true (s ?x)))
(<= (next (s (f ?x))) (true (s ?x)))`, "deeper than"},
		{"unsafe negation", `(role a) (init s) (legal a go) (<= terminal (not (p ?x)))`, "unsafe"},
		{"too many instances", wideGame(), "literals"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The limits, not the clock, must stop these games: the
			// time limit is TestDeadline's. The wide game reaches its
			// literal limit in under a second on an idle machine, but
			// took over 5 s under -race on a loaded one.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := propnet.New(ctx, parse(t, tt.rules), propnet.Options{Limits: propnet.Limits{MaxLinks: 1 << 20}})
			if !errors.Is(err, propnet.ErrNotGrounded) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestDeadline grounds a game far too large for the time it is given: it
// must stop with an error saying so, not run on.
func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := propnet.New(ctx, parse(t, wideGame()), propnet.Options{Limits: propnet.Limits{MaxLinks: 1 << 30, MaxTerms: 1 << 30}})
	if !errors.Is(err, propnet.ErrBudget) || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("error %v, want the time limit", err)
	}
}

// wideGame grounds into 10^8 instances of one rule.
func wideGame() string {
	var b strings.Builder
	b.WriteString("(role a) (init (s 0)) (<= terminal (true (s 1))) (goal a 100)\n")
	for i := range 100 {
		b.WriteString("(num n" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + ")\n")
	}
	b.WriteString("(<= (legal a (m ?w ?x ?y ?z)) (true (s 0)) (num ?w) (num ?x) (num ?y) (num ?z))\n")
	b.WriteString("(<= (next (s 1)) (does a (m ?w ?x ?y ?z)))\n")
	return b.String()
}

// TestWideRelation grounds a relation of more arguments than the join
// planner's statistics look at.
func TestWideRelation(t *testing.T) {
	args := strings.Repeat(" ?x", 16)
	rules := `(role a) (init (s 0)) (n 1) (n 2)
(<= (wide ?x` + args + `) (n ?x) (true (s 0)))
(<= (legal a (go ?x)) (wide ?x` + args + `) (n ?x))
(<= (next (s ?x)) (does a (go ?x)))
(<= terminal (not (true (s 0))))
(goal a 100)`
	pn, pl := newBoth(t, rules)
	for p := range 5 {
		if _, err := compare(context.Background(), pn, pl, rand.New(rand.NewPCG(uint64(p), 1)), 5); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMemoryBudget grounds a game whose instances need far more memory
// than it is given.
func TestMemoryBudget(t *testing.T) {
	limits := propnet.Limits{MaxMemory: 16 << 20, MaxLinks: 1 << 30, MaxTerms: 1 << 30}
	_, err := propnet.New(context.Background(), parse(t, wideGame()), propnet.Options{Limits: limits})
	if !errors.Is(err, propnet.ErrBudget) || !strings.Contains(err.Error(), "heap grew") {
		t.Errorf("error %v, want the memory limit", err)
	}
}
