package mctsplayer

import (
	"context"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
)

// choiceRules are a game of one move, in which the first role chooses to
// win or to lose: the search proves it at once, however slow the machine
// (tic-tac-toe, proven within the start clock on an idle machine, was not
// under the race detector on a loaded one).
const choiceRules = `
(role left) (role right)
(init (control left))
(<= (legal left win) (true (control left)))
(<= (legal left lose) (true (control left)))
(<= (legal right noop) (true (control left)))
(<= (next (won left)) (does left win))
(<= (next (won right)) (does left lose))
(<= terminal (true (won ?r)))
(<= (goal ?r 100) (true (won ?r)))
(<= (goal ?r 0) (role ?r) (not (true (won ?r))))
`

// TestFullClock checks that mcts:fullclock=on answers START and PLAY at
// the end of their clocks in a game its search proves well before them,
// while the default answers as soon as the move is known.
func TestFullClock(t *testing.T) {
	d, err := gdl.ParseFile("choice.kif", []byte(choiceRules))
	if err != nil {
		t.Fatal(err)
	}
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
				// The start clock proves the game; the calls that follow
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
