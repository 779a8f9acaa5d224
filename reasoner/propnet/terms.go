package propnet

import (
	"encoding/binary"
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
// ids and matching compares integers.
type termStore struct {
	symNames []string
	symIDs   map[string]int32
	terms    []term
	ids      map[string]termID
	key      []byte // scratch for keys
}

func newTermStore() *termStore {
	return &termStore{symIDs: map[string]int32{}, ids: map[string]termID{}}
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

// termKey writes the key of the term sym(args...) into ts.key.
func (ts *termStore) termKey(sym int32, args []termID) []byte {
	b := ts.key[:0]
	b = binary.LittleEndian.AppendUint32(b, uint32(sym))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(args)))
	for _, a := range args {
		b = binary.LittleEndian.AppendUint32(b, uint32(a))
	}
	ts.key = b
	return b
}

// lookup returns the id of sym(args...) if it is interned.
func (ts *termStore) lookup(sym int32, args []termID) (termID, bool) {
	id, ok := ts.ids[string(ts.termKey(sym, args))]
	return id, ok
}

// intern returns the id of sym(args...), adding it when new. args is copied.
func (ts *termStore) intern(sym int32, args []termID) termID {
	k := ts.termKey(sym, args)
	if id, ok := ts.ids[string(k)]; ok {
		return id
	}
	t := term{sym: sym}
	if len(args) > 0 {
		t.args = append([]termID(nil), args...)
		for _, a := range args {
			t.depth = max(t.depth, ts.terms[a].depth+1)
		}
	}
	id := termID(len(ts.terms))
	ts.terms = append(ts.terms, t)
	ts.ids[string(k)] = id
	return id
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
