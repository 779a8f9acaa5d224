package local

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// loadGameII reads a public GDL-II game, or skips the test without them.
func loadGameII(t *testing.T, key string) *gdl.Description {
	t.Helper()
	file, src := gamestest.ReadGameII(t, key)
	d, err := gdl.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPlayTurnGDLII plays whole GDL-II matches between players of each
// kind, the test acting as game master: nature moves at random, each
// player is told only its own move and percepts, and every move a player
// chooses from that view must be legal in the true state.
func TestPlayTurnGDLII(t *testing.T) {
	for _, key := range []string{"montyhall", "kriegTTT_4x4", "pennies"} {
		for _, kind := range []string{"random", "legal", "mcts"} {
			t.Run(key+"/"+kind, func(t *testing.T) {
				ctx := context.Background()
				d := loadGameII(t, key)
				r, err := prolog.New(d)
				if err != nil {
					t.Fatal(err)
				}
				roles := r.Roles()
				nature := reasoner.NatureIndex(roles)
				players := make([]player.GDLIIPlayer, len(roles))
				for i, role := range roles {
					if i == nature {
						continue
					}
					p := newPlayer(t, kind, Options{Seed: uint64(i + 1)}).(player.GDLIIPlayer)
					// The clocks bound mcts's search.
					if err := p.Start(ctx, &player.Match{ID: "m", Role: role, Rules: d, StartClock: 300 * time.Millisecond, PlayClock: 200 * time.Millisecond, GDLII: true}); err != nil {
						t.Fatal(err)
					}
					players[i] = p
				}
				rng := rand.New(rand.NewPCG(1, 2))
				turns := make([]player.Turn, len(roles))
				s, _ := r.Initial(ctx)
				for step := 0; ; step++ {
					if done, err := r.Terminal(ctx, s); err != nil || done {
						break
					}
					if step > 100 {
						t.Fatal("no end after 100 steps")
					}
					joint := make([]reasoner.Move, len(roles))
					for i, p := range players {
						legal, err := r.Legal(ctx, s, i)
						if err != nil {
							t.Fatal(err)
						}
						if p == nil {
							joint[i] = legal[rng.IntN(len(legal))]
							continue
						}
						mv, err := p.PlayTurn(ctx, "m", turns[i])
						if err != nil {
							t.Fatalf("step %d: %s: %v", step, roles[i], err)
						}
						if !slices.Contains(legal, mv) {
							t.Fatalf("step %d: %s played %s, not legal: %v", step, roles[i], mv, legal)
						}
						joint[i] = mv
					}
					for i := range roles {
						ps, err := r.Sees(ctx, s, joint, i)
						if err != nil {
							t.Fatal(err)
						}
						turns[i] = player.Turn{Number: step + 1, Move: joint[i], Percepts: ps}
					}
					if s, err = r.Next(ctx, s, joint); err != nil {
						t.Fatal(err)
					}
				}
				for i, p := range players {
					if p != nil {
						if err := p.StopTurn(ctx, "m", turns[i]); err != nil {
							t.Error(err)
						}
					}
				}
			})
		}
	}
}
