package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
)

// Material found from the rules (Config.Material). In a game of two roles
// where the fitted heuristic (heuristic.go) finds nothing, each role's
// pieces are looked for among the samples learning drew: the count of the
// facts of one relation with one value at one argument position
// ("(cellHolds 3 4 white)" counts under cellHolds/3=white), whose number
// correlates with the role's goal at least materialMinCorrelation, the
// two roles' counts being of the same relation and position. In
// breakthrough random games correlate each role's pawns with its goal
// about 0.15, too weakly for a fitted evaluation of states, yet who
// captures more is who wins between good players.
//
// Material is then a prior on the moves that change it, relative to the
// state they are played from, not an evaluation of states: the first time
// the tree grows below a state where one role moves and some move changes
// the balance, each move gets a few visits (materialWeight, fewer when the
// current state is already unbalanced, where position matters more) of a
// value displaced from the current state's mean towards a win by a
// capture and towards a loss by a loss of pieces, by the logistic of the
// change in the share of the pieces the mover holds, scaled by the pieces
// on the board: one piece moves it an eighth of the way, however many
// are left.

// Limits of the search for pieces.
const (
	materialMinCorrelation = 0.06 // of a role's pieces with its goal over random games
	materialMinPieces      = 3.0  // mean count a role's pieces need over the samples
	materialWeight         = 6.5  // visits of the prior where material is even
	materialMinWeight      = 2    // ... and at least, however unbalanced
	materialRefVisits      = 50   // visits of the current state at which its mean counts as much as an even 0.5
)

// material names each role's pieces: the count feature of their facts.
type material struct {
	keys    [2]string
	summary string
}

// findMaterial looks among l's samples for the pieces of each of two
// roles, named roles; nil, and why, when they are not found. A role's
// pieces are a count of facts that no sample holds more of than the
// state learning started from (pieces are captured, never placed, as
// they are in reversi or connect four), at least materialMinPieces on
// average: the count that is the role's own, unless it correlates with
// the role's goal clearly negatively; failing that, the count that
// correlates most with its goal, at least materialMinCorrelation. A count
// is a role's own when its value is the role's name ("cellHolds/3=white"
// for white) or when owners, from the moves of random games
// (learner.owners), gives it to the role ("cell/3=wp", the pawns only
// white's moves move). Of several, the one that correlates most counts.
func (l *learner) findMaterial(roles []string, owners map[int]int) (*material, string) {
	if l.roles != 2 || len(roles) != 2 || len(l.samples) < learnMinSamples {
		return nil, "material: not a game of two roles with samples"
	}
	idx := make([]int, len(l.samples))
	for i := range idx {
		idx[i] = i
	}
	var best [2]int
	var bestR [2]float64
	for role := range 2 {
		best[role] = -1
		y := func(i int) float64 { return l.samples[i].goals[role] }
		if variance(idx, y) == 0 {
			return nil, fmt.Sprintf("material: role %d's goal does not vary", role)
		}
		own := false
		for c, key := range l.keys {
			if !isCountKey(key) {
				continue
			}
			x := func(i int) float64 { return l.samples[i].x[c] }
			if mean(idx, x) < materialMinPieces || grows(idx, x, l.start[c]) {
				continue
			}
			_, val, _ := strings.Cut(key, "=")
			o, owned := owners[c]
			isOwn := strings.EqualFold(val, roles[role]) || owned && o == role
			r := correlation(idx, y, x)
			switch {
			case isOwn && r > -materialMinCorrelation && (!own || r > bestR[role]):
				best[role], bestR[role], own = c, r, true
			case !own && !isOwn && r >= materialMinCorrelation && r > bestR[role]:
				best[role], bestR[role] = c, r
			}
		}
		if best[role] < 0 {
			return nil, fmt.Sprintf("material: no count of facts of %s's own, nor one correlating %.2f with its goal", roles[role], materialMinCorrelation)
		}
	}
	k0, k1 := l.keys[best[0]], l.keys[best[1]]
	p0, _, _ := strings.Cut(k0, "=")
	p1, _, _ := strings.Cut(k1, "=")
	if k0 == k1 || p0 != p1 {
		return nil, fmt.Sprintf("material: the roles' best counts, %s and %s, are not pieces of one board", k0, k1)
	}
	m := &material{keys: [2]string{k0, k1}}
	m.summary = fmt.Sprintf("material: role 0's pieces %s (correlation %.2f), role 1's %s (%.2f)", k0, bestR[0], k1, bestR[1])
	return m, m.summary
}

