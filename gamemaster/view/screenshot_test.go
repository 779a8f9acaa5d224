package view_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/reasoner"
)

// TestScreenshots writes the README's screenshots of the viewer to the
// folder named by GGP_VIEW_SCREENSHOTS (such as testdata/screenshots):
// match pages drawn with a bundled game's stylesheet and with the
// stylesheets of chess and checkers from ../shared/games (pieces of our
// own drawing), checkersTorus by the generic renderer at the start and the
// end of a match, the index with a tournament's results and plot, and a
// seat page in the middle and at the end of a match. It is a tool run by
// hand, not a check.
func TestScreenshots(t *testing.T) {
	out := os.Getenv("GGP_VIEW_SCREENSHOTS")
	if out == "" {
		t.Skip("set GGP_VIEW_SCREENSHOTS to a folder to write the screenshots")
	}
	if _, err := os.Stat(gamestest.Games()); err != nil {
		t.Skip("no ../shared/games for the examples")
	}
	ctx := browser(t)
	dir := t.TempDir()
	f := testFactory(t)
	ref := &gamemaster.Referee{NewReasoner: f}
	matches := filepath.Join(dir, "matches")
	shared := func(key string) *games.Game {
		g, err := games.LoadFolder(filepath.Join(gamestest.Games(), key))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	c4, _ := games.Lookup("connectFour")
	playMatch(t, ref, c4, "connectFour.1", matches, "random", "random")
	// Chess is cut short: its middle is what the picture needs.
	short := &gamemaster.Referee{NewReasoner: f, MaxSteps: 40}
	var ps []player.Player
	for range 2 {
		p, _ := players.New("random", f)
		ps = append(ps, p)
	}
	chess, _ := short.Run(context.Background(), &gamemaster.Match{ID: "chess.1", Game: shared("chess"), Players: ps,
		StartClock: time.Minute, PlayClock: time.Second, Record: filepath.Join(matches, "chess.1.json")})
	if chess == nil || len(chess.States) < 31 {
		t.Fatal("the chess match did not reach step 30")
	}
	checkers := playMatchClock(t, ref, shared("checkers"), "checkers.1", matches, time.Minute, "random", "random")
	torus := playMatchClock(t, ref, shared("checkersTorus"), "checkersTorus.1", matches, time.Minute, "random", "random")
	ttt, _ := games.Lookup("ticTacToe")
	nim, _ := games.Lookup("nim")
	tt := &tournament.Tournament{Dir: filepath.Join(dir, "t1"), Games: []*games.Game{ttt, nim}, Players: []string{"random", "legal", "random"},
		Rounds: 3, Parallel: 2, StartClock: time.Second, PlayClock: time.Second, Referee: ref,
		NewPlayer: func(spec string) (player.Player, error) { return players.New(spec, ref.NewReasoner) }}
	if _, err := tt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv, err := view.New(view.Options{Dirs: []string{dir}, GameDirs: []string{gamestest.Games()}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.CloseClientConnections(); hs.Close() }()

	// A state with many kinds of pieces: chess after 30 moves, checkers
	// once a piece is crowned.
	chessStep := min(30, len(chess.States)-1)
	// checkers: the first state with a king of each colour, or else the
	// first with a king.
	checkersStep := len(checkers.States) - 1
	kings := func(s string) int {
		n := 0
		if strings.Contains(s, " wk)") {
			n++
		}
		if strings.Contains(s, " bk)") {
			n++
		}
		return n
	}
	best := 0
	for i, s := range checkers.States {
		if k := kings(s); k > best {
			best, checkersStep = k, i
		}
	}
	shots := []struct {
		file, path, ready, shoot string
		step                     int // -1: the last
	}{
		{"match-stylesheet.png", "/match?src=0/matches/connectFour.1.json", "#board td.cell", "", -1},
		{"match-chess.png", "/match?src=0/matches/chess.1.json", "#board img", ".board-box", chessStep},
		{"match-checkers.png", "/match?src=0/matches/checkers.1.json", "#board img", ".board-box", checkersStep},
		{"generic-start.png", "/match?src=0/matches/checkersTorus.1.json", "#board table.grid", ".board-box", 0},
		{"generic-end.png", "/match?src=0/matches/checkersTorus.1.json", "#board table.grid", ".board-box", len(torus.States) - 1},
		{"index-tournament.png", "/", "body[data-loaded]", "", -1},
	}
	for _, s := range shots {
		key := "End"
		if s.step >= 0 {
			key = ""
		}
		var png []byte
		shoot := chromedp.CaptureScreenshot(&png)
		if s.shoot != "" {
			shoot = chromedp.Screenshot(s.shoot, &png, chromedp.NodeVisible)
		}
		run(t, ctx, 30*time.Second,
			chromedp.EmulateViewport(1100, 760),
			chromedp.Navigate(hs.URL+s.path),
			chromedp.WaitVisible(s.ready),
			chromedp.Evaluate(fmt.Sprintf(`if (%q) document.dispatchEvent(new KeyboardEvent('keydown', {key: %q})); else { const sl = document.getElementById('slider'); sl.value = %d; sl.dispatchEvent(new Event('input')); }`, key, key, s.step), nil),
			chromedp.Sleep(700*time.Millisecond), // images
			shoot,
		)
		writeShot(t, out, s.file, png)
	}
	seatShots(t, ctx, srv, hs.URL, f, out)
}

func writeShot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// seatShots plays connectFour as a person against the random player,
// letting one turn time out, and shoots the seat page in the middle of the
// match, with the cells of a move highlighted, and at the end.
func seatShots(t *testing.T, ctx context.Context, srv *view.Server, base string, f reasoner.Factory, out string) {
	g, _ := games.Lookup("connectFour")
	h := human.New("person", f)
	opp, err := players.New("random", f)
	if err != nil {
		t.Fatal(err)
	}
	seat := srv.AddSeat(h)
	ref := &gamemaster.Referee{NewReasoner: f, OnStep: srv.Publish}
	done := make(chan error, 1)
	go func() {
		_, err := ref.Run(context.Background(), &gamemaster.Match{ID: "connectFour.seat", Game: g, Players: []player.Player{h, opp},
			StartClock: 5 * time.Second, PlayClock: 2 * time.Second, PlayClocks: []time.Duration{4 * time.Second}})
		done <- err
	}()
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1100, 700), chromedp.Navigate(base+seat))
	for turn := 1; ; turn++ {
		var status, step string
		run(t, ctx, 30*time.Second,
			chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#board [data-move]').length > 0 || document.body.dataset.status === 'over'`, nil, chromedp.WithPollingTimeout(30*time.Second)),
			chromedp.AttributeValue(`body`, "data-status", &status, nil),
			chromedp.AttributeValue(`body`, "data-step", &step, nil),
		)
		if status == "over" {
			break
		}
		if turn != 2 { // the second turn times out
			var cells []string
			run(t, ctx, 5*time.Second, chromedp.Evaluate(`Array.from(document.querySelectorAll('#board [data-move]')).map(e => e.dataset.move)`, &cells))
			m := cells[(turn*3)%len(cells)]
			sel := fmt.Sprintf(`#board [data-move=%q]`, m)
			if turn == 5 {
				var png []byte
				run(t, ctx, 10*time.Second,
					chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new MouseEvent('mouseenter'))`, sel), nil),
					chromedp.Sleep(300*time.Millisecond),
					chromedp.CaptureScreenshot(&png),
				)
				writeShot(t, out, "seat-midgame.png", png)
			}
			run(t, ctx, 5*time.Second, chromedp.Click(sel))
		}
		run(t, ctx, 10*time.Second, chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(10*time.Second)))
	}
	var png []byte
	run(t, ctx, 10*time.Second, chromedp.Sleep(300*time.Millisecond), chromedp.CaptureScreenshot(&png))
	writeShot(t, out, "seat-end.png", png)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
