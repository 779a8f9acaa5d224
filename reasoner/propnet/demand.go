package propnet

import (
	"fmt"
	"slices"

	"github.com/ggp-go/ggp/gdl"
)

// Demand: grounding bottom-up derives every atom of every relation that the
// relaxation allows, even when the game only ever asks about a few of them.
// Chess's (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ignorex ?ignorey)
// has millions of relaxed atoms, but the legal rules ask only about the
// squares a move leaves and reaches; crisscross defines (count ?x ?y ?z ?w
// ?player ?n) over all quadruples of cells and asks about two. The magic
// sets rewriting (Bancilhon, Maier, Sagiv and Ullman, 1986) restricts each
// relation to the atoms its callers ask for: a rule of p called with some
// arguments bound gets a first literal (demand p ...) over those arguments,
// and each body literal that calls a relation q with arguments bound adds a
// rule deriving (demand q ...) from (demand p ...) and the literals before
// it. The demand literals filter the join; they are no condition of the
// game and no input of the network's gates, so the instances recorded are
// those of the original rules whose heads are asked for. Relations the
// game's queries read whole (legal, next, goal, terminal, init, role) and
// the state and moves (true, does) are derived whole, as before.

// adornment marks the arguments of a call that are bound: bit i for
// argument i (arguments past the 64th count as free).
type adornment uint64

// maxAdornments bounds the binding patterns a relation is derived for;
// past it the relation is derived whole, so that its rules are not copied
// once per caller.
const maxAdornments = 4

type demandKey struct {
	rel int
	ad  adornment
}

// demand rewrites g.rules so that relations are derived only as far as
// the game's queries ask for them.
func (g *grounder) demand() {
	byHead := make([][]*clause, len(g.rels))
	var relax []*clause
	for _, c := range g.rules {
		if c.relax {
			relax = append(relax, c)
			continue
		}
		byHead[c.head.rel] = append(byHead[c.head.rel], c)
	}
	// A relation is derived on demand when it depends on the state or the
	// moves, or is a static relation found too large to derive whole, and
	// no query reads it whole. Other static relations are derived whole:
	// they are usually small tables (succ, sum) whose atoms cost nothing
	// in the network, while the demand for them, from literals that bind
	// their arguments independently, can be their product.
	eligible := make([]bool, len(g.rels))
	g.demandable = make([]bool, len(g.rels))
	dynamic := g.dynamicRelations()
	var queries []int
	for r, rel := range g.rels {
		switch rel.name {
		case gdl.KeyLegal, gdl.KeyNext, gdl.KeyGoal, gdl.KeyTerminal, gdl.KeyInit, gdl.KeyRole, gdl.KeySees:
			queries = append(queries, r)
			continue
		case gdl.KeyTrue, gdl.KeyDoes:
			continue
		}
		if rel.arity == 0 {
			continue
		}
		for _, c := range byHead[r] {
			if len(c.body) > 0 {
				eligible[r] = true
			}
		}
		key := relKey{rel.name, rel.arity}
		flipped := g.flipped[key]
		switch {
		case eligible[r] && g.settled[key]:
			eligible[r] = false
		case eligible[r] && dynamic[r] && flipped:
			eligible[r] = false // its demand was too large
		case eligible[r] && !dynamic[r] && !flipped:
			eligible[r] = false
			g.demandable[r] = true
		}
	}
	g.demanded = eligible
	// A relation asked for whole by some caller, or with too many binding
	// patterns, is derived whole: the copies of its rules for each pattern
	// would derive parts of the same atoms again. Which relations those
	// are is only known once every caller's rules are rewritten, and
	// deriving one whole changes its own calls: rewrite until the set
	// stops growing.
	whole := make([]bool, len(g.rels))
	for {
		rules, grew := g.rewrite(byHead, queries, eligible, whole)
		if !grew {
			g.rules = append(rules, relax...)
			return
		}
	}
}

// rewrite returns the rules of the relations reachable from the queries,
// each copied once per binding pattern its callers use, with the rules
// deriving their demand, and whether it found another relation to derive
// whole.
func (g *grounder) rewrite(byHead [][]*clause, queries []int, eligible, whole []bool) ([]*clause, bool) {
	r := &demandRewriter{
		g: g, eligible: eligible, whole: whole,
		magic: map[demandKey]int{},
		ads:   make([][]adornment, len(g.rels)),
		seen:  map[demandKey]bool{},
	}
	for _, q := range queries {
		r.request(demandKey{q, 0})
	}
	for len(r.queue) > 0 {
		k := r.queue[0]
		r.queue = r.queue[1:]
		if k.ad != 0 && whole[k.rel] {
			r.request(demandKey{k.rel, 0})
			continue
		}
		if k.ad != 0 && !slices.Contains(r.ads[k.rel], k.ad) {
			r.ads[k.rel] = append(r.ads[k.rel], k.ad)
			if len(r.ads[k.rel]) > maxAdornments {
				whole[k.rel], r.grew = true, true
			}
		}
		var filter *literal
		if k.ad != 0 {
			filter = &literal{kind: litPos, rel: r.demandOf(k), filter: true}
		}
		for _, c := range byHead[k.rel] {
			r.rewriteClause(c, k.ad, filter)
		}
	}
	return r.out, r.grew
}

// A demandRewriter holds the state of one rewrite: the demands requested
// and their relations, and the rules made so far.
type demandRewriter struct {
	g        *grounder
	eligible []bool // relations a demand may restrict
	whole    []bool // relations derived whole, with no demand
	magic    map[demandKey]int
	ads      [][]adornment // each relation's binding patterns so far
	seen     map[demandKey]bool
	queue    []demandKey
	out      []*clause
	grew     bool // whether a relation was found to derive whole
}

