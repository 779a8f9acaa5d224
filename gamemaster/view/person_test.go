package view_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// The tests of this file play as a person does against the computer: in
// headless Chromium, with clicks of the mouse on the seat page.

// viewer is a viewer of its own for one test, served on a listener of its
// own so that a test can stop it and serve another viewer on its port.
type viewer struct {
	srv  *view.Server
	hs   *httptest.Server
	url  string
	once sync.Once
}

// serveViewer serves a viewer with opts on addr ("127.0.0.1:0": any free
// port) until the test ends or stop is called.
func serveViewer(t *testing.T, addr string, opts view.Options) *viewer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := view.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	v := &viewer{srv: srv, hs: hs, url: hs.URL}
	t.Cleanup(v.stop)
	return v
}

// stop stops the viewer as ggp does when it exits: every connection is
// closed.
func (v *viewer) stop() {
	v.once.Do(func() {
		v.hs.CloseClientConnections()
		v.hs.Close()
	})
}

// seated is a match with a person seated on a viewer.
type seated struct {
	h    *human.Player
	seat string // the seat page's path
	done <-chan *record.Record
}

// seat starts a match of g, a game of two roles, on v in which a person
// plays role (an index) and opp the other, with a start clock long enough
// to ground a big game and clock a move. The record's channel gives nil
// when the match fails (an error, unless ctx was cancelled).
func (v *viewer) seat(t *testing.T, ctx context.Context, f reasoner.Factory, g *games.Game, id string, role int, opp player.Player, clock time.Duration) *seated {
	t.Helper()
	h := human.New("person", f)
	ps := []player.Player{opp, opp}
	ps[role] = h
	seat := v.srv.AddSeat(h)
	ref := &gamemaster.Referee{NewReasoner: f, OnStep: v.srv.Publish, ReadyTimeout: time.Minute}
	done := make(chan *record.Record, 1)
	go func() {
		rec, err := ref.Run(ctx, &gamemaster.Match{ID: id, Game: g, Players: ps, StartClock: time.Minute, PlayClock: clock})
		if err != nil && ctx.Err() == nil {
			t.Errorf("match %s: %v", id, err)
			rec = nil
		}
		done <- rec
	}()
	return &seated{h: h, seat: seat, done: done}
}

// computer returns an in-process player of kind, such as legal, that takes
// at least d over each move.
func computer(t *testing.T, f reasoner.Factory, kind string, d time.Duration) player.Player {
	t.Helper()
	p, err := players.New(kind, f)
	if err != nil {
		t.Fatal(err)
	}
	if d == 0 {
		return p
	}
	return &delayed{Player: p, d: d}
}

// awaitTurn waits until the seat page is to move, with moves bound to the
// board, or the match is over, and returns the status and the step.
func awaitTurn(t *testing.T, ctx context.Context, limit time.Duration) (status, step string) {
	t.Helper()
	run(t, ctx, limit+5*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#board .movable').length > 0 || document.body.dataset.status === 'over'`, nil,
			chromedp.WithPollingTimeout(limit), chromedp.WithPollingInterval(50*time.Millisecond)),
		chromedp.AttributeValue(`body`, "data-status", &status, nil),
		chromedp.AttributeValue(`body`, "data-step", &step, nil),
	)
	return status, step
}

// awaitNext waits until the page has left the turn of step.
func awaitNext(t *testing.T, ctx context.Context, step string) {
	t.Helper()
	run(t, ctx, 20*time.Second, chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(15*time.Second)))
}

// sharedFactory grounds the rules of a match once for the referee and
// every player, as ggp match does.
func sharedFactory(t *testing.T) reasoner.Factory {
	return backend.Shared(testFactory(t), 2)
}

