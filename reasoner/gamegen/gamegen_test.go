package gamegen

import (
	"testing"
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
