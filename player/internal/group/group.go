// Package group counts the goroutines an owner has under way, so that
// the owner can refuse new ones when it closes and wait for those still
// running, within a bound: the search of package player/mcts counts its
// runs and probes in one, the server of package player/server the
// requests it answers.
//
// A sync.WaitGroup cannot do this alone: it cannot be waited for with a
// bound, and it must not be added to while a Wait may be starting.
package group

import (
	"context"
	"sync"
)

// A Group counts goroutines under way. Its zero value is an open, empty
// group. A Group must not be copied after first use.
type Group struct {
	mu     sync.Mutex
	n      int           // under way
	closed bool          // no new ones
	idle   chan struct{} // closed when n falls to zero; nil while no one waits
}

// Enter counts one more goroutine under way, the caller's or one it is
// about to start, and reports true; once Close has been called it counts
// nothing and reports false, and the work must not be done. A true Enter
// must be matched by a Leave.
func (g *Group) Enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.n++
	return true
}

// Leave marks the end of the work counted by an Enter.
func (g *Group) Leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.n < 0 {
		panic("group: Leave without Enter")
	}
	if g.n == 0 && g.idle != nil {
		close(g.idle)
		g.idle = nil
	}
}

// Go runs f in a new goroutine counted in g and reports true, or reports
// false without running f once Close has been called.
func (g *Group) Go(f func()) bool {
	if !g.Enter() {
		return false
	}
	go func() {
		defer g.Leave()
		f()
	}()
	return true
}

// Wait waits until no goroutine is under way or ctx is done, and returns
// the number still under way: 0 unless ctx ended the wait. The group stays
// open; a goroutine may enter it during the wait.
func (g *Group) Wait(ctx context.Context) int {
	g.mu.Lock()
	if g.n == 0 {
		g.mu.Unlock()
		return 0
	}
	if g.idle == nil {
		g.idle = make(chan struct{})
	}
	idle := g.idle
	g.mu.Unlock()
	select {
	case <-idle:
		return 0
	case <-ctx.Done():
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// Close closes g to new goroutines, then waits as Wait does for those
// under way, and returns the number still under way when ctx ended the
// wait. Those are not stopped: the owner must have told them to stop
// (by cancelling their context) before it closes the group, and past the
// bound they end on their own, unwaited for.
func (g *Group) Close(ctx context.Context) int {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return g.Wait(ctx)
}
