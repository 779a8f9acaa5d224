package mcts

import (
	"context"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
)

// searchFuncs is what the stacks of a search's goroutines show: its
// methods, and "created by" lines naming them.
const searchFuncs = "ggp/player/mcts.(*Search)."

// TestClosedSearchLeavesNoGoroutines checks that once Run and Close have
// returned, no goroutine of the search is left: not its workers, held in
// reasoner calls that ignore their context past the deadline, nor its
// learning of a heuristic, nor the probe New starts, and that Close ends
// a Run under way in another goroutine and waits for it. The calls last
// longer than the check waits, so a goroutine that nobody waited for is
// still there when it looks.
func TestClosedSearchLeavesNoGoroutines(t *testing.T) {
	const delay = time.Second
	tests := []struct {
		name        string
		game        func() *toyGame
		cfg         Config
		nextDelay   time.Duration // every Next sleeps, ignoring ctx
		closeDuring bool          // Close while Run is under way
	}{
		// A game the search cannot prove, so that only Close ends the Run.
		{"Close during Run", endless, Config{Workers: 2, MaxPlayoutDepth: 20}, 0, true},
		{"workers in slow calls", func() *toyGame { return nim(30) }, Config{Workers: 2, Heuristic: Off}, delay, false},
		{"learning in a slow call", func() *toyGame { return nim(30) }, Config{Workers: 2, Heuristic: On}, delay, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game()
			g.nextDelay = tt.nextDelay
			g.nexting = make(chan struct{})
			s := newSearch(t, g, tt.cfg)
			if !tt.closeDuring {
				run(t, s, 50*time.Millisecond)
				s.Close()
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				ran := make(chan error, 1)
				go func() { ran <- s.Run(ctx) }()
				<-g.nexting // Run is under way
				s.Close()
				select {
				case <-ran:
				case <-time.After(time.Second):
					t.Fatal("Run went on for a second after Close")
				}
			}
			gamestest.NoGoroutines(t, 200*time.Millisecond, searchFuncs)
		})
	}
}

// TestCloseBound checks that Close waits for a Run held in a reasoner call
// that ignores its context only until its bound, then returns an error
// saying what it left, and that the Run ends, without a goroutine left,
// once the call returns. The call returns only when the test releases
// it, after Close, so that no load on the machine can end it within the
// bound.
func TestCloseBound(t *testing.T) {
	g := nim(30)
	g.release = make(chan struct{})
	g.nexting = make(chan struct{})
	s := newSearch(t, g, Config{Workers: 2, Heuristic: Off, GRAVE: Off})
	s.closeWait = 50 * time.Millisecond
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background()) }()
	<-g.nexting // a worker is in Next until the release
	err := s.Close()
	close(g.release)
	if err == nil {
		t.Fatal("Close returned no error with a worker still in Next")
	}
	t.Logf("Close: %v", err)
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not end once the calls returned")
	}
	gamestest.NoGoroutines(t, 200*time.Millisecond, searchFuncs)
	if err := s.Run(context.Background()); err == nil {
		t.Error("Run after Close: no error")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
}
