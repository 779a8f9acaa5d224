package view_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/reasoner"
)

// gdlIIMatch starts a GDL-II match of g on srv, in which a person sits in
// the role of index role and random players, seeded with seed, in the
// others but nature; n is the number of players. The record is written to
// file, when given, and onStep, if not nil, is told of every version of it
// published. The record's channel gives nil when the match fails.
func gdlIIMatch(t *testing.T, srv *view.Server, f reasoner.Factory, g *games.Game, id, file string, role, n int, seed uint64, onStep func(*record.Record)) (*human.Player, string, <-chan *record.Record) {
	t.Helper()
	h := human.New("person", f)
	ps := make([]player.Player, n)
	for i := range ps {
		if i == role {
			ps[i] = h
			continue
		}
		p := baseline.Random(baseline.Options{NewReasoner: f, Seed: seed + uint64(i)})
		ps[i] = p
	}
	seat := srv.AddSeat(h)
	// The end of a long match can take the person's belief a few seconds.
	ref := &gamemaster.Referee{NewReasoner: f, ReadyTimeout: time.Minute, StopTimeout: time.Minute, OnStep: func(r *record.Record) {
		srv.Publish(r)
		if onStep != nil {
			onStep(r)
		}
	}}
	done := make(chan *record.Record, 1)
	go func() {
		rec, err := ref.Run(context.Background(), &gamemaster.Match{ID: id, Game: g, Players: ps, Record: file, StartClock: time.Minute, PlayClock: 30 * time.Second, Seed: seed})
		if err != nil {
			t.Errorf("match %s: %v", id, err)
			rec = nil
		}
		done <- rec
	}()
	return h, seat, done
}

// sent is one answer of the viewer to the person's page, with the step of
// the match it was sent at.
type sent struct {
	what string // the request
	step int
	body string
}

// seatView is what the test reads of a seat view.
type seatView struct {
	Step     int                        `json:"step"`
	Status   string                     `json:"status"`
	Legal    []string                   `json:"legal"`
	State    []string                   `json:"state"`
	Possible int                        `json:"possible"`
	Side     []string                   `json:"side"`
	Goals    []int                      `json:"goals"`
	Aborted  bool                       `json:"aborted"`
	History  []map[string]any           `json:"history"`
	Raw      map[string]json.RawMessage `json:"-"`
}

// person plays a seat as a page does, through the viewer's API alone: it
// follows the seat's events, and at every turn reads the seat and the
// match's record and chooses one of the moves offered at random. It
// returns every answer the viewer sent, once the match is over, and fails
// the test when ctx is done first.
func person(t *testing.T, ctx context.Context, base, seatPath, src string, seed uint64) []sent {
	t.Helper()
	id := strings.TrimPrefix(seatPath, "/seat?id=")
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/seat/watch?id="+id, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []sent
	get := func(what string, step int, method, path string, body io.Reader) (int, string) {
		r, _ := http.NewRequestWithContext(ctx, method, base+path, body)
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		out = append(out, sent{what, step, string(b)})
		return res.StatusCode, string(b)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	moved := -1
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var v seatView
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			t.Fatalf("seat event %s: %v", data, err)
		}
		out = append(out, sent{"/api/seat/watch", v.Step, data})
		if v.Status == "over" {
			if len(v.Goals) == 0 && !v.Aborted {
				t.Errorf("the end of the match without goals: %s", data)
			}
			return out
		}
		if v.Status != "to-move" || moved == v.Step {
			continue
		}
		moved = v.Step
		get("/api/seat", v.Step, http.MethodGet, "/api/seat?id="+id, nil)
		// The match's record, while the person plays, is held back.
		if code, body := get("/api/record", v.Step, http.MethodGet, "/api/record?src="+url.QueryEscape(src), nil); code != http.StatusForbidden || strings.Contains(body, `"states"`) {
			t.Errorf("step %d: the record of the match while a person plays: %d %s", v.Step, code, body)
		}
		m := v.Legal[rng.IntN(len(v.Legal))]
		body, _ := json.Marshal(map[string]any{"step": v.Step, "move": m})
		if code, answer := get("/api/seat/move", v.Step, http.MethodPost, "/api/seat/move?id="+id, bytes.NewReader(body)); code != http.StatusOK {
			t.Errorf("step %d: move %s: %d %s", v.Step, m, code, answer)
		}
	}
	t.Fatalf("the seat's events ended before the match: %v", sc.Err())
	return nil
}

