package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view/browsertest"
)

var seatLine = regexp.MustCompile(`seat for human: (http://\S+)`)

// startCommand runs ggp with args in the background and returns its
// output, the address of its seat page, a function that interrupts it, and
// a channel of its exit status.
func startCommand(t *testing.T, args ...string) (*syncBuffer, string, context.CancelCauseFunc, <-chan int) {
	t.Helper()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	env := &environment{stdin: strings.NewReader(""), stdout: out, stderr: errOut}
	ctx, cancel := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cancel(nil) })
	code := make(chan int, 1)
	go func() { code <- run(ctx, env, args) }()
	m := out.await(seatLine, 20*time.Second, code)
	if m == nil {
		t.Fatalf("ggp %v exited or printed no seat in time\n%s\n%s", args, out, errOut)
	}
	return out, m[1], cancel, code
}

// seatMatchEnd waits for the end page of the seat of xplayer and for the
// command, which out and code are of, to end, and checks that the page
// gives the result and every role's goal as the command printed them,
// against the opponent named. It returns what the command printed and the
// history of the page.
func seatMatchEnd(t *testing.T, ctx context.Context, out *syncBuffer, code <-chan int, opponent string) (text, history string) {
	t.Helper()
	var outcome string
	browsertest.Run(t, ctx, 10*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'over' && !document.getElementById('outcome').hidden`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`#outcome`, &outcome),
		chromedp.Text(`#history`, &history),
	)
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("ggp match: exit %d\n%s", c, out)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("ggp match did not end\n%s", out)
	}
	text = out.String()
	goals := regexp.MustCompile(`goals: xplayer \(human\) (\d+), oplayer \(` + opponent + `\) (\d+)`).FindStringSubmatch(text)
	if goals == nil {
		t.Fatalf("no goals printed:\n%s", text)
	}
	var words string
	switch x, o := goals[1], goals[2]; {
	case x == o:
		words = "A draw " + x + "–" + o
	case len(x) > len(o) || len(x) == len(o) && x > o:
		words = "You won " + x + "–" + o
	default:
		words = "You lost " + x + "–" + o
	}
	if !strings.Contains(outcome, words) || !strings.Contains(outcome, "goals: xplayer (you) "+goals[1]+", oplayer "+goals[2]) {
		t.Errorf("the end page says %q, want %q and every role's goal (%s)", outcome, words, goals[0])
	}
	return text, history
}

// waitTurn waits until the seat is to move, with its board bound to the
// moves, or the match is over, and returns the status.
func waitTurn(t *testing.T, ctx context.Context, limit time.Duration) string {
	t.Helper()
	var status string
	browsertest.Run(t, ctx, limit,
		chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#board [data-move]').length > 0 || document.body.dataset.status === 'over'`, nil,
			chromedp.WithPollingTimeout(limit), chromedp.WithPollingInterval(50*time.Millisecond)),
		chromedp.AttributeValue(`body`, "data-status", &status, nil),
	)
	return status
}

// TestPersonPlaysTheReadmeMatch plays the README's match of a person
// against mcts, with the default clocks, as a person does: the seat page
// is opened a few seconds after the command starts, and every move is a
// click on a cell of the board.
func TestPersonPlaysTheReadmeMatch(t *testing.T) {
	ctx := browsertest.Start(t)
	out, seat, _, code := startCommand(t, "match", "ticTacToe", "--players", "human,mcts", "--view-port", "0", "--view-linger=false")
	time.Sleep(3 * time.Second) // the person finds the address and opens it
	browsertest.Run(t, ctx, 10*time.Second, chromedp.Navigate(seat))
	var clicked []string
	for range 9 {
		if waitTurn(t, ctx, 40*time.Second) == "over" {
			break
		}
		var cells []string
		var step string
		browsertest.Run(t, ctx, 5*time.Second,
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#board [data-move]')).map(e => e.dataset.move)`, &cells),
			chromedp.AttributeValue(`body`, "data-step", &step, nil),
		)
		m := cells[len(cells)-1]
		clicked = append(clicked, m)
		// Hovering the cell highlights what the move changes: that cell
		// alone, on the stylesheet's board.
		var hovered []string
		cell := fmt.Sprintf(`#board [data-move=%q]`, m)
		browsertest.Run(t, ctx, 5*time.Second,
			chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).dispatchEvent(new MouseEvent('mouseenter'))`, cell), nil),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#board .hover')).map(e => e.dataset.move || e.tagName)`, &hovered),
		)
		if len(hovered) != 1 || hovered[0] != m {
			t.Errorf("hovering the cell of %s highlights %v", m, hovered)
		}
		browsertest.Run(t, ctx, 10*time.Second,
			chromedp.Click(fmt.Sprintf(`#board [data-move=%q]`, m)),
			chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(10*time.Second)),
		)
	}
	text, history := seatMatchEnd(t, ctx, out, code, "mcts")
	var played []string
	for _, m := range regexp.MustCompile(`step \d+: xplayer (\(mark \d \d\))`).FindAllStringSubmatch(text, -1) {
		played = append(played, m[1])
	}
	if len(clicked) == 0 || strings.Join(played, " ") != strings.Join(clicked, " ") {
		t.Errorf("the person clicked %v, the match played %v\n%s", clicked, played, text)
	}
	if strings.Contains(text, "[TO]") {
		t.Errorf("a move timed out:\n%s", text)
	}
	// The history names the move in the game's words.
	if want := regexp.MustCompile(`\(mark (\d) (\d)\)`).ReplaceAllString(clicked[0], "1. you: mark row $1, column $2"); !strings.Contains(history, want) {
		t.Errorf("the history %q does not give step 1 (%s)", history, want)
	}
}

