package tournament

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/player"
)

// TestRunner plays a tournament with a Runner, as a queue's workers play
// it: the Runner is given every match once with its seats' specifications
// and labels, the records it returns are written to the folder, and the
// results are those of the same tournament played by the Referee.
func TestRunner(t *testing.T) {
	local := newTournament(t, t.TempDir(), nil)
	want, err := local.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	queued := newTournament(t, t.TempDir(), nil)
	var mu sync.Mutex
	given := map[string]int{}
	ref := &gamemaster.Referee{NewReasoner: testFactory}
	queued.Runner = func(ctx context.Context, m *Match) (*record.Record, error) {
		mu.Lock()
		given[m.ID]++
		mu.Unlock()
		if m.Tournament != queued.name() || len(m.Players) != len(m.Labels) || m.StartClock != queued.StartClock || m.PlayClock != queued.PlayClock {
			t.Errorf("match %s given as %+v", m.ID, m)
		}
		ps := make([]player.Player, len(m.Players))
		for i, spec := range m.Players {
			p, err := queued.NewPlayer(spec)
			if err != nil {
				return nil, err
			}
			ps[i] = p
		}
		return ref.Run(ctx, &gamemaster.Match{ID: m.ID, Game: m.Game, Players: ps, StartClock: m.StartClock, PlayClock: m.PlayClock, Tournament: m.Tournament})
	}
	got, err := queued.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(given) != resumeTotal {
		t.Errorf("the Runner was given %d matches, want %d", len(given), resumeTotal)
	}
	for id, n := range given {
		if n != 1 {
			t.Errorf("match %s given %d times", id, n)
		}
	}
	if got.Completed() != want.Completed() || len(got.Matches) != len(want.Matches) {
		t.Errorf("with a Runner: %d of %d completed; with the Referee: %d of %d", got.Completed(), len(got.Matches), want.Completed(), len(want.Matches))
	}
	for i, m := range got.Matches {
		if !slices.Equal(m.Players, want.Matches[i].Players) || m.ID != want.Matches[i].ID {
			t.Errorf("match %d: %s %v, want %s %v", i, m.ID, m.Players, want.Matches[i].ID, want.Matches[i].Players)
		}
	}
	if recs := completedRecords(t, queued.Dir); len(recs) != resumeTotal {
		t.Errorf("%d records written, want %d", len(recs), resumeTotal)
	}
}
