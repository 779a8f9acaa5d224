package mcts

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/ggp-go/ggp/reasoner"
)

// Move-average sampling (MAST, from CadiaPlayer): every move a role has
// played, in the tree or in a playout, keeps the mean value the role got in
// the iterations it was played in, whatever the state. Playouts then pick,
// with probability 1-ε, the legal move of highest mean instead of a random
// one (ε-greedy, which Tak, Winands and Björnsson found better than Gibbs
// sampling across GGP games). A move's value is a property of the game's
// phase, so the averages decay by a factor at every turn.
//
// The averages learn from the moves selected in the tree and drawn at
// random in playouts, not from those the playout policy chose itself.
// Counting the policy's own choices feeds its habits back into the
// averages: in connect four the column greedy happened to favour was
// played by both roles at every turn, and after 3 s from the start an
// edge column averaged 0.59 for the first player and a centre one 0.47;
// learning from the other moves alone puts the centre columns first.

// A mastTable holds the move averages one worker learned. Each worker id
// has its own, so its lock is uncontended but for a worker of an earlier
// Run still finishing its last iteration; each method holds it only for
// the table access, never across a reasoner call.
type mastTable struct {
	mu    sync.Mutex
	gen   uint64 // root generation the averages were last decayed for
	moves []map[reasoner.Move]mastStat
}

// mastStat is the decayed number of iterations a move was played in and
// the decayed sum of the values the role got in them.
type mastStat struct{ n, sum float64 }

func newMASTTable(roles int) *mastTable {
	t := &mastTable{moves: make([]map[reasoner.Move]mastStat, roles)}
	for r := range t.moves {
		t.moves[r] = map[reasoner.Move]mastStat{}
	}
	return t
}

// decay scales the averages down by gamma once per generation of the root,
// forgetting what earlier phases of the game taught; averages that fall
// to almost nothing are dropped.
func (t *mastTable) decay(gen uint64, gamma float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == gen {
		return
	}
	t.gen = gen
	for _, m := range t.moves {
		for k, st := range m {
			st.n *= gamma
			st.sum *= gamma
			if st.n < 0.01 {
				delete(m, k)
				continue
			}
			m[k] = st
		}
	}
}

// meanOf returns the mean value of m in tab, or 1 for a move never
// played, so that the policies try it.
func meanOf(tab map[reasoner.Move]mastStat, m reasoner.Move) float64 {
	if st, ok := tab[m]; ok && st.n > 0 {
		return st.sum / st.n
	}
	return 1
}

// greedy returns the index of the move of role with the highest mean
// value, ties broken at random; a move never played counts as winning, so
// that it gets tried.
func (t *mastTable) greedy(role int, moves []reasoner.Move, rng *rand.Rand) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	tab := t.moves[role]
	k := len(moves)
	start := rng.IntN(k)
	best, bestV := start, math.Inf(-1)
	for d := range k {
		i := start + d
		if i >= k {
			i -= k
		}
		if v := meanOf(tab, moves[i]); v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// learn adds value, each role's result of an iteration, to the averages of
// the moves that role played in it, leaving out those marked in policy
// unless withPolicy is set.
func (t *mastTable) learn(played [][]reasoner.Move, policy [][]bool, withPolicy bool, value []float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for r, ms := range played {
		tab := t.moves[r]
		for i, m := range ms {
			if !withPolicy && policy[r][i] {
				continue
			}
			st := tab[m]
			st.n++
			st.sum += value[r]
			tab[m] = st
		}
	}
}

// gibbs returns the index of a move of role drawn with probability
// proportional to exp(mean/tau): close means give an almost uniform
// choice, clearly better ones are preferred. A move never played counts
// as winning.
func (t *mastTable) gibbs(role int, moves []reasoner.Move, tau float64, weights []float64, rng *rand.Rand) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	tab := t.moves[role]
	best := math.Inf(-1)
	for i, m := range moves {
		weights[i] = meanOf(tab, m)
		best = max(best, weights[i])
	}
	var total float64
	for i := range moves {
		weights[i] = math.Exp((weights[i] - best) / tau)
		total += weights[i]
	}
	x := rng.Float64() * total
	for i := range moves {
		x -= weights[i]
		if x <= 0 {
			return i
		}
	}
	return len(moves) - 1
}
