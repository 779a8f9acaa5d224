package gamemaster

import (
	"context"
	"fmt"
	"time"

	"github.com/ggp-go/ggp/gamemaster/remote"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// A seat is a role and its player. Calls to the player are made in their
// own goroutines, so that a player that does not return in time cannot
// hold up the match, and one after the other, so that a player is never
// called again before its previous call has returned.
type seat struct {
	role string
	p    player.Player
	// remote is set for players reached over the network, whose requests
	// may take the grace as well as the clock.
	remote bool
	// idle is closed when the last call made to the player has returned.
	// Only the goroutine of the match touches it.
	idle chan struct{}
}

func newSeat(role string, p player.Player) *seat {
	idle := make(chan struct{})
	close(idle)
	_, isRemote := p.(*remote.Client)
	return &seat{role: role, p: p, remote: isRemote, idle: idle}
}

// An answer is the outcome of one call to a player.
type answer struct {
	move reasoner.Move
	err  error
	late bool // no answer by the deadline
}

// call starts f with a context whose deadline is now+d, once the player's
// previous call has returned, and returns the channel its answer will be
// sent on. A player still busy past the deadline is called all the same
// when it is done, with a context already expired, so that it is told of
// every joint move in order and can catch up. A panic in f is an error.
func (s *seat) call(ctx context.Context, d time.Duration, f func(context.Context) (reasoner.Move, error)) <-chan answer {
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
				ch <- answer{err: fmt.Errorf("player panicked: %v", v)}
			}
		}()
		m, err := f(ctx)
		ch <- answer{move: m, err: err}
	}()
	return ch
}

// callAll calls every player at once, each with f(seat), and waits for
// their answers until clock+grace has passed. Players that have not
// answered by then are late. The context of a call to an in-process player
// has the clock as its deadline; that of a remote player has the grace as
// well, for the network. If ctx is cancelled first, callAll returns at once
// with the answers it has.
func (mt *match) callAll(ctx context.Context, clock, grace time.Duration, f func(*seat) func(context.Context) (reasoner.Move, error)) []answer {
	d := clock + grace
	chans := make([]<-chan answer, len(mt.seats))
	for i, s := range mt.seats {
		limit := clock
		if s.remote {
			limit = d
		}
		chans[i] = s.call(ctx, limit, f(s))
	}
	answers := make([]answer, len(mt.seats))
	timer := time.NewTimer(d)
	defer timer.Stop()
	expired := false
	for i, ch := range chans {
		if expired {
			select {
			case answers[i] = <-ch:
			default:
				answers[i] = answer{late: true}
			}
			continue
		}
		select {
		case answers[i] = <-ch:
		case <-timer.C:
			expired = true
			select {
			case answers[i] = <-ch:
			default:
				answers[i] = answer{late: true}
			}
		case <-ctx.Done():
			return answers
		}
	}
	return answers
}
