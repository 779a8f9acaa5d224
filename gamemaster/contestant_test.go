package gamemaster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// slowStarter is a player whose START takes a while and that is ready only
// once told so.
type slowStarter struct {
	*scripted
	ready chan struct{}
	err   error
}

func (p *slowStarter) Ready(ctx context.Context) error {
	if p.err != nil {
		return p.err
	}
	select {
	case <-p.ready:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func TestRefereeWaitsForReadyPlayers(t *testing.T) {
	a := &slowStarter{scripted: &scripted{name: "person", move: goodMove(3)}, ready: make(chan struct{})}
	b := &scripted{name: "b", move: goodMove(1)}
	m := newMatch(t, pickGame, a, b)
	go func() {
		time.Sleep(300 * time.Millisecond)
		close(a.ready)
	}()
	rec, err := fastReferee().Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if log := a.log(); len(log) == 0 || log[0] != "START" {
		t.Errorf("calls %v", log)
	}
	// The first step is timed from the end of START: the wait for the
	// person is not part of it.
	if d := rec.StateTimes[0] - rec.StartTime; d < 250 {
		t.Errorf("initial state stamped %d ms after the start, want after the wait", d)
	}
	if d := rec.StateTimes[1] - rec.StateTimes[0]; d > 1000 {
		t.Errorf("step 1 took %d ms by the record, want the time of the moves", d)
	}

	// A player never ready aborts the match, naming it, within the bound.
	never := &slowStarter{scripted: &scripted{name: "person", move: goodMove(3)}, ready: make(chan struct{})}
	ref := fastReferee()
	ref.ReadyTimeout = 200 * time.Millisecond
	rec, err = ref.Run(context.Background(), newMatch(t, pickGame, &scripted{name: "b", move: goodMove(1)}, never))
	var e *Error
	if !errors.As(err, &e) || e.Role != "black" || !strings.Contains(err.Error(), "player person: not ready within 200ms") {
		t.Errorf("Run with a player never ready: %v", err)
	}
	if rec == nil || !rec.IsAborted || len(rec.Moves) != 0 {
		t.Errorf("record %+v, want aborted before any move", rec)
	}
	if log := never.log(); len(log) != 1 || log[0] != "ABORT" {
		t.Errorf("the player never ready was sent %v, want ABORT only", log)
	}

	// A player that cannot be ready at all aborts the match at once.
	broken := &slowStarter{scripted: &scripted{name: "person", move: goodMove(3)}, err: errors.New("no seat")}
	start := time.Now()
	_, err = fastReferee().Run(context.Background(), newMatch(t, pickGame, broken, b))
	if err == nil || !strings.Contains(err.Error(), "role white: player person: no seat") || time.Since(start) > 2*time.Second {
		t.Errorf("Run with a player without a seat: %v after %v", err, time.Since(start))
	}
}

func TestPlayClocksPerContestant(t *testing.T) {
	// White takes 700ms a move: late at the match's 300ms play clock,
	// in time at its own 2s.
	slow := func(ctx context.Context, role string, step int) (reasoner.Move, error) {
		if inTurn(role, step) {
			time.Sleep(700 * time.Millisecond)
		}
		return goodMove(3)(ctx, role, step)
	}
	for _, c := range []struct {
		clocks []time.Duration
		want   string
	}{
		{nil, "TO"},
		{[]time.Duration{2 * time.Second}, ""},
		{[]time.Duration{0, 2 * time.Second}, "TO"},
	} {
		a, b := &scripted{name: "a", move: slow}, &scripted{name: "b", move: goodMove(1)}
		m := newMatch(t, pickGame, a, b)
		m.PlayClock = 300 * time.Millisecond
		m.PlayClocks = c.clocks
		ref := fastReferee()
		ref.Grace = -1
		rec, err := ref.Run(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.Errors[1][0]; got != c.want {
			t.Errorf("clocks %v: white's error at step 1 %q, want %q", c.clocks, got, c.want)
		}
	}
	m := newMatch(t, pickGame, &scripted{name: "a"}, &scripted{name: "b"})
	m.PlayClocks = make([]time.Duration, 3)
	if _, err := fastReferee().Run(context.Background(), m); err == nil {
		t.Error("three play clocks for two players accepted")
	}
}

// TestInterruptedMatchNamesTheCause checks that a match cancelled with a
// cause is recorded as interrupted, with the cause (TestCancel covers the
// plain cancellation).
func TestInterruptedMatchNamesTheCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	block := func(ctx context.Context, role string, step int) (reasoner.Move, error) {
		if step == 2 {
			cancel(errors.New("interrupt signal"))
			<-ctx.Done()
			return "", ctx.Err()
		}
		return goodMove(1)(ctx, role, step)
	}
	rec, err := fastReferee().Run(ctx, newMatch(t, pickGame, &scripted{name: "a", move: block}, &scripted{name: "b", move: goodMove(1)}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if want := "match pick.1: step 2: the match was interrupted: interrupt signal"; rec == nil || rec.AbortReason != want {
		t.Errorf("abort reason of %+v, want %q", rec, want)
	}
}
