package remote

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

func TestNew(t *testing.T) {
	tests := []struct {
		addr, url string
		err       string // part of the error, "" for none
	}{
		{addr: "127.0.0.1:9147", url: "http://127.0.0.1:9147/"},
		{addr: "localhost:80", url: "http://localhost:80/"},
		{addr: "[::1]:9147", url: "http://[::1]:9147/"},
		{addr: "mcts:9147", url: "http://mcts:9147/"},
		{addr: "http://example.org:9147", url: "http://example.org:9147/"},
		{addr: "http://example.org", url: "http://example.org/"},
		{addr: "https://example.org/player", url: "https://example.org/player"},
		{addr: "http://[::1]:9147/ggp", url: "http://[::1]:9147/ggp"},
		{addr: "localhost", err: "missing port"},
		{addr: "host:", err: "no port after the colon"},
		{addr: ":9147", err: "no host before the port"},
		{addr: "::1:9147", err: "too many colons"},
		{addr: "host:http", err: `port "http": want a number from 1 to 65535`},
		{addr: "host:0", err: `port "0"`},
		{addr: "host:65536", err: `port "65536"`},
		{addr: "host:+80", err: `port "+80"`},
		{addr: "ftp://x", err: `scheme "ftp"`},
		{addr: "ftp://example.org/", err: `scheme "ftp"`},
		{addr: "HTTP://example.org/", err: `scheme "HTTP"`},
		{addr: "://example.org/", err: `scheme ""`},
		{addr: "http://", err: "no host after http://"},
		{addr: "https://:9147/", err: "no host after https://"},
		{addr: "http://host:/", err: "no port after the colon"},
		{addr: "http://host:99999/", err: `port "99999"`},
		{addr: "http://host:x/", err: "invalid port"},
		{addr: "http://user@host:9147/", err: "a user name"},
		{addr: "http://host:9147/?q=1", err: "a query or fragment"},
		{addr: "http://host:9147/#top", err: "a query or fragment"},
		{addr: "http://" + strings.Repeat("a", MaxAddressLength), err: "longer than"},
	}
	for _, tt := range tests {
		c, err := New(tt.addr)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("New(%q): error %v, want one containing %q", tt.addr, err, tt.err)
		case tt.err != "" && !strings.Contains(err.Error(), "want HOST:PORT or an http or https URL"):
			t.Errorf("New(%q): error %v does not say what an address is", tt.addr, err)
		case tt.err == "" && err != nil:
			t.Errorf("New(%q): %v", tt.addr, err)
		case tt.err == "" && (c.URL != tt.url || c.Name() != tt.addr):
			t.Errorf("New(%q) = URL %q, name %q; want %q, %q", tt.addr, c.URL, c.Name(), tt.url, tt.addr)
		}
	}
}

// recorder is a player server that records the messages and headers it is
// sent and answers with a fixed response.
type recorder struct {
	mu       sync.Mutex
	messages []string
	headers  []http.Header
	response string
	status   int
}

func (s *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.messages = append(s.messages, string(body))
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	if s.status != 0 {
		w.WriteHeader(s.status)
	}
	io.WriteString(w, s.response)
}

func TestMessages(t *testing.T) {
	srv := &recorder{response: " ( mark  1 1 )\r\n"}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, err := New(strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile("t.kif", []byte("(role x)\n; a comment\n(<= (legal x (mark ?a)) (index ?a))\n(index 1)"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx, &player.Match{ID: "m1", Role: "x", Rules: d, StartClock: 10 * time.Second, PlayClock: 1500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	m, err := c.Play(ctx, "m1", nil)
	if err != nil || m != "(mark 1 1)" {
		t.Errorf("Play = %q, %v; want (mark 1 1)", m, err)
	}
	if _, err := c.Play(ctx, "m1", []reasoner.Move{"(mark 1 1)", "noop"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(ctx, "m1", []reasoner.Move{"noop", "(mark 2 2)"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(ctx, "m2", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Abort(ctx, "m1"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"( START m1 x ((role x) (<= (legal x (mark ?a)) (index ?a)) (index 1)) 10 2)",
		"( PLAY m1 NIL )",
		"( PLAY m1 ((mark 1 1) noop) )",
		"( STOP m1 (noop (mark 2 2)) )",
		"( STOP m2 NIL )",
		"( ABORT m1 )",
	}
	if len(srv.messages) != len(want) {
		t.Fatalf("messages %q, want %q", srv.messages, want)
	}
	for i := range want {
		if srv.messages[i] != want[i] {
			t.Errorf("message %d = %q, want %q", i, srv.messages[i], want[i])
		}
	}
	h := srv.headers[0]
	for k, v := range map[string]string{"Content-Type": "text/acl", "Sender": "GAMESERVER", "Receiver": c.Name()} {
		if h.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, h.Get(k), v)
		}
	}
}

func TestBadResponses(t *testing.T) {
	tests := []struct {
		name     string
		response string
		status   int
		resp     bool // want a *ResponseError
	}{
		{"unbalanced", "(mark 1", 0, true},
		{"two terms", "noop noop", 0, true},
		{"empty", "", 0, true},
		{"too large", strings.Repeat("a", DefaultMaxResponseSize+1), 0, true},
		{"server error", "noop", http.StatusInternalServerError, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(&recorder{response: tt.response, status: tt.status})
			defer ts.Close()
			c := &Client{URL: ts.URL}
			_, err := c.Play(context.Background(), "m1", nil)
			if err == nil {
				t.Fatal("Play succeeded")
			}
			var re *ResponseError
			if errors.As(err, &re) != tt.resp {
				t.Errorf("err = %v: ResponseError %v, want %v", err, !tt.resp, tt.resp)
			}
			if !strings.Contains(err.Error(), ts.URL) {
				t.Errorf("err = %v does not name the player", err)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	c := &Client{URL: ts.URL}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, err := c.Play(ctx, "m1", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("Play returned after %v", d)
	}
}

// TestWaitReady checks that WaitReady asks INFO until the player answers
// other than busy, and that when the context ends first its error says
// what the player last answered.
func TestWaitReady(t *testing.T) {
	tests := []struct {
		name    string
		answers []string // the answers to the INFOs in turn, the last repeated
		wait    time.Duration
		want    string // "" for ready, else a part of the error
	}{
		{"available", []string{"((name p) (status available))"}, time.Minute, ""},
		{"busy then available", []string{"((name p) (status busy))", "((name p) (status available))"}, time.Minute, ""},
		{"no status", []string{"((name p))"}, time.Minute, ""},
		{"always busy", []string{"((name p) (status busy))"}, 300 * time.Millisecond, "not ready: it answers INFO busy"},
		{"unreadable", []string{"(("}, 300 * time.Millisecond, "not ready: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			asked := 0
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				a := tt.answers[min(asked, len(tt.answers)-1)]
				asked++
				mu.Unlock()
				io.WriteString(w, a)
			}))
			defer ts.Close()
			c := &Client{URL: ts.URL}
			ctx, cancel := context.WithTimeout(context.Background(), tt.wait)
			defer cancel()
			err := c.WaitReady(ctx)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("WaitReady: %v, want ready", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("WaitReady: %v, want an error containing %q", err, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if want := len(tt.answers); tt.want == "" && asked != want {
				t.Errorf("%d INFOs, want %d", asked, want)
			}
		})
	}
}
