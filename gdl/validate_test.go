package gdl_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// baseGame is a complete, valid game appended after each test's rules, so
// that a case only shows the problems of its own lines (which come first,
// so that their positions start at line 1).
const baseGame = `
(role a)
(init on)
(<= (legal a go) (true on))
(<= (next on) (does a go))
(<= terminal (true on))
(<= (goal a 100) (true on))
`

// want is one expected problem: where, how bad, which check, and words its
// message must contain.
type want struct {
	at   string // "line:col"
	sev  gdl.Severity
	code string
	has  []string
}

func (w want) String() string {
	return fmt.Sprintf("%s %s %s %q", w.at, w.sev, w.code, w.has)
}

var (
	E = gdl.SeverityError
	W = gdl.SeverityWarning
)

// validateCases holds, for each check, examples that break it and examples
// that do not. Only problems whose code is among codes are compared, so the
// passing examples may show other problems (such as unused relations).
var validateCases = []struct {
	name  string
	codes []string
	bare  bool // do not append baseGame
	src   string
	want  []want
}{
	// Arity.
	{"relation arity differs", []string{gdl.CodeArity}, false,
		"(p a)\n(<= (q ?x) (p ?x ?x))",
		[]want{{"2:12", E, gdl.CodeArity, []string{"relation p", "2 arguments", "1 at 1:1"}}}},
	{"relation arity same", []string{gdl.CodeArity}, false,
		"(p a)\n(<= (q ?x) (p ?x))", nil},
	{"proposition and relation", []string{gdl.CodeArity}, false,
		"p\n(<= q (p a))",
		[]want{{"2:7", E, gdl.CodeArity, []string{"relation p", "1 argument", "0 at 1:1"}}}},
	{"function arity differs", []string{gdl.CodeArity}, false,
		"(p (f a))\n(p (f a b))",
		[]want{{"2:4", E, gdl.CodeArity, []string{"function f", "2 arguments", "1 at 1:4"}}}},
	{"function arity same", []string{gdl.CodeArity}, false,
		"(p (f a))\n(p (f b))", nil},
	{"relation and function arities are separate", []string{gdl.CodeArity}, false,
		"(p (p a b))", nil},

	// Keywords: arity.
	{"next with two arguments", []string{gdl.CodeKeyword}, false,
		"(<= (next on off) (true on))",
		[]want{{"1:5", E, gdl.CodeKeyword, []string{"next takes 1 argument, not 2"}}}},
	{"terminal with an argument", []string{gdl.CodeKeyword}, false,
		"(<= (terminal a) (true on))",
		[]want{{"1:5", E, gdl.CodeKeyword, []string{"terminal takes 0 arguments, not 1"}}}},
	{"does with one argument in a body", []string{gdl.CodeKeyword}, false,
		"(<= (next off) (does go))",
		[]want{{"1:16", E, gdl.CodeKeyword, []string{"does takes 2 arguments, not 1"}}}},
	{"keywords with their arities", []string{gdl.CodeKeyword}, false,
		"(<= (next off) (does a go))\n(base on)\n(input a go)", nil},
	{"keyword as a function", []string{gdl.CodeKeyword}, false,
		"(init (true on))",
		[]want{{"1:7", E, gdl.CodeKeyword, []string{"keyword true", "function symbol", "inside init"}}}},
	{"random as a function", []string{gdl.CodeKeyword}, false,
		"(init (random on))", nil},

	// Keywords: place.
	{"true as a fact", []string{gdl.CodeKeyword}, false,
		"(true on)",
		[]want{{"1:1", E, gdl.CodeKeyword, []string{"true cannot be the head"}}}},
	{"does as a rule head", []string{gdl.CodeKeyword}, false,
		"(<= (does a go) (true on))",
		[]want{{"1:5", E, gdl.CodeKeyword, []string{"does cannot be the head"}}}},
	{"role by a rule", []string{gdl.CodeKeyword}, false,
		"(<= (role b) (true on))",
		[]want{{"1:5", E, gdl.CodeKeyword, []string{"role must be defined by facts"}}}},
	{"init in a body", []string{gdl.CodeKeyword}, false,
		"(<= p (init on))",
		[]want{{"1:7", E, gdl.CodeKeyword, []string{"in rule for p", "init may appear only in rule heads"}}}},
	{"next in a negated body literal", []string{gdl.CodeKeyword}, false,
		"(<= p (true on) (not (next on)))",
		[]want{{"1:22", E, gdl.CodeKeyword, []string{"in rule for p", "next may appear only in rule heads"}}}},
	{"keywords in their places", []string{gdl.CodeKeyword}, false,
		"(<= p (true on) (does a go) (role a) (legal a go) (goal a 100) terminal)", nil},

	// Dependencies on true and does.
	{"init through a relation on true", []string{gdl.CodeDependency}, false,
		"(<= (init off) s)\n(<= s t)\n(<= t (true on))",
		[]want{{"1:16", E, gdl.CodeDependency, []string{"init must not depend on true", "uses s", "s -> t -> true"}}}},
	{"base on does", []string{gdl.CodeDependency}, false,
		"(<= (base off) (does a go))",
		[]want{{"1:16", E, gdl.CodeDependency, []string{"base must not depend on does", "(does a go)"}}}},
	{"input on legal", []string{gdl.CodeDependency}, false,
		"(<= (input a ?m) (legal a ?m))",
		[]want{{"1:18", E, gdl.CodeDependency, []string{"input must not depend on legal", "(legal a ?m)"}}}},
	{"init through terminal", []string{gdl.CodeDependency}, false,
		"(<= (init off) over)\n(<= over terminal)",
		[]want{{"1:16", E, gdl.CodeDependency, []string{"init must not depend on true", "uses over", "over -> terminal -> true"}}}},
	{"one problem per relation of a rule", []string{gdl.CodeDependency}, false,
		"(<= (base (f ?x)) (true ?x) (true (g ?x)) (does a ?x))",
		[]want{
			{"1:19", E, gdl.CodeDependency, []string{"base must not depend on true"}},
			{"1:43", E, gdl.CodeDependency, []string{"base must not depend on does"}},
		}},
	{"legal on does", []string{gdl.CodeDependency}, false,
		"(<= (legal a stop) (not (does a go)))",
		[]want{{"1:25", E, gdl.CodeDependency, []string{"legal must not depend on does"}}}},
	{"goal and terminal on does through a relation", []string{gdl.CodeDependency}, false,
		"(<= (goal a 0) moved)\n(<= terminal moved)\n(<= moved (does a go))",
		[]want{
			{"1:16", E, gdl.CodeDependency, []string{"goal must not depend on does", "moved -> does"}},
			{"2:14", E, gdl.CodeDependency, []string{"terminal must not depend on does", "moved -> does"}},
		}},
	{"allowed dependencies", []string{gdl.CodeDependency}, false,
		"(<= (init off) s)\n(s)\n(<= (legal a stop) (true on) s)\n(<= (next off) (does a go) (legal a go))\n(<= (input a ?m) (move ?m))\n(move go)", nil},

	// Negation of non-sentences.
	{"not of distinct", []string{gdl.CodeSyntax}, false,
		"(<= (p ?x) (q ?x) (not (distinct ?x a)))\n(q a)",
		[]want{{"1:19", E, gdl.CodeSyntax, []string{"rule for p", "not applies only to sentences", "distinct"}}}},
	{"not of or", []string{gdl.CodeSyntax}, false,
		"(<= p (not (or q r)))",
		[]want{{"1:7", E, gdl.CodeSyntax, []string{"rule for p", "not to or"}}}},
	{"not of a sentence", []string{gdl.CodeSyntax}, false,
		"(<= p (not q))", nil},

	// Safety.
	{"head variable unbound", []string{gdl.CodeUnsafe}, false,
		"(<= (p ?x) (true on))",
		[]want{{"1:8", E, gdl.CodeUnsafe, []string{"rule for p", "?x", "the head"}}}},
	{"negated variable unbound", []string{gdl.CodeUnsafe}, false,
		"(<= p (true on) (not (q ?y)))",
		[]want{{"1:25", E, gdl.CodeUnsafe, []string{"rule for p", "?y", "(not (q ?y))"}}}},
	{"distinct variable unbound", []string{gdl.CodeUnsafe}, false,
		"(<= p (true on) (distinct ?z a))",
		[]want{{"1:27", E, gdl.CodeUnsafe, []string{"rule for p", "?z", "(distinct ?z a)"}}}},
	{"variable in a fact", []string{gdl.CodeUnsafe}, false,
		"(p ?x)",
		[]want{{"1:4", E, gdl.CodeUnsafe, []string{"fact for p", "?x", "ground"}}}},
	{"variable reported once per rule", []string{gdl.CodeUnsafe}, false,
		"(<= (p ?x ?x) (not (q ?x)))",
		[]want{{"1:8", E, gdl.CodeUnsafe, []string{"?x"}}}},
	{"variables bound", []string{gdl.CodeUnsafe}, false,
		"(<= (p ?x (f ?y)) (q ?x ?y) (not (q ?y ?x)) (distinct ?x ?y))\n(q a b)", nil},
	{"or binds only what every disjunct binds", []string{gdl.CodeUnsafe}, false,
		"(<= (p ?x) (or (q ?x) (r a)))",
		[]want{{"1:8", E, gdl.CodeUnsafe, []string{"rule for p", "?x", "the head"}}}},
	{"or binds what every disjunct binds", []string{gdl.CodeUnsafe}, false,
		"(<= (p ?x) (or (q ?x) (or (r ?x ?y) (s ?x))))", nil},
	{"positive disjunct needs no other binding", []string{gdl.CodeUnsafe}, false,
		"(<= p (or (q ?x) (r a)))", nil},
	{"negative disjunct needs a binding", []string{gdl.CodeUnsafe}, false,
		"(<= p (q a) (or (not (r ?y)) (q ?y)))",
		[]want{{"1:25", E, gdl.CodeUnsafe, []string{"?y", "(not (r ?y))"}}}},
	{"negative disjunct bound outside the or", []string{gdl.CodeUnsafe}, false,
		"(<= p (q ?y) (or (not (r ?y)) (q a)))", nil},

	// Stratification.
	{"relation negating itself", []string{gdl.CodeNegation}, false,
		"(<= (p a) (not (p b)))",
		[]want{{"1:16", E, gdl.CodeNegation, []string{"rule for p", "(not (p b))", "its own negation"}}}},
	{"cycle through negation", []string{gdl.CodeNegation}, false,
		"(<= p (not q))\n(<= q r)\n(<= r p)",
		[]want{{"1:12", E, gdl.CodeNegation, []string{"rule for p", "(not q)", "q -> r -> p"}}}},
	{"negation inside an or on a cycle", []string{gdl.CodeNegation}, false,
		"(<= p (or (true on) (not q)))\n(<= q p)",
		[]want{{"1:26", E, gdl.CodeNegation, []string{"rule for p", "q -> p"}}}},
	{"negation below a positive cycle", []string{gdl.CodeNegation}, false,
		"(<= p q)\n(<= q p)\n(<= q (not r))\n(<= r (true on))", nil},

	// Recursion restriction.
	{"recursion growing a term", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p (f ?x)) (p ?x))",
		[]want{{"2:19", E, gdl.CodeRecursion, []string{"rule for p", "argument ?x of p", "?x appears in no positive literal outside the recursion"}}}},
	{"recursion through two relations", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p ?x) (q ?x))\n(<= (q (f ?x)) (p ?x))",
		[]want{{"3:19", E, gdl.CodeRecursion, []string{"rule for q", "argument ?x of p"}}}},
	{"recursion with a compound argument", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p ?x) (p (f ?x)))",
		[]want{{"2:15", E, gdl.CodeRecursion, []string{"rule for p", "argument (f ?x) of p"}}}},
	{"recursion bound by a non-recursive literal", []string{gdl.CodeRecursion}, false,
		"(parent a b)\n(<= (anc ?x ?y) (parent ?x ?y))\n(<= (anc ?x ?z) (parent ?x ?y) (anc ?y ?z))", nil},
	{"recursion with ground and head arguments", []string{gdl.CodeRecursion}, false,
		"(p a b)\n(<= (p ?x (g ?y)) (p (f c) (g ?y)) (q ?x))\n(q a)", nil},
	{"recursion with a compound of bound variables", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p ?x) (succ ?y ?x) (p (f ?y)))\n(succ a b)", nil},
	{"recursion in an or bound by another disjunct only", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p ?y) (q ?y) (or (p ?z) (r ?z)))\n(q a)\n(r a)",
		[]want{{"2:26", E, gdl.CodeRecursion, []string{"rule for p", "argument ?z of p"}}}},
	{"recursion in an or bound outside it", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (p ?y) (q ?y ?z) (or (p ?z) (r ?z)))\n(q a b)\n(r a)", nil},
	{"positive cycle is not recursion of a non-cyclic rule", []string{gdl.CodeRecursion}, false,
		"(p a)\n(<= (q (f ?x)) (p ?x))", nil},

	// The relations every game needs.
	{"only a role", []string{gdl.CodeMissing}, true,
		"(role a)",
		[]want{
			{"1:1", E, gdl.CodeMissing, []string{"no goal"}},
			{"1:1", E, gdl.CodeMissing, []string{"no legal"}},
			{"1:1", E, gdl.CodeMissing, []string{"no terminal"}},
		}},
	{"no role", []string{gdl.CodeMissing}, true,
		"(<= (legal a go) (true on))\n(<= terminal (true on))\n(<= (goal a 100) (true on))",
		[]want{{"1:1", E, gdl.CodeMissing, []string{"no role"}}}},
	{"terminal only used", []string{gdl.CodeMissing}, true,
		"(role a)\n(<= (legal a go) terminal)\n(goal a 0)",
		[]want{{"1:1", E, gdl.CodeMissing, []string{"no terminal"}}}},
	{"everything needed", []string{gdl.CodeMissing}, false, "", nil},

	// Goal values.
	{"goal value above 100", []string{gdl.CodeGoalValue}, false,
		"(<= (goal a 101) (true on))",
		[]want{{"1:13", E, gdl.CodeGoalValue, []string{"goal value 101"}}}},
	{"goal value not a number", []string{gdl.CodeGoalValue}, false,
		"(<= (goal a win) (true on))\n(<= (goal a (score 1)) (true on))\n(goal a -1)",
		[]want{
			{"1:13", E, gdl.CodeGoalValue, []string{"goal value win"}},
			{"2:13", E, gdl.CodeGoalValue, []string{"goal value (score 1)"}},
			{"3:9", E, gdl.CodeGoalValue, []string{"goal value -1"}},
		}},
	{"goal values in range", []string{gdl.CodeGoalValue}, false,
		"(goal a 0)\n(<= (goal a ?v) (score ?v))\n(score 50)", nil},

	// Warnings: conditions that can never hold.
	{"undefined relation", []string{gdl.CodeUndefined}, false,
		"(<= p (true on) (zz a))\n(<= q (not (zz b)))",
		[]want{{"1:17", W, gdl.CodeUndefined, []string{"rule for p", "relation zz is never defined", "(zz a) is always false"}}}},
	{"undefined relation under not", []string{gdl.CodeUndefined}, false,
		"(<= q (not (zz b)))",
		[]want{{"1:12", W, gdl.CodeUndefined, []string{"rule for q", "(zz b) is always true"}}}},
	{"fluent no init or next produces", []string{gdl.CodeUndefined}, false,
		"(<= p (true (cel 1)))",
		[]want{{"1:7", W, gdl.CodeUndefined, []string{"rule for p", "(true (cel 1)) can never hold", "cel/1"}}}},
	{"move no legal allows", []string{gdl.CodeUndefined}, false,
		"(<= (next off) (does a stop))",
		[]want{{"1:16", W, gdl.CodeUndefined, []string{"rule for next", "(does a stop) can never hold", "stop/0"}}}},
	{"fluents and moves that can hold", []string{gdl.CodeUndefined}, false,
		"(<= (next (cel ?x)) (does a (put ?x)))\n(<= (legal a (put 1)) (true on))\n(<= p (true (cel 1)) (zz))\n(zz)", nil},
	{"a variable fluent can be anything", []string{gdl.CodeUndefined}, false,
		"(<= (next ?x) (true ?x) (s ?x))\n(s (cel 1))\n(<= p (true (cel 1)))", nil},

	// Warnings: unused relations.
	{"relation defined but unused", []string{gdl.CodeUnused}, false,
		"(<= zz (true on))\n(<= (lt ?x ?z) (lt ?x ?y) (lt ?y ?z))\n(lt 1 2)",
		[]want{
			{"1:5", W, gdl.CodeUnused, []string{"relation zz"}},
			{"2:5", W, gdl.CodeUnused, []string{"relation lt"}},
		}},
	{"relation used", []string{gdl.CodeUnused}, false,
		"(<= zz (true on))\n(<= (goal a 0) (not zz))", nil},

	// Warnings: roles.
	{"duplicate role", []string{gdl.CodeRole}, false,
		"(role a)",
		[]want{{"3:1", W, gdl.CodeRole, []string{"role a is declared again", "first declared at 1:1"}}}},
	{"player that is not a role", []string{gdl.CodeRole}, false,
		"(<= (goal b 0) (true on))\n(<= (next off) (does b go))\n(<= (legal b go) (true on))",
		[]want{
			{"1:11", W, gdl.CodeRole, []string{"goal names player b"}},
			{"2:22", W, gdl.CodeRole, []string{"does names player b"}},
			{"3:12", W, gdl.CodeRole, []string{"legal names player b"}},
		}},
	{"players that are roles", []string{gdl.CodeRole}, false,
		"(role b)\n(<= (goal b 0) (true on))\n(<= (legal ?r go) (role ?r))", nil},
}

