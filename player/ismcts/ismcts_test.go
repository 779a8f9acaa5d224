package ismcts_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

func load(t *testing.T, file string, src []byte) reasoner.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return playertest.Reference(t, d)
}

// coinGame is a one-player GDL-II game. Nature hides a coin while the
// player chooses: safe scores 70 at once; guess lets it call the coin
// blind next (100 if right, 0 if wrong); peek shows it the coin, then it
// calls it for 90 if right. With peekRule removed, peek is not legal.
const coinGame = `
(role player) (role random)
(init (phase 0))
(<= (legal random (hide heads)) (true (phase 0)))
(<= (legal random (hide tails)) (true (phase 0)))
(<= (legal random noop) (true (phase 1)))
(<= (legal player safe) (true (phase 0)))
(<= (legal player guess) (true (phase 0)))
(<= (legal player (call ?c)) (true (phase 1)) (side ?c))
(side heads) (side tails)
(<= (next (coin ?c)) (does random (hide ?c)))
(<= (next (coin ?c)) (true (coin ?c)))
(<= (next (phase 1)) (true (phase 0)) (not (does player safe)))
(<= (next (phase 2)) (true (phase 0)) (does player safe))
(<= (next (phase 2)) (true (phase 1)))
(<= (next safe) (does player safe))
(<= (next peeked) (does player peek))
(<= (next peeked) (true peeked))
(<= (next (called ?c)) (does player (call ?c)))
(<= (sees player (coin ?c)) (does player peek) (does random (hide ?c)))
(<= terminal (true (phase 2)))
(<= (goal player 70) (true safe))
(<= (goal player 100) (not (true peeked)) (true (called ?c)) (true (coin ?c)))
(<= (goal player 90) (true peeked) (true (called ?c)) (true (coin ?c)))
(<= (goal player 0) (true (called ?c)) (not (true (coin ?c))))
(goal random 0)
`

const peekRule = `(<= (legal player peek) (true (phase 0)))`

// searchInitial searches role 0's first move of r for the given number of
// iterations and returns the search.
func searchInitial(t *testing.T, r reasoner.Reasoner, cfg ismcts.Config, iterations int) *ismcts.Search {
	t.Helper()
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rand = rand.New(rand.NewPCG(1, 2))
	s, err := ismcts.New(r, 0, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx, func() *reasoner.State { return s0 }, iterations); err != nil {
		t.Fatal(err)
	}
	if s.Iterations() != iterations {
		t.Errorf("%d iterations, want %d", s.Iterations(), iterations)
	}
	return s
}

// TestNoStrategyFusion checks that the search values a blind guess at what
// it wins without seeing the coin (50), not at what it would win if it
// could (100), which a search of the sampled states as if they were the
// true one does, whichever way it backs up values.
func TestNoStrategyFusion(t *testing.T) {
	r := load(t, "coin.kif", []byte(coinGame))
	tests := []struct {
		name    string
		perfect bool
		want    reasoner.Move
	}{
		{"information sets", false, "safe"},
		{"perfect information", true, "guess"},
	}
	for _, tt := range tests {
		for _, backup := range []mcts.Switch{mcts.On, mcts.Off} {
			t.Run(tt.name+"/maxback="+backup.String(), func(t *testing.T) {
				s := searchInitial(t, r, ismcts.Config{Perfect: tt.perfect, MaxBackup: backup}, 2000)
				if best, _ := s.Best(); best != tt.want {
					t.Errorf("best %s, want %s: %+v", best, tt.want, s.Moves())
				}
			})
		}
	}
}

// TestInformationHasValue checks that a move that shows the player the
// coin is worth what calling it then wins, whichever way the search backs
// up values.
func TestInformationHasValue(t *testing.T) {
	r := load(t, "coin.kif", []byte(coinGame+peekRule))
	for _, backup := range []mcts.Switch{mcts.On, mcts.Off} {
		t.Run("maxback="+backup.String(), func(t *testing.T) {
			s := searchInitial(t, r, ismcts.Config{MaxBackup: backup}, 3000)
			if best, _ := s.Best(); best != "peek" {
				t.Errorf("best %s, want peek: %+v", best, s.Moves())
			}
			for _, m := range s.Moves() {
				if m.Move == "peek" && math.Abs(m.Value-90) > 5 {
					t.Errorf("peek valued %.1f, want about 90", m.Value)
				}
			}
		})
	}
}