// consistent returns, for every step k of rec (0 before the first joint
// move), the states consistent with what role was told by then, by brute
// force: those reached from the initial state by legal joint moves from
// states that are not terminal, each holding the role's recorded move and
// giving it its recorded percepts.
func consistent(t *testing.T, r reasoner.Reasoner, rec *record.Record, role int) [][]*reasoner.State {
	t.Helper()
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := [][]*reasoner.State{{s0}}
	nroles := len(r.Roles())
	for k, joint := range rec.Moves {
		seen := map[string]bool{}
		var next []*reasoner.State
		for _, s := range out[k] {
			if end, _ := r.Terminal(ctx, s); end {
				continue
			}
			legal := make([][]reasoner.Move, nroles)
			for i := range legal {
				if legal[i], err = r.Legal(ctx, s, i); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Contains(legal[role], reasoner.Move(joint[role])) {
				continue
			}
			legal[role] = []reasoner.Move{reasoner.Move(joint[role])}
			for _, j := range gamestest.JointMoves(legal) {
				ps, err := r.(reasoner.Perceiver).Sees(ctx, s, j, role)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]string, len(ps))
				for i, p := range ps {
					got[i] = string(p)
				}
				if !slices.Equal(got, rec.Percepts[k][role]) {
					continue
				}
				n, err := r.Next(ctx, s, j)
				if err != nil {
					t.Fatal(err)
				}
				key := fmt.Sprint(n.Facts())
				if !seen[key] {
					seen[key] = true
					next = append(next, n)
				}
			}
		}
		out = append(out, next)
	}
	return out
}

// knowledge returns the facts true in every state of states that are
// terminal, when over is set, or else that are not (all of them when none
// is), and how many states those are: what a role holds possible when a
// turn, or the end of the match, tells it that the match goes on, or not.
func knowledge(t *testing.T, r reasoner.Reasoner, states []*reasoner.State, over bool) ([]string, int) {
	var held []*reasoner.State
	for _, s := range states {
		if end, _ := r.Terminal(context.Background(), s); end == over {
			held = append(held, s)
		}
	}
	if len(held) == 0 {
		held = states
	}
	count := map[reasoner.Fact]int{}
	for _, s := range held {
		for _, f := range s.Facts() {
			count[f]++
		}
	}
	var out []string
	for f, n := range count {
		if n == len(held) {
			out = append(out, string(f))
		}
	}
	slices.Sort(out)
	return out, len(held)
}

// TestGDLIISeatShowsOnlyTheView plays GDL-II matches as a person does,
// through the seat's API, and checks every answer the viewer sent the
// person's page: none holds a fact of the true state that the person's
// role could not know from what it was told (found by brute force over
// every history consistent with it), nor another role's moves or
// percepts, nor the joint moves; the board is exactly the facts the role
// can know; the history holds the role's own moves and percepts; and the
// match's record is held back until the end.
func TestGDLIISeatShowsOnlyTheView(t *testing.T) {
	f := testFactory(t)
	for _, c := range []struct {
		key     string
		role, n int
		seed    uint64
	}{
		{"montyhall", 0, 1, 1},
		{"montyhall", 0, 1, 2},
		{"montyhall", 0, 1, 3},
		{"kriegTicTacToe", 0, 2, 1},
		{"kriegTicTacToe", 1, 2, 2},
	} {
		t.Run(fmt.Sprintf("%s-%d-%d", c.key, c.role, c.seed), func(t *testing.T) {
			g, err := games.Lookup(c.key)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			v := serveViewer(t, "127.0.0.1:0", view.Options{Dirs: []string{dir}, Poll: 50 * time.Millisecond})
			id := c.key + ".ii"
			_, seat, done := gdlIIMatch(t, v.srv, f, g, id, filepath.Join(dir, id+".json"), c.role, c.n, c.seed, nil)
			// The person gives up when the match fails.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ended := make(chan *record.Record, 1)
			go func() {
				rec := <-done
				if rec == nil {
					cancel()
				}
				ended <- rec
			}()
			answers := person(t, ctx, v.url, seat, view.LiveSource(id), c.seed)
			rec := <-ended
			if rec == nil {
				t.Fatal("the match failed")
			}
			// The record on file was held back too while the match was
			// played; it is shown now, as the live one.
			for _, src := range []string{view.LiveSource(id), "0/" + id + ".json"} {
				code, body := get(t, v.srv.Handler(), "/api/record?src="+url.QueryEscape(src))
				if code != http.StatusOK || !strings.Contains(body, `"percepts"`) {
					t.Errorf("%s after the match: %d %.200s", src, code, body)
				}
			}
			checkAnswers(t, f, g, rec, c.role, answers)
		})
	}
}

