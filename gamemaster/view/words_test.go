package view_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/reasoner"
)

// The tests of this file check the words a person reads on a seat page,
// as a person meets them: with clicks in headless Chromium.

// columnOpponent plays connectFour's (drop col) at its first turns, then
// what its player plays: it fills a column with the person.
type columnOpponent struct {
	player.Player
	col   string
	turns int // turns left to play col
}

func (p *columnOpponent) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	m, err := p.Player.Play(ctx, id, last)
	if err != nil || m == "noop" || p.turns == 0 {
		return m, err
	}
	p.turns--
	return reasoner.Move("(drop " + p.col + ")"), nil
}

// visibleNotice waits for the notice under the board and returns it.
func visibleNotice(t *testing.T, ctx context.Context) string {
	t.Helper()
	var text string
	run(t, ctx, 5*time.Second,
		chromedp.Poll(`!document.getElementById('notice').hidden`, nil, chromedp.WithPollingTimeout(3*time.Second)),
		chromedp.Text(`#notice`, &text),
	)
	return text
}

// gdlNotation matches what a person does not read on a board: a cell
// named by its coordinates in parentheses, as in the rules.
var gdlNotation = regexp.MustCompile(`\(\S+ \S+\)|pointer`)

// clickFullColumn plays connectFour on v as a person who, with the
// computer, fills column 4 with three discs each, and then clicks the full
// column. It returns the match and the step of the turn.
func clickFullColumn(t *testing.T, ctx context.Context, v *viewer) (*seated, string) {
	t.Helper()
	f := testFactory(t)
	g, _ := games.Lookup("connectFour")
	opp := &columnOpponent{Player: computer(t, f, "legal", 0), col: "4", turns: 3}
	m := v.seat(t, context.Background(), f, g, "full.1", 0, opp, 30*time.Second)
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+m.seat))
	for range 3 {
		_, step := awaitTurn(t, ctx, 20*time.Second)
		run(t, ctx, 5*time.Second, chromedp.Click(`#board td[data-x="4"][data-y="6"]`))
		awaitNext(t, ctx, step)
	}
	status, step := awaitTurn(t, ctx, 20*time.Second)
	if status != "to-move" {
		t.Fatalf("status %s after three discs each in column 4", status)
	}
	run(t, ctx, 5*time.Second, chromedp.Click(`#board td[data-x="4"][data-y="6"]`))
	return m, step
}

func TestClickOnAFullColumn(t *testing.T) {
	// The person and the computer fill column 4 of connectFour with three
	// discs each; a click on the full column says so, in the board's
	// words, and plays nothing.
	ctx := browser(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	m, step := clickFullColumn(t, ctx, v)
	notice := visibleNotice(t, ctx)
	var hint string
	run(t, ctx, 5*time.Second, chromedp.Text(`#hint`, &hint))
	if !strings.Contains(notice, "Column 4 is full") || gdlNotation.MatchString(notice) {
		t.Errorf("a click on the full column 4 says %q, want that column 4 is full, without the rules' notation", notice)
	}
	if !strings.Contains(hint, "column") {
		t.Errorf("the hint of connectFour says %q, want columns", hint)
	}
	if turn, _ := m.h.Turn(); turn.Status != human.ToMove || fmt.Sprint(turn.Step) != step {
		t.Errorf("after a click on the full column the seat is %s at step %d, want still to move at step %s", turn.Status, turn.Step, step)
	}
}

// slowFollower is a person's player whose game master takes d to send each
// request: a page shows the person's choice for d before the next step.
type slowFollower struct {
	*human.Player
	d time.Duration
}

func (p *slowFollower) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	if last != nil {
		pause(ctx, p.d)
	}
	return p.Player.Play(ctx, id, last)
}

