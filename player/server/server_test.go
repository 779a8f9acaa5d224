package server

import (
	"bufio"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/reasoner/backend"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// testServer serves p on a real listener on 127.0.0.1.
func testServer(t *testing.T, p player.Player) (*Server, string) {
	t.Helper()
	s := New(p)
	s.ErrorLog = log.New(io.Discard, "", 0)
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return s, hs.URL
}

// checkHeaders checks the headers every reply carries.
func checkHeaders(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	want := map[string]string{
		"Content-Type":                 "text/acl",
		"Access-Control-Allow-Origin":  "*",
		"Access-Control-Allow-Methods": "POST, GET, OPTIONS",
		"Access-Control-Allow-Headers": "Content-Type",
		"Access-Control-Allow-Age":     "86400",
	}
	if resp.StatusCode != http.StatusOK {
		t.Errorf("%s: status %s", what, resp.Status)
	}
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: header %s = %q, want %q", what, k, got, v)
		}
	}
}

func do(t *testing.T, req *http.Request) string {
	t.Helper()
	body, err := tryDo(t, req)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// tryDo is do returning its error rather than failing the test now, so
// that it may run in a goroutine other than the test's (t.Fatal must not).
// The headers are still checked, with t.Errorf, which any goroutine may call.
func tryDo(t *testing.T, req *http.Request) (string, error) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	checkHeaders(t, req.Method+" "+req.URL.String(), resp)
	return string(body), nil
}

// post sends msg as ggp-base's game server does.
func post(t *testing.T, base, msg string) string {
	t.Helper()
	body, err := tryPost(t, base, msg)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// tryPost is post returning its error, for use in a goroutine.
func tryPost(t *testing.T, base, msg string) (string, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(msg))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "text/acl")
	req.Header.Set("Accept", "text/delim")
	req.Header.Set("Sender", "GAMESERVER")
	return tryDo(t, req)
}

// get sends msg URL-encoded in the path, as ggp-base's GET requests do.
func get(t *testing.T, base, msg string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/"+url.QueryEscape(msg), nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// rulesText returns the rules of a bundled game as one line of KIF.
func rulesText(t *testing.T, d *gdl.Description) string {
	t.Helper()
	var b strings.Builder
	for i, r := range d.Rules {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(gdl.Format(r))
	}
	return b.String()
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: reply %q, want %q", what, got, want)
	}
}

