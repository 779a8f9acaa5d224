package gamemaster

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/reasoner"
)

// TestGDLIIGames plays matches of random players in every public GDL-II
// game but oneCardGame: each ends with no move replaced and no error, and
// replays. In oneCardGame no role perceives who leads, so at its second
// step a player guesses whether to play or wait, and about half the
// guesses are replaced (docs/gdl2.md).
func TestGDLIIGames(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	// Up to 20 matches a game, as many as perGame leaves time for, and
	// at least 2.
	matches, perGame := 20, 40*time.Second
	if testing.Short() {
		matches = 2
	}
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		if key == "oneCardGame" {
			continue
		}
		t.Run(key, func(t *testing.T) {
			g := gameII(t, key)
			roles := reasonerFor(t, string(g.Rules)).Roles()
			start := time.Now()
			for k := range matches {
				if k >= 2 && time.Since(start) > perGame {
					// small_dominion, which the network does not ground,
					// plays on Prolog at about half a minute a match.
					t.Logf("%d matches in %v", k, time.Since(start).Round(time.Second))
					break
				}
				var players []player.Player
				for i := range roles {
					if i != reasoner.NatureIndex(roles) {
						players = append(players, baselinePlayer(baseline.Random, uint64(100*k+i+1)))
					}
				}
				// The clocks are scaled for a slow run: under the race
				// detector on a loaded machine a step of small_dominion
				// on Prolog took a random player more than 30 s.
				clock := gamestest.Scale(t, 30*time.Second)
				m := &Match{ID: fmt.Sprintf("%s.%d", GameIDPart(key), k), Game: g, Players: players,
					StartClock: clock, PlayClock: clock, Seed: uint64(k + 1)}
				ref := fastReferee()
				ref.Logf = t.Logf
				rec, err := ref.Run(context.Background(), m)
				if err != nil {
					t.Fatalf("match %d: %v", k, err)
				}
				checkClean(t, rec)
				if err := Replay(context.Background(), rec, reasonerFor(t, string(g.Rules)), nil); err != nil {
					t.Errorf("match %d: replay: %v", k, err)
				}
			}
		})
	}
}
