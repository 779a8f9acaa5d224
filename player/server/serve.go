package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
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

// Serve accepts connections on ln and answers the protocol on them until
// ctx is done, then waits a little for the requests under way and returns
// nil. It bounds what clients can hold: at most MaxConns connections are
// open (the one that has waited longest without being answered is closed
// to make room for a new one), headers, bodies and idle keep-alive
// connections have timeouts, and large messages buffered at once are
// bounded by MaxBuffered. Serve returns the error of ln if accepting fails.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	maxConns := s.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns()
	}
	lim := newConnLimiter(ln, maxConns, s.logf)
	s.conns.Store(lim)
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.timeouts().header,
		IdleTimeout:       s.timeouts().idle,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          s.ErrorLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(lim) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
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
// Small messages need none. It waits at most until deadline.
func (s *Server) reserve(size int64, deadline time.Time) (func(), error) {
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
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
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
