package prolog

import (
	"slices"

	"github.com/ichiban/prolog/engine"
)

// Tests of flat relations.
//
// A ground test of a flat relation, such as (not (threatened ?p ?x ?y)),
// repeats within a state as a call of the interpreter does, and its
// answer is kept the same way: per state (and joint move), by relation
// and arguments, for relations whose tests hit often enough.

// holdsEntry is the answer of one test.
type holdsEntry struct {
	rel  *flatRelation // by identity: relations of one shape differ
	args []engine.Term
	ok   bool
}

// holdsMemo holds the answers of tests of flat relations.
type holdsMemo struct {
	state, moves map[uint64][]holdsEntry
	entries      int
	stats        []memoStats // by flatRelation.id
	buf          []engine.Term
}

func (m *holdsMemo) reset() {
	clear(m.state)
	clear(m.moves)
	m.entries = 0
}

func (m *holdsMemo) clearMoves() {
	if len(m.moves) > 0 {
		clear(m.moves)
	}
}

// holdsMemoised is holds, answered from the tests' table when it can be.
func (r *Reasoner) holdsMemoised(rel *flatRelation, args []template, vals []engine.Term, env *engine.Env) (bool, error) {
	m := &r.holds
	if rel.id >= len(m.stats) {
		m.stats = append(m.stats, make([]memoStats, rel.id+1-len(m.stats))...)
	}
	st := &m.stats[rel.id]
	if st.off {
		return r.holdsFlat(rel, args, vals, env)
	}
	st.calls++
	if st.calls == memoTrial && st.hits*memoMinHitRatio < st.calls {
		st.off = true
	}
	key := m.buf[:0]
	h := mixAtom(rowSeed, engine.Atom(rel.id))
	for _, a := range args {
		t := resolveTemplate(a, vals, env)
		key = append(key, t)
		h = hashTerm(h, t)
	}
	m.buf = key
	table := &m.state
	if rel.usesDoes {
		table = &m.moves
	}
	if *table == nil {
		*table = map[uint64][]holdsEntry{}
	}
	for _, e := range (*table)[h] {
		if e.rel == rel && identicalRows(e.args, key) {
			st.hits++
			return e.ok, nil
		}
	}
	// The evaluation may test other relations, reusing m.buf.
	key = slices.Clone(key)
	ok, err := r.holdsFlat(rel, args, vals, env)
	if err != nil {
		return false, err
	}
	if m.entries >= maxMemoTotal {
		m.reset()
	}
	m.entries++
	(*table)[h] = append((*table)[h], holdsEntry{rel: rel, args: key, ok: ok})
	return ok, nil
}
