package main

import (
	"bufio"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
)

// viewerFuncs is what the stacks of the goroutines of a viewer's server
// show: the server's own, and those serveViewer starts.
var viewerFuncs = []string{"ggp/cmd/ggp.serveViewer", "net/http.(*conn).serve", "net/http.(*Server)."}

var viewingLine = regexp.MustCompile(`viewing .* at (http://\S+)`)

// TestViewLeavesNoGoroutines checks that ggp view, interrupted while a
// page watches a match, returns only once its server has shut down: no
// goroutine of the server is left, not even the one that shuts it down
// (which gives the page's event stream its time to end first).
func TestViewLeavesNoGoroutines(t *testing.T) {
	out, errOut := &syncBuffer{}, &syncBuffer{}
	env := &environment{stdin: strings.NewReader(""), stdout: out, stderr: errOut}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- run(ctx, env, []string{"view", "--port", "0", t.TempDir()}) }()
	m := out.await(viewingLine, 20*time.Second, code)
	if m == nil {
		t.Fatalf("ggp view exited or printed no address in time\n%s\n%s", out, errOut)
	}

	// A page watching a match that is not there: an event stream that
	// does not end by itself.
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(m[1] + "/api/watch?src=live/none")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	for { // up to the first event: the stream is under way
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		if strings.HasPrefix(line, "data:") {
			break
		}
	}

	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("ggp view: exit %d\n%s", c, errOut)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ggp view did not return after the interrupt")
	}
	gamestest.NoGoroutines(t, 200*time.Millisecond, viewerFuncs...)
}
