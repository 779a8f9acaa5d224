package mctsplayer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/mcts"
)

func TestNew(t *testing.T) {
	p, err := New(Kind, Options{})
	if err != nil {
		t.Fatalf("New(%q): %v", Kind, err)
	}
	if p.Name() != Kind {
		t.Errorf("New(%q).Name() = %q", Kind, p.Name())
	}
	if p := newPlayer(t, "mcts", Options{Name: "deep"}); p.Name() != "deep" {
		t.Errorf("Name() = %q with Options.Name deep", p.Name())
	}
	for _, spec := range []string{"alphazero", "random", "legal"} {
		if _, err := New(spec, Options{}); err == nil {
			t.Errorf("New(%q) succeeded", spec)
		}
	}
}

// TestBaselinePlayers plays whole matches between the players of
// package player/baseline, refereed by this package's harness, and checks
// the legal player's choice; an answer after its clock fails it only
// beyond grace.
func TestBaselinePlayers(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	for _, kinds := range [][]string{{"random", "random"}, {"legal", "legal"}, {"legal", "random"}} {
		res := playMatchGrace(t, d, []player.Player{newPlayer(t, kinds[0], Options{}), newPlayer(t, kinds[1], Options{})}, time.Second, time.Second, grace)
		logLate(t, res)
		if len(res.goals) != 2 {
			t.Fatalf("goals %v", res.goals)
		}
		// Replay and check that the legal player played its first move.
		ctx := context.Background()
		r := playertest.Reference(t, d)
		st, _ := r.Initial(ctx)
		for _, joint := range res.moves {
			for role, kind := range kinds {
				if kind != "legal" {
					continue
				}
				legal, _ := r.Legal(ctx, st, role)
				if joint[role] != legal[0] {
					t.Fatalf("legal player played %s, first legal move %s", joint[role], legal[0])
				}
			}
			st, _ = r.Next(ctx, st, joint)
		}
	}
}

// TestUnknownMatch checks that calls for a match a player does not know
// fail, without a panic, and that a match id cannot be started twice.
func TestUnknownMatch(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	ctx := context.Background()
	for _, kind := range kinds {
		p := newPlayer(t, kind, Options{})
		if _, err := p.Play(ctx, "nope", nil); err == nil {
			t.Errorf("%s: Play of an unknown match succeeded", kind)
		}
		if err := p.Stop(ctx, "nope", nil); err == nil {
			t.Errorf("%s: Stop of an unknown match succeeded", kind)
		}
		if err := p.Abort(ctx, "nope"); err == nil {
			t.Errorf("%s: Abort of an unknown match succeeded", kind)
		}
		m := &player.Match{ID: "twice", Role: "xplayer", Rules: d, StartClock: time.Second, PlayClock: time.Second}
		sctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		if err := p.Start(sctx, m); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if err := p.Start(sctx, m); err == nil {
			t.Errorf("%s: a second Start of the same match succeeded", kind)
		}
		cancel()
		bad := &player.Match{ID: "badrole", Role: "nobody", Rules: d}
		if err := p.Start(ctx, bad); err == nil {
			t.Errorf("%s: Start with an unknown role succeeded", kind)
		}
		if err := p.Abort(ctx, "twice"); err != nil {
			t.Errorf("%s: Abort: %v", kind, err)
		}
	}
}

// TestMCTSMatches plays short matches of the mcts player, quick enough
// for every test run: it must not lose tic-tac-toe to a random player,
// and must solve the bundled puzzles. As in the strength tests, an answer
// after its clock fails it only beyond grace.
func TestMCTSMatches(t *testing.T) {
	tests := []struct {
		game  string
		kinds []string
		role  int // the mcts player's role
		min   int // its lowest acceptable goal
		start time.Duration
		play  time.Duration
	}{
		{"ticTacToe", []string{"mcts", "random"}, 0, 50, time.Second, 500 * time.Millisecond},
		{"ticTacToe", []string{"random", "mcts"}, 1, 50, time.Second, 500 * time.Millisecond},
		{"maze", []string{"mcts"}, 0, 100, 2 * time.Second, 500 * time.Millisecond},
		{"hanoi", []string{"mcts"}, 0, 100, 10 * time.Second, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			d := loadGame(t, tt.game)
			var ps []player.Player
			for _, k := range tt.kinds {
				ps = append(ps, newPlayer(t, k, Options{Search: mcts.Config{Seed: 1}}))
			}
			res := playMatchGrace(t, d, ps, tt.start, tt.play, grace)
			logLate(t, res)
			if g := res.goals[tt.role]; g < tt.min {
				t.Errorf("mcts scored %d, want at least %d (goals %v, moves %v)", g, tt.min, res.goals, res.moves)
			}
		})
	}
}

// TestMCTSFallback checks that a search that panics or is stuck in slow
// reasoner calls still yields a legal move in time, every turn. An answer
// after its clock fails it only beyond grace, as in TestMCTSMatches; so
// that a player waiting for its stuck calls would still fail, the slowest
// calls outlast the clock and the grace together.
func TestMCTSFallback(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	const play = 500 * time.Millisecond
	tests := []struct {
		name   string
		panics bool
		delay  time.Duration
	}{
		{"panics", true, 0},
		{"slow playouts", false, 150 * time.Millisecond},
		{"slower than the clock", false, 2 * (play + grace)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlayer(t, "mcts", Options{NewReasoner: playertest.Faulty(testFactory, tt.panics, tt.delay)})
			// playMatchGrace fails the test for an answer later than the
			// clock and the grace, or an illegal move.
			res := playMatchGrace(t, d, []player.Player{p, newPlayer(t, "random", Options{})}, time.Second, play, grace)
			logLate(t, res)
		})
	}
}

// TestBadRules checks that rules that fail to load are an error.
func TestBadRules(t *testing.T) {
	d, err := gdl.ParseFile("bad.kif", []byte("(init (p 1)) (<= (legal a x) (true (p 1)))"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds {
		p := newPlayer(t, kind, Options{})
		err := p.Start(context.Background(), &player.Match{ID: "m", Role: "a", Rules: d, StartClock: time.Second})
		if err == nil {
			t.Errorf("%s: Start with rules without roles succeeded", kind)
		}
		if err := p.Start(context.Background(), &player.Match{ID: "m", Role: "a"}); err == nil {
			t.Errorf("%s: Start without rules succeeded", kind)
		}
		if _, err := p.Play(context.Background(), "m", nil); !errors.Is(err, follow.ErrUnknownMatch) {
			t.Errorf("%s: Play after a failed Start: %v, want an unknown match", kind, err)
		}
	}
}
