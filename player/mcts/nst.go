package mcts

// N-gram selection (NST; Tak, Winands and Björnsson, 2012) extends MAST
// from single moves to short sequences: the mean value a role got when it
// played a move right after one move, or two moves, of the iteration's
// sequence of moves (every role's choices, in the order played). Where a
// move's worth depends on what was just played, as a reply does in
// connect four, the sequences tell what the move alone cannot. The greedy
// playout choice then ranks a move by the mean of its MAST average and
// the averages of the sequences ending in it that were played at least
// nstMinVisits times.
//
// The sequence averages live in the worker's mastTable, under its lock,
// decay with the MAST averages, and are keyed by move numbers.

// nstMinVisits is how often a sequence must have been played before its
// average counts, as in Tak et al.
const nstMinVisits = 7

// nstMaxGrams bounds the sequences a table keeps of each length; past it,
// new sequences are not learned until decay makes room.
const nstMaxGrams = 1 << 20

// A seqMove is one move of an iteration's sequence: the role, the move's
// number in the MAST table, and whether the playout policy chose it.
type seqMove struct {
	role, id int32
	policy   bool
}

// key returns the move's NST key.
func (m seqMove) key() uint64 { return nstKey(int(m.role), m.id) }

// nstKey packs a role and a move number into 32 bits, the role in the top
// eight. Numbers past 2^24 share keys: their averages mix, which costs
// the policy some precision and nothing else.
func nstKey(role int, id int32) uint64 { return uint64(role&0xff)<<24 | uint64(id)&0xffffff }

// pairKey is the key of a pair of moves, exact; tripleKey is that of a
// triple, a hash of the three (a collision mixes two averages, as above).
// Integer keys keep the map look-ups, a few per legal move and playout
// step, cheap.
func pairKey(a, b uint64) uint64 { return a<<32 | b }

func tripleKey(a, b, c uint64) uint64 {
	h := (a + 1) * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return h ^ pairKey(b, c)
}

// noMove stands for the absence of an earlier move in the sequence.
const noMove = ^uint64(0)

// learnSequences adds value, each role's result of an iteration, to the
// averages of the pairs and triples of consecutive moves of seq, credited
// to the role of the last move, leaving out sequences ending in a move the
// policy chose unless withPolicy is set.
func (t *mastTable) learnSequences(seq []seqMove, withPolicy bool, value []float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pairs == nil {
		t.pairs = map[uint64]mastStat{}
		t.triples = map[uint64]mastStat{}
	}
	for i := 1; i < len(seq); i++ {
		if !withPolicy && seq[i].policy {
			continue
		}
		v, key := value[seq[i].role], seq[i].key()
		add(t.pairs, pairKey(seq[i-1].key(), key), v)
		if i >= 2 {
			add(t.triples, tripleKey(seq[i-2].key(), seq[i-1].key(), key), v)
		}
	}
}

// add counts value in the average of key, unless m is full and has no
// average for key yet.
func add(m map[uint64]mastStat, key uint64, value float64) {
	st, ok := m[key]
	if !ok && len(m) >= nstMaxGrams {
		return
	}
	st.n++
	st.sum += value
	m[key] = st
}

// decayMap scales the averages of m down by gamma, dropping those that
// fall to almost nothing.
func decayMap(m map[uint64]mastStat, gamma float64) {
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
