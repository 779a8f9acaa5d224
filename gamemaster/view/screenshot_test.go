package view_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
)

// TestScreenshots writes the README's screenshots of the viewer to the
// folder named by GGP_VIEW_SCREENSHOTS (such as testdata/screenshots): a
// match page drawn with a bundled game's stylesheet, one drawn by the
// generic renderer (checkers from ../shared/games, which has no
// stylesheet), and the index with a tournament's results and plot. It is
// a tool run by hand, not a check.
func TestScreenshots(t *testing.T) {
	out := os.Getenv("GGP_VIEW_SCREENSHOTS")
	if out == "" {
		t.Skip("set GGP_VIEW_SCREENSHOTS to a folder to write the screenshots")
	}
	checkers := filepath.Join(gamestest.Games(), "checkers-mustjump")
	if _, err := os.Stat(checkers); err != nil {
		t.Skip("no ../shared/games for the generic renderer's example")
	}
	ctx := browser(t)
	dir := t.TempDir()
	f := testFactory(t)
	ref := &gamemaster.Referee{NewReasoner: f}
	c4, _ := games.Lookup("connectFour")
	playMatch(t, ref, c4, "connectFour.1", filepath.Join(dir, "matches"), "random", "random")
	ck, err := games.LoadFolder(checkers)
	if err != nil {
		t.Fatal(err)
	}
	playMatch(t, ref, ck, "checkers.1", filepath.Join(dir, "matches"), "random", "random")
	ttt, _ := games.Lookup("ticTacToe")
	nim, _ := games.Lookup("nim")
	tt := &tournament.Tournament{Dir: filepath.Join(dir, "t1"), Games: []*games.Game{ttt, nim}, Players: []string{"random", "legal", "random"},
		Rounds: 3, Parallel: 2, StartClock: time.Second, PlayClock: time.Second, Referee: ref}
	if _, err := tt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv, err := view.New(view.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.CloseClientConnections(); hs.Close() }()
	shots := []struct{ file, path, ready string }{
		{"match-stylesheet.png", "/match?src=0/matches/connectFour.1.json", "#board td.cell"},
		{"match-generic.png", "/match?src=0/matches/checkers.1.json", "#board table.grid"},
		{"index-tournament.png", "/", "body[data-loaded]"},
	}
	for _, s := range shots {
		var png []byte
		run(t, ctx, 30*time.Second,
			chromedp.Navigate(hs.URL+s.path),
			chromedp.WaitVisible(s.ready),
			chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))`, nil),
			chromedp.Sleep(500*time.Millisecond), // the plot image
			chromedp.CaptureScreenshot(&png),
		)
		if err := os.WriteFile(filepath.Join(out, s.file), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
