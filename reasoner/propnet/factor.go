package propnet

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ggp-go/ggp/reasoner"
)

// Factors. Some games are several games played side by side: the
// simultaneous connect four is two boards, each a connect four of its own,
// joined only by the goals and the end of the game. A move then changes
// the facts of its own board only, and whether it is legal depends on
// them alone. Such a game's bases and moves fall into groups, its
// factors, found on the network that plays: a base joins the moves and
// bases its next value reads, and a move the bases its legality reads.
// The goals and terminal are left out, for they are what joins the
// boards. A search of one factor plays its moves only, with the other
// factors' facts held where they are, and branches over one board's
// moves instead of the product of every board's.

// maxFactorWork bounds the edges factors visits, so that finding them
// costs a large game no more than one pass over a network of that size.
const maxFactorWork = 1 << 24

// factors holds the factors of a network once found.
type factors struct {
	once sync.Once
	// moves[f][role] lists the numbers, in the numbering of Moves, of
	// role's moves in factor f; nil when the game has fewer than two
	// factors with moves.
	moves [][][]int32
	// keep[f] is a bitset over the bases: those a step of factor f
	// computes, its own and those of no factor (a step counter); the
	// others keep their value.
	keep [][]uint64
	// of[role][i] is the factor of role's move i, -1 for a move in none.
	of [][]int32
}

// Factors returns the game's factors: for each, per role, the numbers in
// the numbering of Moves of the moves in it, ascending. A move of one
// factor changes no base another factor's next values or legal moves
// read; a move that changes no base and whose legality reads none is in
// no factor. It returns nil when the game does not fall into two factors with
// moves, or was too large to tell within a bounded time. The first call
// finds them, for r and its forks; the caller must not modify the slices.
func (r *Reasoner) Factors() [][][]int32 {
	f := r.net.factors
	f.once.Do(func() { f.moves, f.keep, f.of = r.net.findFactors() })
	return f.moves
}

// findFactors finds the factors of net and the bases a step of each
// computes. Components are found by union over every edge read by a next
// or a legal proposition, a base's node joined with its next node and a
// legal proposition with its input and the turn fact it is gated on.
func (net *network) findFactors() (moves [][][]int32, keep [][]uint64, of [][]int32) {
	parent := make([]int32, len(net.thr))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int32) {
		if a, b = find(a), find(b); a != b {
			parent[a] = b
		}
	}
	// Walk back from every next and legal proposition; a gate without
	// inputs is a constant, which joins nothing.
	seen := make([]bool, len(net.thr))
	var stack []int32
	work := 0
	push := func(n int32) {
		if n >= 0 && !seen[n] {
			seen[n] = true
			stack = append(stack, n)
		}
	}
	for j, n := range net.next {
		push(n)
		if n >= 0 {
			union(net.bases[j], n)
		}
	}
	for role, ps := range net.legal {
		for i, p := range ps {
			push(p.node)
			if p.input >= 0 {
				union(p.node, p.input)
			}
			if net.legalGate != nil && net.legalGate[role] >= 0 && net.gated[role][i/64]&(1<<(i%64)) != 0 {
				union(p.node, net.bases[net.legalGate[role]])
			}
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, in := range net.insOf(n) {
			if work++; work > maxFactorWork {
				return nil, nil, nil
			}
			if len(net.insOf(in)) > 0 || net.leaf[in] {
				union(n, in)
			}
			push(in)
		}
	}
	// Number the components that hold moves and bases, in the order of
	// their first move. A move in a component without bases changes
	// nothing (a noop no rule reads) and is in no factor.
	hasBase := make(map[int32]bool, len(net.bases))
	for _, n := range net.bases {
		hasBase[find(n)] = true
	}
	factorOf := map[int32]int{}
	of = make([][]int32, len(net.roles))
	for role, ps := range net.legal {
		of[role] = make([]int32, len(ps))
		for i, p := range ps {
			c := find(p.node)
			if !hasBase[c] {
				of[role][i] = -1
				continue
			}
			f, ok := factorOf[c]
			if !ok {
				f = len(moves)
				factorOf[c] = f
				moves = append(moves, make([][]int32, len(net.roles)))
			}
			moves[f][role] = append(moves[f][role], int32(i))
			of[role][i] = int32(f)
		}
	}
	if len(moves) < 2 {
		return nil, nil, nil
	}
	words := (len(net.bases) + 63) / 64
	keep = make([][]uint64, len(moves))
	for f := range keep {
		keep[f] = make([]uint64, words)
	}
	for j, n := range net.bases {
		f, ok := factorOf[find(n)]
		for k := range keep {
			if !ok || k == f {
				keep[k][j/64] |= 1 << (j % 64)
			}
		}
	}
	return moves, keep, of
}

// NextInFactor returns the state after joint is played in s within
// factor f of Factors: the moves of f in joint are played, every other
// entry is ignored (its role plays nothing in f, which only f's own
// moves could change), and the bases of the other factors keep their
// values in s. The search of one factor steps with it.
func (r *Reasoner) NextInFactor(ctx context.Context, s *reasoner.State, f int, joint []reasoner.Move) (*reasoner.State, error) {
	fs := r.Factors()
	if f < 0 || f >= len(fs) {
		return nil, fmt.Errorf("next in factor: no factor %d", f)
	}
	if len(joint) != len(r.net.roles) {
		return nil, fmt.Errorf("next in factor: %d moves for %d roles", len(joint), len(r.net.roles))
	}
	words, err := r.stateWords(s)
	if err != nil {
		return nil, err
	}
	prev := slices.Clone(words)
	// The general network: a phase network assumes one legal move a
	// role, and a role outside f plays none.
	net, m := r.net, r.m
	loadQuery(net, m, prev)
	r.joint = r.joint[:0]
	for role, mv := range joint {
		i, ok := slices.BinarySearch(net.moves[role], mv)
		if !ok || net.factors.of[role][i] != int32(f) || net.legal[role][i].input < 0 {
			continue
		}
		r.joint = append(r.joint, net.legal[role][i].input)
	}
	m.setInputs(r.joint)
	out := make([]uint64, len(net.initial))
	m.nextState(out)
	keep := net.factors.keep[f]
	for i := range out {
		out[i] = out[i]&keep[i] | prev[i]&^keep[i]
	}
	return reasoner.NewEncodedState(net.enc, out), nil
}