func TestValidate(t *testing.T) {
	for _, tc := range validateCases {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if !tc.bare {
				src += "\n" + baseGame
			}
			d, err := gdl.ParseFile("test.kif", []byte(src))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			compareProblems(t, gdl.Validate(d), tc.codes, tc.want)
		})
	}
}

// compareProblems compares the problems of ps whose code is among codes,
// found in test.kif, with want, in order.
func compareProblems(t *testing.T, ps []gdl.Problem, codes []string, want []want) {
	t.Helper()
	var got []gdl.Problem
	for _, p := range ps {
		if slices.Contains(codes, p.Code) {
			got = append(got, p)
		}
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			t.Errorf("missing problem %v", want[i])
			continue
		case i >= len(want):
			t.Errorf("unexpected problem %v [%s]", got[i], got[i].Code)
			continue
		}
		g, w := got[i], want[i]
		at := fmt.Sprintf("%d:%d", g.Pos.Line, g.Pos.Column)
		if at != w.at || g.Severity != w.sev || g.Code != w.code || g.Pos.Filename != "test.kif" {
			t.Errorf("got %v [%s]\nwant %v", g, g.Code, w)
			continue
		}
		for _, s := range w.has {
			if !strings.Contains(g.Msg, s) {
				t.Errorf("message %q does not contain %q", g.Msg, s)
			}
		}
	}
}