func sharedGame(t *testing.T, key string) *games.Game {
	t.Helper()
	g, err := games.LoadFolder(filepath.Join(gamestest.Games(), key))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no ../shared/games/%s: %v", key, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestIndexOfAMatch(t *testing.T) {
	// The viewer of ggp match: without --out, of the live match alone;
	// with --out DIR, of DIR too, where the match's record is written.
	ctx := browser(t)
	f := testFactory(t)
	g, _ := games.Lookup("ticTacToe")
	for _, out := range []bool{false, true} {
		t.Run(fmt.Sprintf("out=%v", out), func(t *testing.T) {
			var dirs []string
			var recFile string
			if out {
				dirs = []string{t.TempDir()}
				recFile = filepath.Join(dirs[0], "m.json")
			}
			v := serveViewer(t, "127.0.0.1:0", view.Options{Dirs: dirs, Poll: 50 * time.Millisecond})
			started := make(chan struct{})
			var once sync.Once
			ref := &gamemaster.Referee{NewReasoner: f, OnStep: func(r *record.Record) {
				v.srv.Publish(r)
				if len(r.States) > 1 {
					once.Do(func() { close(started) })
				}
			}}
			done := make(chan *record.Record, 1)
			go func() {
				rec, err := ref.Run(context.Background(), &gamemaster.Match{ID: "m.1", Game: g, Record: recFile,
					Players:    []player.Player{computer(t, f, "legal", 300*time.Millisecond), computer(t, f, "legal", 300*time.Millisecond)},
					StartClock: time.Second, PlayClock: 2 * time.Second})
				if err != nil {
					t.Error(err)
				}
				done <- rec
			}()
			<-started
			var live, folders string
			run(t, ctx, 20*time.Second,
				chromedp.Navigate(v.url+"/"),
				chromedp.Poll(`document.body.dataset.loaded === 'true'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
				chromedp.Text(`#live`, &live),
				chromedp.Text(`#folders`, &folders),
			)
			if !strings.Contains(live, "m.1") || !strings.Contains(live, "in progress") {
				t.Errorf("the index lists as live %q, want m.1 in progress", live)
			}
			want := "no folder of records"
			if out {
				want = dirs[0]
			}
			if !strings.Contains(folders, want) {
				t.Errorf("the index says of its folders %q, want %q", folders, want)
			}
			if rec := <-done; rec == nil || !rec.IsCompleted {
				t.Fatal("the match did not complete")
			}
			// Once over, without a reload: listed once with the matches,
			// with its result.
			var matches []string
			run(t, ctx, 10*time.Second,
				chromedp.Poll(`document.getElementById('live-section').hidden && document.querySelector('#matches tr.match') !== null`, nil, chromedp.WithPollingTimeout(8*time.Second)),
				chromedp.Evaluate(`Array.from(document.querySelectorAll('#matches tr.match')).map(r => r.textContent)`, &matches),
			)
			if len(matches) != 1 || !strings.Contains(matches[0], "m.1") || !strings.Contains(matches[0], "xplayer (legal)") {
				t.Errorf("the index lists %q, want the finished match m.1 once, with its result", matches)
			}
		})
	}
}

func TestSeatInterrupted(t *testing.T) {
	// Ctrl-C on ggp during the person's turn: the match is interrupted,
	// then the viewer goes away.
	ctx := browser(t)
	f := testFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, _ := games.Lookup("ticTacToe")
	mctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	m := v.seat(t, mctx, f, g, "stopped.1", 0, computer(t, f, "legal", 0), 30*time.Second)
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
	if status, _ := awaitTurn(t, ctx, 20*time.Second); status != "to-move" {
		t.Fatalf("status %s, want the person's turn", status)
	}
	interrupt()
	<-m.done
	var page string
	run(t, ctx, 10*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'over' && !document.getElementById('outcome').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Text(`main`, &page),
	)
	if !strings.Contains(page, "interrupted") || strings.Contains(page, "no move chosen in time") || strings.Contains(page, "Waiting for the others") {
		t.Errorf("after the interruption the seat page says:\n%s\nwant that the match was interrupted, and no timeout", page)
	}
	var status string
	run(t, ctx, 5*time.Second, chromedp.Text(`#status`, &status))
	if status != "match aborted" {
		t.Errorf("status %q after the interruption, want match aborted", status)
	}
	v.stop()
	var lost string
	run(t, ctx, 15*time.Second,
		chromedp.Poll(`!document.getElementById('connection').hidden`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`#connection`, &lost),
	)
	if !strings.Contains(lost, "Lost the connection to the viewer") {
		t.Errorf("once the viewer is gone the seat page says %q", lost)
	}
}

func TestOldSeatPageStaysOut(t *testing.T) {
	// A seat page left open from a finished match, when ggp serves the
	// next match on the same port: it says its match is over, and the next
	// match starts only when its own seat page is opened.
	ctx := browser(t)
	f := testFactory(t)
	first := serveViewer(t, "127.0.0.1:0", view.Options{})
	addr := strings.TrimPrefix(first.url, "http://")
	g, _ := games.Lookup("ticTacToe")
	m1 := first.seat(t, context.Background(), f, g, "first.1", 0, computer(t, f, "legal", 0), 20*time.Second)
	run(t, ctx, 10*time.Second, chromedp.Navigate(first.url+m1.seat))
	for {
		status, step := awaitTurn(t, ctx, 20*time.Second)
		if status == "over" {
			break
		}
		run(t, ctx, 5*time.Second, chromedp.Click(`#board .movable`))
		awaitNext(t, ctx, step)
	}
	if rec := <-m1.done; rec == nil || !rec.IsCompleted {
		t.Fatal("the first match did not complete")
	}
	first.stop()

	second := serveViewer(t, addr, view.Options{})
	mctx, stop := context.WithCancel(context.Background())
	defer stop()
	m2 := second.seat(t, mctx, f, g, "second.1", 0, computer(t, f, "legal", 0), 20*time.Second)
	if m2.seat == m1.seat {
		t.Errorf("both matches have the seat %s", m2.seat)
	}
	// The old page tries its viewer again every second.
	var state, text string
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := chromedp.Run(wctx, chromedp.Poll(`document.body.dataset.connection === 'gone'`, nil, chromedp.WithPollingTimeout(8*time.Second)))
	cancel()
	run(t, ctx, 5*time.Second,
		chromedp.AttributeValue(`body`, "data-connection", &state, nil),
		chromedp.Text(`main`, &text),
	)
	if turn, _ := m2.h.Turn(); turn.Status != human.Waiting || turn.MatchID != "" {
		t.Fatalf("the second match started (seat: %s of %q) with the first match's page open alone", turn.Status, turn.MatchID)
	}
	if err != nil || !strings.Contains(text, "This page's match is over") {
		t.Errorf("the old seat page (connection %q) says:\n%s\nwant that its match is over", state, text)
	}
	// Its own page opens: the second match starts, and its clock runs.
	opened := time.Now()
	run(t, ctx, 10*time.Second, chromedp.Navigate(second.url+m2.seat))
	if status, _ := awaitTurn(t, ctx, 20*time.Second); status != "to-move" {
		t.Fatalf("status %s on the second match's page, want the person's turn", status)
	}
	turn, _ := m2.h.Turn()
	if turn.MatchID != "second.1" || turn.Deadline.Before(opened.Add(20*time.Second)) {
		t.Errorf("second match: seat of %q, move due %v, want second.1 and a clock started after its page opened at %v", turn.MatchID, turn.Deadline, opened)
	}
}

// boardGeometry is a chess-like board as a person sees it: the squares
// (by id, cell_e4) of each row from the top, left to right, the labels
// written under the board from left to right and beside it from the top,
// and the colour of every square.
type boardGeometry struct {
	Rows   [][]string
	Files  []string
	Ranks  []string
	Colors map[string]string
}

const readGeometry = `(() => {
	const cells = Array.from(document.querySelectorAll('#board td[id^="cell_"]'));
	const rect = e => e.getBoundingClientRect();
	const rows = new Map();
	for (const c of cells) {
		const top = Math.round(rect(c).top);
		if (!rows.has(top)) rows.set(top, []);
		rows.get(top).push(c);
	}
	const Rows = [...rows.keys()].sort((a, b) => a - b).map(k => rows.get(k).sort((a, b) => rect(a).left - rect(b).left).map(c => c.id));
	const left = Math.min(...cells.map(c => rect(c).left)), bottom = Math.max(...cells.map(c => rect(c).bottom));
	// The labels: the elements of the board outside the squares whose text
	// is a file or a rank.
	const labels = Array.from(document.querySelectorAll('#board *')).filter(e => e.children.length === 0 && !cells.some(c => c.contains(e)) && /^([a-z]|\d+)$/.test(e.textContent.trim()));
	const Files = labels.filter(e => rect(e).top >= bottom - 1).sort((a, b) => rect(a).left - rect(b).left).map(e => e.textContent.trim());
	const Ranks = labels.filter(e => rect(e).right <= left + 1).sort((a, b) => rect(a).top - rect(b).top).map(e => e.textContent.trim());
	const Colors = Object.fromEntries(cells.map(c => [c.id.slice(5), getComputedStyle(c).backgroundColor]));
	return {Rows, Files, Ranks, Colors};
})()`

// checkSide checks that a chess-like board of 8 by 8 is seen from the
// side of the person whose first rank is bottom ("1" or "8"), with the
// files and ranks written along its edges and squares of two colours:
// a1's colour dark if a1dark, as in chess, else light, as in a checkers
// whose pieces stand on a2, b1...
func checkSide(t *testing.T, ctx context.Context, bottom string, a1dark bool) {
	t.Helper()
	var b boardGeometry
	run(t, ctx, 5*time.Second, chromedp.Evaluate(readGeometry, &b))
	files, ranks := strings.Split("abcdefgh", ""), strings.Split("87654321", "")
	if bottom == "8" {
		slices.Reverse(files)
		slices.Reverse(ranks)
	}
	if len(b.Rows) != 8 {
		t.Fatalf("the board has %d rows of squares, want 8", len(b.Rows))
	}
	var want []string
	for _, f := range files {
		want = append(want, "cell_"+f+bottom)
	}
	if got := b.Rows[7]; !slices.Equal(got, want) {
		t.Errorf("bottom row, left to right: %v, want %v", got, want)
	}
	if !slices.Equal(b.Files, files) || !slices.Equal(b.Ranks, ranks) {
		t.Errorf("files written under the board %v and ranks beside it %v, want %v and %v", b.Files, b.Ranks, files, ranks)
	}
	colors := map[string]bool{}
	for _, c := range b.Colors {
		colors[c] = true
	}
	a1, b1 := b.Colors["a1"], b.Colors["b1"]
	if len(colors) != 2 || a1 == b1 || b.Colors["b2"] != a1 || b.Colors["h8"] != a1 || b.Colors["h1"] != b1 {
		t.Errorf("square colours %v, want two, a1 b2 h8 of one and b1 h1 of the other", colors)
	}
	if a1dark != (lum(a1) < lum(b1)) {
		t.Errorf("a1 is %s, b1 %s: want a1 dark %v", a1, b1, a1dark)
	}
}

// lum returns the brightness of a CSS colour rgb(r, g, b).
func lum(c string) int {
	var r, g, b int
	fmt.Sscanf(c, "rgb(%d, %d, %d)", &r, &g, &b)
	return r + g + b
}

func TestBoardsFromThePersonsSide(t *testing.T) {
	ctx := browser(t)
	f := sharedFactory(t)
	chess, checkers := sharedGame(t, "chess"), sharedGame(t, "checkers")
	v := serveViewer(t, "127.0.0.1:0", view.Options{Games: []*games.Game{chess, checkers}})

	t.Run("chess as white", func(t *testing.T) {
		mctx, stop := context.WithCancel(context.Background())
		m := v.seat(t, mctx, f, chess, "chess.white", 0, computer(t, f, "random", 0), 30*time.Second)
		defer func() { stop(); <-m.done }()
		run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
		if status, _ := awaitTurn(t, ctx, 60*time.Second); status != "to-move" {
			t.Fatalf("status %s, want white's first move", status)
		}
		checkSide(t, ctx, "1", true)
		var king string
		run(t, ctx, 5*time.Second, chromedp.Evaluate(`(document.querySelector('#cell_e1 img') || {src: ''}).src`, &king))
		if !strings.Contains(king, "White_King") {
			t.Errorf("e1 shows %q, want the white king", king)
		}
	})
	t.Run("checkers as black", func(t *testing.T) {
		mctx, stop := context.WithCancel(context.Background())
		m := v.seat(t, mctx, f, checkers, "checkers.black", 1, computer(t, f, "random", 2*time.Second), 30*time.Second)
		defer func() { stop(); <-m.done }()
		run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
		// Seen from black's side from the first state, before black's
		// first move.
		run(t, ctx, 40*time.Second, chromedp.Poll(`document.body.dataset.status === 'others' && document.querySelectorAll('#board td[id^="cell_"]').length === 64`, nil, chromedp.WithPollingTimeout(35*time.Second)))
		checkSide(t, ctx, "8", false)
		if status, _ := awaitTurn(t, ctx, 30*time.Second); status != "to-move" {
			t.Fatalf("status %s, want black's first move", status)
		}
		checkSide(t, ctx, "8", false)
	})
}

func TestConnectFourColumns(t *testing.T) {
	// A click anywhere in a column drops the disc there: above the discs,
	// on the top cell, on a disc already played. Four in column 4 win,
	// and the winning line is marked, in a look of its own.
	ctx := browser(t)
	f := testFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, _ := games.Lookup("connectFour")
	m := v.seat(t, context.Background(), f, g, "columns.1", 0, computer(t, f, "legal", 0), 20*time.Second)
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
	rows := []int{6, 5, 2, 1} // the cell of column 4 clicked at each turn
	for turn := 0; ; turn++ {
		status, step := awaitTurn(t, ctx, 20*time.Second)
		if status == "over" {
			break
		}
		if turn >= len(rows) {
			t.Fatal("no win after four discs in column 4")
		}
		run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#board td[data-x="4"][data-y="%d"]`, rows[turn])))
		awaitNext(t, ctx, step)
	}
	rec := <-m.done
	if rec == nil {
		t.Fatal("the match failed")
	}
	var mine []string
	for _, joint := range rec.Moves {
		if joint[0] != "noop" {
			mine = append(mine, joint[0])
		}
	}
	if want := []string{"(drop 4)", "(drop 4)", "(drop 4)", "(drop 4)"}; !slices.Equal(mine, want) {
		t.Errorf("the person played %v, want %v: a click in column 4 at rows %v", mine, want, rows)
	}
	// The winning line has a look of its own, not the gold of a cell
	// under the pointer.
	checkOwnLook(t, ctx, []string{"4 1", "4 2", "4 3", "4 4"})
}

func TestClicksThatPlayNothing(t *testing.T) {
	// A click on an occupied cell, or while the others move, is answered;
	// the page reads as a person reads it: a badge in dark on light, the
	// moves without GDL's noops, a column that does not move.
	ctx := browser(t)
	f := testFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, _ := games.Lookup("ticTacToe")
	h := human.New("person", f)
	seat := v.srv.AddSeat(h)
	defer v.play(f, &gamemaster.Match{ID: "clicks.1", Game: g, Players: []player.Player{h, computer(t, f, "legal", 1500*time.Millisecond)}, StartClock: 5 * time.Second, PlayClock: 20 * time.Second})()
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1200, 800), chromedp.Navigate(v.url+seat))
	_, step := awaitTurn(t, ctx, 20*time.Second)
	var sideX0 float64
	run(t, ctx, 5*time.Second,
		chromedp.Evaluate(`document.querySelector('.seat-side').getBoundingClientRect().left`, &sideX0),
		chromedp.Click(`#board td[data-x="2"][data-y="2"]`),
	)
	awaitNext(t, ctx, step)
	// The others' turn: the computer takes 1.5 s.
	var notice, badge, badgeColor, badgeBack string
	run(t, ctx, 5*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'others'`, nil),
		chromedp.Click(`#board td[data-x="1"][data-y="1"]`),
		chromedp.Poll(`!document.getElementById('notice').hidden`, nil, chromedp.WithPollingTimeout(2*time.Second)),
		chromedp.Text(`#notice`, &notice),
		chromedp.Text(`#status`, &badge),
		chromedp.Evaluate(`getComputedStyle(document.getElementById('status')).color`, &badgeColor),
		chromedp.Evaluate(`getComputedStyle(document.getElementById('status')).backgroundColor`, &badgeBack),
	)
	if !strings.Contains(notice, "not your turn") {
		t.Errorf("a click while the others move says %q", notice)
	}
	if badge != "waiting for the others" || lum(badgeBack)-lum(badgeColor) < 300 {
		t.Errorf("badge %q in %s on %s, want dark text on a light ground", badge, badgeColor, badgeBack)
	}
	_, step = awaitTurn(t, ctx, 20*time.Second)
	var history string
	var sideX float64
	run(t, ctx, 5*time.Second,
		chromedp.Click(`#board td[data-x="2"][data-y="2"]`),
		chromedp.Poll(`!document.getElementById('notice').hidden`, nil, chromedp.WithPollingTimeout(2*time.Second)),
		chromedp.Text(`#notice`, &notice),
		chromedp.Text(`#history`, &history),
		chromedp.Evaluate(`document.querySelector('.seat-side').getBoundingClientRect().left`, &sideX),
	)
	if !strings.Contains(notice, "This square is taken") || gdlNotation.MatchString(notice) {
		t.Errorf("a click on an occupied square says %q, want that it is taken, in the board's words", notice)
	}
	if turn, _ := h.Turn(); turn.Status != human.ToMove || fmt.Sprint(turn.Step) != step {
		t.Errorf("after a click on an occupied cell the seat is %s at step %d, want still to move at step %s", turn.Status, turn.Step, step)
	}
	if strings.Contains(history, "noop") || !strings.Contains(history, "you: mark row 2, column 2") {
		t.Errorf("the history reads %q, want the moves without noop, the person's as you", history)
	}
	if sideX != sideX0 {
		t.Errorf("the right-hand column moved from x=%v to x=%v after the first move", sideX0, sideX)
	}
}
