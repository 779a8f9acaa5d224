package puzzle

import (
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// walkRules say which state of a walk of 24 steps scores the most: the
// token at 24, the step counter at 24.
const walkRules = `
(role walker)
(<= (goal walker 100) there (true (step 24)))
(<= there (true (at 24)))
(<= (goal walker 50) (true (at 24)))
`

func TestGoalFacts(t *testing.T) {
	tests := []struct {
		name, rules string
		want        []reasoner.Fact
	}{
		{"inlined", walkRules, []reasoner.Fact{"(at 24)", "(step 24)"}},
		{"highest goal only", `
			(<= (goal p 10) (true (a 1)))
			(<= (goal p 90) (true (b 2)) (true c))`, []reasoner.Fact{"(b 2)", "c"}},
		{"variables", `(<= (goal p 100) (true (at ?x)))`, nil},
		{"negation", `(<= (goal p 100) (true (at 1)) (not (true (at 2))))`, nil},
		{"two definitions", `
			(<= (goal p 100) done)
			(<= done (true (at 1)))
			(<= done (true (at 2)))`, nil},
		{"recursion", `
			(<= (goal p 100) (tower s2))
			(<= (tower s2) (tower s1) (true (on s2)))
			(<= (tower s1) (tower s2))`, nil},
		{"no goal", `(role p)`, nil},
	}
	for _, tt := range tests {
		d, err := gdl.ParseFile(tt.name, []byte(tt.rules))
		if err != nil {
			t.Fatal(err)
		}
		if got := GoalFacts(d); !slices.Equal(got, tt.want) {
			t.Errorf("%s: GoalFacts = %q, want %q", tt.name, got, tt.want)
		}
	}
	if GoalFacts(nil) != nil {
		t.Error("GoalFacts(nil) is not nil")
	}
}
