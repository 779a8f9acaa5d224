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
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return b
}
