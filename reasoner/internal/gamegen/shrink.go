package gamegen

import (
	"slices"

	"github.com/ggp-go/ggp/gdl"
)

// maxShrinkTries bounds the candidates Shrink tries: each costs a run of
// fails, which may play whole games.
const maxShrinkTries = 2000

// Shrink returns a smaller valid game on which fails still reports true,
// given d on which it does: greedily, it drops whole rules, then literals
// of rule bodies, then disjuncts of disjunctions, keeping each change that
// leaves the game valid (see Valid) and failing, until no change does. d
// is not modified.
func Shrink(d *gdl.Description, fails func(*gdl.Description) bool) *gdl.Description {
	cur := &gdl.Description{Filename: d.Filename, Rules: slices.Clone(d.Rules)}
	tries := 0
	try := func(c *gdl.Description) bool {
		if tries >= maxShrinkTries || Valid(c) != nil {
			return false
		}
		tries++
		return fails(c)
	}
	for progress := true; progress && tries < maxShrinkTries; {
		progress = false
		// Whole rules, last first: later rules depend on earlier ones.
		for i := len(cur.Rules) - 1; i >= 0; i-- {
			c := &gdl.Description{Filename: cur.Filename, Rules: slices.Delete(slices.Clone(cur.Rules), i, i+1)}
			if try(c) {
				cur, progress = c, true
			}
		}
		for i := 0; i < len(cur.Rules); i++ {
			for _, r := range smallerRules(cur.Rules[i]) {
				rules := slices.Clone(cur.Rules)
				rules[i] = r
				c := &gdl.Description{Filename: cur.Filename, Rules: rules}
				if try(c) {
					cur, progress = c, true
					break // the rule changed: its other candidates are stale
				}
			}
		}
	}
	return cur
}

// smallerRules returns the rules made from r by dropping one literal of
// its body, or one disjunct of one of its disjunctions.
func smallerRules(r *gdl.Rule) []*gdl.Rule {
	var out []*gdl.Rule
	for j := range r.Body {
		if len(r.Body) > 1 {
			out = append(out, &gdl.Rule{Lparen: r.Lparen, Head: r.Head, Body: slices.Delete(slices.Clone(r.Body), j, j+1)})
		}
		or, ok := r.Body[j].(*gdl.Or)
		if !ok {
			continue
		}
		for k := range or.Disjuncts {
			ds := slices.Delete(slices.Clone(or.Disjuncts), k, k+1)
			var l gdl.Literal = &gdl.Or{Lparen: or.Lparen, Disjuncts: ds}
			if len(ds) == 1 {
				l = ds[0]
			}
			body := slices.Clone(r.Body)
			body[j] = l
			out = append(out, &gdl.Rule{Lparen: r.Lparen, Head: r.Head, Body: body})
		}
	}
	return out
}
