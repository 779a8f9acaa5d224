package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/rating"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/internal/atomicfile"
	"github.com/ggp-go/ggp/gamemaster/record"
)

// Standings is the state of the host: its players, ratings and matches.
type Standings struct {
	Overall rating.Table   `json:"overall"`
	Games   []rating.Table `json:"games"`
	Players []PlayerView   `json:"players"`
	Live    []MatchView    `json:"live"`
	Recent  []MatchView    `json:"recent"`
}

// recentMatches is how many finished matches Standings lists.
const recentMatches = 50

// Standings rates the players of the host's matches (Bradley–Terry on
// the Elo scale, with 95% intervals, overall and per game) and lists the
// players, the matches in play and the last finished.
func (h *Host) Standings(ctx context.Context) (*Standings, error) {
	done, err := h.cfg.Store.Matches(ctx, store.MatchFilter{Tournament: Tournament, Status: store.StatusDone})
	if err != nil {
		return nil, err
	}
	results := make([]rating.Result, 0, len(done))
	for _, m := range done {
		results = append(results, resultOf(m))
	}
	rep, err := rating.Compute(results, rating.Options{})
	if err != nil {
		return nil, err
	}
	ps, err := h.cfg.Store.Players(ctx)
	if err != nil {
		return nil, err
	}
	live, err := h.cfg.Store.Matches(ctx, store.MatchFilter{Tournament: Tournament, Status: store.StatusQueued})
	if err != nil {
		return nil, err
	}
	st := &Standings{Overall: rep.Overall, Games: rep.Games, Players: views(ps, viewOf),
		Live: views(live, matchViewOf), Recent: views(done[:min(len(done), recentMatches)], matchViewOf)}
	return st, nil
}

// resultOf returns the result of a finished match for the ratings.
func resultOf(m store.Match) rating.Result {
	r := rating.Result{MatchID: m.Tournament + "/" + m.ID, Game: m.Game, Players: m.Players, Goals: m.Goals, Status: rating.Completed}
	if !m.Completed {
		r.Status = rating.Aborted
	}
	return r
}

// Export writes the record of every finished match finished after since
// that the folder does not hold yet into dir/TOURNAMENT/ID.json, in
// ggp-base's format, and returns the time of the last one written, for
// the next call.
func Export(ctx context.Context, st *store.Store, dir string, since time.Time) (time.Time, error) {
	ms, err := st.Matches(ctx, store.MatchFilter{Status: store.StatusDone, After: since, WithRecord: true})
	if err != nil {
		return since, err
	}
	last := since
	for _, m := range ms {
		if m.Finished.After(last) {
			last = m.Finished
		}
		if len(m.Record) == 0 {
			continue
		}
		name := filepath.Join(dir, safeName(m.Tournament), safeName(m.ID)+".json")
		if _, err := os.Stat(name); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return since, err
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return since, err
		}
		if err := atomicfile.WriteFile(name, m.Record, record.TempPattern); err != nil {
			return since, fmt.Errorf("match %s: %w", m.ID, err)
		}
	}
	return last, nil
}

// safeName returns s as one file name: no separators, no dot files.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '/' || c == '\\' || c == 0 || (i == 0 && c == '.') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}
