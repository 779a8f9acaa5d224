package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

func TestFactFeatures(t *testing.T) {
	var got []string
	for _, f := range factFeatures("(cell 1 (p x) white)", nil) {
		got = append(got, fmt.Sprintf("%s:%g", f.key, f.v))
	}
	want := []string{"cell:1", "cell/1=1:1", "cell/1#:1", "cell/2=(p x):1", "cell/3=white:1",
		"cell/1=1/2=(p x):1", "cell/1=1/3=white:1", "cell/2=(p x)/3=white:1",
		"cell/1#/2=(p x):1", "cell/1#/3=white:1", "cell 1 (p x) white:1"}
	if !slices.Equal(got, want) {
		t.Errorf("factFeatures = %q, want %q", got, want)
	}
	if got := factFeatures("terminal", nil); !slices.Equal(got, []featureValue{{"terminal", 1}}) {
		t.Errorf("factFeatures(terminal) = %v", got)
	}
	if got := factFeatures("(count red 12)", nil); !slices.Contains(got, featureValue{"count/2#", 12}) {
		t.Errorf("factFeatures((count red 12)) = %v, want count/2# 12", got)
	}
}

// pieces returns a state of a board game with a white and b black pieces.
func pieces(a, b int) *reasoner.State {
	var facts []reasoner.Fact
	for i := range a {
		facts = append(facts, reasoner.Fact("(cell "+strconv.Itoa(i)+" white)"))
	}
	for i := range b {
		facts = append(facts, reasoner.Fact("(cell "+strconv.Itoa(10+i)+" black)"))
	}
	return reasoner.NewState(facts)
}

// TestHeuristicFit checks the fit: where the side with more pieces wins
// more often, white's pieces count for white and black's against, and the
// evaluation orders states by material; where the goals are coin flips,
// nothing is kept.
func TestHeuristicFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, predictive := range []bool{true, false} {
		l := &learner{cols: map[string]int{}, roles: 2, quality: 0.15}
		for range 600 {
			a, b := rng.IntN(8), rng.IntN(8)
			x := map[int]float64{}
			for _, f := range pieces(a, b).Facts() {
				for _, k := range factFeatures(f, nil) {
					x[l.column(k.key)] += k.v
				}
			}
			win := rng.IntN(2) == 0
			if predictive {
				win = rng.Float64() < 0.5+0.06*float64(a-b)
			}
			g := []float64{0, 1}
			if win {
				g = []float64{1, 0}
			}
			l.samples = append(l.samples, sample{x, g})
		}
		h, why := l.fit(context.Background(), 0)
		if !predictive {
			if h != nil {
				t.Errorf("coin flips: a heuristic was kept: %s", why)
			}
			continue
		}
		if h == nil {
			t.Fatalf("material: no heuristic: %s", why)
		}
		c := &heurCache{h: h, weights: map[reasoner.Fact][]float64{}}
		ahead, behind := make([]float64, 2), make([]float64, 2)
		if err := c.evaluate(context.Background(), nil, pieces(6, 2), ahead); err != nil {
			t.Fatal(err)
		}
		if err := c.evaluate(context.Background(), nil, pieces(2, 6), behind); err != nil {
			t.Fatal(err)
		}
		// The true chances are 0.74 and 0.26; the fit, from 300 noisy
		// outcomes and shrunk by its ridge penalty, comes closer to even.
		if !(ahead[0] > behind[0]+0.15 && behind[1] > ahead[1]+0.15) {
			t.Errorf("white 6 black 2: %v; white 2 black 6: %v (%s)", ahead, behind, why)
		}
		if !strings.Contains(why, "cell/2=white") {
			t.Errorf("fit %s, want white's pieces counted", why)
		}
	}
}

// TestHeuristicFitBounded checks that a fit whose context is done stops
// and keeps nothing, so learning cannot run past the search's deadline.
func TestHeuristicFitBounded(t *testing.T) {
	l := &learner{cols: map[string]int{}, roles: 2, quality: Config{}.withDefaults().HeuristicQuality}
	for i := range 200 {
		x := map[int]float64{l.column("a"): float64(i % 7)}
		g := []float64{float64(i % 7 / 4), 1 - float64(i%7/4)}
		l.samples = append(l.samples, sample{x, g})
	}
	if h, _ := l.fit(context.Background(), 0); h == nil {
		t.Fatal("no fit of a feature that decides the goal")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if h, why := l.fit(ctx, 0); h != nil || why != "out of time while fitting" {
		t.Errorf("fit after its deadline: %v, %q", h, why)
	}
}

// TestHeuristicDefault checks that the search learns a heuristic unless
// the switch is off (Config.Heuristic on by default): learning always
// leaves a summary, of what it kept or why it kept nothing.
func TestHeuristicDefault(t *testing.T) {
	for _, tt := range []struct {
		name  string
		heur  Switch
		learn bool
	}{
		{"default", Default, true},
		{"on", On, true},
		{"off", Off, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSearch(t, nim(10), Config{Workers: 1, Heuristic: tt.heur})
			// Learning runs in Run's goroutine, before the workers: it
			// has ended, with what it found, when Run returns.
			run(t, s, 100*time.Millisecond)
			got := s.Stats().Heuristic
			if (got != "") != tt.learn {
				t.Errorf("heuristic %q after a search; want learning %v", got, tt.learn)
			}
		})
	}
}

