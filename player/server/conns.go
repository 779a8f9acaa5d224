package server

import (
	"context"
	"net"
	"sync"
	"time"
)

// A connLimiter is a listener that holds at most max connections open.
// When a connection arrives at the limit, it closes the open connection
// that has waited longest without a request being served on it: idle
// between keep-alive requests, still sending its request, or never having
// sent one. A connection whose request is being answered is never closed,
// so a move being chosen is not lost; only when every open connection is
// being answered is the new one refused. Thus no number of idle or stalled
// clients keeps a new INFO or PLAY from being read, and the process never
// runs out of file descriptors for them.
type connLimiter struct {
	net.Listener
	max  int
	logf func(format string, args ...any)

	mu      sync.Mutex
	conns   map[*limitedConn]struct{}
	evicted int // connections closed to make room, for the log
}

// phase is what a connection is doing, as far as eviction is concerned.
type phase int

const (
	phaseWaiting phase = iota // new, idle or reading a request: may be evicted
	phaseServing              // a request has been read and is being answered
)

// limitedConn is a connection of a connLimiter.
type limitedConn struct {
	net.Conn
	l     *connLimiter
	once  sync.Once
	phase phase     // guarded by l.mu
	since time.Time // when phase last changed; guarded by l.mu
}

func newConnLimiter(ln net.Listener, max int, logf func(string, ...any)) *connLimiter {
	return &connLimiter{Listener: ln, max: max, logf: logf, conns: map[*limitedConn]struct{}{}}
}

// Accept waits for a connection, making room for it if needed.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitedConn{Conn: c, l: l, since: time.Now()}
		l.mu.Lock()
		var victim *limitedConn
		if len(l.conns) >= l.max {
			victim = l.oldestWaiting()
			if victim != nil {
				delete(l.conns, victim)
				l.evicted++
				if l.evicted == 1 || l.evicted%1000 == 0 {
					l.logf("player: %d connections open, the limit: closed %d waiting ones to make room for new requests", l.max, l.evicted)
				}
			}
		}
		full := len(l.conns) >= l.max
		if !full {
			l.conns[lc] = struct{}{}
		}
		l.mu.Unlock()
		if victim != nil {
			victim.Conn.Close()
		}
		if full {
			l.logf("player: %d connections open, all being answered: refused one from %s", l.max, c.RemoteAddr())
			c.Close()
			continue
		}
		return lc, nil
	}
}

// oldestWaiting returns the waiting connection that changed phase longest
// ago, or nil. l.mu must be held. A linear scan is enough: it runs only at
// the limit, over at most max connections.
func (l *connLimiter) oldestWaiting() *limitedConn {
	var old *limitedConn
	for c := range l.conns {
		if c.phase == phaseWaiting && (old == nil || c.since.Before(old.since)) {
			old = c
		}
	}
	return old
}

// open returns the number of connections held open.
func (l *connLimiter) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// closeAll closes every connection still open, those taken over from
// net/http for unframed POSTs included, and forgets them.
func (l *connLimiter) closeAll() {
	l.mu.Lock()
	conns := make([]*limitedConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
		delete(l.conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		c.Conn.Close()
	}
}

// setPhase records what c is doing.
func (c *limitedConn) setPhase(p phase) {
	c.l.mu.Lock()
	c.phase, c.since = p, time.Now()
	c.l.mu.Unlock()
}

// Close closes the connection and forgets it.
func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// connKey is the context key of the connection a request arrived on.
type connKey struct{}

// serving marks the connection of a request as being answered, so that it
// is not evicted, and returns the function that marks it waiting again.
// A request served outside Serve, as by httptest, has no limitedConn.
func serving(ctx context.Context) func() {
	c, ok := ctx.Value(connKey{}).(*limitedConn)
	if !ok {
		return func() {}
	}
	c.setPhase(phaseServing)
	return func() { c.setPhase(phaseWaiting) }
}
