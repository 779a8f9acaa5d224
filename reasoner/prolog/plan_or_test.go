package prolog

import (
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// TestPlanDisjunctionWaits checks that a disjunction testing a variable
// that only another disjunction binds comes after that one, with and
// without a cost model: run first, it would test an unbound variable.
func TestPlanDisjunctionWaits(t *testing.T) {
	tests := []struct{ rule, binder, tester string }{
		{
			rule:   `(<= (v ?u ?v) (d ?v) (or (s ?u ?v) (e ?v ?u)) (or (distinct ?u 2) (r 2)))`,
			binder: "(or (s ?u ?v) (e ?v ?u))",
			tester: "(or (distinct ?u 2) (r 2))",
		},
		{
			rule:   `(<= v (s ?a ?b) (s 2 ?c) (or (true (f ?u)) (d ?b ?u)) (or (not (true (g 2))) (not (s1 ?c ?u))))`,
			binder: "(or (true (f ?u)) (d ?b ?u))",
			tester: "(or (not (true (g 2))) (not (s1 ?c ?u)))",
		},
	}
	cost := func(*gdl.Sentence, map[string]bool) float64 { return 1 }
	for _, tc := range tests {
		d, err := gdl.ParseFile("t.kif", []byte(tc.rule))
		if err != nil {
			t.Fatal(err)
		}
		r := d.Rules[0]
		for _, c := range []func(*gdl.Sentence, map[string]bool) float64{nil, cost} {
			var order []string
			for _, l := range planBody(r.Body, nil, nil, c, nil) {
				order = append(order, gdl.Format(l))
			}
			b, tst := slices.Index(order, tc.binder), slices.Index(order, tc.tester)
			if b < 0 || tst < 0 || tst < b {
				t.Errorf("%s (cost model %v): order %q, want %s before %s", tc.rule, c != nil, order, tc.binder, tc.tester)
			}
		}
	}
}