func TestFirstClickAfterTheMoveIsAnswered(t *testing.T) {
	// A click right after the person's move, before the step is played,
	// is answered, and the answer stays while the others move: it is not
	// wiped out by the next step coming in.
	ctx := browser(t)
	f := testFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, _ := games.Lookup("ticTacToe")
	h := &slowFollower{Player: human.New("person", f), d: time.Second}
	seat := v.srv.AddSeat(h)
	defer v.play(f, &gamemaster.Match{ID: "first.1", Game: g, Players: []player.Player{h, computer(t, f, "legal", 2*time.Second)}, StartClock: 5 * time.Second, PlayClock: 20 * time.Second})()
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+seat))
	awaitTurn(t, ctx, 20*time.Second)
	run(t, ctx, 5*time.Second,
		chromedp.Click(`#board td[data-x="2"][data-y="2"]`),
		chromedp.Poll(`document.body.dataset.status === 'others'`, nil, chromedp.WithPollingTimeout(3*time.Second)),
		chromedp.Click(`#board td[data-x="1"][data-y="1"]`),
	)
	first := visibleNotice(t, ctx)
	// The step comes in after a second; the computer then thinks for two.
	var after string
	var hidden bool
	run(t, ctx, 10*time.Second,
		chromedp.Poll(`document.body.dataset.step === '1'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Evaluate(`document.getElementById('notice').hidden`, &hidden),
		chromedp.Text(`#notice`, &after),
	)
	if !strings.Contains(first, "not your turn") {
		t.Errorf("the first click after the move says %q", first)
	}
	if hidden || !strings.Contains(after, "not your turn") {
		t.Errorf("once the step has come in, the answer to the click is %q (hidden %v), want it still there", after, hidden)
	}
	// The index says what the seat waits for in words, and the step in
	// the singular.
	var seats, live string
	run(t, ctx, 10*time.Second,
		chromedp.Navigate(v.url+"/"),
		chromedp.Poll(`document.getElementById('seats').textContent.includes('first.1')`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Text(`#seats`, &seats),
		chromedp.Text(`body`, &live),
	)
	if strings.Contains(seats, "to-move") || !regexp.MustCompile(`waiting for the others|your move`).MatchString(seats) {
		t.Errorf("the index lists the seat as %q, want its status in words", seats)
	}
	if strings.Contains(live, "(1 steps)") {
		t.Errorf("the index says %q", live)
	}
}

// slowStarter is a player that takes d to answer START, as a player that
// uses its start clock does.
type slowStarter struct {
	player.Player
	d time.Duration
}

func (p *slowStarter) Start(ctx context.Context, m *player.Match) error {
	pause(ctx, p.d)
	return p.Player.Start(ctx, m)
}

// startSlowly starts a match of ticTacToe on v in which the computer
// takes 4 s of its start clock of 10 s, opens the person's seat and
// waits until it shows the match starting; stop ends the match.
func startSlowly(t *testing.T, ctx context.Context, v *viewer) (stop func()) {
	t.Helper()
	f := testFactory(t)
	g, _ := games.Lookup("ticTacToe")
	h := human.New("person", f)
	seat := v.srv.AddSeat(h)
	opp := &slowStarter{Player: computer(t, f, "legal", 0), d: 4 * time.Second}
	stop = v.play(f, &gamemaster.Match{ID: "starting.1", Game: g, Players: []player.Player{h, opp}, StartClock: 10 * time.Second, PlayClock: 20 * time.Second})
	run(t, ctx, 10*time.Second,
		chromedp.Navigate(v.url+seat),
		chromedp.Poll(`document.body.dataset.status === 'others'`, nil, chromedp.WithPollingTimeout(5*time.Second)))
	return stop
}

// play plays m on v in the background, its players' reasoners built by
// f, until it ends or stop is called; stop returns once it has ended.
func (v *viewer) play(f reasoner.Factory, m *gamemaster.Match) (stop func()) {
	ref := &gamemaster.Referee{NewReasoner: f, OnStep: v.srv.Publish}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ref.Run(ctx, m)
	}()
	return func() { cancel(); <-done }
}