// checkAnswers checks what the viewer sent the page of the person who
// played role in the match of rec (see TestGDLIISeatShowsOnlyTheView).
func checkAnswers(t *testing.T, f reasoner.Factory, g *games.Game, rec *record.Record, role int, answers []sent) {
	t.Helper()
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	states := consistent(t, r, rec, role)
	// hidden[k]: the facts of the true state after step k that the role
	// cannot know.
	hidden := make([][]string, len(rec.States))
	for k, st := range rec.States {
		known, _ := knowledge(t, r, states[k], k == rec.Steps())
		actual, err := gamemaster.ParseState(st)
		if err != nil {
			t.Fatal(err)
		}
		for _, fact := range actual.Facts() {
			if !slices.Contains(known, string(fact)) {
				hidden[k] = append(hidden[k], string(fact))
			}
		}
	}
	// What the other roles were told, and the moves they played, that
	// the role was not told and could not play: never to be shown.
	mine := map[string]bool{}
	for k := range rec.Moves {
		mine[rec.Moves[k][role]] = true
		for _, p := range rec.Percepts[k][role] {
			mine[p] = true
		}
	}
	for _, a := range answers {
		var v seatView
		if json.Unmarshal([]byte(a.body), &v) == nil {
			for _, m := range v.Legal {
				mine[m] = true
			}
		}
	}
	var others []string
	for k := range rec.Moves {
		for i := range rec.Roles {
			if i == role {
				continue
			}
			for _, s := range append([]string{rec.Moves[k][i]}, rec.Percepts[k][i]...) {
				if !mine[s] && !slices.Contains(others, s) {
					others = append(others, s)
				}
			}
		}
	}
	if slices.IndexFunc(hidden, func(h []string) bool { return len(h) > 0 }) < 0 || len(others) == 0 {
		t.Fatalf("the match hid nothing from the role (hidden facts %v, others' moves and percepts %v): the test checks nothing", hidden, others)
	}
	var side []string
	checked, truths := 0, 0
	for _, a := range answers {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(a.body), &raw); err != nil {
			t.Errorf("%s at step %d: %v: %s", a.what, a.step, err, a.body)
			continue
		}
		// The side is told once, at the start, from the initial state.
		if s, ok := raw["side"]; ok {
			if side == nil {
				json.Unmarshal(s, &side)
			}
			var cur []string
			json.Unmarshal(s, &cur)
			if !slices.Equal(cur, side) {
				t.Errorf("%s at step %d: side %v, at the start %v", a.what, a.step, cur, side)
			}
			delete(raw, "side")
		}
		// Once the match is over nothing is hidden: the end gives the
		// truth, the record's final state and moves.
		if tr, ok := raw["truth"]; ok {
			var got struct {
				Final string
				Moves [][]string
			}
			var status string
			json.Unmarshal(tr, &got)
			json.Unmarshal(raw["status"], &status)
			if status != "over" || got.Final != rec.States[len(rec.States)-1] || fmt.Sprint(got.Moves) != fmt.Sprint(rec.Moves) {
				t.Errorf("%s at step %d (%s) tells the truth %s, recorded final state %s and moves %v", a.what, a.step, status, tr, rec.States[len(rec.States)-1], rec.Moves)
			}
			// The words of the moves name the truth's too.
			delete(raw, "truth")
			delete(raw, "moveWords")
			truths++
		}
		text, _ := json.Marshal(raw)
		for _, fact := range hidden[min(a.step, len(hidden)-1)] {
			if strings.Contains(string(text), fact) {
				t.Errorf("%s at step %d shows %s, which the role cannot know: %s", a.what, a.step, fact, text)
			}
		}
		for _, s := range others {
			if strings.Contains(string(text), s) {
				t.Errorf("%s at step %d shows %s, another role's move or percept: %s", a.what, a.step, s, text)
			}
		}
		if a.what != "/api/seat/watch" && a.what != "/api/seat" {
			continue
		}
		if _, ok := raw["last"]; ok {
			t.Errorf("%s at step %d has the joint move: %s", a.what, a.step, text)
		}
		var v seatView
		json.Unmarshal([]byte(a.body), &v)
		for i, h := range v.History {
			if _, ok := h["moves"]; ok {
				t.Errorf("%s at step %d: the history has joint moves: %v", a.what, a.step, h)
			}
			want := []any{}
			for _, p := range rec.Percepts[i][role] {
				want = append(want, p)
			}
			got, _ := h["percepts"].([]any)
			if got == nil {
				got = []any{}
			}
			if h["move"] != rec.Moves[i][role] || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s at step %d: step %d in the history %v, recorded own move %s and percepts %v", a.what, a.step, i+1, h, rec.Moves[i][role], rec.Percepts[i][role])
			}
		}
		if v.Status == "waiting" {
			continue
		}
		// The board: the facts true in every state the role holds
		// possible, as the rules make them.
		known, n := knowledge(t, r, states[v.Step], v.Step == rec.Steps())
		if !slices.Equal(v.State, known) || v.Possible != n {
			t.Errorf("%s at step %d: the board %v of %d states, want %v of %d", a.what, a.step, v.State, v.Possible, known, n)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no seat view was sent")
	}
	if truths == 0 {
		t.Error("the end of the match did not tell the truth")
	}
}
