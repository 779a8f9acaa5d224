package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/reasoner"
)

// clockPlayer thinks for the whole of every clock, as a search does: it
// answers START and PLAY when the deadline of the call has passed.
type clockPlayer struct{}

func (clockPlayer) Name() string { return "clock" }

func (clockPlayer) Start(ctx context.Context, m *player.Match) error {
	<-ctx.Done()
	return nil
}

func (clockPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	<-ctx.Done()
	return "(mark 1 1)", nil
}

func (clockPlayer) Stop(ctx context.Context, id string, last []reasoner.Move) error { return nil }
func (clockPlayer) Abort(ctx context.Context, id string) error                      { return nil }

// TestServeAnswersAfterTimeouts checks that an answer the player decides
// within its clock reaches the game master however long after its request
// it comes: the connection timeouts are made a tenth of the clock, and the
// player thinks to the end of every clock. START and PLAY are sent over
// 127.0.0.1 in every way a game master may frame them: with
// Content-Length, chunked, without Content-Length (read to the end of the
// S-expression, as ggp-base does), and as a GET.
func TestServeAnswersAfterTimeouts(t *testing.T) {
	const timeout = 100 * time.Millisecond
	s := New(clockPlayer{})
	s.HeaderTimeout, s.BodyTimeout, s.IdleTimeout, s.WriteTimeout = timeout, timeout, timeout, timeout
	s.ErrorLog = log.New(io.Discard, "", 0)
	addr := serveLoopback(t, s)
	rules := rulesText(t, playertest.LoadGame(t, "ticTacToe"))

	// The clocks are 1 s, less the margin of a quarter of the clock: each
	// answer is ready 750 ms after its request, 7.5 timeouts.
	const answerAfter = 750 * time.Millisecond
	framings := []struct {
		name string
		send func(msg string) (string, error)
	}{
		{"Content-Length", func(msg string) (string, error) { return postFramed(addr, msg, false) }},
		{"chunked", func(msg string) (string, error) { return postFramed(addr, msg, true) }},
		{"no Content-Length", func(msg string) (string, error) { return postUnframed(addr, msg) }},
	}
	for i, f := range framings {
		id := fmt.Sprintf("m%d", i)
		for _, m := range []struct{ msg, want string }{
			{"(START " + id + " xplayer (" + rules + ") 1 1)", "ready"},
			{"(PLAY " + id + " NIL)", "(mark 1 1)"},
		} {
			what := f.name + ": " + strings.Fields(m.msg)[0]
			t0 := time.Now()
			got, err := f.send(m.msg)
			took := time.Since(t0)
			if err != nil {
				t.Fatalf("%s: no answer after %v (timeouts %v): %v", what, took, timeout, err)
			}
			expect(t, what, got, m.want)
			if took < answerAfter {
				t.Fatalf("%s: answered after %v, before the clock: the test does not exercise answers later than the timeouts", what, took)
			}
		}
		if got, err := f.send("(STOP " + id + " NIL)"); err != nil || got != "done" {
			t.Fatalf("%s: STOP: %q, %v", f.name, got, err)
		}
	}

	// PLAY as a GET, which ggp-base's player accepts from browsers.
	expect(t, "START for GET", post(t, "http://"+addr, "(START g xplayer ("+rules+") 1 1)"), "ready")
	t0 := time.Now()
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/(PLAY%20g%20NIL)", nil)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "GET PLAY", do(t, req), "(mark 1 1)")
	if took := time.Since(t0); took < answerAfter {
		t.Fatalf("GET PLAY answered after %v, before the clock", took)
	}
}

// postFramed posts msg on a new connection with Content-Length, or
// chunked, and returns the body of the reply.
func postFramed(addr, msg string, chunked bool) (string, error) {
	var body io.Reader = strings.NewReader(msg)
	if chunked {
		body = io.MultiReader(body) // of unknown length: sent chunked
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/", body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "text/acl")
	req.Close = true
	if chunked != (req.ContentLength <= 0) {
		return "", fmt.Errorf("request framed with Content-Length %d, chunked %v", req.ContentLength, chunked)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// postUnframed posts msg over HTTP/1.0 without Content-Length, leaving
// the connection open for writing, and returns the body of the reply.
func postUnframed(addr, msg string) (string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second)) // only so that a broken server fails the test
	if _, err := io.WriteString(c, "POST / HTTP/1.0\r\nContent-Type: text/acl\r\n\r\n"+msg); err != nil {
		return "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// TestStartWhileStopping checks that a START for a new match is served
// while the mcts player still ponders on the last one: sent just after its
// STOP, and sent just before it, as a game master that publishes a match
// as over before stopping it may do. A START while a match goes on, with
// no STOP coming, is still busy.
func TestStartWhileStopping(t *testing.T) {
	d := playertest.LoadGame(t, "connectFour")
	rules := rulesText(t, d)
	p := newPlayer(t, "mcts:workers=1", mctsplayer.Options{})
	s := New(p)
	s.ErrorLog = log.New(io.Discard, "", 0)
	startWaits := make(chan struct{}, 1)
	s.startWaits = func() {
		select {
		case startWaits <- struct{}{}:
		default: // a later START, which nothing awaits
		}
	}
	base := "http://" + serveLoopback(t, s)
	start := func(id string) string { return "(START " + id + " red (" + rules + ") 1 1)" }

	expect(t, "START c1", post(t, base, start("c1")), "ready")
	if m := post(t, base, "(PLAY c1 NIL)"); !strings.HasPrefix(m, "(drop ") {
		t.Fatalf("PLAY c1: %q", m)
	}
	// The player ponders now. STOP, then START at once.
	expect(t, "STOP c1", post(t, base, "(STOP c1 NIL)"), "done")
	expect(t, "START c2 just after STOP c1", post(t, base, start("c2")), "ready")
	if m := post(t, base, "(PLAY c2 NIL)"); !strings.HasPrefix(m, "(drop ") {
		t.Fatalf("PLAY c2: %q", m)
	}

	// START before the STOP of the match that ends: it waits for the STOP.
	started := make(chan string, 1)
	go func() {
		r, err := tryPost(t, base, start("c3"))
		if err != nil {
			r = err.Error()
		}
		started <- r
	}()
	<-startWaits // START c3 waits for c2 to end
	expect(t, "STOP c2 after START c3", post(t, base, "(STOP c2 NIL)"), "done")
	expect(t, "START c3 sent before STOP c2", <-started, "ready")
	if m := post(t, base, "(PLAY c3 NIL)"); !strings.HasPrefix(m, "(drop ") {
		t.Fatalf("PLAY c3: %q", m)
	}

	// A START while c3 goes on, and no STOP comes: busy, and c3 plays on.
	expect(t, "START c4 during c3", post(t, base, start("c4")), "busy")
	expect(t, "START c3 again", post(t, base, start("c3")), "busy")
	if m := post(t, base, "(PLAY c3 ((drop 1) noop))"); m != "noop" {
		t.Fatalf("PLAY c3 after the refused STARTs: %q, want noop", m)
	}
	expect(t, "ABORT c3", post(t, base, "(ABORT c3)"), "aborted")
}
