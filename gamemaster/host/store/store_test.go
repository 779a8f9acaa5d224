package store

import (
	"context"
	"errors"
	"testing"
)

func TestRebind(t *testing.T) {
	tests := []struct {
		d        dialect
		in, want string
	}{
		{sqliteDialect, "a = ? AND b = ?", "a = ? AND b = ?"},
		{postgresDialect, "a = ? AND b = ?", "a = $1 AND b = $2"},
		{postgresDialect, "no parameters", "no parameters"},
	}
	for _, tt := range tests {
		if got := tt.d.rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestOutcomeStoredOnce stores the outcome of one job twice, as when a
// rescued match is played again after its first worker stored it: the
// first is kept and counted, and the match cannot be queued again.
func TestOutcomeStoredOnce(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	args := MatchArgs{Tournament: "t", ID: "m1", Game: "g", Seats: []Seat{{Name: "a"}, {Name: "b"}}}
	job, err := s.Enqueue(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, args); !errors.Is(err, ErrDone) {
		t.Errorf("queueing a queued match: %v, want ErrDone", err)
	}
	for i, want := range []bool{true, false} {
		var counted bool
		err := s.db.tx(ctx, func(ex execer) error {
			var err error
			counted, err = s.finish(ctx, ex, args, job, Outcome{Completed: true, Goals: []int{100 * (1 - i), 0}})
			return err
		})
		if err != nil || counted != want {
			t.Fatalf("storing the outcome, time %d: counted %v, %v; want %v", i+1, counted, err, want)
		}
	}
	ms, err := s.Matches(ctx, MatchFilter{Tournament: "t"})
	if err != nil || len(ms) != 1 {
		t.Fatalf("matches: %v, %v", ms, err)
	}
	if m := ms[0]; m.Status != StatusDone || !m.Completed || m.Goals[0] != 100 {
		t.Errorf("stored %+v, want the first outcome", m)
	}
	if _, err := s.Enqueue(ctx, args); !errors.Is(err, ErrDone) {
		t.Errorf("queueing a completed match: %v, want ErrDone", err)
	}
	// A match that did not complete may be queued again.
	failed := MatchArgs{Tournament: "t", ID: "m2", Game: "g", Seats: args.Seats}
	job2, err := s.Enqueue(ctx, failed)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(ctx, Match{Tournament: "t", ID: "m2", JobID: job2}, "gave up"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, failed); err != nil {
		t.Errorf("queueing a match that did not complete again: %v", err)
	}
}
