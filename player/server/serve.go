package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player/internal/group"
)

// Limits of the connections a Server serves. The protocol needs little:
// a game master sends one small message per connection (ggp-base and
// package player/remote open a new connection for each), and the only
// large message, START, is a few hundred kilobytes at most in practice.
//
// None of the timeouts runs while the player thinks: the clocks of the
// match bound that. A reply to START or PLAY may come minutes after its
// request, as competition clocks allow.
const (
	// DefaultHeaderTimeout bounds, by default, the reading of a request's
	// headers.
	DefaultHeaderTimeout = 5 * time.Second

	// DefaultBodyTimeout bounds, by default, the reading of a request's
	// body, counted from the end of its headers: a message must arrive
	// before the clock it starts can matter, and a body that stalls is
	// dropped.
	DefaultBodyTimeout = 10 * time.Second

	// DefaultIdleTimeout closes, by default, a keep-alive connection with
	// no new request after its last reply.
	DefaultIdleTimeout = 5 * time.Second

	// DefaultWriteTimeout bounds, by default, the writing of a reply to a
	// client that does not read it, counted from when the reply is ready.
	DefaultWriteTimeout = 10 * time.Second

	// MaxHeaderBytes bounds the headers of a request, and so the message
	// of a GET, which ggp-base's player accepts for INFO from a browser.
	MaxHeaderBytes = 64 << 10

	// SmallMessage is the size up to which a message is read without
	// counting against MaxBuffered: INFO, PLAY, STOP and ABORT, so that
	// large messages never hold them up. Connections are bounded, so these
	// are bounded too, at SmallMessage per connection.
	SmallMessage = 64 << 10

	// DefaultMaxBuffered bounds, by default, the bytes of large messages
	// read and parsed at once: room for three messages of the largest
	// size.
	DefaultMaxBuffered = 3 * DefaultMaxBodySize
)

// ShutdownGrace is how long Serve, once its context is done, lets the
// requests under way finish before it cancels the player's calls, and
// then how long it waits for them to return.
const ShutdownGrace = 2 * time.Second

// Serve accepts connections on ln and answers the protocol on them until
// ctx is done, then shuts down and returns nil. It bounds what clients
// can hold: at most MaxConns connections are open (the one that has
// waited longest without being answered is closed to make room for a new
// one), headers, bodies and idle keep-alive connections have timeouts,
// and large messages buffered at once are bounded by MaxBuffered. Serve
// returns the error of ln if accepting fails, after shutting down in the
// same way.
//
// The player is called with contexts derived from one the server owns,
// never from the context of Serve, so that the requests under way can
// finish when ctx is done. Shutting down, Serve stops accepting and closes
// idle connections; lets the requests under way, unframed POSTs included,
// finish for ShutdownGrace; then cancels the contexts of the player's
// calls still running, closes every connection and waits for those calls
// to return, for ShutdownGrace again; and last aborts the current match,
// which no game master can reach any more, within ShutdownGrace. Serve
// returns only once every goroutine it started has ended, or with an
// error saying how many requests a player that does not heed its context
// still holds.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	maxConns := s.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns()
	}
	lim := newConnLimiter(ln, maxConns, s.logf)
	s.conns.Store(lim)
	base, cancelCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelCalls()
	var answering group.Group // the requests being answered
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !answering.Enter() {
				return // shutting down; the connection is closed
			}
			defer answering.Leave()
			s.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: s.timeouts().header,
		IdleTimeout:       s.timeouts().idle,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          s.ErrorLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(lim) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}

	grace, cancelGrace := context.WithTimeout(base, ShutdownGrace)
	defer cancelGrace()
	if serr := hs.Shutdown(grace); serr != nil && !errors.Is(serr, context.DeadlineExceeded) && err == nil {
		err = serr
	}
	answering.Wait(grace) // net/http's Shutdown does not wait for the unframed POSTs
	cancelCalls()
	hs.Close()
	lim.closeAll()
	wait, cancelWait := context.WithTimeout(context.WithoutCancel(base), ShutdownGrace)
	defer cancelWait()
	left := answering.Close(wait)
	abort, cancelAbort := context.WithTimeout(context.WithoutCancel(base), ShutdownGrace)
	defer cancelAbort()
	s.abortCurrent(abort)
	if err == nil {
		<-served // returned when Shutdown closed the listener
	}
	switch {
	case err != nil:
		return err
	case left > 0:
		return fmt.Errorf("player: shut down with %d requests still being answered, by a player that does not heed its context", left)
	}
	return nil
}

// abortCurrent aborts the current match, if any, at shutdown.
func (s *Server) abortCurrent(ctx context.Context) {
	s.mu.Lock()
	m := s.match
	if m != nil {
		s.setMatch(nil)
	}
	s.mu.Unlock()
	if m == nil {
		return
	}
	if err := s.safely(func() error { return s.player.Abort(ctx, m.id) }); err != nil {
		s.logf("player: aborting match %s at shutdown: %v", m.id, err)
	}
}

// open returns the number of connections Serve holds open.
func (s *Server) open() int {
	if lim := s.conns.Load(); lim != nil {
		return lim.open()
	}
	return 0
}

// A byteBudget bounds the bytes held by large messages at once.
type byteBudget struct {
	mu      sync.Mutex
	free    int64
	changed chan struct{} // closed and replaced when bytes are released
}

func newByteBudget(n int64) *byteBudget {
	return &byteBudget{free: n, changed: make(chan struct{})}
}

// acquire takes n bytes of the budget, waiting for them until ctx is done.
func (b *byteBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waited for other large messages to be read: %w", ctx.Err())
		}
	}
}

// release gives n bytes back.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.free += n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// reserve takes from the budget the bytes a message of size bytes needs,
// size being -1 when unknown, and returns the function giving them back.
// Small messages need none. It waits at most until deadline, or until ctx
// is done.
func (s *Server) reserve(ctx context.Context, size int64, deadline time.Time) (func(), error) {
	limit := s.maxBodySize()
	if size >= 0 && size <= SmallMessage {
		return func() {}, nil
	}
	if size < 0 || size > limit {
		size = limit
	}
	s.budgetOnce.Do(func() {
		n := s.MaxBuffered
		if n <= 0 {
			n = DefaultMaxBuffered
		}
		s.budget = newByteBudget(max(n, limit))
	})
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if err := s.budget.acquire(ctx, size); err != nil {
		return nil, err
	}
	return func() { s.budget.release(size) }, nil
}

// timeouts are the connection timeouts of a Server, defaults applied.
type timeouts struct {
	header, body, idle, write time.Duration
}

func (s *Server) timeouts() timeouts {
	or := func(d, def time.Duration) time.Duration {
		if d > 0 {
			return d
		}
		return def
	}
	return timeouts{
		header: or(s.HeaderTimeout, DefaultHeaderTimeout),
		body:   or(s.BodyTimeout, DefaultBodyTimeout),
		idle:   or(s.IdleTimeout, DefaultIdleTimeout),
		write:  or(s.WriteTimeout, DefaultWriteTimeout),
	}
}
