package propnet

import "slices"

// Indexes of a relation's atoms by the parts of them a literal binds, so
// that a join step looks only at the atoms that can match.

// A compIndex indexes a relation's atoms by the values of some of their
// parts together: the parts a literal has bound when the join reaches it,
// such as the cell of (true (cell ?x ?y ?p)) with ?x and ?y bound. Indexes
// are built when first asked for and extended as atoms are added.
type compIndex struct {
	probes []probe
	// m holds the positions in atoms by a hash of the values of the
	// parts: atoms whose values collide share a list, and the join's
	// match tells them apart.
	m    map[uint64][]int32
	upto int // atoms indexed so far
}

// probe is one part of an atom: the argument positions leading to it, and
// whether it is the part's functor that is compared rather than the part.
type probe struct {
	path    []int
	functor bool
}

// candidates returns the positions in [from, to) of rel's atoms whose
// bound parts agree with l's, and whether l has any bound part; ok is false
// when a bound part names a term that does not exist.
func (g *grounder) candidates(rel *relation, l *literal, from, to int) (cands []int32, indexed, ok bool) {
	g.valBuf = g.valBuf[:0]
	g.keyBuf = g.keyBuf[:0]
	for a, p := range l.args {
		g.pathBuf = append(g.pathBuf[:0], a)
		if !g.collectProbes(p) {
			return nil, false, false
		}
	}
	if len(g.valBuf) == 0 {
		return nil, false, true
	}
	ci := rel.indexes[string(g.keyBuf)]
	if ci == nil {
		ci = &compIndex{m: map[uint64][]int32{}, probes: decodeProbes(g.keyBuf)}
		rel.indexes[string(g.keyBuf)] = ci
	}
	g.extend(rel, ci)
	h := valueHashSeed
	for _, v := range g.valBuf {
		h = valueHash(h, v)
	}
	list := ci.m[h]
	lo, _ := slices.BinarySearch(list, int32(from))
	hi, _ := slices.BinarySearch(list, int32(to))
	return list[lo:hi], true, true
}

// collectProbes appends the bound parts of p, at g.pathBuf, to g.keyBuf
// (encoded as decodeProbes reads them) and their values to g.valBuf: p
// itself when it has no unbound variable, else for a function its functor
// and the bound parts of its arguments.
func (g *grounder) collectProbes(p pat) bool {
	id, ok, bound := g.resolve(p)
	if bound {
		if !ok {
			return false
		}
		g.appendProbe(false)
		g.valBuf = append(g.valBuf, int32(id))
		return true
	}
	if p.kind != patFunc || len(g.pathBuf) > 4 {
		return true
	}
	g.appendProbe(true)
	g.valBuf = append(g.valBuf, functorKey(p.sym, len(p.args)))
	depth := len(g.pathBuf)
	for i, a := range p.args {
		g.pathBuf = append(g.pathBuf[:depth], i)
		if !g.collectProbes(a) {
			return false
		}
	}
	g.pathBuf = g.pathBuf[:depth]
	return true
}

func (g *grounder) appendProbe(functor bool) {
	k := append(g.keyBuf, byte(len(g.pathBuf)))
	for _, i := range g.pathBuf {
		k = append(k, byte(i), byte(i>>8))
	}
	if functor {
		k = append(k, 1)
	} else {
		k = append(k, 0)
	}
	g.keyBuf = k
}

func decodeProbes(k []byte) []probe {
	var out []probe
	for len(k) > 0 {
		n := int(k[0])
		k = k[1:]
		var pr probe
		for range n {
			pr.path = append(pr.path, int(k[0])|int(k[1])<<8)
			k = k[2:]
		}
		pr.functor = k[0] == 1
		k = k[1:]
		out = append(out, pr)
	}
	return out
}

// valueHash mixes v into h, which starts at valueHashSeed: the key of an
// index list.
func valueHash(h uint64, v int32) uint64 {
	h = (h ^ uint64(uint32(v))) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

const valueHashSeed uint64 = 0x9e3779b97f4a7c15

func functorKey(sym int32, arity int) int32 { return -1 - (sym<<6 | int32(min(arity, 63))) }

// extend indexes the atoms of rel added since ci was last used.
func (g *grounder) extend(rel *relation, ci *compIndex) {
	for ; ci.upto < len(rel.atoms); ci.upto++ {
		if ci.upto&4095 == 4095 && g.ctx.Err() != nil {
			g.expired = true // checkBudget reports it
			return
		}
		h := valueHashSeed
		atom := rel.atoms[ci.upto]
		ok := true
		for _, pr := range ci.probes {
			t, found := g.part(atom, pr.path)
			if !found {
				ok = false
				break
			}
			v := int32(t)
			if pr.functor {
				tt := &g.ts.terms[t]
				v = functorKey(tt.sym, len(tt.args))
			}
			h = valueHash(h, v)
		}
		if ok {
			ci.m[h] = append(ci.m[h], int32(ci.upto))
		}
	}
}

// part returns the part of atom at path, if atom has one there.
func (g *grounder) part(atom termID, path []int) (termID, bool) {
	t := atom
	for _, i := range path {
		tt := &g.ts.terms[t]
		if i >= len(tt.args) {
			return 0, false
		}
		t = tt.args[i]
	}
	return t, true
}

// isPossible reports whether atom was derived.
func (g *grounder) isPossible(atom termID) bool {
	return int(atom) < len(g.possible) && g.possible[atom]
}
