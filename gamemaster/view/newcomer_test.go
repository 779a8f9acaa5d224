package view_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/reasoner"
)

// The tests of this file check, with clicks in headless Chromium, what a
// person new to the program reads on the seat and match pages: each
// sentence at its step, the cells a click plays framed, the winning line
// in a look of its own, and the game's words instead of the rules'.

// scriptedII is a GDL-II player that plays, at each turn its inner player
// does not pass with noop, the next of moves: a game of known moves
// against a person.
type scriptedII struct {
	player.GDLIIPlayer
	moves []reasoner.Move
}

func (p *scriptedII) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	m, err := p.GDLIIPlayer.PlayTurn(ctx, id, t)
	if err != nil || m == "noop" || len(p.moves) == 0 {
		return m, err
	}
	m, p.moves = p.moves[0], p.moves[1:]
	return m, nil
}

// clickCell clicks the cell x y of the board at the person's turn, and
// waits until the page has left that turn.
func clickCell(t *testing.T, ctx context.Context, x, y int) {
	t.Helper()
	status, step := awaitTurn(t, ctx, 20*time.Second)
	if status != "to-move" {
		t.Fatalf("status %s at step %s, before a click on %d %d", status, step, x, y)
	}
	run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#board td[data-x="%d"][data-y="%d"]`, x, y)))
	awaitNext(t, ctx, step)
}

// rgbOf returns the first colour of a computed style, "rgb(1, 2, 3)" or
// "rgba(1, 2, 3, .5)", as its three components.
func rgbOf(style string) ([3]int, bool) {
	m := regexp.MustCompile(`rgba?\((\d+), (\d+), (\d+)`).FindStringSubmatch(style)
	if m == nil {
		return [3]int{}, false
	}
	var c [3]int
	for i := range c {
		c[i], _ = strconv.Atoi(m[i+1])
	}
	return c, true
}

// farApart reports whether two colours can be told apart at a glance: not
// two shades of one colour.
func farApart(a, b [3]int) bool {
	d := 0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return d > 100*100
}

// lineAndHover returns, on a board at its end, the cells marked as the
// line that decided the match, and the colours of the ring of such a cell
// and of a cell under the pointer.
func lineAndHover(t *testing.T, ctx context.Context) (line []string, ring, hover string) {
	t.Helper()
	var styles []string
	run(t, ctx, 5*time.Second,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#board .decisive')).map(e => e.dataset.x + ' ' + e.dataset.y).sort()`, &line),
		chromedp.Evaluate(`(() => {
			const d = document.querySelector('#board .decisive');
			const o = Array.from(document.querySelectorAll('#board td[data-x]')).find(e => !e.classList.contains('decisive'));
			if (!d || !o) return ["", ""];
			o.classList.add('hover');
			const hover = getComputedStyle(o).boxShadow;
			o.classList.remove('hover');
			return [getComputedStyle(d).boxShadow, hover];
		})()`, &styles),
	)
	return line, styles[0], styles[1]
}

// checkOwnLook checks that the line that decided the match is marked on
// the cells want, in a colour of its own, not the gold of the cell under
// the pointer.
func checkOwnLook(t *testing.T, ctx context.Context, want []string) {
	t.Helper()
	line, ring, hover := lineAndHover(t, ctx)
	if !slices.Equal(line, want) {
		t.Errorf("the end marks the cells %v, want the winning line %v", line, want)
	}
	a, okA := rgbOf(ring)
	b, okB := rgbOf(hover)
	if !okA || !okB || !farApart(a, b) {
		t.Errorf("the winning line looks like %q and the cell under the pointer like %q: want a look of its own", ring, hover)
	}
}

