package mcts

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner"
)

// TestParallelTreeInvariants runs searches whose workers update the tree
// together without its lock (tree.go), then checks at every node of the
// graph that no update was lost or counted twice: each role's move visits
// sum to the node's visits, a move's value lies between 0 and its visits,
// and, the goals of these games summing to 100 in every terminal state,
// the values of all roles' moves sum to the node's visits, every
// iteration through the node having added goals that sum to 1. Workers
// outnumber the cores so that they interleave; run it with -race too.
func TestParallelTreeInvariants(t *testing.T) {
	d := 300 * time.Millisecond
	if testing.Short() {
		d = 100 * time.Millisecond
	}
	for _, game := range []string{"connectFour", "breakthrough"} {
		t.Run(game, func(t *testing.T) {
			desc := playertest.LoadGame(t, game)
			r, err := playertest.Factory(t, "propnet")(context.Background(), desc)
			if err != nil {
				t.Fatal(err)
			}
			// Material's prior gives moves visits their node has not
			// had; TestParallelMinimax searches with it.
			s := newSearch(t, r, Config{Workers: 4, Material: Off})
			run(t, s, d)
			s.mu.Lock()
			defer s.mu.Unlock()
			nodes := checkTree(t, s)
			if nodes < 10 || s.root.visits.Load() < 10 {
				t.Fatalf("%d nodes, %v visits at the root: too small a search to check", nodes, s.root.visits.Load())
			}
			t.Logf("%d iterations, %d nodes checked", s.iterations.Load(), nodes)
		})
	}
}

// TestParallelTableAfterAdvance advances the root between runs of a
// search and searches on: the transposition table, which the workers fill
// together under its shards' locks and Advance rebuilds (table.go), must
// hold only nodes reachable from the root, one for each state, and as many as it
// counts, and every reachable node. Terminal states are the exception: a
// proof links the terminal state it found without the table (expand.go),
// so the table may lack one or, after a rebuild, hold it twice.
func TestParallelTableAfterAdvance(t *testing.T) {
	desc := playertest.LoadGame(t, "connectFour")
	r, err := playertest.Factory(t, "propnet")(context.Background(), desc)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(t, r, Config{Workers: 4})
	for range 3 {
		run(t, s, 50*time.Millisecond)
		joint := make([]reasoner.Move, len(s.roles))
		for role := range joint {
			if joint[role], err = s.Best(role); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Advance(context.Background(), joint); err != nil {
			t.Fatal(err)
		}
	}
	run(t, s, 100*time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	reachable := reachableFrom(s.root)
	inTable := 0
	for i := range s.shards {
		for _, n := range s.shards[i].m {
			for ; n != nil; n = n.next {
				inTable++
				if !reachable[n] {
					t.Errorf("state %v: in the table, not reachable from the root", n.state)
				}
				if !n.terminal && s.lookup(n.state) != n {
					t.Errorf("state %v: the table finds another node", n.state)
				}
			}
		}
	}
	for n := range reachable {
		if !n.terminal && s.lookup(n.state) != n {
			t.Errorf("state %v: reachable, not in the table", n.state)
		}
	}
	if got := s.nodes.Load(); got != int64(inTable) {
		t.Errorf("the table counts %d nodes, holds %d", got, inTable)
	}
	if inTable < 10 {
		t.Errorf("%d nodes in the table: too small a search to check", inTable)
	}
}

// checkTree checks the invariants of TestParallelTreeInvariants at every
// node reachable from the root, and returns the number of nodes. s.mu
// must be held, and no worker running.
func checkTree(t *testing.T, s *Search) int {
	t.Helper()
	nodes := reachableFrom(s.root)
	errs := 0
	fail := func(n *node, format string, args ...any) {
		if errs++; errs <= 10 {
			t.Errorf("node %v: "+format, append([]any{n.state.Hash()}, args...)...)
		}
	}
	for n := range nodes {
		visits := n.visits.Load()
		var total float64
		for r, ms := range n.moves {
			var sum float64
			for i := range ms {
				at := int(n.off[r]) + i
				nv, wv := n.n[at].Load(), n.w[at].Load()
				if wv < -1e-9 || wv > nv+1e-9 {
					fail(n, "role %d move %s: value %v over %v visits", r, ms[i], wv, nv)
				}
				sum += nv
				total += wv
			}
			if sum != visits {
				fail(n, "role %d: its moves' visits sum to %v, the node's visits are %v", r, sum, visits)
			}
		}
		if !n.terminal && math.Abs(total-visits) > 1e-6*max(1, visits) {
			fail(n, "values sum to %v over %v visits, want the visits", total, visits)
		}
		joints := make(map[int64]bool)
		for _, e := range n.children() {
			if joints[e.joint] {
				fail(n, "two children for joint move %d", e.joint)
			}
			joints[e.joint] = true
		}
	}
	return len(nodes)
}

// reachableFrom returns the nodes reachable from root, root included.
// The tree's lock must be held, and no worker running.
func reachableFrom(root *node) map[*node]bool {
	seen := map[*node]bool{root: true}
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range n.children() {
			if !seen[e.child] {
				seen[e.child] = true
				stack = append(stack, e.child)
			}
		}
	}
	return seen
}

// TestParallelMinimax searches breakthrough with four workers and the
// material found, its prior and its minimax values: every node that has
// values, written by the workers without the lock, holds values in [0,1]
// for each of its mover's moves and for itself. Run it with -race too.
func TestParallelMinimax(t *testing.T) {
	desc := playertest.LoadGame(t, "breakthrough")
	r, err := playertest.Factory(t, "propnet")(context.Background(), desc)
	if err != nil {
		t.Fatal(err)
	}
	// The material is learned in a share of the run's time.
	s := newSearch(t, r, Config{Workers: 4, Material: On, Minimax: On, LearnMax: gamestest.Scale(t, DefaultLearnMax)})
	run(t, s, gamestest.Scale(t, 2*time.Second))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.material.Load() == nil {
		t.Fatal("no material found in breakthrough")
	}
	inRange := func(v float64) bool { return v >= 0 && v <= 1 }
	nodes := reachableFrom(s.root)
	valued := 0
	for n := range nodes {
		if mv := n.mm.Load(); mv != nil {
			valued++
			if len(mv.moves) != len(n.moves[n.mover]) {
				t.Fatalf("node %v: %d minimax values for %d moves", n.state.Hash(), len(mv.moves), len(n.moves[n.mover]))
			}
			for i := range mv.moves {
				if v := mv.moves[i].Load(); !inRange(v) {
					t.Errorf("node %v move %s: minimax value %v", n.state.Hash(), n.moves[n.mover][i], v)
				}
			}
			if v := mv.value.Load(); !inRange(v) {
				t.Errorf("node %v: minimax value %v", n.state.Hash(), v)
			}
		}
	}
	if valued < 10 {
		t.Fatalf("%d nodes with minimax values: too small a search to check", valued)
	}
	t.Logf("%d nodes, %d with minimax values", len(nodes), valued)
}
