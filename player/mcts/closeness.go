package mcts

import (
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
)

// Goal-closeness features (heuristic.go): how near a state is to each
// role's best goal, read from the rules. A reasoner.GoalConditioner gives
// the conditions on a state under which a role reaches its best goal (in
// connect four, the 84 lines of four of a colour); a condition lacking one
// fact is a threat, lacking two half of one, unless a fact it needs is
// blocked: its place (the fact without its last argument, a cell) holds a
// value another role's conditions need (a black disc in a line of red's).
// For each role the features are the number of its open conditions lacking
// exactly one fact, exactly two, and the fewest any open one lacks. They
// are candidates like the others: the fit keeps them only where they
// predict the goals of random games. In random connect four, each role's
// open threats correlate 0.13 with its result, as much as any feature; the
// same count with blocked lines correlates 0.02.

// maxCloseConditions bounds the conditions read, over all roles.
const maxCloseConditions = 4096

// maxCloseBlocks bounds the pairs of a fact a condition needs and a fact
// of another role's at its place that the blocks are found among: each
// may add an entry, and their number is the product of the roles' facts at
// a place, which rules can make as large as the conditions allow.
const maxCloseBlocks = 1 << 22

// closeFeatures is the number of closeness features per role.
const closeFeatures = 3

var closeNames = [closeFeatures]string{"lack1", "lack2", "lackmin"}

// closeKey returns the feature key of role's closeness feature k.
func closeKey(role, k int) string { return fmt.Sprintf("goal#%d-%s", role, closeNames[k]) }

// closeness holds the goal conditions of every role, indexed by fact.
type closeness struct {
	roles int
	role  []int32 // per condition: its role
	most  []int32 // per role: the literals of its longest condition
	size  []int32 // per condition: its literals
	neg   []int32 // per condition: its negated literals
	// byFact lists, per fact, the conditions it appears in, each as
	// condition<<2 | litPos, litNeg or litBlock.
	byFact  map[reasoner.Fact][]int32
	summary string
}

// How a fact appears in a condition: as a fact it needs, one it needs to
// be false, or one that blocks a fact it needs (litBlock: the fact holds
// the same place, all its arguments but the last equal, with a value
// another role's conditions need, as a black disc a line of red's).
const (
	litPos   = 0
	litNeg   = 1
	litBlock = 2
)

// place returns a fact without its last argument, and whether it has one.
func place(f reasoner.Fact) (string, bool) {
	s := string(f)
	if !strings.HasSuffix(s, ")") {
		return "", false
	}
	i := strings.LastIndexByte(s, ' ')
	if i < 0 || strings.ContainsAny(s[i+1:len(s)-1], "()") {
		return "", false
	}
	return s[:i], true
}

// newCloseness reads the goal conditions of r's roles; nil when r gives
// none, or when finding the blocks would pass maxCloseBlocks.
func newCloseness(r reasoner.Reasoner) *closeness {
	gc, ok := r.(reasoner.GoalConditioner)
	if !ok {
		return nil
	}
	c := &closeness{roles: len(r.Roles()), byFact: map[reasoner.Fact][]int32{}}
	c.most = make([]int32, c.roles)
	var pos [][]reasoner.Condition // per role
	for role := range c.roles {
		conds, value, exact := gc.GoalConditions(role)
		if len(conds) > maxCloseConditions {
			conds = nil
		}
		if len(c.size)+len(conds) > maxCloseConditions {
			conds = nil
		}
		c.summary += fmt.Sprintf("; role %d: %d conditions of goal %d (exact %v)", role, len(conds), value, exact)
		for _, cd := range conds {
			i := int32(len(c.size))
			c.role = append(c.role, int32(role))
			c.size = append(c.size, int32(len(cd.Pos)+len(cd.Neg)))
			c.most[role] = max(c.most[role], c.size[i])
			c.neg = append(c.neg, int32(len(cd.Neg)))
			for _, f := range cd.Pos {
				c.byFact[f] = append(c.byFact[f], i<<2|litPos)
			}
			for _, f := range cd.Neg {
				c.byFact[f] = append(c.byFact[f], i<<2|litNeg)
			}
		}
		pos = append(pos, conds)
	}
	if len(c.size) == 0 {
		return nil
	}
	// The facts another role needs, by place.
	type need struct {
		f    reasoner.Fact
		role int32
	}
	byPlace := map[string][]need{}
	for role, conds := range pos {
		seen := map[reasoner.Fact]bool{}
		for _, cd := range conds {
			for _, f := range cd.Pos {
				if p, ok := place(f); ok && !seen[f] {
					seen[f] = true
					byPlace[p] = append(byPlace[p], need{f, int32(role)})
				}
			}
		}
	}
	i, pairs := int32(0), 0
	for role, conds := range pos {
		for _, cd := range conds {
			for _, f := range cd.Pos {
				p, _ := place(f)
				if pairs += len(byPlace[p]); pairs > maxCloseBlocks {
					return nil // too entangled to measure
				}
				for _, n := range byPlace[p] {
					if n.role != int32(role) && n.f != f {
						c.byFact[n.f] = append(c.byFact[n.f], i<<2|litBlock)
					}
				}
			}
			i++
		}
	}
	return c
}

// features leaves in out, closeFeatures per role, role by role, the
// closeness features of the state whose facts are facts; met is scratch
// space of one entry per condition.
func (c *closeness) features(facts []reasoner.Fact, met []int32, out []float64) {
	copy(met, c.neg) // a negated literal is met until its fact holds
	for _, f := range facts {
		for _, e := range c.byFact[f] {
			switch e & 3 {
			case litPos:
				met[e>>2]++
			case litNeg:
				met[e>>2]--
			case litBlock:
				met[e>>2] -= blocked
			}
		}
	}
	c.count(met, out)
}

// blocked is subtracted from the literals a condition meets for each fact
// blocking one it needs: a blocked condition is counted as lacking more
// than any.
const blocked = 1 << 16

// count turns the literals met per condition into the features.
func (c *closeness) count(met []int32, out []float64) {
	for role := range c.roles {
		out[role*closeFeatures] = 0
		out[role*closeFeatures+1] = 0
		out[role*closeFeatures+2] = -1
	}
	for i, m := range met {
		o := out[c.role[i]*closeFeatures:]
		lack := c.size[i] - m
		if lack >= blocked/2 {
			continue
		}
		switch lack {
		case 1:
			o[0]++
		case 2:
			o[1]++
		}
		if o[2] < 0 || float64(lack) < o[2] {
			o[2] = float64(lack)
		}
	}
	for role := range c.roles {
		if out[role*closeFeatures+2] < 0 {
			// Every condition blocked: farther than any open one.
			out[role*closeFeatures+2] = float64(c.most[role] + 1)
		}
	}
}
