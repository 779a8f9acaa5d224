package mcts

import (
	"context"
	"errors"
	"math"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

func newSearch(t *testing.T, g reasoner.Reasoner, cfg Config) *Search {
	t.Helper()
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	s, err := New(context.Background(), g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func run(t *testing.T, s *Search, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestNimSolved checks that the solver proves turn-taking positions, stops
// searching once the root is proven, and plays the winning move.
func TestNimSolved(t *testing.T) {
	tests := []struct {
		pile  int
		value []float64 // proven value at the root
		move  reasoner.Move
	}{
		{pile: 7, value: []float64{1, 0}, move: "(take 1)"},
		{pile: 8, value: []float64{1, 0}, move: "(take 2)"},
		{pile: 9, value: []float64{0, 1}},
		{pile: 13, value: []float64{1, 0}, move: "(take 1)"},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2} {
			s := newSearch(t, nim(tt.pile), Config{Workers: workers})
			run(t, s, time.Minute) // returns once proven
			st := s.Stats()
			if !st.Solved || !slices.Equal(st.Value, tt.value) {
				t.Errorf("pile %d, %d workers: solved %v with value %v, want value %v", tt.pile, workers, st.Solved, st.Value, tt.value)
				continue
			}
			m, err := s.Best(0)
			if err != nil {
				t.Fatal(err)
			}
			if tt.move != "" && m != tt.move {
				t.Errorf("pile %d, %d workers: best move %s, want %s", tt.pile, workers, m, tt.move)
			}
		}
	}
}

// TestSolvedIndifferent checks the proofs of a game whose goals do not
// sum to a constant, where a role may be indifferent between moves that
// matter to another: a proof takes, among the moves equally good for the
// role that moves, the one worst for the others, and a win at once proves
// a state only when no move could be worse for them.
func TestSolvedIndifferent(t *testing.T) {
	tests := []struct {
		name  string
		first map[string][2]int // host's moves but "go", and their goals
		value []float64         // proven value at the root
		move  reasoner.Move     // host's best move
	}{
		// guest is indifferent after go, which is worth 0 to host then:
		// host stays, for 60.
		{"stay", map[string][2]int{"go": {}, "stay": {60, 50}}, []float64{0.6, 0.5}, "stay"},
		// Two wins at once for host, one worse for guest.
		{"wins", map[string][2]int{"generous": {100, 50}, "harsh": {100, 0}}, []float64{1, 0}, ""},
		// A win at once that leaves guest nothing proves the state.
		{"harsh", map[string][2]int{"go": {}, "harsh": {100, 0}}, []float64{1, 0}, "harsh"},
	}
	for _, tt := range tests {
		for _, prove := range []Switch{On, Off} {
			s := newSearch(t, indifferent(tt.first), Config{Workers: 1, ProveLeaves: prove})
			run(t, s, time.Minute) // returns once proven
			st := s.Stats()
			if !st.Solved || !slices.Equal(st.Value, tt.value) {
				t.Errorf("%s, prove %v: solved %v with value %v, want value %v", tt.name, prove, st.Solved, st.Value, tt.value)
				continue
			}
			if tt.move == "" {
				continue
			}
			if m, err := s.Best(0); err != nil || m != tt.move {
				t.Errorf("%s, prove %v: best move %s (%v), want %s", tt.name, prove, m, err, tt.move)
			}
		}
	}
}

// TestNimPlaysOut plays a whole game of nim between two searches that
// share nothing, re-rooting both at every turn; the first player must win
// from a winning pile.
func TestNimPlaysOut(t *testing.T) {
	g := nim(20)
	a := newSearch(t, g, Config{Workers: 2})
	b := newSearch(t, g, Config{Workers: 1, Seed: 7})
	ctx := context.Background()
	for turn := 0; ; turn++ {
		if turn > 20 {
			t.Fatal("the game did not end")
		}
		st := a.State()
		if term, _ := g.Terminal(ctx, st); term {
			goals, _ := g.Goals(ctx, st)
			if goals[0] != 100 {
				t.Errorf("first player scored %d from a winning pile", goals[0])
			}
			break
		}
		run(t, a, 200*time.Millisecond)
		run(t, b, 50*time.Millisecond)
		ma, err := a.Best(0)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := b.Best(1)
		if err != nil {
			t.Fatal(err)
		}
		joint := []reasoner.Move{ma, mb}
		for _, s := range []*Search{a, b} {
			if err := s.Advance(ctx, joint); err != nil {
				t.Fatalf("turn %d: %v", turn, err)
			}
		}
		if !a.State().Equal(b.State()) {
			t.Fatalf("turn %d: the searches disagree on the state", turn)
		}
	}
}

// TestSimultaneous checks decoupled statistics: each role learns its own
// best reply in a simultaneous game.
func TestSimultaneous(t *testing.T) {
	s := newSearch(t, dominant(), Config{Workers: 2})
	run(t, s, 300*time.Millisecond)
	for role, want := range []reasoner.Move{"up", "up"} {
		m, err := s.Best(role)
		if err != nil {
			t.Fatal(err)
		}
		if m != want {
			t.Errorf("role %d plays %s, want %s (stats %+v)", role, m, want, s.Stats())
		}
	}
	if st := s.Stats(); st.Solved {
		t.Error("a simultaneous node with different outcomes was marked solved")
	}
}

// TestPuzzle checks that the breadth-first search finds the only line to
// the top score of a puzzle whose states carry a step counter, that the
// search stops once it has it, and that playing it scores 100.
func TestPuzzle(t *testing.T) {
	const steps = 24
	g := walk(steps)
	s := newSearch(t, g, Config{Workers: 2})
	ctx := context.Background()
	run(t, s, time.Minute) // returns once the line is known
	if st := s.Stats(); st.BestScore != 1 || st.BestLine != steps {
		t.Fatalf("best line of %d moves scoring %v, want %d moves scoring 1", st.BestLine, st.BestScore, steps)
	}
	for range steps {
		run(t, s, 10*time.Millisecond)
		m, err := s.Best(0)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(ctx, []reasoner.Move{m}); err != nil {
			t.Fatal(err)
		}
	}
	goals, _ := g.Goals(ctx, s.State())
	if term, _ := g.Terminal(ctx, s.State()); !term || goals[0] != 100 {
		t.Errorf("ended in %v (terminal %v) with goal %v, want the goal 100", s.State(), term, goals)
	}
	if _, err := s.Best(0); !errors.Is(err, ErrTerminal) {
		t.Errorf("Best at the end: %v, want ErrTerminal", err)
	}
}

// TestPuzzleReroot plays moves off the best line first; the graph search
// must still find the best line from where the game stands.
func TestPuzzleReroot(t *testing.T) {
	const steps = 16
	g := walk(steps)
	s := newSearch(t, g, Config{Workers: 1})
	ctx := context.Background()
	run(t, s, 50*time.Millisecond)
	// Two moves that lose the 100: the best left is 50, steps+1 away.
	for _, m := range []reasoner.Move{"left", "stay"} {
		if err := s.Advance(ctx, []reasoner.Move{m}); err != nil {
			t.Fatal(err)
		}
	}
	run(t, s, time.Second)
	st := s.Stats()
	if st.BestScore != 0.5 || st.BestLine != steps+1 {
		t.Fatalf("after two bad moves: best line of %d moves scoring %v, want %d moves scoring 0.5", st.BestLine, st.BestScore, steps+1)
	}
}

// TestAdvance checks that the tree below the move played is kept and the
// rest freed, and that an illegal move is refused.
func TestAdvance(t *testing.T) {
	g := nim(40)
	s := newSearch(t, g, Config{Workers: 2})
	ctx := context.Background()
	run(t, s, 200*time.Millisecond)
	before := s.Stats()
	joint := []reasoner.Move{"(take 1)", "noop"}
	if err := s.Advance(ctx, joint); err != nil {
		t.Fatal(err)
	}
	after := s.Stats()
	if after.RootVisits == 0 {
		t.Error("the subtree of the move played was not kept")
	}
	if after.Nodes > before.Nodes {
		t.Errorf("%d nodes after advancing, %d before", after.Nodes, before.Nodes)
	}
	want, _ := g.Next(ctx, mustInitial(t, g), joint)
	if !s.State().Equal(want) {
		t.Errorf("state %v after advancing, want %v", s.State(), want)
	}
	for _, bad := range [][]reasoner.Move{
		{"(take 1)", "noop"},
		{"noop", "(take 3)"},
		{"noop"},
	} {
		if err := s.Advance(ctx, bad); err == nil {
			t.Errorf("Advance(%v) succeeded, want an error", bad)
		}
	}
}

// TestFocus checks that a focused search spends every root visit on the
// move focused on, and searches the whole root again once it advances.
func TestFocus(t *testing.T) {
	g := nim(40)
	s := newSearch(t, g, Config{Workers: 1})
	ctx := context.Background()
	if s.Focus(0, "(take 9)") || s.Focus(1, "(take 1)") || s.Focus(2, "noop") {
		t.Error("Focus took a move its role does not have")
	}
	if !s.Focus(0, "(take 2)") {
		t.Fatal("Focus refused a legal move")
	}
	run(t, s, 100*time.Millisecond)
	root := s.root
	for i, m := range root.moves[0] {
		if n := root.n[int(root.off[0])+i].Load(); (m == "(take 2)") != (n > 0) {
			t.Errorf("%s: %v visits", m, n)
		}
	}
	if err := s.Advance(ctx, []reasoner.Move{"(take 2)", "noop"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(ctx, []reasoner.Move{"noop", "(take 1)"}); err != nil {
		t.Fatal(err)
	}
	run(t, s, 100*time.Millisecond)
	root = s.root
	for i, m := range root.moves[0] {
		if n := root.n[int(root.off[0])+i].Load(); n == 0 {
			t.Errorf("%s: no visits after the root changed", m)
		}
	}
}

func mustInitial(t *testing.T, g reasoner.Reasoner) *reasoner.State {
	st, err := g.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNodeCap checks that the search keeps working, within its bound, once
// the node cap is reached, and frees nodes when the root moves.
func TestNodeCap(t *testing.T) {
	const maxNodes = 30
	g := nim(200)
	s := newSearch(t, g, Config{Workers: 2, MaxNodes: maxNodes})
	// Searched until the cap is reached, however slow the machine (the
	// race detector on a loaded one took over 200 ms for 30 nodes).
	for limit := time.Now().Add(10 * time.Second); !s.Stats().Full && time.Now().Before(limit); {
		run(t, s, 50*time.Millisecond)
	}
	st := s.Stats()
	if !st.Full || st.Nodes > maxNodes {
		t.Fatalf("full %v with %d nodes, want full with at most %d", st.Full, st.Nodes, maxNodes)
	}
	it := st.Iterations
	run(t, s, 100*time.Millisecond)
	if st = s.Stats(); st.Iterations == it || st.Nodes > maxNodes {
		t.Errorf("after more search while full: %d iterations (%d before), %d nodes", st.Iterations, it, st.Nodes)
	}
	if _, err := s.Best(0); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(context.Background(), []reasoner.Move{"(take 2)", "noop"}); err != nil {
		t.Fatal(err)
	}
	if st = s.Stats(); st.Nodes >= maxNodes {
		t.Errorf("%d nodes after advancing, want fewer than %d", st.Nodes, maxNodes)
	}
}

// TestHeapBound checks that the search stops adding states once the live
// heap reaches Config.MaxHeap, and searches on, and that the bound
// defaults to a share of the process's memory limit.
func TestHeapBound(t *testing.T) {
	tests := []struct {
		name     string
		limit    int64 // the process's memory limit during the test; 0 none
		maxHeap  int64
		wantHeap int64 // Config.MaxHeap after the defaults
		full     bool
	}{
		{"no limit", 0, 0, 0, false},
		{"limit", 1 << 40, 0, 1 << 39, false},
		{"below the live heap", 0, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			limit := tt.limit
			if limit == 0 {
				limit = math.MaxInt64 // the runtime's "no limit"
			}
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
			s := newSearch(t, nim(200), Config{Workers: 2, MaxHeap: tt.maxHeap})
			if s.cfg.MaxHeap != tt.wantHeap {
				t.Errorf("MaxHeap %d, want %d", s.cfg.MaxHeap, tt.wantHeap)
			}
			before := s.Stats().Nodes
			run(t, s, 100*time.Millisecond)
			st := s.Stats()
			if st.Full != tt.full || st.Iterations == 0 {
				t.Fatalf("full %v after %d iterations, want full %v and some", st.Full, st.Iterations, tt.full)
			}
			if grew := st.Nodes > before; grew == tt.full {
				t.Errorf("%d states after the search, %d before", st.Nodes, before)
			}
		})
	}
}

// TestPanics checks that a reasoner that panics now and then costs
// iterations, not the search.
func TestPanics(t *testing.T) {
	g := nim(30)
	g.panicAt = 5
	s := newSearch(t, g, Config{Workers: 2})
	run(t, s, 200*time.Millisecond)
	st := s.Stats()
	if st.Panics == 0 {
		t.Error("no panic recorded")
	}
	m, err := s.Best(0)
	if err != nil || !slices.Contains(s.Legal(0), m) {
		t.Errorf("Best = %q, %v; want a legal move", m, err)
	}
}

// TestCycles runs a game whose states repeat and whose playouts end only
// at the depth limit.
func TestCycles(t *testing.T) {
	s := newSearch(t, endless(), Config{Workers: 2, MaxPlayoutDepth: 20})
	run(t, s, 200*time.Millisecond)
	if st := s.Stats(); st.Iterations == 0 || st.Solved {
		t.Errorf("stats %+v: want iterations and no proof", st)
	}
	for role := range 2 {
		if m, err := s.Best(role); err != nil || (m != "x" && m != "y") {
			t.Errorf("Best(%d) = %q, %v", role, m, err)
		}
	}
}

// TestRunStopsMidCall checks that Run, with every worker inside a
// reasoner call that ignores its context, returns once the calls have
// returned and its workers have stopped, rather than at its deadline with
// the workers still running, and that the search still has a move.
func TestRunStopsMidCall(t *testing.T) {
	const delay = 300 * time.Millisecond
	g := nim(30)
	g.nextDelay = delay
	s := newSearch(t, g, Config{Workers: 2, Heuristic: Off, GRAVE: Off})
	start := time.Now()
	run(t, s, 50*time.Millisecond)
	if d := time.Since(start); d < delay {
		t.Errorf("Run returned after %v, before its workers' calls of %v returned", d, delay)
	}
	gamestest.NoGoroutines(t, 100*time.Millisecond, searchFuncs)
	if m, err := s.Best(0); err != nil || !slices.Contains(s.Legal(0), m) {
		t.Errorf("Best = %q, %v; want a legal move", m, err)
	}
}

// walkRules are rules that say, as puzzle.GoalFacts reads them, which state of
// walk(24) scores the most. The rules are only read for that.
const walkRules = `
(role walker)
(<= (goal walker 100) there (true (step 24)))
(<= there (true (at 24)))
(<= (goal walker 50) (true (at 24)))
`

// TestPuzzleBidirectional checks the search from both ends: the goal state
// read from the rules is searched back from, and the line where the two
// searches meet is completed move by move and scores 100.
func TestPuzzleBidirectional(t *testing.T) {
	const steps = 24
	d, err := gdl.ParseFile("walk.kif", []byte(walkRules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(t, walk(steps), Config{Workers: 2, Rules: d})
	run(t, s, time.Minute) // returns once the line is known
	st := s.Stats()
	if st.BestScore != 1 || st.BestLine != steps {
		t.Fatalf("best line of %d moves scoring %v, want %d moves scoring 1", st.BestLine, st.BestScore, steps)
	}
	if goal := s.puz.Goal(); goal == nil || goal.String() != "(at 24) (step 0)" {
		t.Errorf("goal state %v, want (at 24) (step 0)", goal)
	}
}

// TestPuzzleMemory checks that the puzzle search gives up and frees its
// graph at half the node cap, leaving the tree search at work.
func TestPuzzleMemory(t *testing.T) {
	s := newSearch(t, walk(40), Config{Workers: 2, MaxNodes: 40})
	run(t, s, 300*time.Millisecond)
	st := s.Stats()
	if st.PuzzleNodes != 0 || st.Expansions == 0 {
		t.Errorf("%d puzzle nodes kept after %d expansions, want the graph freed", st.PuzzleNodes, st.Expansions)
	}
	it := st.Iterations
	run(t, s, 100*time.Millisecond)
	if st = s.Stats(); st.Iterations == it || st.Nodes > 40 {
		t.Errorf("tree search after the puzzle search: %d iterations (%d before), %d nodes", st.Iterations, it, st.Nodes)
	}
	if m, err := s.Best(0); err != nil || !slices.Contains(s.Legal(0), m) {
		t.Errorf("Best = %q, %v", m, err)
	}
}

// TestTryBest checks that TryBest answers Best's move in the current state
// only, and answers it while the search is held: it reads what the search
// published, so whether a fallback move is known does not depend on who
// holds the lock.
func TestTryBest(t *testing.T) {
	g := nim(30)
	s := newSearch(t, g, Config{Workers: 1})
	root := s.State()
	if m, ok := s.TryBest(0, root); ok {
		t.Errorf("TryBest before any search = %q, want none (Best would choose at random)", m)
	}
	run(t, s, 50*time.Millisecond)
	best, err := s.Best(0)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.TryBest(0, root); !ok || m != best {
		t.Errorf("TryBest at the root = %q, %v; want Best's %q", m, ok, best)
	}
	other, _ := g.Next(context.Background(), root, []reasoner.Move{"(take 1)", "noop"})
	if _, ok := s.TryBest(0, other); ok {
		t.Error("TryBest answered for a state that is not the root")
	}
	s.mu.Lock()
	m, ok := s.TryBest(0, root)
	s.mu.Unlock()
	if !ok || m != best {
		t.Errorf("TryBest while the search is held = %q, %v; want Best's %q", m, ok, best)
	}
	// The published move follows the root.
	if err := s.Advance(context.Background(), []reasoner.Move{best, "noop"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.TryBest(0, root); ok {
		t.Error("TryBest answered for the old root after Advance")
	}
	if m, ok := s.TryBest(1, s.State()); !ok || !slices.Contains(s.Legal(1), m) {
		t.Errorf("TryBest of the role to move after Advance = %q, %v", m, ok)
	}
}

// TestTryBestDuringRun checks that TryBest answers while Run is searching
// and its workers hold the tree, from what the search publishes as it
// runs.
func TestTryBestDuringRun(t *testing.T) {
	s := newSearch(t, nim(30), Config{Workers: 2})
	advised := make(chan struct{}, 1) // keeps the last advice the test has not seen
	s.advised = func() {
		select {
		case advised <- struct{}{}:
		default: // one is kept already
		}
	}
	root := s.State()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	// Wait for the search's first publication of a move chosen by its
	// statistics.
	for {
		select {
		case <-advised:
		case <-ctx.Done():
			t.Fatal("TryBest never answered during Run")
		}
		if _, ok := s.TryBest(0, root); ok {
			break
		}
	}
	legal := s.Legal(0)
	// Then TryBest answers every time, whoever holds the tree.
	for i := range 100 {
		if i%2 == 0 {
			s.mu.Lock()
		}
		m, ok := s.TryBest(0, root)
		if i%2 == 0 {
			s.mu.Unlock()
		}
		if !ok || !slices.Contains(legal, m) {
			t.Fatalf("TryBest during Run, call %d = %q, %v", i, m, ok)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestDecide checks that Decide returns before the deadline once no other
// move can overtake the most visited one, and that Run, with the same
// statistics, searches to the deadline.
func TestDecide(t *testing.T) {
	s := newSearch(t, lopsided(), Config{Workers: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	settled, err := s.Decide(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !settled || ctx.Err() != nil {
		t.Errorf("Decide searched to the deadline (settled %v); %+v", settled, s.Stats())
	}
	if m, err := s.Best(0); err != nil || m != "good" {
		t.Errorf("Best = %q, %v; want good", m, err)
	}
	if _, err := s.Decide(context.Background(), 5); err == nil {
		t.Error("Decide for role 5 of 2: no error")
	}
}

// TestSettled checks the rule Decide stops by: the lead of the most
// visited move against the iterations the time left allows, and never for
// a role with one move, which searches on for the turns to come.
func TestSettled(t *testing.T) {
	s := newSearch(t, lopsided(), Config{Workers: 1})
	run(t, s, 200*time.Millisecond)
	visits := s.Stats().RootVisits
	start := time.Now().Add(-time.Second)
	tests := []struct {
		name  string
		role  int
		iters int64 // iterations in the second since start
		left  time.Duration
		want  bool
	}{
		{"no time left", 0, visits, 0, true},
		{"a few iterations left", 0, visits, time.Millisecond, true},
		// The lead is at most every visit done (the heuristic's prior
		// keeps the search off lopsided's bad move altogether), so with
		// more left than done the other move could still catch up.
		{"more left than done", 0, visits, 2 * time.Second, false},
		{"one move", 1, visits, 0, false},
		{"no rate yet", 0, 0, 0, false},
		{"too few iterations for a rate", 0, settleSample - 1, 0, false},
	}
	for _, tt := range tests {
		if got := s.settled(tt.role, start, tt.iters, time.Now().Add(tt.left)); got != tt.want {
			t.Errorf("%s: settled = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// stallingGame is a game whose next Next call, once stall is set, takes
// pause: a turn's one-off work at the start of a run, as the decay of the
// playout statistics was.
type stallingGame struct {
	reasoner.Reasoner
	stall *atomic.Bool
	pause time.Duration
}

func (g stallingGame) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if g.stall.CompareAndSwap(true, false) {
		time.Sleep(g.pause)
	}
	return g.Reasoner.Next(ctx, s, joint)
}

func (g stallingGame) Fork() (reasoner.Reasoner, error) {
	f, err := g.Reasoner.Fork()
	if err != nil {
		return nil, err
	}
	return stallingGame{f, g.stall, g.pause}, nil
}

// TestSettleAfterStall checks that a run whose first iteration stalls
// does not settle on the rate of that iteration: with the root's lead
// far ahead of what a stalled rate allows, Decide settled after one
// iteration when it measured the rate from the run's start. It may
// settle, but only on a rate it measured over settleSample iterations
// after settleWarmup.
func TestSettleAfterStall(t *testing.T) {
	stall := new(atomic.Bool)
	s := newSearch(t, stallingGame{lopsided(), stall, 200 * time.Millisecond}, Config{Workers: 1})
	run(t, s, 300*time.Millisecond)
	before := s.Stats().Iterations
	stall.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	settled, err := s.Decide(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if stall.Load() {
		t.Fatal("the run never called Next: nothing stalled")
	}
	if done := s.Stats().Iterations - before; settled && done < settleWarmup+settleSample {
		t.Errorf("settled after %d iterations of the run, want at least %d", done, settleWarmup+settleSample)
	}
}

// loads returns the values of fs.
func loads(fs []afloat) []float64 {
	out := make([]float64, len(fs))
	for i := range fs {
		out[i] = fs[i].Load()
	}
	return out
}

// TestProvenSoonest checks that of two moves proven to win, the proof and
// the choice take the sooner: in hurry, a's "wait" is proven to win in
// three steps, listed first, and "win" wins at once. A search of one
// factor must not put a proven win off, for the game may end first on
// another factor.
func TestProvenSoonest(t *testing.T) {
	ctx := context.Background()
	g := hurry()
	s := newSearch(t, g, Config{Workers: 1, ProveLeaves: Off})
	root := s.root
	kids := make([]*node, 2)
	for i, m := range []string{"wait", "win"} {
		st, err := g.Next(ctx, root.state, []reasoner.Move{reasoner.Move(m), "pass"})
		if err != nil {
			t.Fatal(err)
		}
		if kids[i], err = s.makeNode(ctx, g, st); err != nil {
			t.Fatal(err)
		}
	}
	if !kids[1].solved.Load() || kids[1].depth != 0 {
		t.Fatalf("the win at once: solved %v at depth %d, want a terminal state", kids[1].solved.Load(), kids[1].depth)
	}
	// After wait: b passes, then a wins.
	kids[0].prove([]float64{1, 0}, 2)
	s.mu.Lock()
	for i, c := range kids {
		if s.link(root, int64(i), c, s.gen) != c {
			t.Fatal("link failed")
		}
	}
	solved := s.solve(root)
	s.mu.Unlock()
	if !solved || root.depth != 1 {
		t.Errorf("root solved %v at depth %d, want 1", solved, root.depth)
	}
	if m, err := s.Best(0); err != nil || m != "win" {
		t.Errorf("best %s (%v), want win", m, err)
	}
}