func TestStartClockExplained(t *testing.T) {
	// While the computer uses its start clock, the page says that the
	// match is starting and why nothing happens, and answers a click.
	ctx := browser(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	defer startSlowly(t, ctx, v)()
	var turn, badge, countdown string
	run(t, ctx, 10*time.Second,
		chromedp.Text(`#turn`, &turn),
		chromedp.Text(`#status`, &badge),
		chromedp.Text(`#countdown`, &countdown),
		chromedp.Click(`#board td[data-x="1"][data-y="1"]`),
	)
	notice := visibleNotice(t, ctx)
	if !strings.Contains(turn, "start clock") || !strings.Contains(turn, "The match is starting") {
		t.Errorf("while the computer uses its start clock the page says %q", turn)
	}
	if badge != "starting" || !strings.HasPrefix(countdown, "starts in ") {
		t.Errorf("while the match starts the badge says %q and the countdown %q", badge, countdown)
	}
	if !strings.Contains(notice, "the match is starting") {
		t.Errorf("a click while the match starts says %q", notice)
	}
	if status, _ := awaitTurn(t, ctx, 20*time.Second); status != "to-move" {
		t.Fatalf("status %s once the match has started", status)
	}
	run(t, ctx, 5*time.Second, chromedp.Text(`#turn`, &turn))
	if strings.Contains(turn, "starting") {
		t.Errorf("once the person is to move the page says %q", turn)
	}
}

// awaitButtons waits until the seat is to move, with the moves' buttons
// shown, or the match is over, and returns the status and the step.
func awaitButtons(t *testing.T, ctx context.Context, limit time.Duration) (status, step string) {
	t.Helper()
	run(t, ctx, limit+5*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#moves button').length > 0 || document.body.dataset.status === 'over' && !document.getElementById('outcome').hidden`, nil,
			chromedp.WithPollingTimeout(limit), chromedp.WithPollingInterval(50*time.Millisecond)),
		chromedp.AttributeValue(`body`, "data-status", &status, nil),
		chromedp.AttributeValue(`body`, "data-step", &step, nil),
	)
	return status, step
}

