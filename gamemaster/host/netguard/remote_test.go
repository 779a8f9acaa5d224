package netguard

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/remote"
)

// TestRemotePlayer checks the policy on both ways a remote player is
// called: GDL messages through the client's HTTPClient, and GDL-II ones on
// connections the client dials itself.
func TestRemotePlayer(t *testing.T) {
	srv, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "((name tester) (status available))")
	})
	calls := []struct {
		name string
		call func(ctx context.Context, c *remote.Client) error
	}{
		{"GDL info", func(ctx context.Context, c *remote.Client) error {
			_, err := c.Info(ctx)
			return err
		}},
		{"GDL-II stop", func(ctx context.Context, c *remote.Client) error {
			return c.StopTurn(ctx, "m1", player.Turn{Number: 1, Move: "noop"})
		}},
	}
	for _, allow := range [][]string{nil, {"127.0.0.0/8"}} {
		for _, call := range calls {
			t.Run(call.name+" allow "+strings.Join(allow, ","), func(t *testing.T) {
				var rec recorder
				p := rec.watch(newPolicy(t, Config{Allow: allow}))
				c := &remote.Client{URL: srv.URL + "/", PlayerName: "tester", HTTPClient: p.Client(ClientOptions{}), DialContext: p.DialContext}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				before := count()
				err := call.call(ctx, c)
				if allow != nil {
					if err != nil || count() != before+1 {
						t.Fatalf("error %v with %d requests, want 1 answered", err, count()-before)
					}
					rec.check(t, "127.0.0.1")
					return
				}
				var re *RefusedError
				if !errors.As(err, &re) || count() != before {
					t.Fatalf("error %v with %d requests, want a refusal before any", err, count()-before)
				}
				rec.check(t)
			})
		}
	}
}
