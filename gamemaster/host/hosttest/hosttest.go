// Package hosttest serves players for the tests of the match host.
package hosttest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner"
)

// SlowPlayer serves the in-process player spec over HTTP on loopback, a
// fresh one for every match so that it plays any number of matches at
// once, answering every PLAY after delay so that a match lasts long
// enough to be watched or cut; it returns its URL. The server stops when
// t ends.
func SlowPlayer(t testing.TB, spec string, factory reasoner.Factory, delay time.Duration) string {
	t.Helper()
	newServer := func() http.Handler {
		p, err := players.New(spec, factory)
		if err != nil {
			t.Error(err)
			return http.NotFoundHandler()
		}
		return server.New(p)
	}
	var mu sync.Mutex
	byMatch := map[string]http.Handler{}
	info := newServer()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			return
		}
		// (VERB ID ...): INFO has no id.
		fields := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(string(body)))
		h := info
		if len(fields) >= 2 && !strings.EqualFold(fields[0], "info") {
			mu.Lock()
			if byMatch[fields[1]] == nil {
				byMatch[fields[1]] = newServer()
			}
			h = byMatch[fields[1]]
			mu.Unlock()
		}
		if len(fields) > 0 && strings.EqualFold(fields[0], "play") {
			time.Sleep(delay) // the player thinks
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}
