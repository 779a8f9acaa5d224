package propnet

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// TestPhaseNetworksAgreeWithTheGeneralOne plays random games of corpus
// games given phase networks through the reasoner, and through a copy
// whose phase networks are taken away, and compares every legal set,
// terminal flag and next state, including the next state of a move that
// is not legal (which the general network must answer).
func TestPhaseNetworksAgreeWithTheGeneralOne(t *testing.T) {
	dir := gamestest.Games()
	ctx := context.Background()
	for _, key := range []string{"breakthrough", "knightThrough", "checkers", "dotsAndBoxes"} {
		t.Run(key, func(t *testing.T) {
			g, err := games.LoadFolder(filepath.Join(dir, key))
			if errors.Is(err, fs.ErrNotExist) {
				t.Skip("no shared game corpus")
			}
			if err != nil {
				t.Fatal(err)
			}
			d, err := gdl.ParseFile(g.Filename, g.Rules)
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(ctx, d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.net.phases) == 0 {
				t.Fatalf("%s has no phase networks (its cost per step should make them pay off)", key)
			}
			general := *r.net
			general.phases, general.phaseBits = nil, nil
			plain := general.instance()
			rng := rand.New(rand.NewPCG(7, 8))
			steps := 300
			if testing.Short() {
				steps = 60
			}
			s, _ := r.Initial(ctx)
			for step := range steps {
				term, err := r.Terminal(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				plainTerm, _ := plain.Terminal(ctx, s)
				if term != plainTerm {
					t.Fatalf("step %d: terminal %v, general network %v", step, term, plainTerm)
				}
				if term {
					s, _ = r.Initial(ctx)
					continue
				}
				joint := make([]reasoner.Move, len(r.net.roles))
				for role := range joint {
					legal, err := r.Legal(ctx, s, role)
					if err != nil {
						t.Fatal(err)
					}
					plainLegal, _ := plain.Legal(ctx, s, role)
					if !slices.Equal(legal, plainLegal) {
						t.Fatalf("step %d: legal moves of %s %v, general network %v", step, r.net.roles[role], legal, plainLegal)
					}
					joint[role] = legal[rng.IntN(len(legal))]
				}
				// A move that is not legal, now and then: the first
				// move of a role that is not in its legal set.
				if step%5 == 4 {
					illegal := slices.Clone(joint)
					for role := range illegal {
						legal, _ := r.Legal(ctx, s, role)
						for _, m := range r.Moves(role) {
							if !slices.Contains(legal, m) {
								illegal[role] = m
								break
							}
						}
					}
					got, err := r.Next(ctx, s, illegal)
					if err != nil {
						t.Fatal(err)
					}
					want, _ := plain.Next(ctx, s, illegal)
					if !slices.Equal(got.Facts(), want.Facts()) {
						t.Fatalf("step %d: next after %v, not legal, differs from the general network", step, illegal)
					}
				}
				next, err := r.Next(ctx, s, joint)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := plain.Next(ctx, s, joint)
				if !slices.Equal(next.Facts(), want.Facts()) {
					t.Fatalf("step %d: next after %v: %v, general network %v", step, joint, next.Facts(), want.Facts())
				}
				s = next
			}
		})
	}
}
