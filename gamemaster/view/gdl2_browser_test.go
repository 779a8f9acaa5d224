package view_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/seat"
	"github.com/ggp-go/ggp/reasoner"
)

// othersOnly returns what the roles but role were told, or played, in rec
// that role was neither told nor played: what its seat must never show.
func othersOnly(rec *record.Record, role int) []string {
	mine := map[string]bool{}
	for k := range rec.Moves {
		mine[rec.Moves[k][role]] = true
		for _, p := range rec.Percepts[k][role] {
			mine[p] = true
		}
	}
	var out []string
	for k := range rec.Moves {
		for i := range rec.Roles {
			if i == role {
				continue
			}
			for _, p := range rec.Percepts[k][i] {
				if !mine[p] && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TestGDLIIPersonPlaysKriegTTT plays the public Kriegspiel tic-tac-toe
// (4x4) as xplayer against the random player, in Chromium with clicks of
// the mouse on the seat page, to the end: at every step the page shows the
// person's own moves and percepts, and never a percept of the opponent.
func TestGDLIIPersonPlaysKriegTTT(t *testing.T) {
	file, _ := gamestest.ReadGameII(t, "kriegTTT_4x4")
	ctx := browser(t)
	g, err := games.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f := sharedFactory(t)
	v := serveViewer(t, "127.0.0.1:0", view.Options{Poll: 50 * time.Millisecond})
	var mu sync.Mutex
	var latest *record.Record // as the game master published it last
	_, seatPath, done := gdlIIMatch(t, v.srv, f, g, "krieg.1", "", 0, 2, 1, func(r *record.Record) {
		mu.Lock()
		defer mu.Unlock()
		c := *r
		c.Moves, c.Percepts = slices.Clone(r.Moves), slices.Clone(r.Percepts)
		latest = &c
	})
	run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+seatPath))
	rng := rand.New(rand.NewPCG(1, 1))
	// checkPage checks that the page shows none of the opponent's
	// percepts so far, and the person's own of every step it lists.
	checkPage := func(step string) {
		t.Helper()
		var html string
		var items []struct{ Step, Text, Percepts string }
		run(t, ctx, 5*time.Second,
			chromedp.Evaluate(`document.documentElement.outerHTML`, &html),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#history li')).map(li => ({Step: li.dataset.step, Text: li.textContent, Percepts: li.dataset.percepts}))`, &items),
		)
		mu.Lock()
		rec := latest
		mu.Unlock()
		for _, p := range othersOnly(rec, 0) {
			if strings.Contains(html, p) {
				t.Errorf("at step %s the seat page shows %s, which only the opponent was told", step, p)
			}
		}
		for k, it := range items {
			if k >= len(rec.Moves) {
				t.Errorf("at step %s the history lists step %s, %d steps played", step, it.Step, len(rec.Moves))
				break
			}
			var ps []string
			json.Unmarshal([]byte(it.Percepts), &ps)
			want := rec.Percepts[k][0]
			// A noop, the move of a role that waits, is not written.
			mine := rec.Moves[k][0]
			if it.Step != fmt.Sprint(k+1) || !slices.Equal(ps, want) || mine != "noop" && !strings.Contains(it.Text, "you: "+strings.Trim(mine, "()")) {
				t.Errorf("at step %s the history's item %d is %q (percepts %v), recorded move %s and percepts %v", step, k+1, it.Text, ps, rec.Moves[k][0], want)
			}
			for _, p := range want {
				if !strings.Contains(it.Text, p) {
					t.Errorf("at step %s the history's item %d %q does not show %s", step, k+1, it.Text, p)
				}
			}
		}
	}
	clicks := 0
	for {
		var status, step string
		run(t, ctx, 30*time.Second,
			chromedp.Poll(`document.body.dataset.status === 'to-move' && document.querySelectorAll('#moves button').length > 0 || document.body.dataset.status === 'over'`, nil,
				chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)),
			chromedp.AttributeValue(`body`, "data-status", &status, nil),
			chromedp.AttributeValue(`body`, "data-step", &step, nil),
		)
		checkPage(step)
		if status == "over" {
			break
		}
		// A cell of the board, or else a button: the board's cells are
		// bound to the moves that name them.
		var cells []string
		run(t, ctx, 5*time.Second, chromedp.Evaluate(`Array.from(document.querySelectorAll('#board td[data-move]')).map(e => e.dataset.move)`, &cells))
		if len(cells) == 0 {
			var dump string
			run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.getElementById('board').innerHTML.slice(0, 1500) + ' | ' + document.getElementById('errors').textContent + ' | ' + document.getElementById('hint').textContent`, &dump))
			t.Fatalf("step %s: no cell of the board plays a move; the board: %s", step, dump)
		}
		m := cells[rng.IntN(len(cells))]
		if clicks%2 == 0 {
			run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#board td[data-move=%q]`, m)))
		} else {
			run(t, ctx, 5*time.Second, chromedp.Click(fmt.Sprintf(`#moves button[data-move=%q]`, m)))
		}
		clicks++
		awaitNext(t, ctx, step)
	}
	var rec *record.Record
	select {
	case rec = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the match did not end")
	}
	if rec == nil || !rec.IsCompleted {
		t.Fatal("the match did not complete")
	}
	for i := range rec.Moves {
		if e := rec.Errors[i+1][0]; e != "" {
			t.Errorf("step %d: error %q for the person's move", i+1, e)
		}
	}
	var outcome, known string
	var marks []string
	{
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := chromedp.Run(c, chromedp.Poll(`document.body.dataset.status === 'over' && document.querySelectorAll('#history li').length === `+fmt.Sprint(rec.Steps())+` && !document.getElementById('outcome').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)))
		cancel()
		if err != nil {
			var dump string
			run(t, ctx, 5*time.Second, chromedp.Evaluate(`document.body.dataset.status + ' ' + document.querySelectorAll('#history li').length + ' ' + document.getElementById('outcome').hidden + ' ' + document.getElementById('outcome').textContent + ' | ' + document.getElementById('message').textContent`, &dump))
			t.Fatalf("the end page: %v; %s (%d steps)", err, dump, rec.Steps())
		}
	}
	run(t, ctx, 10*time.Second,
		chromedp.Poll(`document.body.dataset.status === 'over' && document.querySelectorAll('#history li').length === `+fmt.Sprint(rec.Steps())+` && !document.getElementById('outcome').hidden`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Text(`#outcome`, &outcome),
		chromedp.Text(`#known`, &known),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#board td[data-x]')).filter(e => e.textContent === 'xplayer').map(e => '(yougotit ' + e.dataset.x + ' ' + e.dataset.y + ')').sort()`, &marks),
	)
	checkPage(fmt.Sprint(rec.Steps()))
	if want := seat.Outcome(rec.GoalValues, rec.Roles, 0, ""); !strings.Contains(strings.ToLower(outcome), want) {
		t.Errorf("the end page says %q, want %q", outcome, want)
	}
	// Once the match is over, nothing is hidden: the board is the true
	// final state, with the person's marks where the record has them.
	if !strings.Contains(known, "true final state") {
		t.Errorf("the board's note says %q", known)
	}
	var final []string
	for xy, content := range cellsOf(rec.States[len(rec.States)-1]) {
		if content == "xplayer" {
			final = append(final, "(yougotit "+xy+")")
		}
	}
	slices.Sort(final)
	if !slices.Equal(marks, final) {
		t.Errorf("the end board shows the person's marks %v, the final state %v", marks, final)
	}
	t.Logf("%d steps, %d clicks; %s", rec.Steps(), clicks, outcome)
}

// delayedII is a GDL-II player that takes d over each turn, so that a
// live page has steps to follow.
type delayedII struct {
	player.GDLIIPlayer
	d time.Duration
}

func (p *delayedII) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	pause(ctx, p.d)
	return p.GDLIIPlayer.PlayTurn(ctx, id, t)
}

