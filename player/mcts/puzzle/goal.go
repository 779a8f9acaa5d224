package puzzle

import (
	"slices"
	"strconv"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// maxInline bounds the nesting of definitions GoalFacts follows.
const maxInline = 16

// GoalFacts reads in the rules of a single-player game the facts that a
// state must hold for the highest goal, when some rule for that goal asks
// for nothing else: a conjunction of ground (true F) literals and of
// ground relations each defined by a single rule of the same form. It
// returns nil when no rule has that form.
//
// Such a set of facts, once its step counters are set aside, can name a
// whole state: the target of the backward half of the puzzle search.
func GoalFacts(d *gdl.Description) []reasoner.Fact {
	if d == nil {
		return nil
	}
	type sig struct {
		name  string
		arity int
	}
	defs := map[sig][]*gdl.Rule{}
	var goals []*gdl.Rule
	best := -1
	for _, r := range d.Rules {
		if r == nil || r.Head == nil || r.Head.Name == nil {
			continue
		}
		h := r.Head
		defs[sig{h.Name.Name, len(h.Args)}] = append(defs[sig{h.Name.Name, len(h.Args)}], r)
		if h.Name.Name != gdl.KeyGoal || len(h.Args) != 2 {
			continue
		}
		c, ok := h.Args[1].(*gdl.Const)
		if !ok {
			continue
		}
		v, err := strconv.Atoi(c.Name)
		if err != nil {
			continue
		}
		switch {
		case v > best:
			best, goals = v, []*gdl.Rule{r}
		case v == best:
			goals = append(goals, r)
		}
	}
	var collect func(body []gdl.Literal, depth int, out []reasoner.Fact) ([]reasoner.Fact, bool)
	collect = func(body []gdl.Literal, depth int, out []reasoner.Fact) ([]reasoner.Fact, bool) {
		if depth > maxInline {
			return nil, false
		}
		for _, l := range body {
			s, ok := l.(*gdl.Sentence)
			if !ok || s.Name == nil || !groundTerms(s.Args) {
				return nil, false
			}
			if s.Name.Name == gdl.KeyTrue {
				if len(s.Args) != 1 {
					return nil, false
				}
				out = append(out, reasoner.Fact(gdl.Format(s.Args[0])))
				continue
			}
			if gdl.IsKeyword(s.Name.Name) {
				return nil, false
			}
			rs := defs[sig{s.Name.Name, len(s.Args)}]
			if len(rs) != 1 || !groundTerms(rs[0].Head.Args) || gdl.Format(rs[0].Head) != gdl.Format(s) {
				return nil, false
			}
			if out, ok = collect(rs[0].Body, depth+1, out); !ok {
				return nil, false
			}
		}
		return out, true
	}
	for _, r := range goals {
		if facts, ok := collect(r.Body, 0, nil); ok && len(facts) > 0 {
			return facts
		}
	}
	return nil
}

// groundTerms reports whether ts hold no variable and no missing term.
func groundTerms(ts []gdl.Term) bool {
	ground := true
	for _, t := range ts {
		if t == nil {
			return false
		}
		gdl.Inspect(t, func(n gdl.Node) bool {
			switch n := n.(type) {
			case *gdl.Var:
				ground = false
			case *gdl.Func:
				if slices.Contains(n.Args, nil) {
					ground = false
				}
			}
			return ground
		})
	}
	return ground
}
