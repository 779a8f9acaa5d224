package gamemaster

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// scriptedII plays the moves of its list, one a turn, in a GDL-II match.
type scriptedII struct {
	player.GDLIIPlayer
	moves []reasoner.Move
}

func (p *scriptedII) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	if t.Number >= len(p.moves) {
		return "", fmt.Errorf("no move for turn %d", t.Number)
	}
	return p.moves[t.Number], nil
}

// TestSeveralGoalsSettledByFirstRule plays kriegTTT_4x4 to the end state
// where both players complete a line in the same step, in which the rules
// give each player the goals 50 (the rule for that case, first in the
// file), 100 and 0: the referee settles each at 50, says so, and the
// record replays with both backends. A GDL game keeps the error.
func TestSeveralGoalsSettledByFirstRule(t *testing.T) {
	g := gameII(t, "kriegTTT_4x4")
	marks := func(cells ...string) []reasoner.Move {
		var ms []reasoner.Move
		for _, c := range cells {
			ms = append(ms, reasoner.Move("(mark "+c+")"))
		}
		return ms
	}
	x := &scriptedII{GDLIIPlayer: baselinePlayer(baseline.Random, 1).(player.GDLIIPlayer), moves: marks("1 1", "1 2", "1 3")}
	o := &scriptedII{GDLIIPlayer: baselinePlayer(baseline.Random, 2).(player.GDLIIPlayer), moves: marks("2 1", "2 2", "2 3")}
	m := &Match{ID: "kriegTTT_4x4.both", Game: g, Players: []player.Player{x, o}, StartClock: 10 * time.Second, PlayClock: 10 * time.Second,
		Record: filepath.Join(t.TempDir(), "both.json"), Seed: 1}
	ref := fastReferee()
	var mu sync.Mutex
	var logged []string
	ref.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}
	rec, err := ref.Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Steps() != 3 || !slices.Equal(rec.GoalValues, []int{50, 50}) {
		t.Fatalf("%d steps, goals %v; want 3 steps and 50 each", rec.Steps(), rec.GoalValues)
	}
	mu.Lock()
	if !slices.ContainsFunc(logged, func(s string) bool {
		return strings.Contains(s, "step 3") && strings.Contains(s, "xplayer the goals [0 50 100]; the first rule that holds gives 50")
	}) {
		t.Errorf("logged %q, want the settled goal of xplayer named", logged)
	}
	mu.Unlock()
	for _, name := range []string{backend.Prolog, backend.Propnet} {
		f, err := backend.New(name, backend.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		r, err := f(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if err := Replay(context.Background(), rec, r, nil); err != nil {
			t.Errorf("%s: replay: %v", name, err)
		}
		rec.GoalValues = []int{100, 0}
		if err := Replay(context.Background(), rec, r, nil); err == nil {
			t.Errorf("%s: a record of goals 100 and 0 replays", name)
		}
		rec.GoalValues = []int{50, 50}
	}

	// The same end in a GDL game: its goals stay an error.
	gdlGame := *g
	gdlGame.Rules = []byte(strings.ReplaceAll(string(g.Rules), "sees", "sees_not"))
	x = &scriptedII{GDLIIPlayer: baselinePlayer(baseline.Random, 1).(player.GDLIIPlayer), moves: x.moves}
	plain := &Match{ID: "kriegTTT_4x4.gdl", Game: &gdlGame, Players: []player.Player{
		&scripted{name: "x", move: func(_ context.Context, _ string, step int) (reasoner.Move, error) { return x.moves[step-1], nil }},
		&scripted{name: "o", move: func(_ context.Context, _ string, step int) (reasoner.Move, error) { return o.moves[step-1], nil }},
	}, StartClock: 10 * time.Second, PlayClock: 10 * time.Second}
	if _, err := fastReferee().Run(context.Background(), plain); err == nil || !strings.Contains(err.Error(), "several") {
		t.Errorf("GDL match: %v, want the goals' error", err)
	}
}
