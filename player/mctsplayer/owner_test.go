package mctsplayer

import (
	"context"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
)

// matchFuncs is what the stacks of an mcts player's match goroutines show:
// the owner of the match, the goroutine that ponders, and the search's.
var matchFuncs = []string{"ggp/player/mctsplayer.(*mctsPlayer).", "ggp/player/mcts.(*Search)."}

// TestEndedMatchLeavesNoGoroutines checks that once Stop or Abort has
// returned, no goroutine of the match is left: its owner, the goroutine
// it ponders in and the search's workers, held in reasoner calls that
// ignore their context for longer than the check waits, have all ended,
// whether the match ends while the player ponders, while it decides a
// move, or during the start clock.
func TestEndedMatchLeavesNoGoroutines(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	const delay = 500 * time.Millisecond // of each Next of the search
	tests := []struct {
		name string
		// when the match ends: during Start, during Play, or after
		// both have answered
		during string
		abort  bool // Abort rather than Stop
	}{
		{"Stop while pondering", "", false},
		{"Abort while deciding", "play", true},
		{"Abort during the start clock", "start", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slow, inNext := playertest.SlowNext(testFactory, delay)
			p := newPlayer(t, "mcts:workers=2", Options{NewReasoner: slow})
			roles := playertest.Reference(t, d).Roles()
			bg := context.Background()
			m := &player.Match{ID: "m", Role: roles[0], Rules: d, StartClock: 2 * time.Second, PlayClock: time.Second}
			start := func() error {
				ctx, cancel := context.WithTimeout(bg, m.StartClock)
				defer cancel()
				return p.Start(ctx, m)
			}
			play := func() error {
				ctx, cancel := context.WithTimeout(bg, m.PlayClock)
				defer cancel()
				_, err := p.Play(ctx, "m", nil)
				return err
			}
			// The call under way when the match ends runs here; it is
			// the caller's, and waited for before the check.
			call := make(chan error, 1)
			switch tt.during {
			case "start":
				go func() { call <- start() }()
			case "play":
				if err := start(); err != nil {
					t.Fatal(err)
				}
				go func() { call <- play() }()
			default:
				if err := start(); err != nil {
					t.Fatal(err)
				}
				call <- play()
			}
			<-inNext // the search, deciding or pondering, is in a slow call
			end := func() error { return p.Stop(bg, "m", nil) }
			if tt.abort {
				end = func() error { return p.Abort(bg, "m") }
			}
			if err := end(); err != nil {
				t.Errorf("ending the match: %v", err)
			}
			if err := <-call; err != nil {
				t.Errorf("the call under way at the end: %v", err)
			}
			gamestest.NoGoroutines(t, 200*time.Millisecond, matchFuncs...)
		})
	}
}