// TestValidateBaseGame checks that the game the cases extend is clean, so
// that each case's problems are its own.
func TestValidateBaseGame(t *testing.T) {
	d, err := gdl.ParseFile("base.kif", []byte(baseGame))
	if err != nil {
		t.Fatal(err)
	}
	if ps := gdl.Validate(d); len(ps) > 0 {
		t.Errorf("base game has problems: %v", ps)
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    gdl.Problem
		want string
	}{
		{gdl.Problem{Pos: gdl.Pos{Filename: "g.kif", Line: 3, Column: 7}, Severity: gdl.SeverityError, Msg: "bad"}, "g.kif:3:7: error: bad"},
		{gdl.Problem{Pos: gdl.Pos{Filename: "g.kif", Line: 1, Column: 1}, Severity: gdl.SeverityWarning, Msg: "odd"}, "g.kif:1:1: warning: odd"},
		{gdl.Problem{Pos: gdl.Pos{Line: 2, Column: 5}, Severity: gdl.SeverityWarning, Msg: "odd"}, "2:5: warning: odd"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestValidateSorted(t *testing.T) {
	src := "(<= (p ?x) (true on))\n(<= zz (q ?y ?y))\n(role a)\n(<= (q ?x) (r (f ?x)))"
	d, err := gdl.ParseFile("s.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ps := gdl.Validate(d)
	if len(ps) < 5 {
		t.Fatalf("got %d problems, want at least 5: %v", len(ps), ps)
	}
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1].Pos, ps[i].Pos
		if a.Line > b.Line || a.Line == b.Line && a.Column > b.Column {
			t.Errorf("problem %d (%v) comes after %d (%v)", i, ps[i], i-1, ps[i-1])
		}
	}
}

// TestValidateMalformed checks that Validate neither panics nor recurses
// without bound on descriptions no parser would produce.
func TestValidateMalformed(t *testing.T) {
	var deep gdl.Term = &gdl.Const{Name: "a"}
	for range 10000 {
		deep = &gdl.Func{Name: &gdl.Const{Name: "f"}, Args: []gdl.Term{deep}}
	}
	pos := gdl.Pos{Filename: "m.kif", Line: 1, Column: 1}
	d := &gdl.Description{Filename: "m.kif", Rules: []*gdl.Rule{
		nil,
		{},
		{Head: &gdl.Sentence{}},
		{Lparen: pos, Head: &gdl.Sentence{Lparen: pos, Name: &gdl.Const{Name: "p"}, Args: []gdl.Term{deep}}},
		{Lparen: pos, Head: &gdl.Sentence{Lparen: pos, Name: &gdl.Const{Name: "q"}}, Body: []gdl.Literal{nil, &gdl.Not{}, (*gdl.Or)(nil)}},
		{Lparen: pos, Head: &gdl.Sentence{Lparen: pos, Name: &gdl.Const{Name: "r"}}, Body: []gdl.Literal{&gdl.Or{}}},
	}}
	var nesting, incomplete bool
	for _, p := range gdl.Validate(d) {
		if p.Code == gdl.CodeNesting && strings.Contains(p.Msg, "rule for p") {
			nesting = true
		}
		if p.Code == gdl.CodeNesting && strings.Contains(p.Msg, "rule for q") {
			incomplete = true
		}
	}
	if !nesting || !incomplete {
		t.Errorf("deep rule reported: %v, incomplete rule reported: %v; want both", nesting, incomplete)
	}
	if ps := gdl.Validate(nil); ps != nil {
		t.Errorf("Validate(nil) = %v, want nil", ps)
	}
}