// TestMontyHallSwitches searches the candidate's last decision from its
// belief after it chose door 1 and saw door 3 opened: switching wins two
// times in three when the states are drawn by their weights, and the
// values found show it.
func TestMontyHallSwitches(t *testing.T) {
	ctx := context.Background()
	file, src := gamestest.ReadGameII(t, "montyhall")
	r := load(t, file, src)
	view := infoset.View{Role: 0, Steps: []infoset.Step{
		{Move: "(choose 1)", Percepts: []reasoner.Percept{"(does candidate (choose 1))"}},
		{Move: "noop", Percepts: []reasoner.Percept{"(does candidate noop)", "(open_door 3)"}},
	}}
	b, err := infoset.New(ctx, r, view, infoset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	s, err := ismcts.New(r, 0, nil, ismcts.Config{Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx, ismcts.Weighted(b.States(), b.Weights(), rng), 3000); err != nil {
		t.Fatal(err)
	}
	if best, _ := s.Best(); best != "switch" {
		t.Errorf("best %s, want switch: %+v", best, s.Moves())
	}
	// Drawn uniformly, the two states would value switching at 50.
	if m := s.Moves()[0]; math.Abs(m.Value-200./3) > 5 {
		t.Errorf("%s valued %.1f over %d iterations, want about 66.7", m.Move, m.Value, m.Visits)
	}
}

// TestAllow checks that the root moves are those allowed.
func TestAllow(t *testing.T) {
	ctx := context.Background()
	r := load(t, "coin.kif", []byte(coinGame+peekRule))
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ismcts.New(r, 0, []reasoner.Move{"guess", "peek"}, ismcts.Config{Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx, func() *reasoner.State { return s0 }, 500); err != nil {
		t.Fatal(err)
	}
	for _, m := range s.Moves() {
		if m.Move == "safe" {
			t.Errorf("searched safe, not allowed: %+v", s.Moves())
		}
	}
	// No allowed move is legal: Run gives up with an error.
	s, err = ismcts.New(r, 0, []reasoner.Move{"(call heads)"}, ismcts.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx, func() *reasoner.State { return s0 }, 10); err == nil {
		t.Error("no error for a root where no allowed move is legal")
	}
}

// TestMaxNodes checks that the trees stop growing at Config.MaxNodes and
// the search goes on.
func TestMaxNodes(t *testing.T) {
	file, src := gamestest.ReadGameII(t, "kriegTTT_4x4")
	r := load(t, file, src)
	s := searchInitial(t, r, ismcts.Config{MaxNodes: 50}, 300)
	if s.Nodes() > 50 {
		t.Errorf("%d nodes, want at most 50", s.Nodes())
	}
}

// TestConfigIterations checks that Run, given no bound of its own, stops
// after Config.Iterations, and that a bound given to Run overrides it.
func TestConfigIterations(t *testing.T) {
	r := load(t, "coin.kif", []byte(coinGame))
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ config, run, want int }{
		{config: 40, run: 0, want: 40},
		{config: 40, run: 7, want: 7},
		{config: 0, run: 9, want: 9},
	} {
		s, err := ismcts.New(r, 0, nil, ismcts.Config{Iterations: tt.config, Rand: rand.New(rand.NewPCG(1, 2))})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(ctx, func() *reasoner.State { return s0 }, tt.run); err != nil {
			t.Fatal(err)
		}
		if s.Iterations() != tt.want {
			t.Errorf("Config.Iterations %d, Run's bound %d: %d iterations, want %d", tt.config, tt.run, s.Iterations(), tt.want)
		}
	}
}

// BenchmarkSearch measures iterations of the first decision of GDL-II
// games on the default backend:
//
//	go test -run '^$' -bench Search -benchtime 3s ./player/ismcts/
func BenchmarkSearch(b *testing.B) {
	for _, key := range []string{"kriegTTT_4x4", "blind_breakthrough_5x5", "montyhall"} {
		b.Run(key, func(b *testing.B) {
			ctx := context.Background()
			file, src := gamestest.ReadGameII(b, key)
			d, err := gdl.ParseFile(file, src)
			if err != nil {
				b.Fatal(err)
			}
			f, err := backend.New(backend.Auto, backend.Options{})
			if err != nil {
				b.Fatal(err)
			}
			r, err := f(ctx, d)
			if err != nil {
				b.Fatal(err)
			}
			s0, err := r.Initial(ctx)
			if err != nil {
				b.Fatal(err)
			}
			s, err := ismcts.New(r, 1, nil, ismcts.Config{Rand: rand.New(rand.NewPCG(1, 2))})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			if err := s.Run(ctx, func() *reasoner.State { return s0 }, b.N); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
		})
	}
}

// TestAdvance searches Monty Hall from its start, then follows the
// candidate's observations to its last decision: the subtree kept holds
// what the iterations learned there, that switching wins two times in
// three, without a further iteration.
func TestAdvance(t *testing.T) {
	file, src := gamestest.ReadGameII(t, "montyhall")
	r := load(t, file, src)
	s := searchInitial(t, r, ismcts.Config{}, 20000)
	before := s.Nodes()
	if !s.Advance("(choose 1)", []reasoner.Percept{"(does candidate (choose 1))"}, nil) {
		t.Fatal("Advance refused")
	}
	// The percepts in another order: the same observation.
	if !s.Advance("noop", []reasoner.Percept{"(open_door 3)", "(does candidate noop)"}, nil) {
		t.Fatal("Advance refused")
	}
	ms := s.Moves()
	if len(ms) == 0 || ms[0].Move != "switch" {
		t.Fatalf("moves at the last decision %+v, want switch first", ms)
	}
	if math.Abs(ms[0].Value-200./3) > 10 {
		t.Errorf("switch valued %.1f over %d iterations, want about 66.7", ms[0].Value, ms[0].Visits)
	}
	if s.Nodes() >= before {
		t.Errorf("%d nodes after Advance, %d before: the other subtrees are kept", s.Nodes(), before)
	}
	// An observation the search never made starts an empty tree.
	if !s.Advance("switch", []reasoner.Percept{"(no such percept)"}, nil) || len(s.Moves()) != 0 {
		t.Errorf("after an unknown observation: %+v", s.Moves())
	}
	// A search with complete information does not follow observations.
	p := searchInitial(t, r, ismcts.Config{Perfect: true}, 100)
	if p.Advance("(choose 1)", []reasoner.Percept{"(does candidate (choose 1))"}, nil) {
		t.Error("Advance of a Perfect search")
	}
}

// TestMaxBackupFindsDeepInformation searches the first question of the
// bundled numberGuess, where a question is worth what it wins two
// decisions later: halving questions (below 3 to 7) are worth 40 and the
// others at most 31.25 (the values package reasoner/infoset/exact
// computes, derived in docs/gdl2.md). Backing up the most visited move's
// value finds a halving question and its worth; the mean of every
// iteration, in UCT's way, is dragged down by the exploration of the
// decisions below, and is far below 40 whatever the move.
func TestMaxBackupFindsDeepInformation(t *testing.T) {
	g, err := games.Open("numberGuess")
	if err != nil {
		t.Fatal(err)
	}
	r := load(t, g.Filename, g.Rules)
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The guesser's first decision follows nature's pick, which it does
	// not see: the states are the eight secrets.
	picks, err := r.Legal(ctx, s0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var states []*reasoner.State
	for _, pick := range picks {
		st, err := r.Next(ctx, s0, []reasoner.Move{"noop", pick})
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, st)
	}
	halving := []reasoner.Move{"(ask 3)", "(ask 4)", "(ask 5)", "(ask 6)", "(ask 7)"}
	tests := []struct {
		maxBackup   mcts.Switch
		wantHalving bool
		value       func(float64) bool
	}{
		{mcts.On, true, func(v float64) bool { return math.Abs(v-40) <= 5 }},
		{mcts.Default, true, func(v float64) bool { return math.Abs(v-40) <= 5 }}, // auto: on against nature alone
		{mcts.Off, false, func(v float64) bool { return v < 35 }},
	}
	for _, tt := range tests {
		t.Run("maxback="+tt.maxBackup.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			s, err := ismcts.New(r, 0, nil, ismcts.Config{MaxBackup: tt.maxBackup, Rand: rng})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(ctx, ismcts.Weighted(states, []float64{1, 1, 1, 1, 1, 1, 1, 1}, rng), 5000); err != nil {
				t.Fatal(err)
			}
			best := s.Moves()[0]
			if slices.Contains(halving, best.Move) != tt.wantHalving || !tt.value(best.Value) {
				t.Errorf("best %s valued %.1f: %+v", best.Move, best.Value, s.Moves()[:4])
			}
		})
	}
}
