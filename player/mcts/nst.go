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
// decay with the MAST averages, and are keyed by move numbers, grouped by
// the moves before the last (ngram.go).

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

// nstMove returns the role and move number an NST key was made of.
func nstMove(key uint64) (role int, id int32) { return int(key >> 24 & 0xff), int32(key & 0xffffff) }

// pairKey is the key of a pair of moves, exact: the context of the
// triples the pair starts.
func pairKey(a, b uint64) uint64 { return a<<32 | b }

// noMove stands for the absence of an earlier move in the sequence.
const noMove = ^uint64(0)

// learnSequences adds value, each role's result of an iteration, to the
// averages of the pairs and triples of consecutive moves of seq, credited
// to the role of the last move, leaving out sequences ending in a move the
// policy chose.
func (t *mastTable) learnSequences(seq []seqMove, value []float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := 1; i < len(seq); i++ {
		if seq[i].policy {
			continue
		}
		v, key, prev := value[seq[i].role], seq[i].key(), seq[i-1].key()
		t.pairs.add(prev, key, v, t.maxGrams)
		if i >= 2 {
			t.triples.add(pairKey(seq[i-2].key(), prev), key, v, t.maxGrams)
		}
	}
}
