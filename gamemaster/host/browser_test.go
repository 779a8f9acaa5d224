package host_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster/host"
	"github.com/ggp-go/ggp/gamemaster/host/hosttest"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/view/browsertest"
)

// TestBrowserRegisterWatchStandings is a person's visit in Chromium:
// they register two players on the registration page, get their tokens,
// watch a match of theirs live as the host plays it, open the page of a
// match they played, and read the standings.
func TestBrowserRegisterWatchStandings(t *testing.T) {
	ctx := browsertest.Start(t)
	f := newFixture(t, "")
	defer f.close()

	for _, p := range []struct{ name, spec string }{{"alice", "random"}, {"bob", "legal"}} {
		var token string
		browsertest.Run(t, ctx, 20*time.Second,
			chromedp.Navigate(f.web.URL+"/register"),
			chromedp.WaitVisible(`input[name=name]`),
			chromedp.SendKeys(`input[name=name]`, p.name),
			chromedp.SendKeys(`input[name=url]`, hosttest.SlowPlayer(t, p.spec, f.factory, 400*time.Millisecond)),
			chromedp.Click(`button[type=submit]`),
			chromedp.WaitVisible(`#token`),
			chromedp.Text(`#token`, &token),
		)
		if len(strings.TrimSpace(token)) < 20 {
			t.Fatalf("registering %s: token %q", p.name, token)
		}
	}
	// A second registration of a name taken says so on the page.
	var taken string
	browsertest.Run(t, ctx, 20*time.Second,
		chromedp.Navigate(f.web.URL+"/register"),
		chromedp.WaitVisible(`input[name=name]`),
		chromedp.SendKeys(`input[name=name]`, "alice"),
		chromedp.SendKeys(`input[name=url]`, f.servePlayer("random")),
		chromedp.Click(`button[type=submit]`),
		chromedp.WaitVisible(`#error`),
		chromedp.Text(`#error`, &taken),
	)
	if !strings.Contains(taken, "taken") {
		t.Errorf("a name taken says %q", taken)
	}

	// The host schedules and publishes as it runs: a match appears in
	// the viewer's list of live matches without a reload, and its page
	// shows it live.
	ctx2, stop := context.WithCancel(context.Background())
	running := make(chan struct{}) // closed when Run returns
	go func() {
		defer close(running)
		f.h.Run(ctx2)
	}()
	defer func() {
		stop()
		<-running
	}()
	var status string
	browsertest.Run(t, ctx, 30*time.Second,
		chromedp.Navigate(f.web.URL+"/matches"),
		chromedp.Poll(`document.querySelector('#live a') !== null`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Click(`#live a`),
		chromedp.WaitVisible(`#board td.cell`),
		chromedp.Poll(`document.querySelector('.live') !== null`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`.live`, &status),
	)
	if status != "live" {
		t.Errorf("the page of a match in play says %q, want live", status)
	}
	played := <-f.finished
	stop()
	<-running
	if _, err := host.Export(context.Background(), f.st, filepath.Join(f.dir, "records"), time.Time{}); err != nil {
		t.Fatal(err)
	}
	var cells int
	browsertest.Run(t, ctx, 30*time.Second,
		chromedp.Navigate(f.web.URL+"/"),
		chromedp.WaitVisible(`table.matches a`),
		chromedp.Click(`//table[@class="matches"]//a[text()="`+played.ID+`"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#board td.cell`),
		chromedp.Evaluate(`document.querySelectorAll('#board td.cell').length`, &cells),
	)
	if cells != 9 {
		t.Errorf("the match page of %s shows %d cells, want ticTacToe's 9", played.ID, cells)
	}

	var rows []string
	browsertest.Run(t, ctx, 20*time.Second,
		chromedp.Navigate(f.web.URL+"/"),
		chromedp.WaitVisible(`#overall table`),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#overall tr')).slice(1).map(r => Array.from(r.cells).map(c => c.textContent.trim()).join('|'))`, &rows),
	)
	if len(rows) != 2 {
		t.Fatalf("standings rows %q, want alice and bob", rows)
	}
	ms, err := f.st.Matches(context.Background(), store.MatchFilter{Tournament: host.Tournament, Status: store.StatusDone})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alice", "bob"} {
		found := false
		for _, r := range rows {
			c := strings.Split(r, "|")
			found = found || (len(c) == 5 && c[0] == name && c[1] != "" && strings.Contains(c[2], " to ") && c[3] == strconv.Itoa(len(ms)) && c[4] == "0")
		}
		if !found {
			t.Errorf("standings rows %q: no row of %s with a rating, its interval, %d matches and none aborted", rows, name, len(ms))
		}
	}
}
