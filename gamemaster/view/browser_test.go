package view_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/gamemaster/view/browsertest"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

func browser(t *testing.T) context.Context { return browsertest.Start(t) }

// run runs browser actions with a time limit.
func run(t *testing.T, ctx context.Context, limit time.Duration, actions ...chromedp.Action) {
	t.Helper()
	browsertest.Run(t, ctx, limit, actions...)
}

// cell is a cell of a rendered board.
type cell struct {
	X, Y, Content, Text, Class string
}

// readCells returns the cells drawn on the board: elements with data-x and
// data-y, as the bundled stylesheets and the generic renderer draw them.
const readCells = `Array.from(document.querySelectorAll('#board [data-x][data-y]')).map(e => ({
	X: e.dataset.x, Y: e.dataset.y, Content: e.dataset.content === undefined ? null : e.dataset.content,
	Text: e.textContent.trim(), Class: (e.querySelector('div') || e).className}))`

var cellFact = regexp.MustCompile(`\(cell (\S+) (\S+) (\S+)\)`)

// cellsOf returns the cell facts of a recorded state, by "x y".
func cellsOf(state string) map[string]string {
	out := map[string]string{}
	for _, m := range cellFact.FindAllStringSubmatch(state, -1) {
		out[m[1]+" "+m[2]] = m[3]
	}
	return out
}