// TestServerMatch drives a whole tic-tac-toe match over HTTP with the
// messages of the protocol and checks every reply.
func TestServerMatch(t *testing.T) {
	d := playertest.LoadGame(t, "ticTacToe")
	rules := rulesText(t, d)
	_, base := testServer(t, newBaseline(t, baseline.Legal, "tester"))

	req, _ := http.NewRequest(http.MethodOptions, base+"/", nil)
	expect(t, "OPTIONS", do(t, req), "")
	expect(t, "INFO", post(t, base, "(INFO)"), "((name tester) (status available) (species bot))")
	expect(t, "GET INFO", get(t, base, "(INFO)"), "((name tester) (status available) (species bot))")
	expect(t, "lower-case info", post(t, base, "( info )"), "((name tester) (status available) (species bot))")
	expect(t, "PREVIEW", post(t, base, "(PREVIEW ("+rules+") 10)"), "ready")
	expect(t, "PLAY before START", post(t, base, "(PLAY m1 NIL)"), "busy")

	expect(t, "START", post(t, base, "(START m1 xplayer ("+rules+") 10 1)"), "ready")
	expect(t, "INFO in a match", post(t, base, "(INFO)"), "((name tester) (status busy) (species bot))")
	expect(t, "second START", post(t, base, "(START m2 oplayer ("+rules+") 10 1)"), "busy")
	expect(t, "PLAY of another match", post(t, base, "(PLAY m2 NIL)"), "busy")
	expect(t, "STOP of another match", post(t, base, "(STOP m2 NIL)"), "busy")
	expect(t, "ABORT of another match", post(t, base, "(ABORT m2)"), "busy")

	// Play the match: the server plays xplayer with the legal player, the
	// test plays oplayer's first legal move.
	ctx := context.Background()
	ref := playertest.Reference(t, d)
	st, _ := ref.Initial(ctx)
	last := "NIL"
	for turn := 0; ; turn++ {
		if term, _ := ref.Terminal(ctx, st); term {
			break
		}
		msg := "(PLAY m1 " + last + ")"
		if turn%2 == 1 {
			msg = "( PLAY m1 " + last + " )" // ggp-base's spacing
		}
		var reply string
		if turn == 2 {
			reply = get(t, base, msg)
		} else {
			reply = post(t, base, msg)
		}
		xs, _ := ref.Legal(ctx, st, 0)
		os, _ := ref.Legal(ctx, st, 1)
		if reply != string(xs[0]) {
			t.Fatalf("turn %d: %s: reply %q, want the first legal move %s", turn, msg, reply, xs[0])
		}
		joint := []reasoner.Move{xs[0], os[0]}
		st, _ = ref.Next(ctx, st, joint)
		last = "(" + string(joint[0]) + " " + string(joint[1]) + ")"
	}
	expect(t, "STOP", post(t, base, "(STOP m1 "+last+")"), "done")
	expect(t, "INFO after STOP", post(t, base, "(INFO)"), "((name tester) (status available) (species bot))")
	expect(t, "PLAY after STOP", post(t, base, "(PLAY m1 NIL)"), "busy")
	expect(t, "STOP again", post(t, base, "(STOP m1 "+last+")"), "busy")

	expect(t, "START as oplayer", post(t, base, "(start m3 oplayer ("+rules+") 10 1)"), "ready")
	expect(t, "PLAY as oplayer", post(t, base, "(play m3 nil)"), "noop")
	expect(t, "ABORT", post(t, base, "(ABORT m3)"), "aborted")
	expect(t, "ABORT again", post(t, base, "(ABORT m3)"), "busy")
	expect(t, "INFO after ABORT", get(t, base, "(INFO)"), "((name tester) (status available) (species bot))")
}

