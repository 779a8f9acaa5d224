package mctsplayer

import (
	"context"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner"
)

// noPonderWait is how long TestPonder waits for the search to enter Next
// after an answer before it holds that the player does not ponder: long
// past the moment pondering starts, however loaded the machine.
const noPonderWait = 2 * time.Second

// TestPonder checks that the mcts player searches on between its answer
// and the next call when pondering is on, and not when it is off; that
// the next call stops it and still answers in time; and that Stop ends it.
func TestPonder(t *testing.T) {
	d := loadGame(t, "connectFour")
	for _, tt := range []struct {
		spec   string
		ponder bool
	}{
		{"mcts:workers=1", true},
		{"mcts:workers=1:ponder=off", false},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			var logged strings.Builder
			reasoners, inNext := playertest.SlowNext(testFactory, 0)
			p := newPlayer(t, tt.spec, Options{Log: log.New(&logged, "", 0), NewReasoner: reasoners})
			bg := context.Background()
			ref := playertest.Reference(t, d)
			const clock = time.Second
			sctx, cancel := context.WithTimeout(bg, clock)
			defer cancel()
			if err := p.Start(sctx, &player.Match{ID: "m", Role: ref.Roles()[0], Rules: d, StartClock: clock, PlayClock: clock}); err != nil {
				t.Fatal(err)
			}
			s0, _ := ref.Initial(bg)
			var last []reasoner.Move
			for turn := range 2 {
				ctx, cancel := context.WithTimeout(bg, clock)
				m, err := p.Play(ctx, "m", last)
				cancel()
				if err != nil {
					t.Fatalf("turn %d: %v", turn, err)
				}
				// A search still pondering would hold the turn up until
				// the player answered without it, and say so.
				if strings.Contains(logged.String(), "busy") {
					t.Fatalf("turn %d: the search was not stopped for the call:\n%s", turn, logged.String())
				}
				// The search answers once its workers have stopped, so a
				// search after the answer is pondering. Pondering enters
				// Next at once and goes on until the next call; without
				// it none is entered, which a while without one shows.
				wait := noPonderWait
				if tt.ponder {
					wait = 10 * time.Second // for a loaded machine
				}
				// An answer the search did not give in time (a loaded
				// machine) leaves the search to stop after it: a Next
				// then is that search's, not pondering.
				cutOff := strings.Contains(logged.String(), "did not answer in time")
				select {
				case <-inNext:
					if !tt.ponder && !cutOff {
						t.Errorf("turn %d: a search after the answer, with pondering off:\n%s", turn, logged.String())
					}
				case <-time.After(wait):
					if tt.ponder {
						t.Errorf("turn %d: no search after the answer, with pondering on", turn)
					}
				}
				legal, _ := ref.Legal(bg, s0, 1)
				last = []reasoner.Move{m, legal[0]}
				if s0, err = ref.Next(bg, s0, last); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.Stop(bg, "m", last); err != nil {
				t.Fatal(err)
			}
		})
	}
}
