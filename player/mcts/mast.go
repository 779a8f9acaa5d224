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
//
// Moves are numbered per role, and the averages kept in slices by number,
// so that a playout that knows its moves by number (a
// reasoner.PolicyPlayouter's) reads them without hashing a string. The
// numbering starts from the reasoner's own when it has one; other moves
// are numbered as they are first met.
type mastTable struct {
	mu    sync.Mutex
	gen   uint64                    // root generation the averages were last decayed for
	ids   []map[reasoner.Move]int32 // per role: a move's number
	stats [][]mastStat              // per role, by move number

	// NST's averages of pairs and triples of moves, by the NST key of
	// the move before the last or the pairKey of the two before it
	// (nst.go, ngram.go); each keeps at most maxGrams (nstMaxGrams).
	pairs    pairTable
	triples  gramTable
	maxGrams int
}

// mastStat is the decayed number of iterations a move was played in and
// the decayed sum of the values the role got in them.
type mastStat struct{ n, sum float64 }

// mean returns the mean value of the move, or 1 for a move never played,
// so that the policies try it.
func (st mastStat) mean() float64 {
	if st.n > 0 {
		return st.sum / st.n
	}
	return 1
}

// newMASTTable returns an empty table for the roles, numbering each role's
// moves as known[role] lists them; known may be nil.
func newMASTTable(roles int, known func(role int) []reasoner.Move) *mastTable {
	t := &mastTable{ids: make([]map[reasoner.Move]int32, roles), stats: make([][]mastStat, roles), maxGrams: nstMaxGrams}
	sizes := make([]int32, roles)
	for r := range t.ids {
		t.ids[r] = map[reasoner.Move]int32{}
		if known != nil {
			for _, m := range known(r) {
				t.number(r, m)
			}
		}
		sizes[r] = int32(len(t.stats[r]))
	}
	t.pairs = newPairTable(sizes)
	return t
}

// number returns the number of move m of role, numbering it if it is new.
// t.mu must be held or the table not yet shared.
func (t *mastTable) number(role int, m reasoner.Move) int32 {
	if i, ok := t.ids[role][m]; ok {
		return i
	}
	i := int32(len(t.stats[role]))
	t.ids[role][m] = i
	t.stats[role] = append(t.stats[role], mastStat{})
	return i
}

// numbers appends the numbers of moves of role to ids and returns it.
func (t *mastTable) numbers(role int, moves []reasoner.Move, ids []int32) []int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range moves {
		ids = append(ids, t.number(role, m))
	}
	return ids
}

// numberOf returns the number of move m of role, numbering it if it is
// new.
func (t *mastTable) numberOf(role int, m reasoner.Move) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.number(role, m)
}

// stat returns the average of move m of role.
func (t *mastTable) stat(role int, m reasoner.Move) mastStat {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.ids[role][m]; ok {
		return t.stats[role][i]
	}
	return mastStat{}
}

// decay scales the averages down by gamma once per generation of the root,
// forgetting what earlier phases of the game taught; averages that fall
// to almost nothing are forgotten, so the move counts as never played.
func (t *mastTable) decay(gen uint64, gamma float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == gen {
		return
	}
	t.gen = gen
	t.pairs.decay(gamma)
	t.triples.decay(gamma)
	for _, stats := range t.stats {
		for i := range stats {
			st := &stats[i]
			st.n *= gamma
			st.sum *= gamma
			if st.n < 0.01 {
				*st = mastStat{}
			}
		}
	}
}

// greedy returns the position in ids, the numbers of legal moves of role,
// of the move with the highest mean value, ties broken at random; a move
// never played counts as winning, so that it gets tried. With NST, prev1
// is the last move of the iteration's sequence and prev2 the one before
// (noMove where there is none, and always without NST), and a move's
// value is the mean of its own average and those of the pair and triple
// it ends that were played often enough (nst.go).
func (t *mastTable) greedy(role int, ids []int32, prev1, prev2 uint64, rng *rand.Rand) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	stats := t.stats[role]
	// The rows of the pairs and triples ending in a legal move here; empty
	// where none was played often enough to count.
	var pairs pairView
	var triples gramRowView
	if prev1 != noMove {
		pairs = t.pairs.hot(prev1, role)
		if prev2 != noMove {
			triples = t.triples.hot(pairKey(prev2, prev1))
		}
	}
	k := len(ids)
	start := rng.IntN(k)
	best, bestV := start, math.Inf(-1)
	for d := range k {
		i := start + d
		if i >= k {
			i -= k
		}
		sum, n := stats[ids[i]].mean(), 1.0
		key := nstKey(role, ids[i])
		if mean, ok := pairs.mean(key); ok {
			sum, n = sum+mean, n+1
		}
		if mean, ok := triples.mean(key); ok {
			sum, n = sum+mean, n+1
		}
		if v := sum / n; v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// learn adds value, each role's result of an iteration, to the averages of
// the moves of seq, each credited to the role that played it, leaving out
// those the policy chose.
func (t *mastTable) learn(seq []seqMove, value []float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range seq {
		if m.policy {
			continue
		}
		st := &t.stats[m.role][m.id]
		st.n++
		st.sum += value[m.role]
	}
}