// tally is a game of the given simultaneous steps in which each role adds 1 or 2
// to its side of a tally: with decidedByLead the side ahead at the end
// wins, so the lead predicts the goals from any state; without it the
// last step alone decides (the first role wins when the two moves
// differ), so nothing before it does.
func tally(decidedByLead bool, steps int) *toyGame {
	return &toyGame{
		roles: []string{"left", "right"},
		init:  map[string]string{"lead": "0", "step": "0"},
		legal: func(s map[string]string, role int) []string { return []string{"1", "2"} },
		next: func(s map[string]string, joint []string) map[string]string {
			d := atoi(joint[0]) - atoi(joint[1])
			return map[string]string{
				"lead": strconv.Itoa(atoi(s["lead"]) + d),
				"step": strconv.Itoa(atoi(s["step"]) + 1),
				"last": strconv.Itoa(d * d),
			}
		},
		terminal: func(s map[string]string) bool { return atoi(s["step"]) == steps },
		goals: func(s map[string]string) []int {
			ahead := atoi(s["lead"])
			if !decidedByLead {
				ahead = 2*atoi(s["last"]) - 1
			}
			switch {
			case ahead > 0:
				return []int{100, 0}
			case ahead < 0:
				return []int{0, 100}
			}
			return []int{50, 50}
		},
	}
}

// TestHeuristicScreen checks that learning stops at screenSamples where
// no fit comes near the bar, and samples on where one does: most games
// keep nothing, and each sample costs a random game of the start clock.
func TestHeuristicScreen(t *testing.T) {
	for _, tt := range []struct {
		name string
		lead bool
		kept bool
	}{
		{"lead decides", true, true},
		{"last step decides", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := tally(tt.lead, 20)
			st, _ := g.Initial(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg := Config{}.withDefaults()
			h, _, why := learnHeuristic(ctx, ctx, g, st, rand.New(rand.NewPCG(1, 2)), cfg)
			if (h != nil) != tt.kept {
				t.Fatalf("kept %v (%s), want %v", h != nil, why, tt.kept)
			}
			// A sample takes a game of 20 steps; the games ending at the
			// sampled depth give none, about one in five.
			games := g.calls.Load() / 20
			if tt.kept && games < learnSamples {
				t.Errorf("%d games for a fit that is kept, want %d samples (%s)", games, learnSamples, why)
			}
			if !tt.kept && (games < screenSamples || games > 2*screenSamples) {
				t.Errorf("%d games where nothing fits, want about %d (%s)", games, screenSamples, why)
			}
			t.Log(why)
		})
	}
}

// TestHeuristicCutsLongGames checks that learning measures how long random
// games last and that playouts are cut only where they last at least
// cutGameLengths times the cut's depth: in cephalopodMicro (44 moves)
// and battle (30) cut playouts lost to full ones, in checkers and
// skirmishZeroSum (100) they won (docs/strength.md).
func TestHeuristicCutsLongGames(t *testing.T) {
	for _, tt := range []struct {
		steps int
		cuts  bool
	}{
		{20, false},
		{40, false},
		{60, true},
		{100, true},
	} {
		t.Run(strconv.Itoa(tt.steps), func(t *testing.T) {
			g := tally(true, tt.steps)
			st, _ := g.Initial(context.Background())
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cfg := Config{}.withDefaults()
			h, _, why := learnHeuristic(ctx, ctx, g, st, rand.New(rand.NewPCG(1, 2)), cfg)
			if h == nil {
				t.Fatalf("no heuristic where the lead decides: %s", why)
			}
			if h.gameLen != float64(tt.steps) {
				t.Errorf("random games last %v moves on average, want %d", h.gameLen, tt.steps)
			}
			if got := h.cuts(cfg.HeuristicDepth); got != tt.cuts {
				t.Errorf("playouts cut after %d moves of a game of %d: %v, want %v", cfg.HeuristicDepth, tt.steps, got, tt.cuts)
			}
		})
	}
}
