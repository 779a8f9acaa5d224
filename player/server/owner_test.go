package server

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/mctsplayer"
)

// serverFuncs is what the stacks of a server's goroutines show: its
// handlers and the goroutine that accepts, and net/http's connections.
var serverFuncs = []string{"ggp/player/server.(*Server).", "net/http.(*conn).serve"}

// heldPlayer holds every START until its context is done, and reports how
// the context ended.
type heldPlayer struct {
	clockPlayer
	held  chan struct{} // a START is held
	ended chan error    // the error of the context that ended it
}

func (p heldPlayer) Start(ctx context.Context, m *player.Match) error {
	p.held <- struct{}{}
	<-ctx.Done()
	p.ended <- ctx.Err()
	return ctx.Err()
}

// serveQuietly serves p on a loopback port, its errors discarded, until
// cancel is called; served then receives what Serve returned.
func serveQuietly(t *testing.T, p player.Player) (addr string, served <-chan error, cancel context.CancelFunc) {
	t.Helper()
	s := New(p)
	s.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	return ln.Addr().String(), done, cancel
}

// TestShutdownCancelsCalls checks that Serve, once its context is done,
// cancels the context of a player's call still under way after the grace
// it gives them, waits for it to return, and leaves no goroutine: for a
// POST with Content-Length, which net/http's Shutdown waits for, and one
// without, whose connection the server takes over from net/http. The
// START's clock outlasts the check, so only the server can end it in
// time.
func TestShutdownCancelsCalls(t *testing.T) {
	tests := []struct {
		name string
		send func(addr, msg string) (string, error)
	}{
		{"framed", func(addr, msg string) (string, error) { return postFramed(addr, msg, false) }},
		{"unframed", postUnframed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := heldPlayer{held: make(chan struct{}, 1), ended: make(chan error, 1)}
			addr, served, cancel := serveQuietly(t, p)
			defer cancel()
			replied := make(chan struct{})
			go func() {
				defer close(replied)
				tt.send(addr, "(START m1 red ((role red)) 6 6)")
			}()
			select {
			case <-p.held:
			case <-time.After(5 * time.Second):
				t.Fatal("START did not reach the player")
			}
			cancel()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not return")
			}
			select {
			case err := <-p.ended:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the player's START ended by %v, want its context cancelled", err)
				}
			default:
				t.Error("Serve returned with the player's START still held")
			}
			gamestest.NoGoroutines(t, time.Second, serverFuncs...)
			<-replied
		})
	}
}

// TestShutdownEndsMatch checks that Serve aborts the match under way when
// it shuts down, and that then no goroutine is left of the server, nor of
// the mcts player's match: the search it ponders with between turns and
// the owner of that search.
func TestShutdownEndsMatch(t *testing.T) {
	d := playertest.LoadGame(t, "ticTacToe")
	addr, served, cancel := serveQuietly(t, newPlayer(t, "mcts:workers=2", mctsplayer.Options{}))
	defer cancel()
	base := "http://" + addr
	expect(t, "START", post(t, base, "(START m1 xplayer ("+rulesText(t, d)+") 1 1)"), "ready")
	if m := post(t, base, "(PLAY m1 NIL)"); !strings.HasPrefix(m, "(mark ") {
		t.Fatalf("PLAY: %q", m)
	}
	cancel() // the player ponders
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	gamestest.NoGoroutines(t, time.Second, append(serverFuncs, "ggp/player/mctsplayer.", "ggp/player/mcts.")...)
}
