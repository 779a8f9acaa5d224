package gamemaster

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// pickGame is a small game written for these tests. White and black take
// turns picking a number from 1 to 3, four steps in all; the one not in
// control plays noop. White wins if the last number picked is 3.
const pickGame = `
(role white) (role black)
(init (step 0)) (init (control white))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(num 1) (num 2) (num 3)
(<= (legal ?r (pick ?n)) (true (control ?r)) (num ?n))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (next (control black)) (true (control white)))
(<= (next (control white)) (true (control black)))
(<= (next (last ?n)) (does ?r (pick ?n)))
(<= terminal (true (step 4)))
(<= (goal white 100) (true (last 3)))
(<= (goal white 0) (not (true (last 3))))
(<= (goal black 0) (true (last 3)))
(<= (goal black 100) (not (true (last 3))))
`

// pickSteps is the number of steps of every match of pickGame.
const pickSteps = 4

// endlessGame never ends.
const endlessGame = `
(role solo)
(init (on))
(<= (legal solo flip) (true (on)))
(<= (legal solo flip) (not (true (on))))
(<= (next (on)) (not (true (on))))
(<= (goal solo 50) (true (on)))
(<= (goal solo 50) (not (true (on))))
(<= terminal (true (never)))
`

func testGame(key, rules string) *games.Game {
	return &games.Game{Key: key, Name: key, Filename: key + ".kif", Rules: []byte(rules)}
}

// inTurn reports whether role moves at step (1-based) of pickGame.
func inTurn(role string, step int) bool {
	return (role == "white") == (step%2 == 1)
}

// scripted is an in-process player whose moves come from a function of the
// step. It checks that it is never called while a call is running.
type scripted struct {
	name string
	move func(ctx context.Context, role string, step int) (reasoner.Move, error)

	mu       sync.Mutex
	role     string
	step     int
	busy     atomic.Bool
	overlaps atomic.Int32
	calls    []string // "START", "PLAY", "STOP", "ABORT" in order
}

func (p *scripted) enter(verb string) func() {
	if !p.busy.CompareAndSwap(false, true) {
		p.overlaps.Add(1)
	}
	p.mu.Lock()
	p.calls = append(p.calls, verb)
	p.mu.Unlock()
	return func() { p.busy.Store(false) }
}

func (p *scripted) Name() string { return p.name }

func (p *scripted) Start(ctx context.Context, m *player.Match) error {
	defer p.enter("START")()
	p.mu.Lock()
	p.role = m.Role
	p.mu.Unlock()
	return nil
}

func (p *scripted) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	defer p.enter("PLAY")()
	p.mu.Lock()
	p.step++
	role, step := p.role, p.step
	p.mu.Unlock()
	return p.move(ctx, role, step)
}

func (p *scripted) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	defer p.enter("STOP")()
	return nil
}

func (p *scripted) Abort(ctx context.Context, id string) error {
	defer p.enter("ABORT")()
	return nil
}

func (p *scripted) log() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...)
}

// goodMove plays (pick n) in turn and noop otherwise.
func goodMove(n int) func(context.Context, string, int) (reasoner.Move, error) {
	return func(_ context.Context, role string, step int) (reasoner.Move, error) {
		if inTurn(role, step) {
			return reasoner.Move(fmt.Sprintf("(pick %d)", n)), nil
		}
		return "noop", nil
	}
}

// Answers to INFO of a protocolServer that are not answers.
const (
	infoClose = "<close the connection>"
	infoHang  = "<wait for the client to give up>"
)

// protocolServer is an HTTP player of pickGame written for these tests,
// with a behaviour chosen per message.
type protocolServer struct {
	t *testing.T
	// respond returns the response to a message; verb is START, PLAY, STOP
	// or ABORT and step counts the PLAY messages from 1. It may block or
	// write the response itself through w and return "", false.
	respond func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool)
	// info is the answer to INFO, which is not passed to respond nor
	// logged with the other messages.
	info string

	mu       sync.Mutex
	infos    int // INFO messages received
	role     string
	step     int
	messages []string
}

func (s *protocolServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/acl" || r.Method != http.MethodPost {
		s.t.Errorf("request %s with Content-Type %q, want POST text/acl", r.Method, ct)
	}
	msg := string(body)
	if strings.EqualFold(strings.Join(strings.Fields(msg), ""), "(INFO)") {
		s.mu.Lock()
		s.infos++
		s.mu.Unlock()
		switch s.info {
		case infoClose:
			closeConnection(w)
		case infoHang:
			waitForClient(r)
		default:
			w.Header().Set("Content-Type", "text/acl")
			io.WriteString(w, s.info)
		}
		return
	}
	e, err := gdl.ReadExpr(body)
	if err != nil || !e.IsList || len(e.List) < 2 {
		s.t.Errorf("unreadable message %q: %v", msg, err)
		return
	}
	verb := e.List[0].Atom
	s.mu.Lock()
	s.messages = append(s.messages, msg)
	switch verb {
	case "START":
		s.role = e.List[2].Atom
	case "PLAY":
		s.step++
	}
	role, step := s.role, s.step
	s.mu.Unlock()
	resp, ok := s.respond(w, r, verb, role, step)
	if ok {
		w.Header().Set("Content-Type", "text/acl")
		io.WriteString(w, resp)
	}
}

func (s *protocolServer) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.messages...)
}

// wellBehaved answers every message correctly.
func wellBehaved(_ http.ResponseWriter, _ *http.Request, verb, role string, step int) (string, bool) {
	switch verb {
	case "START":
		return "ready", true
	case "PLAY":
		if inTurn(role, step) {
			return "( pick 2 )", true
		}
		return "noop", true
	}
	return "done", true
}

// startServer serves respond on the loopback interface until the test ends.
func startServer(t *testing.T, respond func(http.ResponseWriter, *http.Request, string, string, int) (string, bool)) (*protocolServer, string) {
	s := &protocolServer{t: t, respond: respond, info: "((name tester) (status available) (species bot))"}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return s, strings.TrimPrefix(ts.URL, "http://")
}

// closeConnection hijacks the connection and closes it without a response.
func closeConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("response writer cannot hijack")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	}
}

// waitForClient blocks until the client gives up on the request, or long
// past any clock of these tests.
func waitForClient(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(30 * time.Second):
	}
}