// playFoundTaken plays kriegTicTacToe on v as a person in oplayer's seat,
// with clicks on the board, against an xplayer that plays (try 2 2),
// (try 1 1) and (try 3 3): the person finds row 2, column 2 taken at step
// 2, and xplayer wins on the diagonal at step 6. found, if not nil, is
// called at the person's turn right after the square was found taken. It
// returns the record.
func playFoundTaken(t *testing.T, ctx context.Context, v *viewer, id string, found func()) *record.Record {
	t.Helper()
	f := testFactory(t)
	g, _ := games.Lookup("kriegTicTacToe")
	inner := baseline.Random(baseline.Options{NewReasoner: f, Seed: 3})
	opp := &scriptedII{GDLIIPlayer: inner.(player.GDLIIPlayer), moves: []reasoner.Move{"(try 2 2)", "(try 1 1)", "(try 3 3)"}}
	m := v.seat(t, context.Background(), f, g, id, 1, opp, 30*time.Second)
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(v.url+m.seat))
	clickCell(t, ctx, 2, 2) // taken
	if status, _ := awaitTurn(t, ctx, 20*time.Second); status != "to-move" {
		t.Fatalf("status %s after the square found taken, want the person to try again", status)
	}
	if found != nil {
		found()
	}
	clickCell(t, ctx, 1, 2)
	clickCell(t, ctx, 2, 1)
	if status, _ := awaitButtons(t, ctx, 20*time.Second); status != "over" {
		t.Fatalf("status %s after xplayer's diagonal", status)
	}
	rec := <-m.done
	if rec == nil {
		t.Fatal("the match failed")
	}
	run(t, ctx, 5*time.Second, chromedp.Poll(`!document.getElementById('truth').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)))
	return rec
}

func TestKriegTicTacToeFoundTakenAtItsStep(t *testing.T) {
	// The person plays oplayer with clicks on the board against an
	// xplayer that plays (try 2 2), (try 1 1) and (try 3 3): the person
	// finds row 2, column 2 taken at step 2, and xplayer wins on the
	// diagonal at step 6. That a square was found taken is said as the
	// step's, to the person as "you" (their history), never as a sentence
	// under the board that stays; the winning diagonal is marked from the
	// true final state; the match page says the moves and what each
	// player was told in the game's words, "waits" for noop.
	ctx := browser(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	boardText := func() string {
		var s string
		run(t, ctx, 5*time.Second, chromedp.Text(`#board`, &s))
		return s
	}
	playFoundTaken(t, ctx, v, "found.1", func() {
		var last, history string
		run(t, ctx, 5*time.Second, chromedp.Text(`#last`, &last), chromedp.Text(`#history li:last-child`, &history))
		if b := boardText(); strings.Contains(b, "found") || strings.Contains(b, "taken") {
			t.Errorf("right after the square was found taken the board reads %q, want no sentence of a step under it", b)
		}
		for what, text := range map[string]string{"the last step": last, "the history": history} {
			if !strings.HasPrefix(text, "2.") && !strings.HasPrefix(text, "step 2:") || !strings.Contains(text, "you: try row 2, column 2") || !strings.Contains(text, "row 2, column 2 was taken by your opponent") {
				t.Errorf("%s reads %q, want step 2 told to the person: their try and the square taken", what, text)
			}
		}
	})
	if b := boardText(); strings.Contains(b, "found") || strings.Contains(b, "taken") {
		t.Errorf("at the end the board reads %q, want no sentence of step 2 under it", b)
	}
	checkOwnLook(t, ctx, []string{"1 1", "2 2", "3 3"})

	var moves, info, seen, about string
	run(t, ctx, 10*time.Second,
		chromedp.Navigate(v.url+"/match?src="+view.LiveSource("found.1")),
		chromedp.Poll(`document.querySelectorAll('#seen tr.step').length > 0`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Click(`#last`),
		chromedp.Text(`#moves`, &moves),
		chromedp.Text(`#stepInfo`, &info),
		chromedp.Text(`#seen`, &seen),
		chromedp.Evaluate(`(document.getElementById('about') || {textContent: ""}).textContent`, &about),
	)
	if b := boardText(); strings.Contains(b, "found") {
		t.Errorf("the match page's last state reads %q, want no sentence of step 2 under the board", b)
	}
	if strings.Contains(moves, "noop") || !strings.Contains(moves, "waits") || !strings.Contains(moves, "try row 2, column 2") || strings.Contains(moves, "(try") {
		t.Errorf("the match page's moves read %q, want the game's words and waits for noop", moves)
	}
	for _, jargon := range []string{"noop", "joint move", "sees", "yourturn", "(try", "(taken"} {
		if strings.Contains(info+seen, jargon) {
			t.Errorf("the match page says %q: step %q, told %q", jargon, info, seen)
		}
	}
	if !strings.Contains(seen, "row 2, column 2 was taken by your opponent") {
		t.Errorf("what each player was told reads %q, want the game's sentences", seen)
	}
	if !strings.Contains(about, "hidden information: each player sees only part of the game") {
		t.Errorf("the match page describes the game as %q, want GDL-II explained", about)
	}
}

func TestPlayableCellsAreFramed(t *testing.T) {
	// At the person's turn the squares a click plays are framed, and are
	// buttons to a screen reader and the keyboard; the hint names what is
	// framed. Once the person has played, no square is framed, as the
	// page says.
	ctx := browser(t)
	f := testFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, _ := games.Lookup("ticTacToe")
	m := v.seat(t, context.Background(), f, g, "framed.1", 0, computer(t, f, "legal", 3*time.Second), 30*time.Second)
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
	awaitTurn(t, ctx, 20*time.Second)
	frame := `getComputedStyle(document.querySelector('#board td[data-x="1"][data-y="1"]')).outlineStyle`
	var before, after, role, label, hint, notice string
	run(t, ctx, 5*time.Second,
		chromedp.Evaluate(frame, &before),
		chromedp.AttributeValue(`#board td[data-x="1"][data-y="1"]`, "role", &role, nil),
		chromedp.AttributeValue(`#board td[data-x="1"][data-y="1"]`, "aria-label", &label, nil),
		chromedp.Text(`#hint`, &hint),
		chromedp.Click(`#board td[data-x="2"][data-y="2"]`),
		chromedp.Poll(`document.body.dataset.status === 'others'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Evaluate(frame, &after),
		chromedp.Click(`#board td[data-x="1"][data-y="1"]`),
	)
	notice = visibleNotice(t, ctx)
	if before == "none" || before == "" {
		t.Errorf("at the person's turn a free square's frame is %q, want it visible", before)
	}
	if role != "button" || !strings.Contains(label, "mark row 1, column 1") {
		t.Errorf("a free square is role %q, labelled %q: want a button that says its move", role, label)
	}
	if !strings.Contains(hint, "framed") {
		t.Errorf("the hint says %q, want the framed squares named", hint)
	}
	if after != "none" {
		t.Errorf("during the others' turn a free square's frame is %q, want none", after)
	}
	if strings.Contains(notice, "light") || !strings.Contains(notice, "framed") {
		t.Errorf("a click during the others' turn says %q, want what the board shows", notice)
	}
	// A framed square is played with the keyboard too.
	status, step := awaitTurn(t, ctx, 20*time.Second)
	if status != "to-move" {
		t.Fatalf("status %s at the person's second turn", status)
	}
	run(t, ctx, 5*time.Second, chromedp.Focus(`#board td[data-x="3"][data-y="3"]`), chromedp.KeyEvent("\r"))
	awaitNext(t, ctx, step)
	run(t, ctx, 10*time.Second,
		chromedp.Poll(`document.getElementById('history').textContent.includes('you: mark row 3, column 3')`, nil, chromedp.WithPollingTimeout(8*time.Second)))
}

func TestMontyHallInPlainWords(t *testing.T) {
	// The candidate chooses door 1 and stays, with clicks, and gets a
	// goat (nature, seeded, hides the car behind door 2). The page never
	// writes the rules' phase, nor "square" for a door, nor of "states";
	// the first step says what the candidate did and that nothing else was
	// revealed; the door the candidate ends with is framed as lost, not in
	// the green of a win.
	ctx := browser(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	var texts []string
	_, rec := playMontyHall(t, ctx, v, "stay.1", "stay", func() {
		var s string
		run(t, ctx, 5*time.Second, chromedp.Text(`main`, &s))
		texts = append(texts, s)
	})
	if rec.GoalValues[0] != 0 {
		t.Fatalf("the candidate who stayed scored %d: the seed hides the car behind door 1, want a goat", rec.GoalValues[0])
	}
	for i, s := range texts {
		for _, jargon := range []string{"phase", "square", "state you hold possible", "states"} {
			if strings.Contains(s, jargon) {
				t.Errorf("turn %d: the page says %q: %q", i+1, jargon, s)
			}
		}
	}
	var first, final, frame, page string
	run(t, ctx, 5*time.Second,
		chromedp.Text(`#history li[data-step="1"]`, &first),
		chromedp.Text(`#board td[data-final="yes"]`, &final),
		chromedp.Evaluate(`getComputedStyle(document.querySelector('#board td[data-final="yes"]')).outlineColor`, &frame),
		chromedp.Text(`main`, &page),
	)
	if !strings.Contains(first, "you: choose door 1") || !strings.Contains(first, "Nothing else was revealed") || strings.Contains(page, "You were told nothing") {
		t.Errorf("step 1 reads %q, want what the candidate did and that nothing else was revealed", first)
	}
	if !strings.Contains(final, "goat") || !strings.Contains(final, "lost") {
		t.Errorf("the door the candidate ends with reads %q, want a goat, lost", final)
	}
	if c, ok := rgbOf(frame); !ok || c[1] > c[0] && c[1] > c[2] {
		t.Errorf("the door of a goat the candidate ends with is framed %q, want no green of a win", frame)
	}
	if strings.Contains(page, "phase") {
		t.Errorf("the end reads %q", page)
	}
}