// request queues the demand k, once.
func (r *demandRewriter) request(k demandKey) {
	if !r.seen[k] {
		r.seen[k] = true
		r.queue = append(r.queue, k)
	}
}

// demandOf returns the relation holding the demand k, made once.
func (r *demandRewriter) demandOf(k demandKey) int {
	m, ok := r.magic[k]
	if !ok {
		m = r.g.demandRelation(k)
		r.magic[k] = m
	}
	return m
}

// rewriteClause adds the rule c for the binding pattern ad, read only
// where its demand filter holds when it has one, and the rules deriving
// the demand of each call of its body, in the order sipsOrder binds them.
func (r *demandRewriter) rewriteClause(c *clause, ad adornment, filter *literal) {
	nc := c
	bound := make([]bool, c.nvars)
	var prefix []literal
	if filter != nil {
		f := *filter
		for a, p := range c.head.args {
			if a < 64 && ad&(1<<a) != 0 {
				f.args = append(f.args, p)
				collectVars(p, &f.vars)
			}
		}
		for _, v := range f.vars {
			bound[v] = true
		}
		nc = &clause{head: c.head, nvars: c.nvars, pos: c.pos, except: c.except}
		nc.body = append([]literal{f}, c.body...)
		prefix = append(prefix, f)
	}
	r.out = append(r.out, nc)
	taken := make([]bool, len(c.body))
	for _, i := range sipsOrder(c, bound, r.eligible) {
		l := &c.body[i]
		r.call(c, l, bound, prefix)
		prefix = append(prefix, *l)
		for _, v := range l.vars {
			bound[v] = true
		}
		for j, d := range c.body {
			if d.kind == litDistinct && !taken[j] && allBound(d.vars, bound) {
				taken[j] = true
				prefix = append(prefix, d)
			}
		}
	}
	for i := range c.body {
		if l := &c.body[i]; l.kind == litNeg {
			r.call(c, l, bound, prefix)
		}
	}
}

// call requests the demand of the call l in the rule c, with the
// variables bound before it, and adds the rule deriving that demand from
// the literals before it, prefix.
func (r *demandRewriter) call(c *clause, l *literal, bound []bool, prefix []literal) {
	if !r.eligible[l.rel] {
		r.request(demandKey{l.rel, 0})
		return
	}
	var ad adornment
	for a, p := range l.args {
		if a < 64 && patBound(p, bound) {
			ad |= 1 << a
		}
	}
	if ad == 0 || r.whole[l.rel] {
		r.request(demandKey{l.rel, 0})
		return
	}
	dk := demandKey{l.rel, ad}
	r.request(dk)
	head := literal{kind: litPos, rel: r.demandOf(dk)}
	for a, p := range l.args {
		if a < 64 && ad&(1<<a) != 0 {
			head.args = append(head.args, p)
			collectVars(p, &head.vars)
		}
	}
	r.out = append(r.out, &clause{head: head, body: slices.Clone(prefix), nvars: c.nvars, relax: true, pos: c.pos})
}

// demandRelation returns a new relation holding the demand k: the bound
// arguments of the calls of k.rel with binding pattern k.ad.
func (g *grounder) demandRelation(k demandKey) int {
	m := g.relation(fmt.Sprintf("demand %d", len(g.rels)), popcount(k.ad, g.rels[k.rel].arity))
	for len(g.demandOf) <= m {
		g.demandOf = append(g.demandOf, -1)
	}
	g.demandOf[m] = k.rel
	return m
}

// sipsOrder returns the positive literals of c in the order demand passes
// bindings through them: the witness of an except rule first (except.go),
// then at each step a literal with every argument bound, else one that
// reads a table, the state or the moves with some argument bound, else a
// derived relation with some argument bound and the fewest left free,
// else the first left.
func sipsOrder(c *clause, bound []bool, eligible []bool) []int {
	bound = slices.Clone(bound)
	var left, order []int
	for i, l := range c.body {
		if l.kind == litPos {
			left = append(left, i)
		}
	}
	for len(left) > 0 {
		best, bestScore := 0, -1
		for j, i := range left {
			l := &c.body[i]
			nb := 0
			for _, p := range l.args {
				if patBound(p, bound) {
					nb++
				}
			}
			var score int
			switch {
			case c.except == 1+l.rel:
				// The witness of an except rule first: T is asked for
				// with R bound, and D read whole (except.go).
				score = 5 << 16
			case nb == len(l.args):
				score = 4 << 16
			case nb > 0 && !eligible[l.rel]:
				score = 3<<16 + nb
			case nb > 0:
				// The fewest arguments left free: a call that leaves
				// free only what its own rules bind asks for less
				// than one binding more arguments of a larger
				// relation (chess's queen_threatens, asked with the
				// square a move leaves free, is derived for every
				// square).
				score = 2<<16 + (255-min(len(l.args)-nb, 255))<<8 + min(nb, 255)
			case !eligible[l.rel]:
				score = 1 << 16
			}
			if score > bestScore {
				best, bestScore = j, score
			}
		}
		i := left[best]
		order = append(order, i)
		left = slices.Delete(left, best, best+1)
		for _, v := range c.body[i].vars {
			bound[v] = true
		}
	}
	return order
}

// patBound reports whether p has no variable outside bound.
func patBound(p pat, bound []bool) bool {
	switch p.kind {
	case patVar:
		return bound[p.v]
	case patFunc:
		for _, a := range p.args {
			if !patBound(a, bound) {
				return false
			}
		}
	}
	return true
}

func allBound(vs []int, bound []bool) bool {
	for _, v := range vs {
		if !bound[v] {
			return false
		}
	}
	return true
}

func popcount(ad adornment, arity int) int {
	n := 0
	for a := range min(arity, 64) {
		if ad&(1<<a) != 0 {
			n++
		}
	}
	return n
}
