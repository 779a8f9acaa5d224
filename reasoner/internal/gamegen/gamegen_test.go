package gamegen

import (
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// TestGenerateValid generates many games: each must parse and pass
// gdl.Validate (Generate checks both), and the same seed must give the
// same text.
func TestGenerateValid(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		g, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		if g.Text != again.Text {
			t.Fatalf("seed %d: two different games:\n%s\n----\n%s", seed, g.Text, again.Text)
		}
	}
}

// TestShrink shrinks a generated game with respect to a property of its
// text: the result must be valid, keep the property, and have lost every
// rule and literal the property does not need.
func TestShrink(t *testing.T) {
	g, err := Generate(7)
	if err != nil {
		t.Fatal(err)
	}
	// Fails while some rule body holds a negated sentence: the smallest
	// such valid game is the four rules every game needs (role, legal,
	// goal, terminal) plus one rule whose body is that negation, or a
	// negation and the literal binding its variables.
	hasNot := func(d *gdl.Description) bool {
		for _, r := range d.Rules {
			for _, l := range r.Body {
				if _, ok := l.(*gdl.Not); ok {
					return true
				}
			}
		}
		return false
	}
	if !hasNot(g.Description) {
		t.Fatal("game 7 has no negation; pick another seed")
	}
	small := Shrink(g.Description, hasNot)
	if err := Valid(small); err != nil {
		t.Fatalf("shrunk game invalid: %v\n%s", err, gdl.Format(small))
	}
	if !hasNot(small) {
		t.Fatalf("shrunk game lost the property:\n%s", gdl.Format(small))
	}
	if len(small.Rules) > 5 {
		t.Errorf("shrunk to %d rules, want at most 5:\n%s", len(small.Rules), gdl.Format(small))
	}
	if len(g.Description.Rules) <= len(small.Rules) {
		t.Errorf("nothing removed")
	}
	t.Logf("%d rules shrunk to %d:\n%s", len(g.Description.Rules), len(small.Rules), gdl.Format(small))
}
