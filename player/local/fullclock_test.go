package local

import (
	"context"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
)

// TestFullClock checks that mcts:fullclock=on answers START and PLAY at
// the end of their clocks in a game its search proves well before them
// (tic-tac-toe), while the default answers as soon as the move is known.
func TestFullClock(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	const clock = 1500 * time.Millisecond
	for _, tt := range []struct {
		spec string
		full bool
	}{
		{"mcts:workers=1:fullclock=on", true},
		{"mcts:workers=1", false},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			p := newPlayer(t, tt.spec, Options{})
			ref := playertest.Reference(t, d)
			bg := context.Background()
			// Each call is checked against the deadline the player itself
			// keeps: the clock less its margins.
			call := func(what string, f func(ctx context.Context) error) {
				t.Helper()
				ctx, cancel := context.WithTimeout(bg, clock)
				defer cancel()
				due := p.(*mctsPlayer).deadline(ctx, clock)
				if err := f(ctx); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if held := !time.Now().Before(due); held != tt.full {
					t.Errorf("%s: answered %v before its deadline, want the full clock taken: %v", what, time.Until(due).Round(time.Millisecond), tt.full)
				}
			}
			call("Start", func(ctx context.Context) error {
				// A long start clock proves the game; the calls that follow
				// then know their move at once.
				return p.Start(ctx, &player.Match{ID: "m", Role: ref.Roles()[0], Rules: d, StartClock: clock, PlayClock: clock})
			})
			call("Play", func(ctx context.Context) error {
				_, err := p.Play(ctx, "m", nil)
				return err
			})
			if err := p.Abort(bg, "m"); err != nil {
				t.Fatal(err)
			}
		})
	}
}
