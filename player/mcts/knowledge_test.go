package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// sequence returns the moves each role played, with the policy's marks
// (nil for none), as the sequence an iteration records, role by role.
func sequence(tab *mastTable, played [][]reasoner.Move, policy [][]bool) []seqMove {
	var seq []seqMove
	for r, ms := range played {
		for i, m := range ms {
			seq = append(seq, seqMove{int32(r), tab.numberOf(r, m), policy != nil && policy[r][i]})
		}
	}
	return seq
}

func TestMASTTable(t *testing.T) {
	tab := newMASTTable(2, nil)
	tab.learn(sequence(tab, [][]reasoner.Move{{"a", "b"}, {"x"}}, nil), []float64{1, 0})
	tab.learn(sequence(tab, [][]reasoner.Move{{"b"}, {"x", "y"}}, nil), []float64{0, 1})
	for _, tt := range []struct {
		role int
		move reasoner.Move
		n    float64
		mean float64
	}{
		{0, "a", 1, 1},
		{0, "b", 2, 0.5},
		{1, "x", 2, 0.5},
		{1, "y", 1, 1},
	} {
		st := tab.stat(tt.role, tt.move)
		if st.n != tt.n || st.sum/st.n != tt.mean {
			t.Errorf("role %d move %s: n %v mean %v, want n %v mean %v", tt.role, tt.move, st.n, st.sum/st.n, tt.n, tt.mean)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		if i := tab.greedy(0, tab.numbers(0, []reasoner.Move{"b", "a"}, nil), noMove, noMove, rng); i != 1 {
			t.Fatalf("greedy chose %d, want 1 (a, mean 1 against b's 0.5)", i)
		}
	}
	// A move never played counts as a win, so greedy tries it before b.
	seen := map[int]bool{}
	for range 50 {
		seen[tab.greedy(0, tab.numbers(0, []reasoner.Move{"b", "a", "new"}, nil), noMove, noMove, rng)] = true
	}
	if seen[0] || !seen[1] || !seen[2] {
		t.Errorf("greedy over b, a and an unplayed move chose %v, want a and the unplayed move, at random", seen)
	}

	tab.decay(5, 0.5)
	if st := tab.stat(0, "b"); st.n != 1 || st.sum != 0.5 {
		t.Errorf("after decay, b has n %v sum %v, want 1 and 0.5", st.n, st.sum)
	}
	tab.decay(5, 0.5) // the same generation: no change
	if st := tab.stat(0, "b"); st.n != 1 {
		t.Errorf("a second decay for the same generation changed n to %v", st.n)
	}
	for gen := uint64(6); gen < 20; gen++ {
		tab.decay(gen, 0.5)
	}
	for _, m := range []reasoner.Move{"a", "b"} {
		if st := tab.stat(0, m); st.n != 0 || st.mean() != 1 {
			t.Errorf("the average of %s decayed to almost nothing is kept: %+v", m, st)
		}
	}
}

// TestMASTLearnsOffPolicy checks that the averages leave out the moves
// the playout policy chose itself.
func TestMASTLearnsOffPolicy(t *testing.T) {
	played := [][]reasoner.Move{{"a", "b", "b"}, {"x"}}
	policy := [][]bool{{false, true, false}, {true}}
	tab := newMASTTable(2, nil)
	tab.learn(sequence(tab, played, policy), []float64{1, 0})
	if a, b, x := tab.stat(0, "a").n, tab.stat(0, "b").n, tab.stat(1, "x").n; a != 1 || b != 1 || x != 0 {
		t.Errorf("a, b, x counted %v, %v, %v times, want 1, 1, 0", a, b, x)
	}
}

// TestMASTLearns checks that playouts learn which moves pay: in the walk
// puzzle, moving right reaches the target and moving left never does.
// It learns so in playouts through Legal and Next and in policy playouts,
// whose moves the table numbers as the reasoner does.
func TestMASTLearns(t *testing.T) {
	for _, tt := range []struct {
		name   string
		game   reasoner.Reasoner
		policy *policyGame
	}{
		{"legal and next", walk(12), nil},
		{"policy playouts", nil, &policyGame{toyGame: walk(12), moves: []reasoner.Move{"stay", "left", "right"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game
			if tt.policy != nil {
				g = tt.policy
			}
			s := newSearch(t, g, Config{Workers: 1, PuzzleShare: -1, MASTDecay: 1})
			run(t, s, 300*time.Millisecond)
			tab := s.mast[0]
			right, left := tab.stat(0, "right"), tab.stat(0, "left")
			if right.n == 0 || left.n == 0 {
				t.Fatalf("MAST saw right %v times and left %v times", right.n, left.n)
			}
			if right.sum/right.n <= left.sum/left.n {
				t.Errorf("MAST mean of right %.3f is not above left's %.3f", right.sum/right.n, left.sum/left.n)
			}
			if tt.policy == nil {
				return
			}
			if tt.policy.playouts.Load() == 0 {
				t.Error("the search never played a policy playout")
			}
			for i, m := range tt.policy.moves {
				if got := tab.numbers(0, []reasoner.Move{m}, nil)[0]; got != int32(i) {
					t.Errorf("MAST numbers %s %d, the reasoner %d", m, got, i)
				}
			}
		})
	}
	off := newSearch(t, walk(12), Config{Workers: 1, PuzzleShare: -1, MAST: Off})
	run(t, off, 50*time.Millisecond)
	if off.mast != nil {
		t.Error("MAST off still keeps move averages")
	}
}

// policyGame is a toy game that is also a reasoner.PolicyPlayouter,
// playing its policy playouts through Legal and Next and counting them.
type policyGame struct {
	*toyGame
	moves    []reasoner.Move // every move of the one role, in its numbering
	playouts atomic.Int64
}

func (g *policyGame) Moves(role int) []reasoner.Move { return g.moves }

func (g *policyGame) Fork() (reasoner.Reasoner, error) { return g, nil }

func (g *policyGame) PolicyPlayout(ctx context.Context, s *reasoner.State, p reasoner.Policy, maxSteps int) (*reasoner.State, int, error) {
	g.playouts.Add(1)
	for step := range maxSteps {
		if term, _ := g.Terminal(ctx, s); term {
			return s, step, nil
		}
		legal, _ := g.Legal(ctx, s, 0)
		ids := make([]int32, len(legal))
		for i, m := range legal {
			ids[i] = int32(slices.Index(g.moves, m))
		}
		slices.Sort(ids)
		s, _ = g.Next(ctx, s, []reasoner.Move{g.moves[ids[p.Choose(0, ids)]]})
	}
	return s, maxSteps, nil
}

func TestGRAVEValue(t *testing.T) {
	s := &Search{cfg: Config{}.withDefaults()}
	// A node's visits and values of two moves.
	n, w := []float64{10, 4}, []float64{5, 1}
	ref := &node{amafN: []float64{90, 0}, amafW: []float64{81, 0}}
	beta := 90 / (90 + 10 + s.cfg.GRAVEBias*90*10)
	want := (1-beta)*0.5 + beta*0.9
	if got := s.graveValue(w[0]/n[0], n[0], ref, 0); math.Abs(got-want) > 1e-12 {
		t.Errorf("graveValue = %v, want %v", got, want)
	}
	// No AMAF visits, or a move not legal in ref: the move's own mean.
	if got := s.graveValue(w[1]/n[1], n[1], ref, 1); got != 0.25 {
		t.Errorf("graveValue without AMAF visits = %v, want 0.25", got)
	}
	if got := s.graveValue(w[0]/n[0], n[0], ref, -1); got != 0.5 {
		t.Errorf("graveValue for a move not legal in ref = %v, want 0.5", got)
	}
}

// TestGRAVEExploration checks that a search with GRAVE explores by
// Config.GRAVEExploration and one without by Config.Exploration: of a
// move of mean 0.6 over 20 visits and one of 0.3 over 2, without AMAF
// values, UCB1 at 0.5 tries the second again and at 0.15 or less the
// first.
func TestGRAVEExploration(t *testing.T) {
	moves := []reasoner.Move{"a", "b"}
	for _, tt := range []struct {
		name  string
		grave bool
		cfg   Config
		want  reasoner.Move
	}{
		{"GRAVE, default", true, Config{}, "a"},
		{"GRAVE, gravec 0.5", true, Config{GRAVEExploration: 0.5}, "b"},
		{"no GRAVE, default", false, Config{}, "b"},
		{"no GRAVE, c 0.15", false, Config{Exploration: 0.15}, "a"},
	} {
		s := &Search{cfg: tt.cfg.withDefaults(), roles: []string{"x", "o"}, grave: tt.grave}
		n := &node{moves: [][]reasoner.Move{moves, {"noop"}}, off: []int32{0, 2},
			n: make([]afloat, 3), w: make([]afloat, 3), amafN: make([]float64, 3), amafW: make([]float64, 3)}
		n.n[0].Add(20)
		n.w[0].Add(12)
		n.n[1].Add(2)
		n.w[1].Add(0.6)
		n.visits.Add(22)
		w := newWorker(s, 1, 0)
		w.view = &view{}
		ref := n
		if !tt.grave {
			ref = nil
		}
		if got := moves[w.selectJoint(n, ref)]; got != tt.want {
			t.Errorf("%s: selected %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestLearnAMAF checks which statistics an iteration adds to: at each node
// that keeps them, every legal move its role played there or below counts
// once, with the role's value.
func TestLearnAMAF(t *testing.T) {
	s := &Search{cfg: Config{GRAVERef: 1}.withDefaults(), roles: []string{"x", "o"}, grave: true}
	mk := func(visits float64, xs []reasoner.Move) *node {
		n := &node{moves: [][]reasoner.Move{xs, {"noop"}},
			off: []int32{0, int32(len(xs))}, n: make([]afloat, len(xs)+1), w: make([]afloat, len(xs)+1)}
		n.visits.Add(visits)
		return n
	}
	root := mk(5, []reasoner.Move{"a", "b", "c", "d"})
	child := mk(5, []reasoner.Move{"a", "c", "e"})
	cold := mk(0, []reasoner.Move{"a", "c"}) // too few visits to keep AMAF
	w := newWorker(s, 1, 0)
	w.path = []*node{root, child, cold}
	w.idx = []int32{1, 0, 2, 0, 0, 0} // root: b; child: e; cold: a
	w.played = [][]reasoner.Move{{"b", "e", "a", "c", "c"}, {}}
	w.treeCount = []int{3, 0}
	w.value = []float64{1, 0}
	s.mu.Lock()
	w.learnAMAF()
	s.mu.Unlock()
	for _, tt := range []struct {
		name string
		n    *node
		want []float64 // amafN of x's moves; amafW is the same, x's value being 1
	}{
		{"root", root, []float64{1, 1, 1, 0}},
		{"child", child, []float64{1, 1, 1}},
	} {
		for i, want := range tt.want {
			if tt.n.amafN[i] != want || tt.n.amafW[i] != want {
				t.Errorf("%s move %s: amafN %v amafW %v, want %v", tt.name, tt.n.moves[0][i], tt.n.amafN[i], tt.n.amafW[i], want)
			}
		}
		if noop := len(tt.want); tt.n.amafN[noop] != 0 {
			t.Errorf("%s: o's only move counted %v times; a role without a choice teaches nothing", tt.name, tt.n.amafN[noop])
		}
	}
	if cold.amafN != nil {
		t.Error("a node below the reference visits keeps AMAF statistics")
	}
}

// TestGRAVEKeepsStatistics checks that a real search gathers AMAF
// statistics at the root, and none with GRAVE off.
func TestGRAVEKeepsStatistics(t *testing.T) {
	s := newSearch(t, nim(40), Config{Workers: 1, GRAVE: On})
	run(t, s, 200*time.Millisecond)
	s.mu.Lock()
	root := s.root
	var sum float64
	for _, v := range root.amafN {
		sum += v
	}
	s.mu.Unlock()
	if root.amafN == nil || sum == 0 {
		t.Errorf("after %d iterations the root has AMAF visits %v", s.Stats().Iterations, root.amafN)
	}
	off := newSearch(t, nim(40), Config{Workers: 1, GRAVE: Off})
	run(t, off, 100*time.Millisecond)
	off.mu.Lock()
	defer off.mu.Unlock()
	if off.root.amafN != nil {
		t.Error("GRAVE off still keeps AMAF statistics")
	}
}

// TestNSTGreedy checks that sequences decide where single moves cannot:
// x and y are worth the same on average, but x pays after a and y after
// b, and only sequences played often enough count.
func TestNSTGreedy(t *testing.T) {
	for _, tt := range []struct {
		times int // how often each sequence was played
		prev  reasoner.Move
		want  reasoner.Move // "" for either, at random
	}{
		{times: 10, prev: "a", want: "x"},
		{times: 10, prev: "b", want: "y"},
		{times: nstMinVisits - 1, prev: "a", want: ""},
	} {
		tab := newMASTTable(1, nil)
		names := []reasoner.Move{"a", "b", "x", "y"}
		ids := tab.numbers(0, names, nil)
		a, b, x, y := ids[0], ids[1], ids[2], ids[3]
		for range tt.times {
			for _, seq := range []struct {
				first, second int32
				value         float64
			}{{a, x, 1}, {a, y, 0}, {b, x, 0}, {b, y, 1}} {
				tab.learn(sequence(tab, [][]reasoner.Move{{names[seq.first], names[seq.second]}}, nil), []float64{seq.value})
				tab.learnSequences([]seqMove{{id: seq.first}, {id: seq.second}}, []float64{seq.value})
			}
		}
		if mx, my := tab.stat(0, "x").mean(), tab.stat(0, "y").mean(); mx != my {
			t.Fatalf("x and y average %v and %v, want equal", mx, my)
		}
		prev := nstKey(0, tab.numberOf(0, tt.prev))
		rng := rand.New(rand.NewPCG(5, 6))
		chosen := map[reasoner.Move]int{}
		for range 100 {
			chosen[[]reasoner.Move{"x", "y"}[tab.greedy(0, []int32{x, y}, prev, noMove, rng)]]++
		}
		switch {
		case tt.want != "" && chosen[tt.want] != 100:
			t.Errorf("%d plays each, after %s: chose %v, want %s every time", tt.times, tt.prev, chosen, tt.want)
		case tt.want == "" && (chosen["x"] == 0 || chosen["y"] == 0):
			t.Errorf("%d plays each, too few to count, after %s: chose %v, want both at random", tt.times, tt.prev, chosen)
		}
	}
}

// TestSimultaneousPlayoutsUniform checks that MAST's greedy choice steers
// playouts in a turn-taking game, and not in a game where roles move at
// once.
func TestSimultaneousPlayoutsUniform(t *testing.T) {
	for _, tt := range []struct {
		name   string
		game   reasoner.Reasoner
		cfg    Config
		greedy bool
	}{
		{"turn-taking", nim(6), Config{}, true},
		{"simultaneous", dominant(), Config{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Workers = 1
			s := newSearch(t, tt.game, tt.cfg)
			w := newWorker(s, 1, 0)
			ids := w.mast.numbers(0, []reasoner.Move{"a", "b", "c"}, nil)
			greedy := 0
			for range 200 {
				if _, policy := w.pick(0, ids, len(ids)); policy {
					greedy++
				}
			}
			if (greedy > 0) != tt.greedy {
				t.Errorf("%d of 200 choices greedy, want greedy choices %v", greedy, tt.greedy)
			}
		})
	}
}

// TestGRAVEFirst checks how selection treats the moves of a node not yet
// visited. With GRAVEFirst, one with AMAF visits is valued as one visit
// of its AMAF mean: the better of two such moves comes first, and a
// visited move of high value comes before one played badly later in the
// iterations; one without AMAF visits is still tried before any visited
// move. Without GRAVEFirst every move not yet visited comes first.
func TestGRAVEFirst(t *testing.T) {
	moves := []reasoner.Move{"a", "b", "c", "d"}
	for _, tt := range []struct {
		name  string
		first Switch
		n, w  []float64 // visits and values of x's moves
		amafN []float64
		amafW []float64
		want  []reasoner.Move // the moves selection may choose
	}{
		{"better AMAF first", On, []float64{0, 0, 5, 5}, []float64{0, 0, 1, 1}, []float64{10, 10, 10, 10}, []float64{9, 2, 5, 5}, []reasoner.Move{"a"}},
		{"visited before bad AMAF", On, []float64{20, 20, 20, 0}, []float64{19, 2, 2, 0}, []float64{10, 10, 10, 10}, []float64{9, 2, 2, 0}, []reasoner.Move{"a"}},
		{"no AMAF: tried first", On, []float64{20, 20, 20, 0}, []float64{19, 2, 2, 0}, []float64{10, 10, 10, 0}, []float64{9, 2, 2, 0}, []reasoner.Move{"d"}},
		{"off: unvisited first", Off, []float64{20, 20, 20, 0}, []float64{19, 2, 2, 0}, []float64{10, 10, 10, 10}, []float64{9, 2, 2, 0}, []reasoner.Move{"d"}},
		{"off: any unvisited", Off, []float64{0, 0, 5, 5}, []float64{0, 0, 1, 1}, []float64{10, 10, 10, 10}, []float64{9, 2, 5, 5}, []reasoner.Move{"a", "b"}},
	} {
		s := &Search{cfg: Config{GRAVERef: 1, GRAVE: On, GRAVEFirst: tt.first}.withDefaults(), roles: []string{"x", "o"}, grave: true, graveFirst: tt.first == On}
		n := &node{moves: [][]reasoner.Move{moves, {"noop"}}, off: []int32{0, 4},
			n: make([]afloat, 5), w: make([]afloat, 5),
			amafN: append(slices.Clone(tt.amafN), 0), amafW: append(slices.Clone(tt.amafW), 0)}
		var total float64
		for i := range moves {
			n.n[i].Add(tt.n[i])
			n.w[i].Add(tt.w[i])
			total += tt.n[i]
		}
		n.visits.Add(total)
		w := newWorker(s, 1, 0)
		w.view = &view{}
		chosen := map[reasoner.Move]bool{}
		for range 50 {
			w.idx = w.idx[:0]
			j := w.selectJoint(n, n)
			chosen[moves[j]] = true
			// Undo the visit selection counted.
			n.visits.Add(-1)
			n.n[j].Add(-1)
			n.n[4].Add(-1)
		}
		for m := range chosen {
			if !slices.Contains(tt.want, m) {
				t.Errorf("%s: chose %s, want one of %v", tt.name, m, tt.want)
			}
		}
	}
}
