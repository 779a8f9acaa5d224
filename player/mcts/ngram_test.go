package mcts

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

// refNST keeps NST's sequence averages the straightforward way, as the
// search did before ngram.go: Go maps keyed by the whole sequence, each
// holding at most limit averages.
type refNST struct {
	pairs   map[[2]uint64]mastStat
	triples map[[3]uint64]mastStat
	limit   int
}

func (r *refNST) learn(seq []seqMove, value []float64) {
	for i := 1; i < len(seq); i++ {
		if seq[i].policy {
			continue
		}
		v, key := value[seq[i].role], seq[i].key()
		refAdd(r.pairs, [2]uint64{seq[i-1].key(), key}, v, r.limit)
		if i >= 2 {
			refAdd(r.triples, [3]uint64{seq[i-2].key(), seq[i-1].key(), key}, v, r.limit)
		}
	}
}

func refAdd[K comparable](m map[K]mastStat, k K, value float64, limit int) {
	st, ok := m[k]
	if !ok && len(m) >= limit {
		return
	}
	st.n++
	st.sum += value
	m[k] = st
}

func refDecay[K comparable](m map[K]mastStat, gamma float64) {
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

// greedy is mastTable.greedy over the maps, reading MAST's averages from t.
func (r *refNST) greedy(t *mastTable, role int, ids []int32, prev1, prev2 uint64, rng *rand.Rand) int {
	k := len(ids)
	start := rng.IntN(k)
	best, bestV := start, math.Inf(-1)
	for d := range k {
		i := (start + d) % k
		sum, n := t.stats[role][ids[i]].mean(), 1.0
		if prev1 != noMove {
			key := nstKey(role, ids[i])
			if st, ok := r.pairs[[2]uint64{prev1, key}]; ok && st.n >= nstMinVisits {
				sum, n = sum+st.mean(), n+1
			}
			if prev2 != noMove {
				if st, ok := r.triples[[3]uint64{prev2, prev1, key}]; ok && st.n >= nstMinVisits {
					sum, n = sum+st.mean(), n+1
				}
			}
		}
		if v := sum / n; v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// TestNSTTablesMatchMaps plays a random run of learning, greedy choices
// and decay on a mastTable and on the maps NST used to keep, and checks
// that both hold the same averages and choose the same moves: with pairs
// kept densely, in rows, and both (moves numbered past the reasoner's),
// and with the tables full.
func TestNSTTablesMatchMaps(t *testing.T) {
	for _, tt := range []struct {
		name  string
		known []int // per role, moves the reasoner numbers; nil for none
		moves int   // moves per role in all
		limit int   // the most averages a table keeps; 0 for nstMaxGrams
	}{
		{name: "dense pairs", known: []int{24, 17}, moves: 17},
		{name: "dense pairs and rows", known: []int{6, 4}, moves: 24},
		{name: "rows, moves not numbered", moves: 24},
		{name: "rows, too many moves", known: []int{300, 300}, moves: 300},
		{name: "full, dense pairs", known: []int{24, 17}, moves: 17, limit: 60},
		{name: "full, dense pairs and rows", known: []int{6, 4}, moves: 24, limit: 90},
		{name: "full, rows", moves: 24, limit: 90},
	} {
		t.Run(tt.name, func(t *testing.T) {
			names := func(role, n int) []reasoner.Move {
				ms := make([]reasoner.Move, n)
				for i := range ms {
					ms[i] = reasoner.Move(fmt.Sprintf("m%d_%d", role, i))
				}
				return ms
			}
			var known func(int) []reasoner.Move
			if tt.known != nil {
				known = func(role int) []reasoner.Move { return names(role, tt.known[role]) }
			}
			tab := newMASTTable(2, known)
			for role := range 2 {
				tab.numbers(role, names(role, tt.moves), nil)
			}
			ref := &refNST{pairs: map[[2]uint64]mastStat{}, triples: map[[3]uint64]mastStat{}, limit: nstMaxGrams}
			if tt.limit > 0 {
				tab.maxGrams, ref.limit = tt.limit, tt.limit
			}
			rng := rand.New(rand.NewPCG(7, 8))
			// A few moves are played often, so that sequences reach
			// nstMinVisits; with many moves, now and then one past the
			// first 32.
			move := func(role int) seqMove {
				id := rng.IntN(rng.IntN(rng.IntN(min(tt.moves, 32))+1) + 1)
				if tt.moves > 32 && rng.IntN(20) == 0 {
					id = rng.IntN(tt.moves)
				}
				return seqMove{int32(role), int32(id), rng.IntN(3) == 0}
			}
			key := func(role int) uint64 {
				if rng.IntN(8) == 0 {
					return noMove
				}
				return move(role).key()
			}
			value := []float64{0, 0}
			gen, choices, pairs, triples := uint64(0), 0, 0, 0
			for step := range 6000 {
				seq := make([]seqMove, 2+rng.IntN(12))
				role := rng.IntN(2)
				for i := range seq {
					if rng.IntN(6) != 0 {
						role = 1 - role
					}
					seq[i] = move(role)
				}
				value[0] = float64(rng.IntN(5)) / 4
				value[1] = 1 - value[0]
				tab.learn(seq, value)
				tab.learnSequences(seq, value)
				ref.learn(seq, value)

				role = rng.IntN(2)
				ids := make([]int32, 1+rng.IntN(12))
				for i := range ids {
					ids[i] = move(role).id
				}
				prev1, prev2 := key(1-role), key(role)
				if prev1 == noMove {
					prev2 = noMove
				}
				seed := rng.Uint64()
				got := tab.greedy(role, ids, prev1, prev2, rand.New(rand.NewPCG(seed, 1)))
				want := ref.greedy(tab, role, ids, prev1, prev2, rand.New(rand.NewPCG(seed, 1)))
				if got != want {
					t.Fatalf("step %d: greedy over %v after %x, %x chose %d, the maps %d", step, ids, prev2, prev1, got, want)
				}
				if got != 0 {
					choices++
				}
				if step%1000 == 999 {
					p, tr := checkNST(t, tab, ref)
					pairs, triples = max(pairs, p), max(triples, tr)
					gen++
					gamma := []float64{0.8, 0.5, 0.05}[rng.IntN(3)]
					tab.decay(gen, gamma)
					refDecay(ref.pairs, gamma)
					refDecay(ref.triples, gamma)
					checkNST(t, tab, ref)
				}
			}
			checkNST(t, tab, ref)
			if choices == 0 || pairs == 0 || triples == 0 {
				t.Errorf("greedy chose other than the first move %d times; at most %d pairs and %d triples counted: the run does not test them", choices, pairs, triples)
			}
			t.Logf("at most %d pairs and %d triples counted; %d pairs, %d triples held", pairs, triples, len(ref.pairs), len(ref.triples))
		})
	}
}

// checkNST checks that tab holds the averages of ref, and that its rows'
// counts and marks agree with the averages they hold. It returns how many
// pairs and triples count.
func checkNST(t *testing.T, tab *mastTable, ref *refNST) (pairs, triples int) {
	t.Helper()
	for k, want := range ref.pairs {
		if got := tab.pairs.stat(k[0], k[1]); got != want {
			t.Fatalf("pair %x: %+v, the maps %+v", k, got, want)
		}
		if want.n >= nstMinVisits {
			pairs++
		}
	}
	if got := tab.pairs.live + tab.pairs.rest.live; got != len(ref.pairs) {
		t.Fatalf("%d pairs held, the maps %d", got, len(ref.pairs))
	}
	for k, want := range ref.triples {
		if got := tab.triples.stat(pairKey(k[0], k[1]), k[2]); got != want {
			t.Fatalf("triple %x: %+v, the maps %+v", k, got, want)
		}
		if want.n >= nstMinVisits {
			triples++
		}
	}
	if tab.triples.live != len(ref.triples) {
		t.Fatalf("%d triples held, the maps %d", tab.triples.live, len(ref.triples))
	}
	for _, g := range []*gramTable{&tab.pairs.rest, &tab.triples} {
		live, rows := 0, 0
		for _, r := range g.rows {
			if r.logSize == 0 {
				continue
			}
			rows++
			var n, h int32
			for i := r.off; i < r.off+1<<r.logSize; i++ {
				k := g.keys[i]
				if k == 0 {
					continue
				}
				n++
				counts := g.stats[i].n >= nstMinVisits
				if counts {
					h++
				}
				if counts != (k&gramHot != 0) {
					t.Fatalf("slot %d: n %v marked %v", i, g.stats[i].n, k&gramHot != 0)
				}
			}
			if n != r.live || h != r.hot || n == 0 {
				t.Fatalf("row %x: %d averages, %d that count; counted %d and %d", r.ctx, n, h, r.live, r.hot)
			}
			live += int(n)
		}
		if live != g.live || rows != g.nrows {
			t.Fatalf("%d averages in %d rows, counted %d in %d", live, rows, g.live, g.nrows)
		}
	}
	return pairs, triples
}

// TestPairTableBounded checks that a game of many moves keeps its pairs
// in rows, so that its memory follows the pairs played, not the square
// of its moves.
func TestPairTableBounded(t *testing.T) {
	for _, tt := range []struct {
		sizes []int32
		dense bool
	}{
		{[]int32{155, 155}, true},
		{[]int32{pairDenseMoves / 2, pairDenseMoves / 2}, true},
		{[]int32{pairDenseMoves/2 + 1, pairDenseMoves / 2}, false},
		{[]int32{5000, 20}, false},
	} {
		p := newPairTable(tt.sizes)
		p.add(nstKey(0, 1), nstKey(1, 2), 1, nstMaxGrams)
		if dense := p.dense[1] != nil; dense != tt.dense {
			t.Errorf("moves %v: pairs kept densely %v, want %v", tt.sizes, dense, tt.dense)
		}
		if !tt.dense && p.rest.live != 1 {
			t.Errorf("moves %v: %d pairs in rows, want 1", tt.sizes, p.rest.live)
		}
		if st := p.stat(nstKey(0, 1), nstKey(1, 2)); st != (mastStat{1, 1}) {
			t.Errorf("moves %v: pair average %+v, want n 1, sum 1", tt.sizes, st)
		}
	}
}

// TestNSTAllocationFree checks that a playout step's greedy choice, and
// learning sequences the tables already hold, allocate nothing, with
// pairs kept densely and in rows.
func TestNSTAllocationFree(t *testing.T) {
	for _, known := range []func(int) []reasoner.Move{
		func(role int) []reasoner.Move { return []reasoner.Move{"a", "b", "c", "d"} },
		nil,
	} {
		tab := newMASTTable(2, known)
		var seq []seqMove
		for i := range 40 {
			role := i % 2
			seq = append(seq, seqMove{int32(role), tab.numberOf(role, reasoner.Move([]string{"a", "b", "c", "d"}[i*7%4])), false})
		}
		value := []float64{1, 0}
		for range nstMinVisits {
			tab.learnSequences(seq, value)
		}
		ids := tab.numbers(0, []reasoner.Move{"a", "b", "c", "d"}, nil)
		rng := rand.New(rand.NewPCG(1, 2))
		allocs := testing.AllocsPerRun(100, func() {
			tab.learn(seq, value)
			tab.learnSequences(seq, value)
			tab.greedy(0, ids, seq[1].key(), seq[0].key(), rng)
		})
		if allocs != 0 {
			t.Errorf("dense pairs %v: %v allocations per learning and greedy choice, want 0", known != nil, allocs)
		}
	}
}
