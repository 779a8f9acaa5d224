package tournament

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// tournamentFuncs is what the stacks of the goroutines of a tournament and
// of its matches show.
var tournamentFuncs = []string{"ggp/gamemaster/tournament.(*Tournament).", "ggp/gamemaster.(*seat).call", "ggp/gamemaster.(*Referee).rules"}

// stubbornStops makes players whose STOP ignores its context until freed,
// and counts the STOPs under way.
type stubbornStops struct {
	mu      sync.Mutex
	freed   chan struct{}
	stopped bool // freed is closed
	busy    int  // STOPs entered that have not returned
}

func (s *stubbornStops) free() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.stopped = true
		close(s.freed)
	}
}

func (s *stubbornStops) underWay() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

type stubbornStop struct {
	player.Player
	s *stubbornStops
}

func (p stubbornStop) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	p.s.mu.Lock()
	p.s.busy++
	p.s.mu.Unlock()
	defer func() {
		p.s.mu.Lock()
		p.s.busy--
		p.s.mu.Unlock()
	}()
	select {
	case <-p.s.freed:
	case <-time.After(5 * time.Second): // a referee that never waits
	}
	return nil
}

// TestTournamentLeavesNoGoroutines checks that Run returns only once the
// calls of its matches to players have returned, even a STOP that ignores
// its context past the stop timeout, and that no goroutine of the
// tournament or its matches is left then.
func TestTournamentLeavesNoGoroutines(t *testing.T) {
	stops := &stubbornStops{freed: make(chan struct{})}
	t.Cleanup(stops.free)
	tr := &Tournament{
		Dir:        t.TempDir(),
		Games:      bundled(t, "ticTacToe"),
		Players:    []string{"random", "stubborn"},
		Parallel:   2,
		StartClock: time.Second,
		PlayClock:  time.Second,
		NewPlayer: func(spec string) (player.Player, error) {
			if spec == "stubborn" {
				p, err := testPlayers(nil)("random")
				return stubbornStop{p, stops}, err
			}
			return testPlayers(nil)(spec)
		},
		Referee: &gamemaster.Referee{
			NewReasoner: testFactory,
			StopTimeout: 200 * time.Millisecond,
			// The referee logs the wait for a player still busy after
			// the match: the hook that frees the STOPs.
			Logf: func(format string, args ...any) {
				if strings.Contains(fmt.Sprintf(format, args...), "waiting for") {
					stops.free()
				}
			},
		},
	}
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Matches {
		if m.Error != "" {
			t.Errorf("match %s: %s", m.ID, m.Error)
		}
	}
	if n := stops.underWay(); n != 0 {
		t.Errorf("Run returned with %d STOPs under way", n)
	}
	gamestest.NoGoroutines(t, 200*time.Millisecond, tournamentFuncs...)
}
