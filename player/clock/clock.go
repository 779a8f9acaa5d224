// Package clock shares out the time of a player's call. A Budget is the
// time until a call must have answered, the player's margin taken off
// once, when the call arrives; every part of the player that needs time
// (the search, following what a role knows of a GDL-II match, a retry)
// takes its share of the one Budget, and none computes a deadline of its
// own.
//
// The package imports only the standard library, so that the reasoning a
// player calls (package reasoner/infoset) takes its share the same way.
package clock

import (
	"context"
	"time"
)

// A Margin is the time a player keeps free before the deadline of each
// call, for its answer to get back on a busy machine: Fixed, and Share of
// the time left on top of it.
type Margin struct {
	Fixed time.Duration
	Share float64
}

// The margin of an in-process player that sets none (Margin.OrDefault):
// a fixed part, and a share of the time left on top of it, since on a
// loaded machine the answer to a long call can be held up longer.
const (
	DefaultFixed = 100 * time.Millisecond
	DefaultShare = 0.05
)

// OrDefault returns m with DefaultFixed for a Fixed that is not positive
// and DefaultShare for a zero Share; a negative Share keeps none.
func (m Margin) OrDefault() Margin {
	if m.Fixed <= 0 {
		m.Fixed = DefaultFixed
	}
	if m.Share == 0 {
		m.Share = DefaultShare
	}
	m.Share = max(m.Share, 0)
	return m
}

// A Budget is the time a part of a player has: until its deadline. The
// zero Budget has no deadline.
type Budget struct {
	deadline time.Time
}

// DefaultClock is the time a call without a deadline, of a match whose
// clock is not known, is given.
const DefaultClock = time.Second

// New returns the budget of a call bounded by ctx, less the margin m: the
// deadline of ctx, or clock from now when ctx has none (DefaultClock when
// clock is not positive), less m.Fixed and m.Share of the time left.
func New(ctx context.Context, clock time.Duration, m Margin) Budget {
	d, ok := ctx.Deadline()
	if !ok {
		if clock <= 0 {
			clock = DefaultClock
		}
		d = time.Now().Add(clock)
	}
	left := time.Until(d)
	return Budget{d.Add(-m.Fixed - time.Duration(float64(left)*max(m.Share, 0)))}
}

// FromContext returns the budget of the deadline of ctx, with no margin:
// the share a part was given, passed down in its context. It has no
// deadline when ctx has none.
func FromContext(ctx context.Context) Budget {
	d, _ := ctx.Deadline()
	return Budget{d}
}

// Deadline returns when the budget ends, and false when it has no
// deadline.
func (b Budget) Deadline() (time.Time, bool) { return b.deadline, !b.deadline.IsZero() }

// Left returns the time left until the deadline, at least zero; a budget
// without a deadline has all the time there is.
func (b Budget) Left() time.Duration {
	if b.deadline.IsZero() {
		return time.Duration(1<<63 - 1)
	}
	return max(time.Until(b.deadline), 0)
}

// Share returns the budget of a part that may take the fraction f of the
// time left, from now. The share of a budget without a deadline has none.
func (b Budget) Share(f float64) Budget {
	if b.deadline.IsZero() {
		return b
	}
	return Budget{time.Now().Add(time.Duration(float64(b.Left()) * f))}
}

// Context returns ctx bounded by the deadline of b, as
// context.WithDeadline does; ctx itself, with a no-op cancel, when b has
// no deadline.
func (b Budget) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if b.deadline.IsZero() {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, b.deadline)
}
