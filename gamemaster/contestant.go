package gamemaster

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// A contestant is the referee's handle on a role and its player: its
// clock and its calls. Calls to the player are made in their own
// goroutines, so that a player that does not return in time cannot
// hold up the steps of the match, and one after the other, so that a
// player is never called again before its previous call has returned.
// The match waits for its contestants' calls before Run returns
// (match.wait), so that no call outlives it.
type contestant struct {
	role string
	p    player.Player
	// clock is the contestant's play clock: the match's, or its own (a person's).
	clock time.Duration
	// remote is set for players reached over the network, whose requests
	// may take the grace as well as the clock.
	remote bool
	// idle is closed when the last call made to the player has returned;
	// nil for nature, whose moves are not calls. Only the
	// goroutine of the match touches it.
	idle chan struct{}
	// turn is what the player of a GDL-II match is told next: its own
	// last move and its percepts of the last step.
	turn player.Turn
}

// natureContestant returns the contestant of nature in a GDL-II match: it
// has no player, and the referee chooses its moves.
func natureContestant(role string) *contestant { return &contestant{role: role} }

func newContestant(role string, p player.Player, clock time.Duration) *contestant {
	idle := make(chan struct{})
	close(idle)
	g, ok := p.(GraceTaker)
	return &contestant{role: role, p: p, clock: clock, remote: ok && g.TakesGrace(), idle: idle}
}

// A GraceTaker is a player whose calls may take the Referee's grace on
// top of the clock before they are late, such as a player reached over a
// network (package remote). Other players have the clock alone.
type GraceTaker interface {
	TakesGrace() bool
}

// A Readier is a player that is not ready to play as soon as it is made: a
// person, who first has to open the page where they play. The referee
// waits for Ready, within the Referee's ReadyTimeout, before it sends
// START, so that no clock runs while the player cannot answer; an error
// aborts the match.
type Readier interface {
	Ready(ctx context.Context) error
}

// ready waits for every contestant whose player is a Readier, at once, within
// limit, and returns the first error.
func (mt *match) ready(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("not ready within %v", limit))
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for _, s := range mt.contestants {
		r, ok := s.p.(Readier) // false for nature
		if !ok {
			continue
		}
		wg.Go(func() {
			if err := r.Ready(ctx); err != nil {
				once.Do(func() {
					first = &Error{MatchID: mt.m.ID, Role: s.role, Err: fmt.Errorf("player %s: %w", s.p.Name(), err)}
					cancel() // no use waiting for the others
				})
			}
		})
	}
	wg.Wait()
	return first
}

// An answer is the outcome of one call to a player.
type answer struct {
	move reasoner.Move
	err  error
	late bool      // no answer by the deadline
	at   time.Time // when the answer came
}

// call starts f with a context whose deadline is now+d, once the player's
// previous call has returned, and returns the channel its answer will be
// sent on. A player still busy past the deadline is called all the same
// when it is done, with a context already expired, so that it is told of
// every joint move in order and can catch up. A panic in f is an error.
func (s *contestant) call(ctx context.Context, d time.Duration, f func(context.Context) (reasoner.Move, error)) <-chan answer {
	ch := make(chan answer, 1)
	prev, done := s.idle, make(chan struct{})
	s.idle = done
	ctx, cancel := context.WithTimeout(ctx, d)
	go func() {
		defer cancel()
		defer close(done)
		<-prev
		defer func() {
			if v := recover(); v != nil {
				ch <- answer{err: fmt.Errorf("player panicked: %v", v), at: time.Now()}
			}
		}()
		m, err := f(ctx)
		ch <- answer{move: m, err: err, at: time.Now()}
	}()
	return ch
}

// callAll calls every player at once, each with f(contestant), and waits
// for their answers until clock(contestant)+grace has passed for every
// contestant. Players that have not answered by then are late. The
// context of a call to an in-process player has its clock as its
// deadline; that of a remote player has the grace as well, for the
// network. If ctx is cancelled first,
// callAll returns at once with the answers it has.
func (mt *match) callAll(ctx context.Context, clock func(*contestant) time.Duration, grace time.Duration, f func(*contestant) func(context.Context) (reasoner.Move, error)) []answer {
	start := time.Now()
	chans := make([]<-chan answer, len(mt.contestants))
	deadlines := make([]time.Time, len(mt.contestants))
	for i, s := range mt.contestants {
		if s.p == nil {
			continue // nature's
		}
		limit := clock(s)
		deadlines[i] = start.Add(limit + grace)
		if s.remote {
			limit += grace
		}
		chans[i] = s.call(ctx, limit, f(s))
	}
	answers := make([]answer, len(mt.contestants))
	for i, ch := range chans {
		if ch == nil {
			continue
		}
		timer := time.NewTimer(time.Until(deadlines[i]))
		select {
		case answers[i] = <-ch:
		case <-timer.C:
			select {
			case answers[i] = <-ch:
			default:
				answers[i] = answer{late: true}
			}
		case <-ctx.Done():
			timer.Stop()
			return answers
		}
		timer.Stop()
		if answers[i].at.After(deadlines[i]) {
			answers[i] = answer{late: true}
		}
	}
	return answers
}

// wait returns once every call made to a player of the match has
// returned: it is deferred by Run, so that no goroutine of a call outlives
// the match. By then the context of every call is done (its clock or the
// stop timeout has passed, or the match was cancelled), so a player that
// heeds its context has returned or soon does. One that does not holds up
// the end of Run: a player is trusted to return once its context is done,
// since no goroutine can be stopped from outside. After the stop timeout
// the wait is logged, naming the player, so that such a player is found.
func (mt *match) wait() {
	patience := time.NewTimer(orDefault(mt.ref.StopTimeout, DefaultStopTimeout))
	defer patience.Stop()
	out := false // of patience
	for _, s := range mt.contestants {
		if s.idle == nil {
			continue
		}
		if !out {
			select {
			case <-s.idle:
				continue
			case <-patience.C:
				out = true
			}
		}
		select {
		case <-s.idle:
		default:
			mt.logf("match %s: role %s (player %s): %s", mt.m.ID, s.role, s.p.Name(), stillBusy)
			<-s.idle
		}
	}
}

// stillBusy is logged by match.wait for a player still busy, past the
// stop timeout, with a call whose time is up.
const stillBusy = "waiting for a call whose time is up to return"
