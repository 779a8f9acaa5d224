package prolog

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
)

// TestPlanOrder checks the body order the planner chooses on rules where
// a poor order costs exponential time: each case names a literal that must
// come before another once the head's bound arguments are known.
func TestPlanOrder(t *testing.T) {
	tests := []struct {
		name   string
		rules  string
		head   string // the rule's head relation; its first rule is planned
		mode   uint64 // bit i set: argument i is bound by the caller
		before string
		after  string
	}{
		{
			// Pentago's rows: the coordinates map to a board position
			// through a table whose columns together are a key, so once
			// one cell is known the next is a single lookup, not a scan
			// of the state.
			name: "correlated table columns",
			rules: `
(role red)
(index 1) (index 2) (index 3)
(++ 1 2) (++ 2 3) (++ 3 4) (++ 4 5) (++ 5 6)
(<= (global 1 ?x ?y ?x ?y) (index ?x) (index ?y))
(<= (global 2 ?x ?y ?xg ?y) (index ?x) (index ?y) (++ ?x ?a) (++ ?a ?b) (++ ?b ?xg))
(<= (pair ?p)
    (true (holds ?q1 ?x1 ?y1 ?p)) (global ?q1 ?x1 ?y1 ?x1g ?yg)
    (++ ?x1g ?x2g)
    (true (holds ?q2 ?x2 ?y2 ?p)) (global ?q2 ?x2 ?y2 ?x2g ?yg))
(<= terminal (pair red))`,
			head:   "pair",
			mode:   1,
			before: "(global ?q2 ?x2 ?y2 ?x2g ?yg)",
			after:  "(true (holds ?q2 ?x2 ?y2 ?p))",
		},
		{
			// laikLee_hex's visited list: the recursive call works on the
			// tail of a bound list, so it may run before a test that would
			// otherwise enumerate every list.
			name: "structural recursion",
			rules: `
(role red)
(le a) (le b) (le c)
(isList nil)
(<= (isList (list ?e ?t)) (le ?e) (isList ?t))
(<= (add ?e nil (list ?e nil)) (le ?e))
(<= (add ?e (list ?h ?t) (list ?h ?n))
    (le ?h) (le ?e) (distinct ?e ?h) (isList ?n) (add ?e ?t ?n))
(<= terminal (add a (list b nil) ?l))`,
			head:   "add",
			mode:   0b011,
			before: "(add ?e ?t ?n)",
			after:  "(isList ?n)",
		},
		{
			// Left recursion with nothing new bound would loop: the
			// recursive call waits for the step that binds ?z.
			name: "left recursion waits",
			rules: `
(role red)
(init (edge a b))
(<= (reach ?x ?y) (true (edge ?x ?y)))
(<= (reach ?x ?y) (reach ?x ?z) (true (edge ?z ?y)))
(<= terminal (reach a b))`,
			head:   "reach",
			mode:   0b10,
			before: "(true (edge ?z ?y))",
			after:  "(reach ?x ?z)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order := planOf(t, tt.rules, tt.head, tt.mode)
			i, j := slices.Index(order, tt.before), slices.Index(order, tt.after)
			if i < 0 || j < 0 {
				t.Fatalf("plan %q lacks %q or %q", order, tt.before, tt.after)
			}
			if i > j {
				t.Errorf("plan %q: %s after %s", order, tt.before, tt.after)
			}
		})
	}
}

// planOf loads rules as the backend does and returns the planned body of
// the last rule for head, in the given mode, as KIF literals.
func planOf(t *testing.T, rules, head string, mode uint64) []string {
	t.Helper()
	d, err := gdl.ParseFile("test.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := analyse(d)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{opts: Options{TableTimeout: 100 * time.Millisecond}.withDefaults(), tables: map[signature]*table{}, takeDepth: map[signature]bool{}}
	if err := g.evaluateStatic(context.Background(), prog); err != nil {
		t.Fatal(err)
	}
	c := g.ruleCompiler(prog)
	var rule *gdl.Rule
	for s, rs := range prog.rules {
		if s.name == head {
			rule = rs[len(rs)-1]
		}
	}
	if rule == nil {
		t.Fatalf("no rule for %s", head)
	}
	bound := modeBound(rule.Head.Args, mode)
	var out []string
	for _, l := range c.plan(rule, signature{head, len(rule.Head.Args)}, bound) {
		out = append(out, gdl.Format(l))
	}
	return out
}
