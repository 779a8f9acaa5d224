package propnet

import (
	"slices"
)

// complementInputs rewrites each OR that reads most of one role's inputs
// as the negation of an OR of the rest of them, and reports whether it
// changed anything. A role plays exactly one move at a time, so when the
// next state is computed exactly one of its inputs is true, and "one of
// the moves in S is played" is "none of the moves outside S is". Frame
// rules ground into such ORs: a fact stays unless one of the few moves
// that touch it is played, which grounds as an OR over every move that
// does not; each move then feeds an OR per fact, and setting it visits
// them all. Complemented, a move feeds only the ORs of the facts it
// touches.
//
// The rewrite is only sound where a joint move is set, so it is applied to
// the gates that no legal, terminal or goal proposition reads (query, as
// g.reaching returns for those outputs): their values are read after a
// joint move is set, as the next state. live and repl are those of
// optimise; roleInputs lists each role's input nodes.
func (g *graph) complementInputs(live, query []bool, repl []int32, roleInputs [][]int32) bool {
	roleOf := map[int32]int{}
	for r, ins := range roleInputs {
		for _, n := range ins {
			roleOf[n] = r
		}
	}
	// The complements made so far, by their inputs, so that ORs that
	// complement the same moves share one gate.
	made := map[string]int32{}
	complement := func(r int, of []int32) int32 {
		var rest []int32
		for _, n := range roleInputs[r] {
			if _, ok := slices.BinarySearch(of, n); !ok {
				rest = append(rest, n)
			}
		}
		switch len(rest) {
		case 0:
			return nodeTrue
		case 1:
			return g.add(kNot, rest[0])
		}
		key := string(int32Bytes(rest))
		if n, ok := made[key]; ok {
			return n
		}
		n := g.add(kNot, g.add(kOr, rest...))
		made[key] = n
		return n
	}
	changed := false
	byRole := make([][]int32, len(roleInputs))
	count := len(g.kinds)
	for n := range int32(count) {
		if !live[n] || query[n] || repl[n] != n || g.kinds[n] != kOr {
			continue
		}
		for r := range byRole {
			byRole[r] = byRole[r][:0]
		}
		var others []int32
		for _, i := range g.ins[n] {
			if r, ok := roleOf[i]; ok {
				byRole[r] = append(byRole[r], i)
			} else {
				others = append(others, i)
			}
		}
		rewrite := false
		for r, s := range byRole {
			// Worth it when the complement, and its OR, has fewer
			// links than the inputs it replaces.
			if len(s) > (len(roleInputs[r])+2)/2+1 {
				rewrite = true
			}
		}
		if !rewrite {
			continue
		}
		for r, s := range byRole {
			if len(s) > (len(roleInputs[r])+2)/2+1 {
				slices.Sort(s)
				others = append(others, complement(r, s))
			} else {
				others = append(others, s...)
			}
		}
		slices.Sort(others)
		g.ins[n] = slices.Compact(others)
		changed = true
	}
	return changed
}

// int32Bytes returns the bytes of s, as a map key.
func int32Bytes(s []int32) []byte {
	b := make([]byte, 0, 4*len(s))
	for _, v := range s {
		b = appendInt32(b, v)
	}
	return b
}