// TestServerBadRequests checks that messages that cannot be served get an
// error reply and leave the server working.
func TestServerBadRequests(t *testing.T) {
	d := playertest.LoadGame(t, "ticTacToe")
	rules := rulesText(t, d)
	s, base := testServer(t, newBaseline(t, baseline.Random, ""))
	s.MaxBodySize = 64 << 10
	tests := []struct {
		name, msg string
	}{
		{"empty", ""},
		{"unbalanced", "(INFO"},
		{"atom", "INFO"},
		{"list head", "((INFO))"},
		{"two messages", "(INFO) (INFO)"},
		{"unknown type", "(DANCE m1)"},
		{"INFO arity", "(INFO now)"},
		{"PLAY arity", "(PLAY m1)"},
		{"STOP arity", "(STOP m1 NIL extra)"},
		{"ABORT arity", "(ABORT)"},
		{"PREVIEW arity", "(PREVIEW)"},
		{"START arity", "(START m1 xplayer (" + rules + ") 10)"},
		{"START clock", "(START m1 xplayer (" + rules + ") ten 1)"},
		{"START zero clock", "(START m1 xplayer (" + rules + ") 10 0)"},
		{"START role list", "(START m1 (xplayer) (" + rules + ") 10 1)"},
		{"START id list", "(START (m1) xplayer (" + rules + ") 10 1)"},
		{"START rules atom", "(START m1 xplayer rules 10 1)"},
		{"START no rules", "(START m1 xplayer () 10 1)"},
		{"START bad rules", "(START m1 xplayer ((<= (role ?x))) 10 1)"},
		{"START rules without roles", "(START m1 xplayer ((init (cell 1))) 10 1)"},
		{"START unknown role", "(START m1 nobody (" + rules + ") 10 1)"},
		{"control character", "(INFO \x01)"},
		{"too large", "(INFO " + strings.Repeat("x ", 40<<10) + ")"},
	}
	for _, tt := range tests {
		reply := post(t, base, tt.msg)
		if !strings.HasPrefix(reply, `(error "`) || !strings.HasSuffix(reply, `")`) {
			t.Errorf("%s: reply %q, want (error \"...\")", tt.name, reply)
		}
		if _, err := gdl.ReadExpr([]byte(reply)); err != nil {
			t.Errorf("%s: reply %q is not one S-expression: %v", tt.name, reply, err)
		}
		expect(t, tt.name+": INFO after", post(t, base, "(INFO)"), "((name random) (status available) (species bot))")
	}
	if reply := get(t, base, "(INFO"); !strings.HasPrefix(reply, "(error ") {
		t.Errorf("GET of an unbalanced message: reply %q", reply)
	}
	req, _ := http.NewRequest(http.MethodPut, base+"/", strings.NewReader("(INFO)"))
	expect(t, "PUT", do(t, req), "")

	// A bad joint move in a real match is an error reply that says why,
	// not a crash nor a silent nil.
	expect(t, "START", post(t, base, "(START m1 xplayer ("+rules+") 10 1)"), "ready")
	for _, tt := range []struct{ name, msg, why string }{
		{"PLAY with a variable", "(PLAY m1 ((mark 1 1) ?x))", "term 2 '?x': not ground"},
		{"PLAY with one move for two roles", "(PLAY m1 ((mark 1 1)))", "neither a joint move [2 roles] nor percepts"},
		{"PLAY with no move of its role", "(PLAY m1 (noop (mark 1 1 1)))", "term 2, [mark 1 1 1], is no move of role oplayer"},
	} {
		reply := post(t, base, tt.msg)
		if !strings.HasPrefix(reply, `(error "PLAY m1 cannot be read: `) || !strings.Contains(reply, tt.why) {
			t.Errorf("%s: reply %q, want (error \"PLAY m1 cannot be read: ...%s...\")", tt.name, reply, tt.why)
		}
	}
	expect(t, "ABORT", post(t, base, "(ABORT m1)"), "aborted")
}

// TestServerUnframedPost sends a POST without Content-Length, as some
// game masters do, and reads the reply from the raw connection.
func TestServerUnframedPost(t *testing.T) {
	_, base := testServer(t, newBaseline(t, baseline.Legal, ""))
	addr := strings.TrimPrefix(base, "http://")
	for _, closeWrite := range []bool{false, true} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(conn, "POST / HTTP/1.0\r\nContent-Type: text/acl\r\n\r\n( INFO )")
		if closeWrite {
			conn.(*net.TCPConn).CloseWrite()
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		checkHeaders(t, "unframed POST", resp)
		expect(t, "unframed POST", string(body), "((name legal) (status available) (species bot))")
	}
}

// TestServerAnswersDuringSearch checks that INFO and ABORT are answered
// while the mcts player searches, and that the ABORT ends the search long
// before its clock would. How fast INFO is answered is not checked: speed
// is for benchmarks.
func TestServerAnswersDuringSearch(t *testing.T) {
	d := playertest.LoadGame(t, "connectFour")
	rules := rulesText(t, d)
	p := watchPlays(newPlayer(t, "mcts", mctsplayer.Options{}))
	_, base := testServer(t, p)
	expect(t, "START", post(t, base, "(START m1 red ("+rules+") 1 "+strconv.Itoa(searchClock)+")"), "ready")
	played := make(chan string, 1)
	go func() {
		m, err := tryPost(t, base, "(PLAY m1 NIL)")
		if err != nil {
			t.Errorf("PLAY: %v", err)
		}
		played <- m
	}()
	<-p.entered // the search is under way
	expect(t, "INFO during PLAY", post(t, base, "(INFO)"), "((name mcts) (status busy) (species bot))")
	select {
	case m := <-played:
		t.Fatalf("PLAY answered %q before the ABORT", m)
	default:
	}
	expect(t, "ABORT during PLAY", post(t, base, "(ABORT m1)"), "aborted")
	m := <-played
	if left := <-p.left; left < searchClock*time.Second/2 {
		t.Errorf("the search ended with %v of its %d s left: by its clock, not by the ABORT", left, searchClock)
	}
	if !strings.HasPrefix(m, "(drop ") && m != "nil" {
		t.Errorf("PLAY answered %q", m)
	}
}