// TestSeatShowsTimeout lets the person's first turn time out and checks
// that the page says so, and which move was played in their place, after
// the next turn has come; then interrupts the match, as Ctrl-C does, and
// checks that the page says so, and then that the viewer is gone.
func TestSeatShowsTimeout(t *testing.T) {
	ctx := browsertest.Start(t)
	dir := t.TempDir()
	out, seat, interrupt, code := startCommand(t, "match", "ticTacToe", "--players", "human,legal", "--human-playclock", "2s", "--grace", "0",
		"--view-port", "0", "--view-linger=false", "--out", dir, "--id", "late.1")
	browsertest.Run(t, ctx, 10*time.Second, chromedp.Navigate(seat))
	if waitTurn(t, ctx, 20*time.Second) != "to-move" {
		t.Fatal("the match ended before the person's turn")
	}
	// Let the clock run out; the next turn comes at step 3.
	browsertest.Run(t, ctx, 20*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'to-move' && document.body.dataset.step === '2'`, nil, chromedp.WithPollingTimeout(20*time.Second)))
	var timeout, board string
	browsertest.Run(t, ctx, 5*time.Second,
		chromedp.Text(`#history li.timeout`, &timeout),
		chromedp.Text(`#board`, &board),
	)
	m := regexp.MustCompile(`1\. you: (mark row (\d), column (\d))\s*no move chosen in time: the game master played (mark row \d, column \d) in your place`).FindStringSubmatch(timeout)
	if m == nil || m[1] != m[4] {
		t.Fatalf("the page says %q, want the timeout of step 1 and the move played", timeout)
	}
	var mark string
	browsertest.Run(t, ctx, 5*time.Second, chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#board [data-x="%s"][data-y="%s"]').textContent.trim()`, m[2], m[3]), &mark))
	if mark != "X" {
		t.Errorf("the board shows %q at %s %s, where the fallback move marked X", mark, m[2], m[3])
	}
	interrupt(fmt.Errorf("interrupt"))
	var outcome, lost string
	browsertest.Run(t, ctx, 20*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'over' && !document.getElementById('outcome').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Text(`#outcome`, &outcome),
		chromedp.Poll(`document.body.dataset.connection === 'lost'`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text(`#connection`, &lost),
	)
	if !strings.Contains(outcome, "The match was interrupted") || strings.Contains(outcome, "no move chosen in time") {
		t.Errorf("once interrupted, the seat page says %q", outcome)
	}
	if !strings.Contains(lost, "Lost the connection to the viewer") {
		t.Errorf("once ggp has stopped, the seat page says %q", lost)
	}
	select {
	case <-code:
	case <-time.After(20 * time.Second):
		t.Fatal("ggp match did not stop when interrupted")
	}
	rec, err := record.ReadFile(filepath.Join(dir, "late.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.IsAborted || !strings.Contains(rec.AbortReason, "the match was interrupted") || strings.Contains(rec.AbortReason, "context canceled") {
		t.Errorf("record of the interrupted match: aborted %v, reason %q", rec.IsAborted, rec.AbortReason)
	}
	if rec.Errors[1][0] != record.ErrTimeout {
		t.Errorf("step 1: error %q, want TO", rec.Errors[1][0])
	}
	_ = out
}
