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
// allocation per term nor holds a pointer the collector must follow.
type termStore struct {
	symNames []string
	symIDs   map[string]int32
	terms    []term
	table    []termID // ids by hash, -1 empty; a power of two long
	arena    []termID // the block the next terms' arguments go into
}

func newTermStore() *termStore {
	ts := &termStore{symIDs: map[string]int32{}, table: make([]termID, 1024)}
	for i := range ts.table {
		ts.table[i] = -1
	}
	return ts
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
func (ts *termStore) slot(sym int32, args []termID) int {
	mask := len(ts.table) - 1
	for i := int(hashTerm(sym, args)) & mask; ; i = (i + 1) & mask {
		id := ts.table[i]
		if id < 0 {
			return i
		}
		t := &ts.terms[id]
		if t.sym == sym && slices.Equal(t.args, args) {
			return i
		}
	}
}

// lookup returns the id of sym(args...) if it is interned.
func (ts *termStore) lookup(sym int32, args []termID) (termID, bool) {
	id := ts.table[ts.slot(sym, args)]
	return id, id >= 0
}

// intern returns the id of sym(args...), adding it when new. args is copied.
func (ts *termStore) intern(sym int32, args []termID) termID {
	i := ts.slot(sym, args)
	if id := ts.table[i]; id >= 0 {
		return id
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
	ts.table[i] = id
	if 2*len(ts.terms) > len(ts.table) {
		ts.grow()
	}
	return id
}

// grow doubles the table.
func (ts *termStore) grow() {
	ts.table = make([]termID, 2*len(ts.table))
	for i := range ts.table {
		ts.table[i] = -1
	}
	mask := len(ts.table) - 1
	for id := range ts.terms {
		t := &ts.terms[id]
		i := int(hashTerm(t.sym, t.args)) & mask
		for ts.table[i] >= 0 {
			i = (i + 1) & mask
		}
		ts.table[i] = termID(id)
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