// appendInt32 appends the four bytes of v to b, for map keys.
func appendInt32(b []byte, v int32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// inputFunctions rewrites each gate that reads nothing but one role's
// inputs (and constants), where a gate outside query reads it, as the OR
// of the moves that make it true, or the negation of the OR of those that
// make it false, whichever is smaller; it reports whether it changed
// anything. With exactly one of a role's inputs true, such a gate is a
// function of the move played, whatever its shape: splitting rules
// grounds "the move played does not touch this cell" into ORs of ANDs of
// ORs of moves, which complementInputs does not see, and which every move
// visits. live, query, repl and roleInputs are as for complementInputs;
// roleInputs[r] must be sorted. Truth tables are bitsets over a role's
// inputs; a network whose tables would exceed maxTableWords is left alone.
func (g *graph) inputFunctions(live, query []bool, repl []int32, roleInputs [][]int32) bool {
	f := newMoveFunctions(g, roleInputs)
	changed := false
	for n := range int32(len(g.kinds)) {
		if !live[n] || query[n] || repl[n] != n || g.isLeaf(n) || f.roleOf(n) != roleNone {
			continue
		}
		for j, i := range g.ins[n] {
			if g.isLeaf(i) {
				continue
			}
			if r := f.roleOf(i); r >= 0 && r != roleConstant {
				if c := f.canonical(r, f.table[i]); c != i {
					g.ins[n][j] = c
					changed = true
				}
			}
		}
	}
	return changed
}

// maxTableWords bounds the words of inputFunctions' truth tables over a
// network.
const maxTableWords = 1 << 24

// The roles of inputFunctions' gates besides a role's index.
const (
	roleUnknown  = -3 // not evaluated yet
	roleVisiting = -2 // being evaluated: met again, a cycle
	roleNone     = -1 // reads other nodes than one role's inputs
	roleConstant = len32max
)

// len32max marks a constant in inputFunctions' roles.
const len32max = 1<<31 - 1

// moveFunctions holds what inputFunctions learns of a graph's gates,
// functions of the move played: which role's inputs alone each reads,
// their truth tables, and the gates it made for each table.
type moveFunctions struct {
	g          *graph
	roleInputs [][]int32
	// role[n]: the role whose inputs alone n reads, roleConstant for a
	// constant, roleNone otherwise, or roleUnknown not evaluated yet.
	role  []int32
	pos   map[int32][2]int32 // input -> role, position
	words []int              // words of a truth table, per role
	table map[int32][]uint64 // gate -> the inputs that make it true
	total int                // words in table
	made  map[string]int32   // role and truth table -> gate
}

func newMoveFunctions(g *graph, roleInputs [][]int32) *moveFunctions {
	f := &moveFunctions{
		g:          g,
		roleInputs: roleInputs,
		role:       make([]int32, len(g.kinds)),
		pos:        map[int32][2]int32{},
		words:      make([]int, len(roleInputs)),
		table:      map[int32][]uint64{},
		made:       map[string]int32{},
	}
	for i := range f.role {
		f.role[i] = roleUnknown
	}
	for r, ins := range roleInputs {
		for i, n := range ins {
			f.pos[n] = [2]int32{int32(r), int32(i)}
		}
		f.words[r] = (len(ins) + 63) / 64
	}
	return f
}

// roleOf returns the role whose inputs alone gate n reads, making its
// truth table, or roleNone; a constant gate is roleNone too, as optimise
// folds it away.
func (f *moveFunctions) roleOf(n int32) int32 {
	switch f.role[n] {
	case roleVisiting:
		return roleNone // a cycle
	case roleUnknown:
	default:
		return f.role[n]
	}
	f.role[n] = roleVisiting
	res := int32(roleNone)
	switch f.g.kinds[n] {
	case kTrue, kFalse:
		res = roleConstant
	case kInput:
		if p, ok := f.pos[n]; ok {
			res = p[0]
		}
	case kAnd, kOr, kNot:
		res = f.gateRole(n)
	}
	if res >= 0 && res != roleConstant {
		f.total += f.words[res]
		if f.total > maxTableWords {
			res = roleNone
		} else {
			f.table[n] = f.g.truthTable(n, int(res), f.roleInputs[res], f.pos, f.table)
		}
	}
	f.role[n] = res
	return res
}

// gateRole returns the one role whose inputs the inputs of gate n read,
// or roleNone.
func (f *moveFunctions) gateRole(n int32) int32 {
	res := int32(roleConstant)
	for _, i := range f.g.ins[n] {
		ri := f.roleOf(i)
		switch {
		case ri == roleNone:
			res = roleNone
		case ri == roleConstant:
		case res == roleConstant:
			res = ri
		case res != ri:
			res = roleNone
		}
		if res == roleNone {
			break
		}
	}
	if res == roleConstant {
		res = roleNone // folded away by optimise; not worth a table
	}
	return res
}

// canonical returns a gate of the truth table t over role r's inputs: the
// OR of the moves that make it true, or the negation of the OR of those
// that make it false, whichever is smaller; made once per table.
func (f *moveFunctions) canonical(r int32, t []uint64) int32 {
	key := string(int32Bytes([]int32{r})) + string(uint64Bytes(t))
	if n, ok := f.made[key]; ok {
		return n
	}
	g := f.g
	var on, off []int32
	for i, n := range f.roleInputs[r] {
		if t[i/64]&(1<<(i%64)) != 0 {
			on = append(on, n)
		} else {
			off = append(off, n)
		}
	}
	var n int32
	switch {
	case len(on) == 0:
		n = nodeFalse
	case len(off) == 0:
		n = nodeTrue
	case len(on) == 1:
		n = on[0]
	case len(off) == 1:
		n = g.add(kNot, off[0])
	case len(on) <= len(off):
		n = g.add(kOr, on...)
	default:
		n = g.add(kNot, g.add(kOr, off...))
	}
	f.made[key] = n
	return n
}

// truthTable returns the inputs of roleInputs (one role's) that make gate
// n true, as a bitset, from the tables of its inputs.
func (g *graph) truthTable(n int32, r int, roleInputs []int32, pos map[int32][2]int32, table map[int32][]uint64) []uint64 {
	words := (len(roleInputs) + 63) / 64
	all := make([]uint64, words)
	for i := range roleInputs {
		all[i/64] |= 1 << (i % 64)
	}
	of := func(i int32) []uint64 {
		switch g.kinds[i] {
		case kTrue:
			return all
		case kFalse:
			return make([]uint64, words)
		case kInput:
			t := make([]uint64, words)
			p := pos[i][1]
			t[p/64] |= 1 << (p % 64)
			return t
		}
		return table[i]
	}
	t := make([]uint64, words)
	switch g.kinds[n] {
	case kAnd:
		copy(t, all)
		for _, i := range g.ins[n] {
			for w, x := range of(i) {
				t[w] &= x
			}
		}
	case kOr:
		for _, i := range g.ins[n] {
			for w, x := range of(i) {
				t[w] |= x
			}
		}
	case kNot:
		for w, x := range of(g.ins[n][0]) {
			t[w] = all[w] &^ x
		}
	}
	return t
}

// uint64Bytes returns the bytes of s, as a map key.
func uint64Bytes(s []uint64) []byte {
	b := make([]byte, 0, 8*len(s))
	for _, v := range s {
		for k := 0; k < 64; k += 8 {
			b = append(b, byte(v>>k))
		}
	}
	return b
}
