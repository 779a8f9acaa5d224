package propnet

import (
	"slices"
	"strings"
)

// termID names a ground term interned in a termStore. Ground atoms are terms
// too: (cell 1 1 b) as a fact of true is the same term as (cell 1 1 b) as an
// atom of the relation cell.
type termID int32

// term is an interned ground term: a constant (args nil) or a function of
// its arguments.
type term struct {
	sym   int32
	args  []termID
	depth int32 // 0 for a constant
}

// termStore interns symbols and ground terms, so that equal terms have equal
// ids and matching compares integers. Grounding interns millions of terms:
// their arguments share large blocks, and the table that finds a term's id
// is an open-addressing hash table of ids, so that neither costs an
// allocation per term nor holds a pointer the collector must follow. Each
// slot keeps the high half of its term's hash beside the id: a probe
// reads the term only when those agree, and growing the table rehashes
// nothing.
type termStore struct {
	symNames []string
	symIDs   map[string]int32
	terms    []term
	table    []slotEntry // by hash, a power of two long
	arena    []termID    // the block the next terms' arguments go into
}

func newTermStore() *termStore {
	return &termStore{symIDs: map[string]int32{}, table: make([]slotEntry, 1024)}
}

// slotEntry is a slot of the table: the high 32 bits of the term's hash,
// which place it, and its id plus one in the low 32 (0: empty).
type slotEntry uint64

func (e slotEntry) id() termID { return termID(uint32(e)) - 1 }

func makeSlot(h uint64, id termID) slotEntry {
	return slotEntry(h&^0xffffffff | uint64(uint32(id+1)))
}

func (ts *termStore) symbol(name string) int32 {
	if id, ok := ts.symIDs[name]; ok {
		return id
	}
	id := int32(len(ts.symNames))
	ts.symNames = append(ts.symNames, name)
	ts.symIDs[name] = id
	return id
}

func hashTerm(sym int32, args []termID) uint64 {
	h := uint64(sym)*0x9e3779b97f4a7c15 ^ uint64(len(args))
	for _, a := range args {
		h = (h ^ uint64(uint32(a))) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	return h ^ h>>32
}

// slot returns the position in ts.table of sym(args...), or of the empty
// slot where it would go.
func (ts *termStore) slot(sym int32, args []termID) (int, uint64) {
	mask := len(ts.table) - 1
	h := hashTerm(sym, args)
	for i := int(h>>32) & mask; ; i = (i + 1) & mask {
		e := ts.table[i]
		if e == 0 {
			return i, h
		}
		if uint64(e)>>32 != h>>32 {
			continue
		}
		t := &ts.terms[e.id()]
		if t.sym == sym && slices.Equal(t.args, args) {
			return i, h
		}
	}
}

// lookup returns the id of sym(args...) if it is interned.
func (ts *termStore) lookup(sym int32, args []termID) (termID, bool) {
	i, _ := ts.slot(sym, args)
	e := ts.table[i]
	return e.id(), e != 0
}

// intern returns the id of sym(args...), adding it when new. args is copied.
func (ts *termStore) intern(sym int32, args []termID) termID {
	i, h := ts.slot(sym, args)
	if e := ts.table[i]; e != 0 {
		return e.id()
	}
	t := term{sym: sym}
	if len(args) > 0 {
		if cap(ts.arena)-len(ts.arena) < len(args) {
			ts.arena = make([]termID, 0, max(4096, len(args)))
		}
		n := len(ts.arena)
		ts.arena = append(ts.arena, args...)
		t.args = ts.arena[n : n+len(args) : n+len(args)]
		for _, a := range args {
			t.depth = max(t.depth, ts.terms[a].depth+1)
		}
	}
	id := termID(len(ts.terms))
	ts.terms = append(ts.terms, t)
	ts.table[i] = makeSlot(h, id)
	if 2*len(ts.terms) > len(ts.table) {
		ts.grow()
	}
	return id
}

// grow doubles the table. A term's slot follows from the high half of its
// hash, which the slot keeps (a table is far below 2^32 slots: terms are
// bounded), so no term is read again.
func (ts *termStore) grow() {
	old := ts.table
	ts.table = make([]slotEntry, 2*len(old))
	mask := len(ts.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := int(uint64(e)>>32) & mask
		for ts.table[i] != 0 {
			i = (i + 1) & mask
		}
		ts.table[i] = e
	}
}

// format writes a term as compact KIF, as gdl's printer does: a constant as
// its name, a function as (name arg...).
func (ts *termStore) format(id termID) string {
	var b strings.Builder
	ts.write(&b, id)
	return b.String()
}

func (ts *termStore) write(b *strings.Builder, id termID) {
	t := &ts.terms[id]
	if len(t.args) == 0 {
		b.WriteString(ts.symNames[t.sym])
		return
	}
	b.WriteByte('(')
	b.WriteString(ts.symNames[t.sym])
	for _, a := range t.args {
		b.WriteByte(' ')
		ts.write(b, a)
	}
	b.WriteByte(')')
}
