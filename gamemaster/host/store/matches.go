package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// MatchArgs is a match to play: the arguments of its job. It holds the
// rules, so that a worker needs no copy of the games.
type MatchArgs struct {
	// Tournament and ID name the match; together they are unique.
	Tournament string `json:"tournament"`
	ID         string `json:"id"`

	Game  string `json:"game"` // the game's key
	Rules string `json:"rules"`

	Seats        []Seat `json:"seats"` // one per role that a player plays
	StartClockMS int64  `json:"startClockMs"`
	PlayClockMS  int64  `json:"playClockMs"`
	Nature       bool   `json:"nature,omitempty"`

	// LimitMS bounds the time the match may take, by its clocks; the
	// store's MaxMatch bounds it too.
	LimitMS int64 `json:"limitMs,omitempty"`
}

// Kind names the jobs of matches in River's table.
func (MatchArgs) Kind() string { return "ggp_match" }

// A Seat is the player of one role.
type Seat struct {
	// Name is the player's name in the results: a registered player's
	// name, or a tournament's label.
	Name string `json:"name"`
	// Spec says how to reach it: a registered player's URL, or a player
	// specification of a tournament (package player/players).
	Spec string `json:"spec"`
	// Registered marks a player registered with the host, whose URL
	// only the host's network policy may call.
	Registered bool `json:"registered,omitempty"`
}

// Outcome is what a worker stores of a match it played.
type Outcome struct {
	Record    []byte // ggp-base's JSON
	Completed bool
	Goals     []int // per seat, when completed
	Error     string
}

// Match is a match as the store holds it.
type Match struct {
	Tournament, ID, Game string
	JobID                int64
	Players              []string // names, per seat
	Status               string   // StatusQueued or StatusDone
	Completed            bool
	Goals                []int
	Error                string
	Record               []byte // the record so far while queued
	Created, Finished    time.Time
	Attempts             int // times its job was started
}

// Statuses of a match.
const (
	StatusQueued = "queued" // on the queue or in play
	StatusDone   = "done"   // its outcome stored
)

// ErrDone is returned by Enqueue for a match on the queue or completed
// before.
var ErrDone = errors.New("match queued or completed before")

// Enqueue puts a match on the queue and returns its job's id. A match of
// the same tournament and id that did not complete is queued again; one
// still on the queue or completed is not (ErrDone).
func (s *Store) Enqueue(ctx context.Context, args MatchArgs) (int64, error) {
	names := make([]string, len(args.Seats))
	for i, seat := range args.Seats {
		names[i] = seat.Name
	}
	players, err := json.Marshal(names)
	if err != nil {
		return 0, err
	}
	var jobID int64
	err = s.db.enqueue(ctx, args, func(ex execer, id int64) error {
		jobID = id
		n, err := ex.exec(ctx, `INSERT INTO ggp_host_match (tournament, id, job_id, game, players, status, created_ms)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament, id) DO UPDATE SET job_id = excluded.job_id, status = excluded.status,
				players = excluded.players, error = '', record = '', goals = '[]', created_ms = excluded.created_ms, finished_ms = 0
			WHERE ggp_host_match.status = 'done' AND NOT ggp_host_match.completed`,
			args.Tournament, args.ID, id, args.Game, string(players), StatusQueued, time.Now().UnixMilli())
		if err != nil {
			return fmt.Errorf("match %s: %w", args.ID, err)
		}
		if n == 0 {
			return fmt.Errorf("match %s of %s: %w", args.ID, args.Tournament, ErrDone)
		}
		return nil
	})
	return jobID, err
}

// started records that attempt (River's count of the job's starts,
// those cut short by a dead worker included) at a match began.
func (s *Store) started(ctx context.Context, a MatchArgs, jobID int64, attempt int) error {
	_, err := s.db.exec().exec(ctx, `UPDATE ggp_host_match SET attempts = ?, record = ''
		WHERE tournament = ? AND id = ? AND job_id = ? AND status = ?`, attempt, a.Tournament, a.ID, jobID, StatusQueued)
	return err
}