// TestGDLIIMatchPage follows a GDL-II match of computer players live on
// its page, then opens its record: both show, beside the true board, what
// each role but nature saw at each step, its own move and its percepts,
// as the record has them.
func TestGDLIIMatchPage(t *testing.T) {
	ctx := browser(t)
	f := testFactory(t)
	dir := t.TempDir()
	v := serveViewer(t, "127.0.0.1:0", view.Options{Dirs: []string{dir}, Poll: 50 * time.Millisecond})
	for _, c := range []struct {
		key string
		n   int
	}{{"kriegTicTacToe", 2}, {"liarsDie", 2}} {
		t.Run(c.key, func(t *testing.T) {
			g, err := games.Lookup(c.key)
			if err != nil {
				t.Fatal(err)
			}
			ps := make([]player.Player, c.n)
			for i := range ps {
				p := baseline.Random(baseline.Options{NewReasoner: f, Seed: uint64(i + 1)})
				ps[i] = &delayedII{GDLIIPlayer: p.(player.GDLIIPlayer), d: 150 * time.Millisecond}
			}
			id := c.key + ".page"
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
				rec, err := ref.Run(context.Background(), &gamemaster.Match{ID: id, Game: g, Players: ps, Record: filepath.Join(dir, id+".json"), StartClock: 10 * time.Second, PlayClock: 10 * time.Second, Seed: 3})
				if err != nil {
					t.Error(err)
				}
				done <- rec
			}()
			<-started
			run(t, ctx, 10*time.Second,
				chromedp.Navigate(v.url+"/match?src="+view.LiveSource(id)),
				chromedp.WaitVisible(`#seen tr.step`),
			)
			rec := <-done
			if rec == nil {
				t.Fatal("the match failed")
			}
			for _, src := range []string{view.LiveSource(id), "0/" + id + ".json"} {
				if !strings.HasPrefix(src, "live/") {
					run(t, ctx, 10*time.Second, chromedp.Navigate(v.url+"/match?src="+src))
				}
				run(t, ctx, 10*time.Second, chromedp.Poll(fmt.Sprintf(`document.querySelectorAll('#seen tr.step').length === %d && document.getElementById('status').textContent === 'completed'`, rec.Steps()), nil, chromedp.WithPollingTimeout(5*time.Second)))
				checkSeen(t, ctx, rec, src)
			}
		})
	}
}

