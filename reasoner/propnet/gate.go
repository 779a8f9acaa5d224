package propnet

import "slices"

// Legal moves gated by the turn. In a game that says whose turn it is with
// a fact per role and gives no phase networks, a move is legal when its
// role's turn fact holds and something else does: (legal red (move 3 4))
// is (true (control red)) and a gate of the board. The turn passes every
// step, and the fact flipping visits every such move of both roles, though
// none of them but the mover's is read. gateLegal takes the fact out of
// those moves' gates, and the machine masks the moves while the fact does
// not hold (legalWords): the turn passing visits none of them. Reversi
// spends 128 of its 832 visits a step on the turn otherwise.

// gateLegal returns the legal propositions of pr with, for each role, the
// moves whose gate is an AND of the same base of group and other inputs
// read instead as an AND of the other inputs; the base of each role (-1:
// none), as an index in pr.bases; and the moves gated, a bitset per role
// over its legal propositions. Only ANDs that nothing but their legal
// proposition reads are rewritten: one that other gates read stays, and
// rewriting it would compute it twice. It adds the new gates to g, which
// must have been optimised to repl; outputs are every output of g. gate
// is nil when no move is gated.
func (g *graph) gateLegal(keep []bool, repl []int32, pr *proto, group []int, outputs []int32) (legal [][]legalProp, gate []int32, gated [][]uint64) {
	readers := g.readCounts(keep, outputs, func(n int32) int32 { return repl[n] })
	legal = make([][]legalProp, len(pr.legal))
	gate = make([]int32, len(pr.legal))
	gated = make([][]uint64, len(pr.legal))
	any := false
	for r, ps := range pr.legal {
		legal[r] = slices.Clone(ps)
		gate[r] = -1
		// The role's base: the one of group that the most of its moves
		// read this way.
		count := make([]int, len(group))
		gateOf := func(p legalProp) int {
			a := repl[p.node]
			if g.kinds[a] != kAnd || int(a) >= len(readers) || readers[a] != 1 {
				return -1
			}
			for k, j := range group {
				if _, ok := slices.BinarySearch(g.ins[a], pr.bases[j]); ok {
					return k
				}
			}
			return -1
		}
		for _, p := range ps {
			if k := gateOf(p); k >= 0 {
				count[k]++
			}
		}
		best := 0
		for k := range count {
			if count[k] > count[best] {
				best = k
			}
		}
		if len(count) == 0 || count[best] == 0 {
			continue
		}
		base := pr.bases[group[best]]
		gate[r] = int32(group[best])
		gated[r] = make([]uint64, (len(ps)+63)/64)
		for i, p := range ps {
			if gateOf(p) != best {
				continue
			}
			a := repl[p.node]
			rest := slices.DeleteFunc(slices.Clone(g.ins[a]), func(n int32) bool { return n == base })
			n := nodeTrue
			switch len(rest) {
			case 0:
			case 1:
				n = rest[0]
			default:
				n = g.add(kAnd, rest...)
			}
			legal[r][i].node = n
			gated[r][i/64] |= 1 << (i % 64)
			any = true
		}
	}
	if !any {
		return pr.legal, nil, nil
	}
	return legal, gate, gated
}
