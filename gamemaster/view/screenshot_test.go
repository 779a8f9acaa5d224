package view_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	"github.com/ggp-go/ggp/reasoner/backend"
)

// TestScreenshots writes the screenshots of the viewer in the README and
// docs/viewer.md to the folder named by GGP_VIEW_SCREENSHOTS (such as
// testdata/screenshots): match pages drawn with a bundled game's
// stylesheet and with the stylesheets of chess and checkers from
// ../shared/games (pieces of our own drawing), checkersTorus by the
// generic renderer at the start and the end of a match, the index with a
// tournament's results and plot, a seat page in the middle and at the end
// of a match, and the seat pages of a person playing ticTacToe,
// connectFour, chess and checkers against the computer, each at the
// start, in the middle and at the end. It is a tool run by hand, not a
// check. The files are written with a palette of 256 colours, to keep
// them small.
func TestScreenshots(t *testing.T) {
	out := os.Getenv("GGP_VIEW_SCREENSHOTS")
	if out == "" {
		t.Skip("set GGP_VIEW_SCREENSHOTS to a folder to write the screenshots")
	}
	if _, err := os.Stat(gamestest.Games()); errors.Is(err, fs.ErrNotExist) {
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
	for _, p := range []struct {
		game     *games.Game
		role     int    // the person's
		opponent string // the computer
		mid      int    // the step of the middle shot
		// opening are the person's first moves, which must end the
		// match: the chess of ../shared/games has no goals at its move
		// limit, so the person plays the scholar's mate.
		opening []string
	}{
		{ttt, 0, "mcts", 2, nil},
		{c4, 0, "mcts", 4, nil},
		{shared("chess"), 0, "random", 4, []string{"(move wp e 2 e 4)", "(move wb f 1 c 4)", "(move wq d 1 h 5)", "(move wq h 5 f 7)"}},
		{shared("checkers"), 1, "random", 21, nil},
	} {
		// A match whose opening fails, or that the game's rules cannot
		// end, is played again with the next seed: the first that works
		// gives the same match every time.
		var err error
		for seed := uint64(1); seed <= 20; seed++ {
			if err = personShots(t, ctx, srv, hs.URL, out, p.game, p.role, p.opponent, p.mid, p.opening, seed); err == nil {
				break
			}
			t.Logf("%s, seed %d: %v", p.game.Key, seed, err)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func writeShot(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), shrink(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shrink re-encodes a screenshot with a palette of its 256 most frequent
// colours, every other colour drawn as the nearest of them: a page has few
// colours besides the edges of its letters, and its file gets several
// times smaller.
func shrink(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	colors := slices.SortedFunc(maps.Keys(count), func(a, b color.RGBA) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return cmp.Compare(uint32(a.R)<<24|uint32(a.G)<<16|uint32(a.B)<<8|uint32(a.A), uint32(b.R)<<24|uint32(b.G)<<16|uint32(b.B)<<8|uint32(b.A))
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range colors[:min(256, len(colors))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// personShots plays g on a seat page, the person in role against the
// computer (a player of kind opponent, seeded with seed), and shoots the
// page at the person's first turn, at their turn of step mid (or the first
// after it) with the cells of a move highlighted, and at the end, as
// seat-GAME-start.png, seat-GAME-mid.png and seat-GAME-end.png. The person
// plays the moves of opening, which must end the match, or else moves
// chosen at random (with seed), with the buttons of the page. It returns
// why the match failed, or its opening.
func personShots(t *testing.T, ctx context.Context, srv *view.Server, base, out string, g *games.Game, role int, opponent string, mid int, opening []string, seed uint64) error {
	t.Helper()
	f := backend.Shared(testFactory(t), 1)
	h := human.New("person", f)
	spec, err := players.Parse(opponent)
	if err != nil {
		t.Fatal(err)
	}
	opp, err := spec.New(f, seed)
	if err != nil {
		t.Fatal(err)
	}
	ps := []player.Player{opp, opp}
	ps[role] = h
	clocks := make([]time.Duration, len(ps))
	clocks[role] = time.Minute
	seat := srv.AddSeat(h)
	ref := &gamemaster.Referee{NewReasoner: f, OnStep: srv.Publish}
	mctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() {
		_, err := ref.Run(mctx, &gamemaster.Match{ID: fmt.Sprintf("%s.person%d", g.Key, seed), Game: g, Players: ps,
			StartClock: time.Minute, PlayClock: time.Second, PlayClocks: clocks})
		done <- err
	}()
	fail := func(why string) error {
		stop()
		<-done
		return errors.New(why)
	}
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1000, 640), chromedp.Navigate(base+seat))
	rnd := rand.New(rand.NewPCG(seed, uint64(len(g.Key))))
	shot := func(name string) {
		var png []byte
		run(t, ctx, 10*time.Second, chromedp.Sleep(400*time.Millisecond), chromedp.CaptureScreenshot(&png))
		writeShot(t, out, "seat-"+g.Key+"-"+name+".png", png)
	}
	started, middle := false, false
	for {
		var status, step string
		run(t, ctx, 90*time.Second,
			chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#moves button').length > 0 || document.body.dataset.status === 'over'`, nil, chromedp.WithPollingTimeout(85*time.Second)),
			chromedp.AttributeValue(`body`, "data-status", &status, nil),
			chromedp.AttributeValue(`body`, "data-step", &step, nil),
		)
		if status == "over" {
			break
		}
		select {
		case err := <-done:
			return err
		default:
		}
		var legal []string
		run(t, ctx, 5*time.Second, chromedp.Evaluate(`Array.from(document.querySelectorAll('#moves button')).map(b => b.dataset.move)`, &legal))
		m := legal[rnd.IntN(len(legal))]
		if opening != nil {
			if len(opening) == 0 {
				return fail("the opening did not end the match")
			}
			if !slices.Contains(legal, opening[0]) {
				return fail("the opening's " + opening[0] + " is not legal")
			}
			m, opening = opening[0], opening[1:]
		}
		n, _ := strconv.Atoi(step)
		switch {
		case !started:
			started = true
			shot("start")
		case !middle && n >= mid:
			middle = true
			run(t, ctx, 5*time.Second, chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#moves button[data-move=%q]').dispatchEvent(new MouseEvent('mouseenter'))`, m), nil))
			shot("mid")
		}
		run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#moves button[data-move=%q]`, m)))
		run(t, ctx, 20*time.Second, chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(15*time.Second)))
	}
	if err := <-done; err != nil {
		return err
	}
	if !middle {
		return fmt.Errorf("the match ended before the person's turn of step %d", mid)
	}
	run(t, ctx, 10*time.Second, chromedp.Poll(`!document.getElementById('outcome').hidden`, nil))
	shot("end")
	return nil
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