// searchClock is the play clock of TestServerAnswersDuringSearch, in
// seconds: so long that a search the ABORT does not end is told apart
// from one it ends whatever the load of the machine.
const searchClock = 60

// playWatcher is a player that tells a test of every PLAY that reaches
// it, on entered (the moves it was told), and how long its context had
// left when the PLAY returned, on left. A PLAY beyond the channels'
// buffers is not told.
type playWatcher struct {
	player.Player
	entered chan []reasoner.Move
	left    chan time.Duration
}

func watchPlays(p player.Player) *playWatcher {
	return &playWatcher{Player: p, entered: make(chan []reasoner.Move, 32), left: make(chan time.Duration, 32)}
}

func (p *playWatcher) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	select {
	case p.entered <- last:
	default:
	}
	defer func() {
		deadline, _ := ctx.Deadline()
		select {
		case p.left <- time.Until(deadline):
		default:
		}
	}()
	return p.Player.Play(ctx, id, last)
}

// TestServerPlayClock checks that replies to START and PLAY arrive within
// their clocks even when every playout step of the search takes longer
// than a third of the clock.
func TestServerPlayClock(t *testing.T) {
	d := playertest.LoadGame(t, "ticTacToe")
	rules := rulesText(t, d)
	p := newPlayer(t, "mcts", mctsplayer.Options{NewReasoner: playertest.Faulty(playertest.Factory(t, backend.Auto), false, 400*time.Millisecond)})
	_, base := testServer(t, p)
	ctx := context.Background()
	ref := playertest.Reference(t, d)
	st, _ := ref.Initial(ctx)
	t0 := time.Now()
	expect(t, "START", post(t, base, "(START m1 xplayer ("+rules+") 1 1)"), "ready")
	if d := time.Since(t0); d > time.Second {
		t.Errorf("START answered after %v, clock 1s", d)
	}
	last := "NIL"
	for turn := 0; turn < 3; turn++ {
		t0 := time.Now()
		reply := post(t, base, "(PLAY m1 "+last+")")
		if d := time.Since(t0); d > time.Second {
			t.Errorf("turn %d: PLAY answered after %v, clock 1s", turn, d)
		}
		xs, _ := ref.Legal(ctx, st, 0)
		os, _ := ref.Legal(ctx, st, 1)
		if !slices.Contains(xs, reasoner.Move(reply)) {
			t.Fatalf("turn %d: reply %q is not legal: %v", turn, reply, xs)
		}
		joint := []reasoner.Move{reasoner.Move(reply), os[0]}
		st, _ = ref.Next(ctx, st, joint)
		last = "(" + string(joint[0]) + " " + string(joint[1]) + ")"
	}
	expect(t, "STOP", post(t, base, "(STOP m1 "+last+")"), "done")
}

// newBaseline returns a baseline player made by newPlayer (baseline.Random
// or baseline.Legal), named name, on the default backend.
func newBaseline(t *testing.T, newPlayer func(baseline.Options) player.Player, name string) player.Player {
	return newPlayer(baseline.Options{Name: name, NewReasoner: playertest.Factory(t, backend.Auto)})
}

// newPlayer returns an mcts player of spec on the default backend.
func newPlayer(t *testing.T, spec string, opts mctsplayer.Options) player.Player {
	t.Helper()
	if opts.NewReasoner == nil {
		opts.NewReasoner = playertest.Factory(t, backend.Auto)
	}
	p, err := mctsplayer.New(spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