// fixture is a folder of records made by real matches, and a server over
// it.
type fixture struct {
	dir  string
	srv  *view.Server
	http *httptest.Server
	recs map[string]*record.Record // by game key
	f    reasoner.Factory
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir(), recs: map[string]*record.Record{}, f: testFactory(t)}
	ref := &gamemaster.Referee{NewReasoner: fx.f}
	for _, key := range []string{"ticTacToe", "connectFour"} {
		g, err := games.Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		fx.recs[key] = playMatch(t, ref, g, key+".1", filepath.Join(fx.dir, "matches"), "random", "random")
	}
	// A game whose folder has a stylesheet that is not even XML.
	bad := filepath.Join(t.TempDir(), "badStyle")
	g0, _ := games.Lookup("ticTacToe")
	writeFile(t, filepath.Join(bad, "METADATA"), `{"gameName": "Bad style", "rulesheet": "rules.kif", "stylesheet": "bad.xsl"}`)
	writeFile(t, filepath.Join(bad, "rules.kif"), string(g0.Rules))
	writeFile(t, filepath.Join(bad, "bad.xsl"), `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><oops></xsl:stylesheet>`)
	g, err := games.LoadFolder(bad)
	if err != nil {
		t.Fatal(err)
	}
	fx.recs["badStyle"] = playMatch(t, ref, g, "badStyle.1", filepath.Join(fx.dir, "matches"), "random", "random")
	writeFile(t, filepath.Join(fx.dir, "matches", "broken.json"), `{"matchId": "broken", "states": [`)

	tdir := filepath.Join(fx.dir, "t1")
	tt := &tournament.Tournament{Dir: tdir, Games: []*games.Game{g0}, Players: []string{"random", "legal"}, Rounds: 2,
		StartClock: time.Second, PlayClock: time.Second, Referee: ref,
		NewPlayer: func(spec string) (player.Player, error) { return players.New(spec, ref.NewReasoner) }}
	if _, err := tt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fx.srv, err = view.New(view.Options{Dirs: []string{fx.dir}, GameDirs: []string{filepath.Dir(bad)}, Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	fx.http = httptest.NewServer(fx.srv.Handler())
	t.Cleanup(func() {
		// The pages' event streams never end by themselves.
		fx.http.CloseClientConnections()
		fx.http.Close()
	})
	return fx
}

func writeFile(t testing.TB, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func playMatch(t *testing.T, ref *gamemaster.Referee, g *games.Game, id, dir string, kinds ...string) *record.Record {
	t.Helper()
	return playMatchClock(t, ref, g, id, dir, time.Second, kinds...)
}

// playMatchClock plays a match with the start clock given, long enough
// for the players to ground a big game.
func playMatchClock(t *testing.T, ref *gamemaster.Referee, g *games.Game, id, dir string, start time.Duration, kinds ...string) *record.Record {
	t.Helper()
	var ps []player.Player
	for _, k := range kinds {
		p, err := players.New(k, ref.NewReasoner)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rec, err := ref.Run(context.Background(), &gamemaster.Match{ID: id, Game: g, Players: ps,
		StartClock: start, PlayClock: time.Second, Record: filepath.Join(dir, id+".json")})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func (fx *fixture) url(path string) string { return fx.http.URL + path }

func TestBrowser(t *testing.T) {
	ctx := browser(t)
	fx := newFixture(t)

	t.Run("index", func(t *testing.T) {
		var ids []string
		var tournaments, plotOK int
		var bad string
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/")),
			chromedp.WaitVisible(`body[data-loaded]`),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#matches tr.match td:nth-child(2)')).map(e => e.textContent)`, &ids),
			chromedp.Evaluate(`document.querySelectorAll('#tournaments .standings').length`, &tournaments),
			chromedp.Evaluate(`document.querySelector('#matches tr.bad').textContent`, &bad),
			chromedp.Poll(`Array.from(document.querySelectorAll('.plot img')).filter(i => i.complete && i.naturalWidth > 0).length`, &plotOK, chromedp.WithPollingTimeout(5*time.Second)),
		)
		want := []string{"ticTacToe.1", "connectFour.1", "badStyle.1", "ticTacToe.r1.0-1", "ticTacToe.r2.1-0"}
		for _, w := range want {
			if !strings.Contains(strings.Join(ids, " "), w) {
				t.Errorf("index lists %v, missing %s", ids, w)
			}
		}
		if tournaments != 1 || plotOK != 1 {
			t.Errorf("index shows %d tournament tables and %d plots, want 1 and 1", tournaments, plotOK)
		}
		if !strings.Contains(bad, "broken.json") || !strings.Contains(bad, "reading match record") {
			t.Errorf("row of the broken record = %q, want its file and the error", bad)
		}
		// A match written while the page is open appears without a reload.
		rec := *fx.recs["ticTacToe"]
		rec.MatchID = "ticTacToe.new"
		if err := record.WriteFile(filepath.Join(fx.dir, "matches", "ticTacToe.new.json"), &rec); err != nil {
			t.Fatal(err)
		}
		var kept bool
		run(t, ctx, 10*time.Second,
			chromedp.Evaluate(`window.notReloaded = true`, nil),
			chromedp.Poll(`Array.from(document.querySelectorAll('#matches tr.match td:nth-child(2)')).some(e => e.textContent === 'ticTacToe.new')`, nil, chromedp.WithPollingTimeout(8*time.Second)),
			chromedp.Evaluate(`window.notReloaded === true`, &kept),
		)
		if !kept {
			t.Error("the index was reloaded")
		}
	})

	t.Run("no seat", func(t *testing.T) {
		var msg string
		run(t, ctx, 10*time.Second,
			chromedp.Navigate(fx.url("/seat?id=99")),
			chromedp.WaitVisible(`#seat-error`),
			chromedp.Text(`#seat-error`, &msg),
		)
		if !strings.Contains(msg, `no seat "99" on this viewer`) {
			t.Errorf("a seat that does not exist says %q", msg)
		}
	})

	t.Run("ticTacToe", func(t *testing.T) {
		rec := fx.recs["ticTacToe"]
		marks := map[string]string{"x": "X", "o": "O", "b": ""}
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/match?src="+"0/matches/ticTacToe.1.json")),
			chromedp.WaitVisible(`#board td.cell`),
		)
		run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'}))`, nil))
		for i, state := range rec.States {
			if i > 0 {
				run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))`, nil))
			}
			checkBoard(t, ctx, i, state, func(c cell, content string) string {
				if c.Text != marks[content] {
					return fmt.Sprintf("shows %q, want %q", c.Text, marks[content])
				}
				return ""
			})
		}
		// The last state of a finished match has no one to move; the
		// first has.
		var lastControl, firstControl int
		run(t, ctx, 5*time.Second,
			chromedp.Evaluate(`document.querySelectorAll('#board .control').length`, &lastControl),
			chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'}))`, nil),
			chromedp.Poll(`document.getElementById('board').dataset.step === "0"`, nil),
			chromedp.Evaluate(`document.querySelectorAll('#board .control').length`, &firstControl),
			chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))`, nil),
		)
		if lastControl != 0 || firstControl != 1 {
			t.Errorf("'to move' shown %d times on the final board and %d on the first, want 0 and 1", lastControl, firstControl)
		}
		var goals string
		run(t, ctx, 5*time.Second, chromedp.Text(`#stepInfo .goals`, &goals))
		if want := fmt.Sprintf("xplayer %d, oplayer %d", rec.GoalValues[0], rec.GoalValues[1]); !strings.Contains(goals, want) {
			t.Errorf("goals shown %q, want %q", goals, want)
		}
		// The random players answer at once: their steps take a few ms,
		// written as such, not as 0.00 s.
		var times []string
		run(t, ctx, 5*time.Second, chromedp.Evaluate(`Array.from(document.querySelectorAll('#moves td.time')).map(e => e.textContent)`, &times))
		if len(times) != len(rec.Moves) {
			t.Fatalf("step times %v for %d steps", times, len(rec.Moves))
		}
		for i, tm := range times {
			var ms int
			if _, err := fmt.Sscanf(tm, "%d ms", &ms); err != nil || ms != int(rec.StateTimes[i+1]-rec.StateTimes[i]) {
				t.Errorf("step %d took %d ms, shown as %q", i+1, rec.StateTimes[i+1]-rec.StateTimes[i], tm)
			}
		}
	})

	t.Run("connectFour", func(t *testing.T) {
		rec := fx.recs["connectFour"]
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/match?src="+"0/matches/connectFour.1.json")),
			chromedp.WaitVisible(`#board td.cell`),
			chromedp.Click(`#first`),
		)
		check := func(c cell, content string) string {
			want := strings.TrimSpace("disc " + content)
			if strings.Join(strings.Fields(c.Class), " ") != want {
				return fmt.Sprintf("disc class %q, want %q", c.Class, want)
			}
			return ""
		}
		for i, state := range rec.States {
			if i > 0 {
				run(t, ctx, 5*time.Second, chromedp.Click(`#next`))
			}
			checkBoard(t, ctx, i, state, check)
		}
		// The slider jumps to any state.
		mid := len(rec.States) / 2
		run(t, ctx, 5*time.Second, chromedp.SetValue(`#slider`, fmt.Sprint(mid)),
			chromedp.Evaluate(`document.getElementById('slider').dispatchEvent(new Event('input'))`, nil))
		checkBoard(t, ctx, mid, rec.States[mid], check)
	})

	t.Run("failing stylesheet", func(t *testing.T) {
		rec := fx.recs["badStyle"]
		var msg string
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/match?src="+"0/matches/badStyle.1.json")),
			chromedp.WaitVisible(`#stylesheet-error`),
			chromedp.Text(`#stylesheet-error`, &msg),
		)
		if !strings.Contains(msg, "not well-formed") {
			t.Errorf("stylesheet error = %q", msg)
		}
		last := len(rec.States) - 1
		checkBoard(t, ctx, last, rec.States[last], func(c cell, content string) string {
			if c.Text != content {
				return fmt.Sprintf("generic renderer shows %q, want %q", c.Text, content)
			}
			return ""
		})
		// The server still serves: the broken record's page shows its error.
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/match?src="+"0/matches/broken.json")),
			chromedp.WaitVisible(`#record-error`),
			chromedp.Text(`#record-error`, &msg),
		)
		if !strings.Contains(msg, "reading match record") {
			t.Errorf("broken record error = %q", msg)
		}
	})

	t.Run("live", func(t *testing.T) {
		// The referee waits, after publishing each step, until the page
		// shows it: the page must follow every step of the match, and
		// the order of events is the test's, not the machine's speed.
		g, _ := games.Lookup("ticTacToe")
		legal := func() player.Player {
			p, err := players.New("legal", fx.f)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		ref := &gamemaster.Referee{NewReasoner: fx.f}
		published := make(chan int) // the state count of each record published
		shown := make(chan struct{})
		stop := make(chan struct{}) // the test has ended: the referee goes on alone
		defer close(stop)
		ref.OnStep = func(r *record.Record) {
			fx.srv.Publish(r)
			select {
			case published <- len(r.States):
			case <-stop:
				return
			}
			select {
			case <-shown:
			case <-stop:
			}
		}
		done := make(chan *record.Record, 1)
		go func() {
			rec, err := ref.Run(context.Background(), &gamemaster.Match{ID: "live.1", Game: g, Players: []player.Player{legal(), legal()}, StartClock: time.Second, PlayClock: 2 * time.Second})
			if err != nil {
				t.Error(err)
			}
			done <- rec
		}()
		n := <-published // after START
		run(t, ctx, 30*time.Second,
			chromedp.Navigate(fx.url("/match?src="+view.LiveSource("live.1"))),
			chromedp.WaitVisible(`body[data-states]`),
			chromedp.Evaluate(`window.notReloaded = true`, nil),
		)
		var seen []int
		var rec *record.Record
		for rec == nil {
			// No bound but run's: the referee waits for the page.
			run(t, ctx, 30*time.Second,
				chromedp.Poll(fmt.Sprintf(`document.body.dataset.states === "%d"`, n), nil, chromedp.WithPollingTimeout(25*time.Second)),
			)
			if len(seen) == 0 || seen[len(seen)-1] != n {
				seen = append(seen, n)
			}
			shown <- struct{}{}
			select {
			case n = <-published:
			case rec = <-done:
			}
		}
		// The page shows the end of the match, without a reload.
		var kept bool
		run(t, ctx, 30*time.Second,
			chromedp.Poll(fmt.Sprintf(`document.body.dataset.states === "%d" && document.getElementById('status').textContent === 'completed'`, len(rec.States)), nil, chromedp.WithPollingTimeout(25*time.Second)),
			chromedp.Evaluate(`window.notReloaded === true`, &kept),
		)
		if !kept {
			t.Error("the page was reloaded")
		}
		want := make([]int, len(rec.States))
		for i := range want {
			want[i] = i + 1
		}
		if !slices.Equal(seen, want) {
			t.Errorf("the page showed the state counts %v while the match was played, want each of %v", seen, want)
		}
		last := len(rec.States) - 1
		checkBoard(t, ctx, last, rec.States[last], func(c cell, content string) string {
			if c.Content != content {
				return fmt.Sprintf("content %q, want %q", c.Content, content)
			}
			return ""
		})
	})

	t.Run("human", func(t *testing.T) {
		// ticTacToe without its stylesheet: the generic renderer's cells
		// choose the moves.
		plain := filepath.Join(t.TempDir(), "plainTicTacToe")
		g0, _ := games.Lookup("ticTacToe")
		writeFile(t, filepath.Join(plain, "METADATA"), `{"gameName": "Plain", "rulesheet": "rules.kif"}`)
		writeFile(t, filepath.Join(plain, "rules.kif"), string(g0.Rules))
		g, err := games.LoadFolder(plain)
		if err != nil {
			t.Fatal(err)
		}
		_, seat, done := fx.seatMatch(t, context.Background(), g, "human.1")
		run(t, ctx, 10*time.Second, chromedp.Navigate(fx.url(seat)))
		var clicked []string
		for turn := range 9 {
			var status string
			run(t, ctx, 15*time.Second,
				chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#moves button').length > 0 && document.querySelectorAll('#board td[data-move]').length > 0 || document.body.dataset.status === 'over'`, nil),
				chromedp.AttributeValue(`body`, "data-status", &status, nil),
			)
			if status == "over" {
				break
			}
			var moves []string
			var countdown string
			run(t, ctx, 5*time.Second,
				chromedp.Evaluate(`Array.from(document.querySelectorAll('#moves button')).map(b => b.dataset.move)`, &moves),
				chromedp.Text(`#countdown`, &countdown),
			)
			if !strings.HasSuffix(countdown, " s") {
				t.Errorf("countdown shows %q", countdown)
			}
			// Play the last legal move: not the one a fallback would pick;
			// on the board and with the buttons by turns.
			m := moves[len(moves)-1]
			clicked = append(clicked, m)
			if turn%2 == 1 {
				run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#moves button[data-move=%q]`, m)))
			} else {
				// Hovering the cell highlights it, and only it.
				var hovered []string
				cell := fmt.Sprintf(`#board td[data-move=%q]`, m)
				run(t, ctx, 5*time.Second,
					chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new MouseEvent('mouseenter'))`, cell), nil),
					chromedp.Evaluate(`Array.from(document.querySelectorAll('#board .hover')).map(e => '(mark ' + e.dataset.x + ' ' + e.dataset.y + ')')`, &hovered),
				)
				if len(hovered) != 1 || hovered[0] != m {
					t.Errorf("hovering the cell of %s highlights %v", m, hovered)
				}
				run(t, ctx, 5*time.Second, chromedp.Click(cell))
			}
			run(t, ctx, 10*time.Second, chromedp.Poll(`document.body.dataset.status !== 'to-move' || document.querySelectorAll('#moves button:not([disabled])').length > 0 && !document.querySelector('#moves button[disabled]')`, nil))
		}
		var rec *record.Record
		select {
		case rec = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the human match did not end")
		}
		if rec == nil || !rec.IsCompleted {
			t.Fatal("the human match did not complete")
		}
		var played []string
		for i, joint := range rec.Moves {
			if joint[0] != "noop" {
				played = append(played, joint[0])
			}
			if e := rec.Errors[i+1][0]; e != "" {
				t.Errorf("step %d: error %q for the person's move", i+1, e)
			}
		}
		if strings.Join(played, " ") != strings.Join(clicked, " ") {
			t.Errorf("record has the person's moves %v, clicked %v", played, clicked)
		}
		run(t, ctx, 10*time.Second, chromedp.Poll(`document.body.dataset.status === 'over'`, nil))
		last := len(rec.States) - 1
		checkBoard(t, ctx, last, rec.States[last], func(c cell, content string) string {
			if c.Text != content {
				return fmt.Sprintf("shows %q, want %q", c.Text, content)
			}
			return ""
		})
		var outcome string
		run(t, ctx, 5*time.Second, chromedp.Text(`#outcome`, &outcome))
		if want := human.Outcome(rec.GoalValues, rec.Roles, 0); !strings.Contains(strings.ToLower(outcome), want) {
			t.Errorf("the end page says %q, want %q", outcome, want)
		}
	})

	t.Run("narrowing", func(t *testing.T) {
		// In breakthrough a move changes two cells, and a cell may be
		// changed by several moves: a click on the pawn keeps its moves,
		// a click on where it goes then plays the one move left.
		g, _ := games.Lookup("breakthrough")
		mctx, stop := context.WithCancel(context.Background())
		h, seat, done := fx.seatMatch(t, mctx, g, "narrow.1")
		defer func() { stop(); <-done }()
		var legal []string
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url(seat)),
			chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#board .movable').length > 0`, nil, chromedp.WithPollingTimeout(15*time.Second)),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#moves button')).map(b => b.dataset.move)`, &legal),
		)
		// A pawn with three moves: forward and both diagonals.
		byFrom := map[string][]string{}
		for _, m := range legal {
			var c1, r1, c2, r2 int
			if _, err := fmt.Sscanf(m, "(move %d %d %d %d)", &c1, &r1, &c2, &r2); err == nil {
				k := fmt.Sprintf("%d %d", c1, r1)
				byFrom[k] = append(byFrom[k], m)
			}
		}
		var from string
		for k, ms := range byFrom {
			if len(ms) == 3 {
				from = k
				break
			}
		}
		if from == "" {
			t.Fatalf("no pawn with three moves among %v", legal)
		}
		m := byFrom[from][2]
		var c1, r1, c2, r2 int
		fmt.Sscanf(m, "(move %d %d %d %d)", &c1, &r1, &c2, &r2)
		var candidates []string
		run(t, ctx, 10*time.Second,
			chromedp.Click(fmt.Sprintf(`#board td[data-x="%d"][data-y="%d"]`, c1, r1)),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#moves button.candidate')).map(b => b.dataset.move)`, &candidates),
			chromedp.Click(fmt.Sprintf(`#board td[data-x="%d"][data-y="%d"]`, c2, r2)),
		)
		{
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := chromedp.Run(c, chromedp.Poll(`document.body.dataset.sent !== undefined || document.body.dataset.step !== '0'`, nil))
			cancel()
			if err != nil {
				var dump string
				run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.body.dataset.status + ' step ' + document.body.dataset.step + ' hint: ' + document.getElementById('hint').textContent + ' candidates: ' + Array.from(document.querySelectorAll('#moves button.candidate')).map(b => b.dataset.move).join(',') + ' | ' + document.getElementById('message').textContent`, &dump))
				t.Fatalf("%s: clicked %s then its target; candidates after the first click %v; the page: %s", m, from, candidates, dump)
			}
		}
		if !slices.Equal(candidates, byFrom[from]) {
			t.Errorf("a click on the pawn at %s keeps %v, want its moves %v", from, candidates, byFrom[from])
		}
		run(t, ctx, 10*time.Second, chromedp.Poll(`document.body.dataset.step !== '0'`, nil, chromedp.WithPollingTimeout(5*time.Second)))
		turn, _ := h.Turn()
		if len(turn.History) == 0 || turn.History[0].Chosen != m {
			t.Errorf("the person chose %+v, want %s (clicked the pawn, then its target)", turn.History, m)
		}
	})

	t.Run("one cell left", func(t *testing.T) {
		// A state with a single cell fact is drawn on the grid of the
		// others, not as a list.
		rec := *fx.recs["ticTacToe"]
		rec.MatchID, rec.GameKey = "oneLeft.1", "oneCellLeft"
		rec.States = slices.Clone(rec.States)
		rec.States[len(rec.States)-1] = "((cell 2 2 x) (control oplayer))"
		if err := record.WriteFile(filepath.Join(fx.dir, "matches", "oneLeft.1.json"), &rec); err != nil {
			t.Fatal(err)
		}
		var shape string
		run(t, ctx, 20*time.Second,
			chromedp.Navigate(fx.url("/match?src=0/matches/oneLeft.1.json")),
			chromedp.WaitReady(`body[data-states]`),
			chromedp.Evaluate(`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))`, nil),
			chromedp.Poll(fmt.Sprintf(`document.getElementById('board').dataset.step === "%d"`, len(rec.States)-1), nil),
			chromedp.Evaluate(`(() => { const g = document.querySelector('#board table.grid'); return g ? g.querySelectorAll('td').length + ' cells, ' + g.querySelector('td[data-x="2"][data-y="2"]').textContent : 'no grid'; })()`, &shape),
		)
		if shape != "9 cells, x" {
			t.Errorf("the last state, with one cell fact, is drawn as %q, want the 3 by 3 grid with x in its middle", shape)
		}
	})

	t.Run("generic shape", func(t *testing.T) {
		// checkersTorus has no blank cells: the rows without pieces are
		// drawn all the same, at every step.
		g, err := games.LoadFolder(filepath.Join(gamestest.Games(), "checkersTorus"))
		if errors.Is(err, fs.ErrNotExist) {
			t.Skip("no ../shared/games/checkersTorus")
		}
		if err != nil {
			t.Fatal(err)
		}
		ref := &gamemaster.Referee{NewReasoner: fx.f}
		rec := playMatchClock(t, ref, g, "torus.1", filepath.Join(fx.dir, "matches"), time.Minute, "random", "random")
		run(t, ctx, 20*time.Second, chromedp.Navigate(fx.url("/match?src=0/matches/torus.1.json")))
		{
			c, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := chromedp.Run(c, chromedp.WaitVisible(`#board table.grid`))
			cancel()
			if err != nil {
				var dump string
				run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.URL + ' ' + document.readyState + ' ' + document.getElementById('board').innerHTML.slice(0, 300) + ' | ' + document.getElementById('errors').innerHTML + ' | ' + document.getElementById('stepInfo').innerHTML.slice(0, 300) + ' | ' + document.getElementById('players').innerHTML.slice(0, 200)`, &dump))
				t.Fatalf("the board of torus.1 is not drawn: %v; the page: %s", err, dump)
			}
		}
		var first string
		for _, step := range []int{0, len(rec.States) / 2, len(rec.States) - 1} {
			var shape string
			run(t, ctx, 5*time.Second,
				chromedp.Evaluate(fmt.Sprintf(`{ const sl = document.getElementById('slider'); sl.value = %d; sl.dispatchEvent(new Event('input')); }`, step), nil),
				chromedp.Poll(fmt.Sprintf(`document.getElementById('board').dataset.step === "%d"`, step), nil),
				chromedp.Evaluate(`(() => { const g = document.querySelector('#board table.grid'); return g.querySelectorAll('tr').length + 'x' + g.querySelector('tr').children.length + ' ' + g.offsetWidth + 'x' + g.offsetHeight; })()`, &shape),
			)
			if step == 0 {
				first = shape
				if !strings.HasPrefix(shape, "9x9 ") { // 8 rows and columns, and their headers
					t.Errorf("the initial board is %s, want 8 by 8", shape)
				}
			} else if shape != first {
				t.Errorf("state %d: board %s, the initial one %s", step, shape, first)
			}
		}
	})
}

// seatMatch starts a match of g, with a person seated on fx's viewer as
// the first role and the legal player as the second, 20 s a move, and
// returns the person, the seat's path and the channel of the record,
// which is nil when the match fails (an error, unless ctx was cancelled).
func (fx *fixture) seatMatch(t *testing.T, ctx context.Context, g *games.Game, id string) (*human.Player, string, <-chan *record.Record) {
	t.Helper()
	h := human.New("person", fx.f)
	opp, err := players.New("legal", fx.f)
	if err != nil {
		t.Fatal(err)
	}
	seat := fx.srv.AddSeat(h)
	ref := &gamemaster.Referee{NewReasoner: fx.f, OnStep: fx.srv.Publish}
	done := make(chan *record.Record, 1)
	go func() {
		rec, err := ref.Run(ctx, &gamemaster.Match{ID: id, Game: g, Players: []player.Player{h, opp}, StartClock: 5 * time.Second, PlayClock: 20 * time.Second})
		if err != nil && ctx.Err() == nil {
			t.Error(err)
			rec = nil
		}
		done <- rec
	}()
	return h, seat, done
}

// checkBoard checks the board drawn against a recorded state: every cell
// fact is drawn, every cell drawn is a fact or empty, and check accepts
// the drawing of each.
func checkBoard(t *testing.T, ctx context.Context, step int, state string, check func(c cell, content string) string) {
	t.Helper()
	var cells []cell
	var shown string
	run(t, ctx, 5*time.Second,
		chromedp.Poll(fmt.Sprintf(`(document.getElementById('board').dataset.step === undefined || document.getElementById('board').dataset.step === "%d") && document.querySelectorAll('#board [data-x]').length > 0`, step), nil, chromedp.WithPollingTimeout(3*time.Second)),
		chromedp.Evaluate(`document.getElementById('board').dataset.step || ""`, &shown),
		chromedp.Evaluate(readCells, &cells),
	)
	want := cellsOf(state)
	if len(cells) == 0 {
		t.Fatalf("state %d: no cells drawn", step)
	}
	drawn := map[string]bool{}
	for _, c := range cells {
		k := c.X + " " + c.Y
		drawn[k] = true
		content := want[k]
		if c.Content != "" && c.Content != content {
			t.Errorf("state %d: cell %s: data-content %q, recorded %q", step, k, c.Content, content)
		}
		if msg := check(c, content); msg != "" {
			t.Errorf("state %d: cell %s: %s", step, k, msg)
		}
	}
	for k := range want {
		if !drawn[k] {
			t.Errorf("state %d: cell %s (%s) not drawn", step, k, want[k])
		}
	}
}

// delayed is a player that takes d over each move, so that a live page has
// steps to follow.
type delayed struct {
	player.Player
	d time.Duration
}

func (p *delayed) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	pause(ctx, p.d)
	return p.Player.Play(ctx, id, last)
}

// pause waits d, or until ctx is done.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

func testFactory(t testing.TB) reasoner.Factory {
	t.Helper()
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}