// playMontyHall plays montyhall on v as a candidate who chooses door 1 and
// then plays last (switch or stay), with clicks, to the end, and returns
// the game and the record; onTurn, if not nil, is called at each of the
// candidate's turns and at the end.
func playMontyHall(t *testing.T, ctx context.Context, v *viewer, id, last string, onTurn func()) (*games.Game, *record.Record) {
	t.Helper()
	f := testFactory(t)
	g, _ := games.Lookup("montyhall")
	_, seat, done := gdlIIMatch(t, v.srv, f, g, id, "", 0, 1, 7, nil)
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(v.url+seat))
	for _, move := range []string{"(choose 1)", last} {
		status, step := awaitButtons(t, ctx, 20*time.Second)
		if status != "to-move" {
			t.Fatalf("status %s before %s", status, move)
		}
		if onTurn != nil {
			onTurn()
		}
		run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#moves button[data-move=%q]`, move)))
		awaitNext(t, ctx, step)
	}
	if status, _ := awaitButtons(t, ctx, 20*time.Second); status != "over" {
		t.Fatalf("status %s after %s", status, last)
	}
	rec := <-done
	if rec == nil {
		t.Fatal("the match failed")
	}
	run(t, ctx, 5*time.Second, chromedp.Poll(`!document.getElementById('truth').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)))
	if onTurn != nil {
		onTurn()
	}
	return g, rec
}

func TestMontyHallExplained(t *testing.T) {
	// The candidate chooses door 1 and switches, with clicks. The page
	// gives the game's description, says what the candidate was told in
	// sentences, and at the end shows the truth: where the car was,
	// nature's moves, the door the candidate ends with and the goat
	// behind the door opened. The match page shows no goal for nature.
	ctx := browser(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	g, rec := playMontyHall(t, ctx, v, "monty.1", "switch", nil)
	var about, history, truth, final, opened, chosen string
	var truthShown bool
	run(t, ctx, 5*time.Second,
		chromedp.Text(`#about`, &about),
		chromedp.Text(`#history`, &history),
		chromedp.Evaluate(`!document.getElementById('truth').hidden`, &truthShown),
		chromedp.Text(`#truth`, &truth),
		chromedp.Evaluate(`(document.querySelector('#board td[data-final="yes"]') || {dataset: {}}).dataset.door || ""`, &final),
		chromedp.Evaluate(`(document.querySelector('#board td[data-opened="yes"]') || {textContent: ""}).textContent`, &opened),
		chromedp.Evaluate(`(document.querySelector('#board td[data-chosen="yes"]') || {dataset: {}}).dataset.door || ""`, &chosen),
	)
	if !strings.Contains(about, g.Description) || g.Description == "" {
		t.Errorf("the seat page describes the game as %q, want %q", about, g.Description)
	}
	// The host opened the door nature's second move names.
	open := strings.Trim(strings.TrimPrefix(rec.Moves[1][1], "(open"), " )")
	car := strings.Trim(strings.TrimPrefix(rec.Moves[0][1], "(hide"), " )")
	if !strings.Contains(history, "The host opened door "+open+": a goat is behind it.") || !strings.Contains(history, "The car is behind door "+car+".") || strings.Contains(history, "saw") {
		t.Errorf("the history reads %q, want what the candidate was told in sentences", history)
	}
	if !truthShown || !strings.Contains(truth, "hide the car behind door "+car) || !strings.Contains(truth, "open door "+open) {
		t.Errorf("the end shows %q (shown %v), want nature's moves", truth, truthShown)
	}
	want := map[string]bool{"1": true, "2": true, "3": true}
	delete(want, "1")
	delete(want, open)
	for d := range want {
		if final != d || chosen != "1" {
			t.Errorf("the board ends with door %q as the candidate's, first chosen %q, want %s after switching from 1", final, chosen, d)
		}
	}
	if !strings.Contains(opened, "goat") {
		t.Errorf("the door opened shows %q, want a goat", opened)
	}
	var goals, players string
	run(t, ctx, 10*time.Second,
		chromedp.Navigate(v.url+"/match?src="+view.LiveSource("monty.1")),
		chromedp.Poll(`document.querySelectorAll('#players tr.role').length === 2`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Evaluate(`document.querySelector('#slider').value = document.querySelector('#slider').max, document.querySelector('#slider').dispatchEvent(new Event('input')), 1`, nil),
		chromedp.Text(`#stepInfo`, &goals),
		chromedp.Text(`#players`, &players),
	)
	if strings.Contains(goals, "random 0") || !strings.Contains(goals, "candidate") {
		t.Errorf("the match page gives the goals %q, want none for nature", goals)
	}
	if !strings.Contains(players, "not scored") {
		t.Errorf("the match page's players read %q, want nature not scored", players)
	}
}

// playKrieg plays kriegTicTacToe on v as a person in the seat of role,
// who clicks the last move offered at every turn, against random, to the
// end, and returns the record.
func playKrieg(t *testing.T, ctx context.Context, v *viewer, id string, role int) *record.Record {
	t.Helper()
	f := testFactory(t)
	g, _ := games.Lookup("kriegTicTacToe")
	_, seat, done := gdlIIMatch(t, v.srv, f, g, id, "", role, 2, 11, nil)
	run(t, ctx, 10*time.Second, chromedp.EmulateViewport(1200, 900), chromedp.Navigate(v.url+seat))
	for range 20 {
		status, step := awaitButtons(t, ctx, 20*time.Second)
		if status == "over" {
			break
		}
		run(t, ctx, 5*time.Second, chromedp.Click(`#moves button:last-child`))
		awaitNext(t, ctx, step)
	}
	rec := <-done
	if rec == nil {
		t.Fatal("the match failed")
	}
	run(t, ctx, 5*time.Second, chromedp.Poll(`!document.getElementById('truth').hidden`, nil, chromedp.WithPollingTimeout(3*time.Second)))
	return rec
}

func TestKriegTicTacToeExplained(t *testing.T) {
	// A person plays kriegTicTacToe in either seat, with clicks on the
	// moves, to the end: what they were told reads in sentences, and at
	// the end the board shows the true final state, with no cell left
	// unknown, and every role's moves.
	for _, role := range []int{0, 1} {
		t.Run(fmt.Sprint(role), func(t *testing.T) {
			ctx := browser(t)
			v := serveViewer(t, "127.0.0.1:0", view.Options{})
			rec := playKrieg(t, ctx, v, fmt.Sprintf("krieg.%d", role), role)
			var history, truth string
			var unknown int
			var board []string
			run(t, ctx, 5*time.Second,
				chromedp.Text(`#history`, &history),
				chromedp.Text(`#truth`, &truth),
				chromedp.Evaluate(`document.querySelectorAll('#board .unknown').length`, &unknown),
				chromedp.Evaluate(`Array.from(document.querySelectorAll('#board td[data-x]')).map(e => e.dataset.x + ' ' + e.dataset.y + ' ' + e.dataset.content)`, &board),
			)
			if strings.Contains(history, "saw") || !strings.Contains(history, "Your mark was placed on the square in row") {
				t.Errorf("the history reads %q, want what the person was told in sentences", history)
			}
			if role == 1 && !strings.Contains(history, "Your opponent placed a mark") {
				t.Errorf("oplayer's history reads %q, want the opponent's marks told in a sentence", history)
			}
			if unknown != 0 {
				t.Errorf("the end board has %d cells unknown", unknown)
			}
			final := cellsOf(rec.States[len(rec.States)-1])
			for _, c := range board {
				f := strings.Fields(c)
				if len(f) != 3 || final[f[0]+" "+f[1]] != f[2] {
					t.Errorf("the end board shows %q, the final state %v", c, final)
				}
			}
			other := rec.Roles[1-role]
			if !strings.Contains(truth, other+": try") {
				t.Errorf("the end shows %q, want %s's moves", truth, other)
			}
		})
	}
}

// TestScreenshotsOfWords writes, as TestScreenshots does, to the folder
// named by GGP_VIEW_SCREENSHOTS, the pages of docs/viewer.md that explain
// to a person what happens: a click on a full column, the start clock,
// montyhall and kriegTicTacToe in both seats at their end, and the match
// page of montyhall. It is a tool run by hand, not a check.
func TestScreenshotsOfWords(t *testing.T) {
	out := os.Getenv("GGP_VIEW_SCREENSHOTS")
	if out == "" {
		t.Skip("set GGP_VIEW_SCREENSHOTS to a folder to write the screenshots")
	}
	ctx := browser(t)
	shoot := func(name string) {
		var png []byte
		run(t, ctx, 20*time.Second, chromedp.Sleep(500*time.Millisecond), chromedp.CaptureScreenshot(&png))
		writeShot(t, out, name, png)
	}
	v := serveViewer(t, "127.0.0.1:0", view.Options{})
	run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 760))
	clickFullColumn(t, ctx, v)
	visibleNotice(t, ctx)
	shoot("seat-connectFour-full.png")

	stop := startSlowly(t, ctx, v)
	shoot("seat-starting.png")
	stop()

	playMontyHall(t, ctx, v, "montyhall.1", "switch", nil)
	run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 760))
	shoot("seat-montyhall-end.png")
	// shootMatch shoots the match page of the live match id, once ready
	// (a selector) is shown.
	shootMatch := func(id, ready, name string) {
		run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+"/match?src="+view.LiveSource(id)), chromedp.WaitVisible(ready))
		shoot(name)
	}
	shootMatch("montyhall.1", `#players tr.role`, "match-montyhall.png")
	// A newcomer's second look: a square found taken, said at its step;
	// the winning diagonal from the true final state; the goat of a
	// candidate who stayed; the match page in the game's words.
	playFoundTaken(t, ctx, v, "kriegTicTacToe.found", func() {
		run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 900))
		shoot("seat-kriegTicTacToe-found.png")
	})
	run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 900))
	shoot("seat-kriegTicTacToe-line.png")
	shootMatch("kriegTicTacToe.found", `#seen tr.step`, "match-kriegTicTacToe.png")
	playMontyHall(t, ctx, v, "montyhall.stay", "stay", nil)
	run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 760))
	shoot("seat-montyhall-goat.png")
	for role, name := range []string{"xplayer", "oplayer"} {
		playKrieg(t, ctx, v, "kriegTicTacToe."+name, role)
		run(t, ctx, 5*time.Second, chromedp.EmulateViewport(1100, 900))
		shoot("seat-kriegTicTacToe-" + name + "-end.png")
	}
}