// saveLive stores the record of a match in play.
func (s *Store) saveLive(ctx context.Context, a MatchArgs, jobID int64, rec []byte) error {
	_, err := s.db.exec().exec(ctx, `UPDATE ggp_host_match SET record = ?
		WHERE tournament = ? AND id = ? AND job_id = ? AND status = ?`, string(rec), a.Tournament, a.ID, jobID, StatusQueued)
	return err
}

// finish stores the outcome of a match, in the transaction of ex, and
// reports whether it was stored: a match whose outcome is stored already
// (it was played twice) keeps the first.
func (s *Store) finish(ctx context.Context, ex execer, a MatchArgs, jobID int64, out Outcome) (bool, error) {
	goals, err := json.Marshal(out.Goals)
	if err != nil {
		return false, err
	}
	if out.Goals == nil {
		goals = []byte("[]")
	}
	n, err := ex.exec(ctx, `UPDATE ggp_host_match SET status = ?, completed = ?, goals = ?, error = ?, record = ?, finished_ms = ?
		WHERE tournament = ? AND id = ? AND job_id = ? AND status = ?`,
		StatusDone, out.Completed, string(goals), out.Error, string(out.Record), time.Now().UnixMilli(),
		a.Tournament, a.ID, jobID, StatusQueued)
	if err != nil {
		return false, fmt.Errorf("match %s: storing its outcome: %w", a.ID, err)
	}
	return n == 1, nil
}

// MatchFilter selects matches.
type MatchFilter struct {
	Tournament string // "" for all
	Status     string // "" for all
	ID         string // "" for all
	// WithRecord loads the records, which are large.
	WithRecord bool
	// After, if not zero, keeps the matches finished after it.
	After time.Time
	Limit int // 0 for no limit
}

// Matches returns the matches f selects, the last finished first.
func (s *Store) Matches(ctx context.Context, f MatchFilter) ([]Match, error) {
	rec := "''"
	if f.WithRecord {
		rec = "record"
	}
	q := `SELECT tournament, id, game, job_id, players, status, completed, goals, error, ` + rec + `, created_ms, finished_ms, attempts
		FROM ggp_host_match WHERE (? = '' OR tournament = ?) AND (? = '' OR status = ?) AND (? = '' OR id = ?) AND finished_ms >= ?
		ORDER BY status DESC, finished_ms DESC, created_ms DESC`
	args := []any{f.Tournament, f.Tournament, f.Status, f.Status, f.ID, f.ID, msOrZero(f.After)}
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	var ms []Match
	err := s.db.exec().query(ctx, q, func(scan func(...any) error) error {
		var m Match
		var players, goals, record string
		var created, finished int64
		if err := scan(&m.Tournament, &m.ID, &m.Game, &m.JobID, &players, &m.Status, &m.Completed, &goals, &m.Error, &record, &created, &finished, &m.Attempts); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(players), &m.Players); err != nil {
			return fmt.Errorf("match %s: players: %w", m.ID, err)
		}
		if err := json.Unmarshal([]byte(goals), &m.Goals); err != nil {
			return fmt.Errorf("match %s: goals: %w", m.ID, err)
		}
		if record != "" {
			m.Record = []byte(record)
		}
		m.Created = time.UnixMilli(created)
		if finished > 0 {
			m.Finished = time.UnixMilli(finished)
		}
		ms = append(ms, m)
		return nil
	}, args...)
	if err != nil {
		return nil, fmt.Errorf("store: matches: %w", err)
	}
	return ms, nil
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// JobState returns the state of a match's job on the queue.
func (s *Store) JobState(ctx context.Context, jobID int64) (rivertype.JobState, error) {
	return s.db.jobState(ctx, jobID)
}

// Abandon marks a queued match whose job River gave up (discarded or
// cancelled) as done and not completed, so that its players are free
// again and a tournament may queue it again.
func (s *Store) Abandon(ctx context.Context, m Match, reason string) error {
	_, err := s.db.exec().exec(ctx, `UPDATE ggp_host_match SET status = ?, error = ?, finished_ms = ?
		WHERE tournament = ? AND id = ? AND job_id = ? AND status = ?`,
		StatusDone, reason, time.Now().UnixMilli(), m.Tournament, m.ID, m.JobID, StatusQueued)
	return err
}
