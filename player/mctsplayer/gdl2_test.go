package mctsplayer

import (
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// loadGameII reads a public GDL-II game, or skips the test without them.
func loadGameII(t testing.TB, key string) *gdl.Description {
	t.Helper()
	file, src := gamestest.ReadGameII(t, key)
	d, err := gdl.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPlayTurnGDLII plays whole GDL-II matches between players of each
// kind, the test acting as game master (playGDLII): nature moves at
// random, each player is told only its own move and percepts, and every
// move a player chooses from that view must be legal in the true state
// and come in time.
func TestPlayTurnGDLII(t *testing.T) {
	for _, key := range []string{"montyhall", "kriegTTT_4x4", "pennies"} {
		for _, kind := range []string{"random", "legal", "mcts"} {
			t.Run(key+"/"+kind, func(t *testing.T) {
				d := loadGameII(t, key)
				seats := make([]gdl2Seat, len(d.Roles()))
				for i, role := range d.Roles() {
					if role != reasoner.Nature {
						seats[i] = newPlayer(t, kind, Options{Seed: uint64(i + 1)}).(gdl2Seat)
					}
				}
				// The clocks bound mcts's search.
				res := playGDLII(t, d, seats, 300*time.Millisecond, 200*time.Millisecond, 1)
				for _, f := range res.faults {
					t.Error(f)
				}
			})
		}
	}
}