// Limits of the random games that find who moves which pieces.
const (
	ownerSteps  = 2000 // steps played at most
	ownerMinAdd = 8    // a count's facts must appear this often by one role's moves to be its
	ownerShare  = 0.9  // ... and at least this share of the times they appear
)

// owners plays random games from st, step by step, and returns the
// columns of l, among the counts of facts, whose facts appear almost only
// when one role moves, with that role: the pieces a role moves are the
// facts its moves add on their new squares, as "(cell b 3 wp)" after
// white's pawn leaves a 2. A step counts where exactly one role has more
// than one legal move. It stops when ctx is done or after ownerSteps
// steps, with what it found so far.
func (l *learner) owners(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, rng *rand.Rand) map[int]int {
	if l.roles != 2 {
		return nil
	}
	added := map[int][2]int{}
	joint := make([]reasoner.Move, l.roles)
	var scratch []featureValue
	s := st
	for steps := 0; steps < ownerSteps && ctx.Err() == nil; steps++ {
		term, err := r.Terminal(ctx, s)
		if err != nil {
			break
		}
		if term {
			s = st
			continue
		}
		mover, movers := -1, 0
		for role := range l.roles {
			legal, err := r.Legal(ctx, s, role)
			if err != nil || len(legal) == 0 {
				return ownersOf(added)
			}
			joint[role] = legal[rng.IntN(len(legal))]
			if len(legal) > 1 {
				mover, movers = role, movers+1
			}
		}
		next, err := r.Next(ctx, s, joint)
		if err != nil {
			break
		}
		if movers == 1 {
			for _, f := range newFacts(s.Facts(), next.Facts()) {
				scratch = factFeatures(f, scratch[:0])
				for _, k := range scratch {
					c, ok := l.cols[k.key]
					if !ok || !isCountKey(k.key) {
						continue
					}
					n := added[c]
					n[mover]++
					added[c] = n
				}
			}
		}
		s = next
	}
	return ownersOf(added)
}

// ownersOf returns the role each column's facts appear by, where one
// role adds them often and almost alone.
func ownersOf(added map[int][2]int) map[int]int {
	owners := map[int]int{}
	for c, n := range added {
		for role := range 2 {
			if n[role] >= ownerMinAdd && float64(n[role]) >= ownerShare*float64(n[0]+n[1]) {
				owners[c] = role
			}
		}
	}
	return owners
}

// newFacts returns the facts of after, sorted, that before, sorted, lacks.
func newFacts(before, after []reasoner.Fact) []reasoner.Fact {
	var out []reasoner.Fact
	i := 0
	for _, f := range after {
		for i < len(before) && before[i] < f {
			i++
		}
		if i == len(before) || before[i] != f {
			out = append(out, f)
		}
	}
	return out
}

// grows reports whether some sample of idx counts more than start.
func grows(idx []int, x func(int) float64, start float64) bool {
	for _, i := range idx {
		if x(i) > start {
			return true
		}
	}
	return false
}

// isCountKey reports whether a feature key counts the facts of a relation
// with one value at one argument position ("cell/3=white"), not a whole
// relation, a pair of positions or a number.
func isCountKey(key string) bool {
	rel, val, ok := strings.Cut(key, "=")
	return ok && strings.Contains(rel, "/") && !strings.ContainsAny(key, "#") && !strings.Contains(val, "=")
}

