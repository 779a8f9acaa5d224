package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// serveLoopback runs s.Serve on 127.0.0.1 until the test ends and returns
// the address.
func serveLoopback(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// rawRequest writes a POST of msg on c, announcing size bytes of body
// (len(msg) when size is 0), and sends only msg.
func rawRequest(c net.Conn, msg string, size int) error {
	if size == 0 {
		size = len(msg)
	}
	_, err := fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/acl\r\nContent-Length: %d\r\n\r\n%s", size, msg)
	return err
}

// TestServeBoundsConnections fills the server's connections with idle
// keep-alive clients, then with clients whose body stalls, and checks
// that the server never holds more than MaxConns, that a new INFO and a
// PLAY are still answered, and that the connections closed to make room
// were the waiting ones.
func TestServeBoundsConnections(t *testing.T) {
	const maxConns, clients = 16, 40
	pl := baseline.Legal(baseline.Options{NewReasoner: playertest.Factory(t, backend.Prolog)})
	s := New(pl)
	s.MaxConns = maxConns
	s.ErrorLog = log.New(io.Discard, "", 0)
	addr := serveLoopback(t, s)
	base := "http://" + addr
	d := playertest.LoadGame(t, "ticTacToe")
	expect(t, "START", post(t, base, "(START m xplayer ("+rulesText(t, d)+") 10 10)"), "ready")

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	check := func(phase string) {
		t.Helper()
		if got := s.open(); got > maxConns {
			t.Fatalf("%s: %d connections open, over the limit of %d", phase, got, maxConns)
		}
		expect(t, phase+": INFO", postFresh(t, base, "(INFO)"), "((name legal) (status busy) (species bot))")
	}
	// Idle keep-alive connections: one request answered, then silence.
	for range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if err := rawRequest(c, "(INFO)", 0); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("INFO on keep-alive connection %d: %v", len(conns), err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	check("idle clients")
	// Stalled bodies: 10 of 1000 announced bytes.
	for range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if err := rawRequest(c, "(PLAY m (", 1000); err != nil {
			t.Fatal(err)
		}
	}
	check("stalled clients")
	if move := postFresh(t, base, "(PLAY m NIL)"); move != "(mark 1 1)" {
		t.Errorf("PLAY among stalled clients: %q, want the legal player's (mark 1 1)", move)
	}
	// The oldest connections were closed by the server: a read returns
	// at once, with EOF or a reset, instead of waiting.
	conns[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conns[0].Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Errorf("oldest idle connection: read %v, want it closed by the server", err)
	}
}

// postFresh sends msg on a new connection, as ggp-base's game server
// does: the server may close idle keep-alive connections to make room.
func postFresh(t *testing.T, base, msg string) string {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := c.Post(base, "text/acl", strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	checkHeaders(t, "POST "+msg, resp)
	return string(b)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestServeBoundsBufferedBytes sends large messages in parallel with room
// for only one at a time: each still gets its answer, and at no time do
// two hold the budget.
func TestServeBoundsBufferedBytes(t *testing.T) {
	const size, parallel = 256 << 10, 6
	pl := baseline.Legal(baseline.Options{NewReasoner: playertest.Factory(t, backend.Prolog)})
	s := New(pl)
	s.MaxBodySize = size
	s.MaxBuffered = size
	s.ErrorLog = log.New(io.Discard, "", 0)
	base := "http://" + serveLoopback(t, s)
	// A well-formed message of size bytes: INFO padded with a comment.
	msg := "(INFO)\n;" + strings.Repeat("x", size-8)
	var wg sync.WaitGroup
	replies := make([]string, parallel)
	for i := range parallel {
		wg.Go(func() {
			resp, err := http.Post(base, "text/acl", strings.NewReader(msg))
			if err != nil {
				replies[i] = err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			replies[i] = string(b)
		})
	}
	wg.Wait()
	for i, r := range replies {
		expect(t, fmt.Sprintf("large INFO %d", i), r, "((name legal) (status available) (species bot))")
	}
	if s.budget == nil || s.budget.free != size {
		t.Errorf("budget after the messages: %+v, want all %d bytes free", s.budget, size)
	}
	// A message over the limit is refused without being read whole.
	over := msg + strings.Repeat("x", 10)
	if got := post(t, base, over); !strings.HasPrefix(got, "(error ") {
		t.Errorf("message over the limit: %q, want an error", got)
	}
}

func TestByteBudget(t *testing.T) {
	b := newByteBudget(10)
	ctx := context.Background()
	if err := b.acquire(ctx, 6); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := b.acquire(short, 6); err == nil {
		t.Fatal("acquired 6 of 4 free bytes")
	}
	got := make(chan error, 1)
	go func() { got <- b.acquire(ctx, 6) }()
	b.release(6)
	if err := <-got; err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	if b.free != 4 {
		t.Errorf("free = %d, want 4", b.free)
	}
}

// TestAbandonedMatch starts a match whose game master then falls silent:
// a new START is busy until the match has been silent for AbandonClocks
// play clocks after its last deadline, then accepted, and the player is
// told to abort the old match.
func TestAbandonedMatch(t *testing.T) {
	pl := baseline.Legal(baseline.Options{NewReasoner: playertest.Factory(t, backend.Prolog)})
	rec := &abortLog{Player: pl}
	s := New(rec)
	s.AbandonClocks = 1
	s.AbandonMin = time.Millisecond
	var logs bytes.Buffer
	var logMu sync.Mutex
	s.ErrorLog = log.New(lockedWriter{&logs, &logMu}, "", 0)
	s2base := "http://" + serveLoopback(t, s)
	d := playertest.LoadGame(t, "ticTacToe")
	rules := rulesText(t, d)
	// The server reckons abandonment by a clock the test moves.
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	s.abandonClock = func() time.Time { return time.Unix(0, now.Load()) }
	sent := time.Now()
	expect(t, "first START", post(t, s2base, "(START old xplayer ("+rules+") 1 1)"), "ready")
	answered := time.Now()
	expect(t, "START at once", post(t, s2base, "(START new xplayer ("+rules+") 1 1)"), "busy")
	// Abandoned one play clock after the start clock's deadline: 2 s
	// after the first START was received, between sent and answered.
	now.Store(sent.Add(2 * time.Second).UnixNano())
	expect(t, "START just before the old match is abandoned", post(t, s2base, "(START new xplayer ("+rules+") 1 1)"), "busy")
	now.Store(answered.Add(2*time.Second + time.Millisecond).UnixNano())
	expect(t, "START once the old match is abandoned", post(t, s2base, "(START new xplayer ("+rules+") 1 1)"), "ready")
	if got := rec.aborted(); len(got) != 1 || got[0] != "old" {
		t.Errorf("aborted %v, want [old]", got)
	}
	logMu.Lock()
	if !strings.Contains(logs.String(), "match old abandoned") {
		t.Errorf("log %q does not say the old match was abandoned", logs.String())
	}
	logMu.Unlock()
	expect(t, "PLAY of the old match", post(t, s2base, "(PLAY old NIL)"), "busy")
	expect(t, "PLAY of the new match", post(t, s2base, "(PLAY new NIL)"), "(mark 1 1)")
}

// abortLog records the matches a player is told to abort.
type abortLog struct {
	player.Player
	mu  sync.Mutex
	ids []string
}

func (p *abortLog) Abort(ctx context.Context, id string) error {
	p.mu.Lock()
	p.ids = append(p.ids, id)
	p.mu.Unlock()
	return p.Player.Abort(ctx, id)
}

func (p *abortLog) aborted() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.ids...)
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (w lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}
