package gamegen

import (
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// TestGenerateValid generates many games of each family: each must parse
// and pass gdl.Validate (Generate and GenerateII check both), and the same
// seed must give the same text.
func TestGenerateValid(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, family := range []struct {
		name     string
		generate func(uint64) (*Game, error)
	}{{"GDL", Generate}, {"GDL-II", GenerateII}} {
		t.Run(family.name, func(t *testing.T) {
			for seed := uint64(0); seed < uint64(n); seed++ {
				g, err := family.generate(seed)
				if err != nil {
					t.Fatal(err)
				}
				again, err := family.generate(seed)
				if err != nil {
					t.Fatal(err)
				}
				if g.Text != again.Text {
					t.Fatalf("seed %d: two different games:\n%s\n----\n%s", seed, g.Text, again.Text)
				}
			}
		})
	}
}

// TestGenerateII checks that the GDL-II games are GDL-II, read as written
// (gdl.Repair changes nothing), and that among them some have nature's
// role and some not, and sees rules of every kind GenerateII makes: with
// next in the body, with a keyword in the percept, for a variable role.
func TestGenerateII(t *testing.T) {
	const n = 200
	var counts struct{ nature, nextBody, keyword, anyRole int }
	for seed := uint64(0); seed < n; seed++ {
		g, err := GenerateII(seed)
		if err != nil {
			t.Fatal(err)
		}
		d := g.Description
		if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
			t.Fatalf("seed %d: not GDL-II:\n%s", seed, g.Text)
		}
		if r, _ := gdl.Repair(d); r != d {
			t.Fatalf("seed %d: the dialect reads it otherwise than written:\n%s", seed, g.Text)
		}
		sees := 0
		for _, r := range d.Rules {
			if r.Head.Name.Name == gdl.KeyRole && r.Head.Args[0].(*gdl.Const).Name == gdl.KeyRandom {
				counts.nature++
			}
			if r.Head.Name.Name != gdl.KeySees {
				continue
			}
			sees++
			if _, ok := r.Head.Args[0].(*gdl.Var); ok {
				counts.anyRole++
			}
			if f, ok := r.Head.Args[1].(*gdl.Func); ok && gdl.IsKeyword(f.Name.Name) {
				counts.keyword++
			}
			for _, l := range r.Body {
				if s, ok := l.(*gdl.Sentence); ok && s.Name.Name == gdl.KeyNext {
					counts.nextBody++
				}
			}
		}
		if sees == 0 {
			t.Fatalf("seed %d: no sees rule:\n%s", seed, g.Text)
		}
	}
	t.Logf("%d games: %+v", n, counts)
	if counts.nature < n/4 || counts.nature > 3*n/4 {
		t.Errorf("%d of %d games have nature's role, want about 60%%", counts.nature, n)
	}
	if counts.nextBody < n/4 || counts.keyword < n/4 || counts.anyRole < n/10 {
		t.Errorf("sees rules of each kind too rare: %+v", counts)
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