// checkSeen checks the table of what each role saw against rec, and the
// step shown under the board.
func checkSeen(t *testing.T, ctx context.Context, rec *record.Record, src string) {
	t.Helper()
	var heads []string
	var rows [][]struct {
		Role, Move string
		Percepts   []string
	}
	run(t, ctx, 5*time.Second,
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#seen th[data-role]')).map(e => e.dataset.role)`, &heads),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#seen tr.step')).map(tr => Array.from(tr.querySelectorAll('td[data-role]')).map(td => ({
			Role: td.dataset.role, Move: td.querySelector('.move').dataset.move,
			Percepts: Array.from(td.querySelectorAll('.percept')).map(p => p.dataset.percept)})))`, &rows),
	)
	var seers []int
	for i, r := range rec.Roles {
		if r != rec.Nature {
			seers = append(seers, i)
		}
	}
	var want []string
	for _, i := range seers {
		want = append(want, rec.Roles[i])
	}
	if !slices.Equal(heads, want) {
		t.Errorf("%s: what each role saw has the columns %v, want the roles but nature %v", src, heads, want)
	}
	if len(rows) != rec.Steps() {
		t.Fatalf("%s: %d steps of what each role saw, the match had %d", src, len(rows), rec.Steps())
	}
	for k, row := range rows {
		if len(row) != len(seers) {
			t.Errorf("%s: step %d: %d roles", src, k+1, len(row))
			continue
		}
		for j, i := range seers {
			got := row[j]
			if got.Role != rec.Roles[i] || got.Move != rec.Moves[k][i] || !slices.Equal(got.Percepts, rec.Percepts[k][i]) && len(got.Percepts)+len(rec.Percepts[k][i]) > 0 {
				t.Errorf("%s: step %d, %s saw %+v; recorded %s and %v", src, k+1, rec.Roles[i], got, rec.Moves[k][i], rec.Percepts[k][i])
			}
		}
	}
	// The step under the board says what each role saw of it.
	var info []string
	run(t, ctx, 5*time.Second,
		chromedp.Click(`#seen tr.step[data-step="1"]`),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#stepInfo .percept')).map(p => p.dataset.percept)`, &info),
	)
	for _, i := range seers {
		for _, p := range rec.Percepts[0][i] {
			if !slices.Contains(info, p) {
				t.Errorf("%s: step 1 under the board tells %q, without %s's percept %s", src, info, rec.Roles[i], p)
			}
		}
	}
}