// materialCache holds one worker's view of the material: the role, or -1,
// whose pieces each fact it has met is.
type materialCache struct {
	m     *material
	owner map[reasoner.Fact]int8
	keys  []featureValue
	// rootPieces are the pieces of the root of generation rootGen, once
	// counted.
	counted    bool
	rootGen    uint64
	rootPieces [2]float64
}

// count leaves in out the pieces of each role in st.
func (c *materialCache) count(st *reasoner.State, out *[2]float64) {
	out[0], out[1] = 0, 0
	for _, f := range st.Facts() {
		o, ok := c.owner[f]
		if !ok {
			o = -1
			c.keys = factFeatures(f, c.keys[:0])
			for _, k := range c.keys {
				switch k.key {
				case c.m.keys[0]:
					o = 0
				case c.m.keys[1]:
					o = 1
				}
			}
			if len(c.owner) < maxHeurCache {
				c.owner[f] = o
			}
		}
		if o >= 0 {
			out[o]++
		}
	}
}

// share returns the share of the pieces role holds beyond the other's,
// in [-1,1], and the pieces on the board.
func share(p [2]float64, role int) (float64, float64) {
	total := p[0] + p[1]
	if total == 0 {
		return 0, 0
	}
	return (p[role] - p[1-role]) / total, total
}

// materialValue returns the prior value for the mover of a move that
// changes the board's pieces from before to after, displaced from ref,
// the mover's mean in the state it is played from.
func materialValue(before, after [2]float64, mover int, ref float64) float64 {
	s0, _ := share(before, mover)
	s1, total := share(after, mover)
	h := 1 / (1 + math.Exp(-(total/4)*(s1-s0)))
	if h >= 0.5 {
		return ref + (1-ref)*(h-0.5)/0.5
	}
	return ref - ref*(0.5-h)/0.5
}

// materialVisits returns the visits the prior gives each move in a
// current state with pieces p: fewer the more one role is ahead.
func materialVisits(p [2]float64) float64 {
	total := p[0] + p[1]
	if total == 0 {
		return 0
	}
	avg := total / 2
	return math.Max(materialMinWeight, math.Floor(materialWeight-math.Abs(p[0]-avg)*48/avg))
}

// materialView returns the worker's view of the search's material, nil
// while there is none.
func (w *worker) materialView() *materialCache {
	if !w.material {
		return nil
	}
	m := w.s.material.Load()
	if m == nil {
		return nil
	}
	if w.mc == nil || w.mc.m != m {
		w.mc = &materialCache{m: m, owner: map[reasoner.Fact]int8{}}
	}
	return w.mc
}

// materialPriors gives the moves of n, whose next states' pieces are in
// w.pieces (terminal ones with their value already in w.priors), the
// visits of the material prior when some move changes the balance.
func (w *worker) materialPriors(n *node, mc *materialCache) {
	m := n.mover
	var before [2]float64
	mc.count(n.state, &before)
	changes := false
	for i, p := range w.pieces {
		if !w.terminal[i] && p != before {
			changes = true
			break
		}
	}
	if !changes {
		return
	}
	// The mean of the current state, trusted as its visits grow; its
	// pieces are counted once a root.
	root := w.view.root
	if !mc.counted || mc.rootGen != w.gen {
		mc.count(root.state, &mc.rootPieces)
		mc.counted, mc.rootGen = true, w.gen
	}
	visits := materialVisits(mc.rootPieces)
	var rn, rw float64
	off := int(root.off[m])
	for j := range root.moves[m] {
		rn += root.n[off+j].Load()
		rw += root.w[off+j].Load()
	}
	ref := 0.5
	if rn > 0 {
		k := rn / materialRefVisits
		ref = (rw/rn*k + 0.5) / (k + 1)
	}
	off = int(n.off[m])
	for i, p := range w.pieces {
		v := w.priors[i]
		if !w.terminal[i] {
			v = materialValue(before, p, m, ref)
		}
		n.n[off+i].Add(visits)
		n.w[off+i].Add(visits * v)
	}
}
