package propnet_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

// rows is a game of marks on four cells in a row: x wins with two of its
// marks side by side, o with a mark on the last cell while the first is
// not x's.
const rows = `
(role x) (role o)
(index 1) (index 2) (index 3) (index 4)
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (init (cell ?i b)) (index ?i))
(init (control x))
(<= (legal ?r (mark ?i)) (true (control ?r)) (true (cell ?i b)))
(<= (legal x noop) (true (control o)))
(<= (legal o noop) (true (control x)))
(<= (next (cell ?i x)) (does x (mark ?i)))
(<= (next (cell ?i o)) (does o (mark ?i)))
(<= (next (cell ?i ?m)) (true (cell ?i ?m)) (not (marked ?i)))
(<= (marked ?i) (does ?r (mark ?i)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= (pair ?m) (succ ?i ?j) (true (cell ?i ?m)) (true (cell ?j ?m)))
(<= owins (true (cell 4 o)) (not (true (cell 1 x))))
(<= terminal (pair x))
(<= terminal owins)
(<= terminal (not open))
(<= open (true (cell ?i b)))
(<= (goal x 100) (pair x))
(<= (goal x 0) (not (pair x)))
(<= (goal o 100) owins (not (pair x)))
(<= (goal o 0) (pair x))
(<= (goal o 0) (not owins))
`

func conditionText(cs []reasoner.Condition) []string {
	var out []string
	for _, c := range cs {
		var parts []string
		for _, f := range c.Pos {
			parts = append(parts, string(f))
		}
		for _, f := range c.Neg {
			parts = append(parts, "not "+string(f))
		}
		slices.Sort(parts)
		out = append(out, strings.Join(parts, " & "))
	}
	slices.Sort(out)
	return out
}

// holds reports whether one of cs holds in s.
func holds(cs []reasoner.Condition, s *reasoner.State) bool {
	facts := s.Facts()
	for _, c := range cs {
		ok := true
		for _, f := range c.Pos {
			_, in := slices.BinarySearch(facts, f)
			ok = ok && in
		}
		for _, f := range c.Neg {
			_, in := slices.BinarySearch(facts, f)
			ok = ok && !in
		}
		if ok {
			return true
		}
	}
	return false
}

// TestGoalConditions checks the conditions read from the goal network: x
// wins with any two marks side by side, o with a mark on the last cell and
// the first cell not x's (a negated fact), and over the states of random
// games each role's best goal holds exactly where one of its conditions
// does. A goal over a recursive relation has no such conditions.
func TestGoalConditions(t *testing.T) {
	pn, _ := newBoth(t, rows)
	want := [][]string{
		{"(cell 1 x) & (cell 2 x)", "(cell 2 x) & (cell 3 x)", "(cell 3 x) & (cell 4 x)"},
		nil, // o's: checked below, with x's pairs excluded
	}
	conds := make([][]reasoner.Condition, 2)
	for role := range 2 {
		cs, value, exact := pn.GoalConditions(role)
		if !exact || value != 100 {
			t.Fatalf("role %d: conditions %v, value %d, exact %v", role, cs, value, exact)
		}
		conds[role] = cs
		t.Logf("role %d: %q", role, conditionText(cs))
	}
	if got := conditionText(conds[0]); !slices.Equal(got, want[0]) {
		t.Errorf("x's conditions %q, want %q", got, want[0])
	}
	for _, c := range conditionText(conds[1]) {
		if !strings.Contains(c, "(cell 4 o)") || !strings.Contains(c, "not (cell 1 x)") {
			t.Errorf("o's condition %q lacks (cell 4 o) or not (cell 1 x)", c)
		}
	}
	ctx := context.Background()
	for g := range 300 {
		rng := rand.New(rand.NewPCG(uint64(g), 9))
		s, _ := pn.Initial(ctx)
		for steps := 0; ; steps++ {
			goals, err := pn.Goals(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for role := range 2 {
				if got := holds(conds[role], s); got != (goals[role] == 100) {
					t.Fatalf("game %d step %d: %v: role %d's conditions hold %v, goals %v", g, steps, s.Facts(), role, got, goals)
				}
			}
			if term, _ := pn.Terminal(ctx, s); term {
				break
			}
			s = randomStep(t, pn, s, rng)
		}
	}

	recursive, _ := newBoth(t, paths)
	for role := range 2 {
		if cs, _, exact := recursive.GoalConditions(role); cs != nil || exact {
			t.Errorf("role %d's goal over a recursive relation: conditions %v, exact %v", role, conditionText(cs), exact)
		}
	}
}

func randomStep(t *testing.T, r reasoner.Reasoner, s *reasoner.State, rng *rand.Rand) *reasoner.State {
	t.Helper()
	ctx := context.Background()
	joint := make([]reasoner.Move, len(r.Roles()))
	for i := range joint {
		legal, err := r.Legal(ctx, s, i)
		if err != nil || len(legal) == 0 {
			t.Fatal(fmt.Errorf("legal: %v %v", legal, err))
		}
		joint[i] = legal[rng.IntN(len(legal))]
	}
	next, err := r.Next(ctx, s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return next
}
