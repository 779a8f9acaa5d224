package propnet

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/gdl/scc"
)

// Grounding instantiates every rule to the ground atoms that may arise in
// some reachable state. It computes a relaxed fixpoint: true holds of every
// fact that init or next may hold of, does of every move legal may allow,
// and negation is ignored, so the atoms found over-approximate those that
// can ever hold. Each rule instance found on the way is recorded, with its
// positive and negative ground literals; the network is built from them.
//
// Evaluation is semi-naive, component by component of the relation
// dependency graph in topological order, so a long chain of derivations (a
// step counter, a successor relation) costs one pass per new atom rather
// than one pass over everything per round.
//
// Before grounding, the rules are rewritten so that their instances follow
// the size of the ground game rather than the product of the domains:
// rules joining several dynamic literals are split by eliminating variables
// (split.go), and relations are derived only for the arguments their
// callers ask about (demand.go).

// relKey names a relation by its name and arity, across attempts.
type relKey struct {
	name  string
	arity int
}

// maxWholeStatic bounds the atoms of a static relation derived whole;
// past it grounding starts again with the relation derived on demand.
const maxWholeStatic = 1 << 18

// maxDemand bounds the atoms of a relation's demand: a demand is meant to
// be small, and one that is not is usually the product of arguments its
// callers bind independently, each call asking for every combination.
// Past it grounding starts again with the relation derived whole.
const maxDemand = 1 << 15

// maxAttempts bounds the attempts at grounding a game.
const maxAttempts = 8

var errTooLarge = errors.New("a relation's derivation must change")

// groundRules compiles and grounds d, as written when that fits small
// limits, else rewritten (split.go, demand.go). Rewritten, it starts again when a static
// relation derived whole, or the demand for a relation derived on demand,
// grows too large, with the way those relations are derived changed, at
// most maxAttempts times.
func groundRules(ctx context.Context, d *gdl.Description, limits Limits, mem *memoryBudget) (*grounder, error) {
	if limits.noDemand && limits.noSplit || limits.rewriteAlways {
		return groundRewritten(ctx, d, limits, mem)
	}
	// The rules as written first, within small limits: a game that grounds
	// so keeps the network it always had (the rewriting changes its shape,
	// and so its speed, both ways); a larger one is rewritten.
	plain := limits
	plain.noDemand, plain.noSplit = true, true
	plain.MaxTerms = min(plain.MaxTerms, plainMaxTerms)
	plain.MaxLinks = min(plain.MaxLinks, plainMaxLinks)
	gr, err := groundRewritten(ctx, d, plain, newMemoryBudget(limits.MaxMemory/2))
	if err == nil || !errors.Is(err, ErrBudget) || ctx.Err() != nil {
		return gr, err
	}
	gr = nil
	runtime.GC() // the failed attempt's garbage would count against mem
	return groundRewritten(ctx, d, limits, mem)
}

// plainMaxTerms and plainMaxLinks bound the attempt at grounding the rules
// as written, before they are rewritten.
const (
	plainMaxTerms = 1 << 20
	plainMaxLinks = 1 << 22
)

// groundRewritten grounds d with the rewriting limits asks for.
func groundRewritten(ctx context.Context, d *gdl.Description, limits Limits, mem *memoryBudget) (*grounder, error) {
	flipped, settled := map[relKey]bool{}, map[relKey]bool{}
	for attempt := 1; ; attempt++ {
		gr := &grounder{ctx: ctx, limits: limits, ts: newTermStore(), relIDs: map[[2]int32]int{}, mem: mem, flipped: flipped, settled: settled,
			noDemand: limits.noDemand, noSplit: limits.noSplit}
		if err := gr.compile(d); err != nil {
			return nil, err
		}
		err := gr.ground()
		if !errors.Is(err, errTooLarge) {
			return gr, err
		}
		if attempt == maxAttempts {
			return nil, fmt.Errorf("%w: relations still too large after %d attempts (%s/%d)", ErrBudget, attempt, gr.flip[0].name, gr.flip[0].arity)
		}
		// Every relation on its way past a bound changes now, rather
		// than one per attempt.
		for r, rel := range gr.rels {
			if q := gr.demandFor(r); q >= 0 && len(rel.atoms) >= maxDemand/2 {
				gr.flip = append(gr.flip, relKey{gr.rels[q].name, gr.rels[q].arity})
			} else if gr.wholeStatic(r) && len(rel.atoms) >= maxWholeStatic/2 {
				gr.flip = append(gr.flip, relKey{rel.name, rel.arity})
			}
		}
		for _, k := range gr.flip {
			if flipped[k] {
				// Too large both ways: derived whole, for good.
				settled[k] = true
			}
			flipped[k] = true
		}
	}
}

// demandFor returns the relation whose demand relation r is, or -1.
func (g *grounder) demandFor(r int) int {
	if r < len(g.demandOf) {
		return g.demandOf[r]
	}
	return -1
}

// wholeStatic reports whether relation r is static and derived whole,
// though it could be derived on demand.
func (g *grounder) wholeStatic(r int) bool {
	return r < len(g.demandable) && !g.demanded[r] && g.demandable[r]
}

// ErrBudget is wrapped by every error that reports a game too large to
// ground within its limits.
var ErrBudget = errors.New("grounding budget exceeded")

// patKind tells how a pattern matches a ground term.
type patKind uint8

const (
	patGround patKind = iota // a ground term, compared by id
	patVar                   // a variable slot
	patFunc                  // a function with some variable inside
)

type pat struct {
	kind patKind
	id   termID // patGround
	v    int    // patVar
	sym  int32  // patFunc
	args []pat  // patFunc
}

type litKind uint8

const (
	litPos litKind = iota
	litNeg
	litDistinct
)

// literal is one condition of a clause's body, or its head.
type literal struct {
	kind litKind
	rel  int   // relation index, litPos and litNeg
	args []pat // the atom's arguments, litPos and litNeg
	x, y pat   // litDistinct
	vars []int // the variables occurring
	// filter marks a positive literal that restricts the join without
	// being a condition of the rule: a demand (demand.go).
	filter bool
}

// clause is a rule with its disjunctions expanded.
type clause struct {
	head  literal
	body  []literal
	nvars int
	// relax marks the clauses that only widen the relaxation (true from
	// init and next, does from legal) and are no gate of the network.
	relax bool
	pos   gdl.Pos
}

// relation holds the atoms of one relation found so far, in the order
// found, indexed by each argument and the parts of arguments: (true (cell
// ?x ?y b)) looks up the facts whose argument is a cell whose third
// argument is b.
type relation struct {
	sym     int32
	arity   int
	name    string
	atoms   []termID
	indexes map[string]*compIndex // by the parts bound
}

// Limits bound grounding.
type Limits struct {
	// MaxMemory bounds the growth of the heap while a game is grounded
	// and its network built, in bytes: the process's heap, so another
	// goroutine's allocations count too. Default 768 MiB, which keeps the
	// process under 1 GiB with the garbage not yet collected.
	MaxMemory int64
	// MaxTerms bounds the ground terms and atoms interned. Default 2^22.
	MaxTerms int
	// MaxLinks bounds the literals of all rule instances together: the
	// size of the network before optimisation. Default 2^24.
	MaxLinks int
	// MaxDepth bounds the nesting of a ground term. Default 64.
	MaxDepth int

	// noDemand and noSplit turn off deriving relations on demand
	// (demand.go) and splitting rules (split.go), for tests;
	// rewriteAlways rewrites the rules even of a game that grounds as
	// written.
	noDemand, noSplit, rewriteAlways bool
}

func (l Limits) withDefaults() Limits {
	if l.MaxTerms <= 0 {
		l.MaxTerms = 1 << 22
	}
	if l.MaxLinks <= 0 {
		l.MaxLinks = 1 << 24
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 64
	}
	if l.MaxMemory <= 0 {
		l.MaxMemory = 768 << 20
	}
	return l
}

type grounder struct {
	ctx    context.Context
	limits Limits
	ts     *termStore
	rels   []*relation
	relIDs map[[2]int32]int // (symbol, arity) -> index
	rules  []*clause

	possible []bool // by termID: the atom is derived
	valBuf   []int32
	pathBuf  []int
	keyBuf   []byte
	plans    map[planKey]*cachedPlan
	stats    map[statKey]*pathStats
	inComp   []bool // by relation: in the component being evaluated
	expired  bool   // an index or statistics build saw the deadline pass
	// certain marks the relations whose derived atoms all hold: they
	// depend on no true, does or negation, so the relaxation is exact.
	// Their atoms are the constant true in the network, left out of
	// instances.
	certain []bool
	mem     *memoryBudget
	// noDemand derives every relation whole, as far as the relaxation
	// allows, instead of as far as the queries ask (demand.go).
	noDemand bool
	// noSplit leaves the rules as written (split.go).
	noSplit bool
	// flipped names the relations a previous attempt found too large to
	// derive as first chosen: static relations derived on demand rather
	// than whole, dynamic ones whole rather than on demand. flip lists
	// those this attempt found.
	flipped map[relKey]bool
	flip    []relKey
	// settled names the relations too large both ways: derived whole.
	settled map[relKey]bool
	// demandOf holds, for each demand relation, the relation it asks for;
	// -1 for the others.
	demandOf []int
	// demanded marks the relations derived on demand, demandable the
	// static ones that could be.
	demanded, demandable []bool
	// instances holds every rule instance recorded, flat: head, the
	// number of positive and of negative literals, then their atoms.
	instances []termID
	ninst     int
	links     int
	steps     int

	// join state
	env    []termID // variable bindings, -1 unbound
	trail  []int
	ranges [][2]int // per body literal: the range of atoms it joins
	posOf  []termID // per body literal: the atom it matched
}

// isState reports whether r is true or does: the state or the moves.
func (r *relation) isState() bool {
	return (r.name == gdl.KeyTrue && r.arity == 1) || (r.name == gdl.KeyDoes && r.arity == 2)
}

func (g *grounder) relation(name string, arity int) int {
	sym := g.ts.symbol(name)
	k := [2]int32{sym, int32(arity)}
	if i, ok := g.relIDs[k]; ok {
		return i
	}
	r := &relation{sym: sym, arity: arity, name: name, indexes: map[string]*compIndex{}}
	g.rels = append(g.rels, r)
	g.relIDs[k] = len(g.rels) - 1
	return len(g.rels) - 1
}

// maxExpansion bounds the clauses one rule's disjunctions expand into.
const maxExpansion = 4096

// compile turns the rules of d into clauses.
func (g *grounder) compile(d *gdl.Description) error {
	for _, r := range d.Rules {
		if r.Head == nil || r.Head.Name == nil {
			return fmt.Errorf("%s: rule without a head", r.Pos())
		}
		switch r.Head.Name.Name {
		case gdl.KeyTrue, gdl.KeyDoes:
			return fmt.Errorf("%s: a rule defines %s", r.Pos(), r.Head.Name.Name)
		}
		alts := [][]gdl.Literal{nil}
		for _, l := range r.Body {
			ls, err := expand(l, false)
			if err != nil {
				return fmt.Errorf("%s: %w", l.Pos(), err)
			}
			var next [][]gdl.Literal
			for _, a := range alts {
				for _, b := range ls {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			if len(next) > maxExpansion {
				return fmt.Errorf("%s: %w: disjunctions expand into more than %d rules", r.Pos(), ErrBudget, maxExpansion)
			}
			alts = next
		}
		for _, body := range alts {
			c, err := g.clause(r.Head, body)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Pos(), err)
			}
			c.pos = r.Pos()
			g.rules = append(g.rules, c)
			g.project(c)
		}
	}
	if !g.noSplit {
		g.split()
	}
	// The relaxation: true of whatever init or next may hold of, does of
	// whatever legal may allow.
	x, rr, m := &gdl.Var{Name: "x"}, &gdl.Var{Name: "r"}, &gdl.Var{Name: "m"}
	sent := func(name string, args ...gdl.Term) *gdl.Sentence {
		return &gdl.Sentence{Name: &gdl.Const{Name: name}, Args: args}
	}
	for _, rc := range []struct {
		head *gdl.Sentence
		body *gdl.Sentence
	}{
		{sent(gdl.KeyTrue, x), sent(gdl.KeyInit, x)},
		{sent(gdl.KeyTrue, x), sent(gdl.KeyNext, x)},
		{sent(gdl.KeyDoes, rr, m), sent(gdl.KeyLegal, rr, m)},
	} {
		c, err := g.clause(rc.head, []gdl.Literal{rc.body})
		if err != nil {
			return err
		}
		c.relax = true
		g.rules = append(g.rules, c)
	}
	if !g.noDemand {
		g.demand()
	}
	return nil
}

// project replaces each positive literal of c that has variables used
// nowhere else in c by a literal of a new relation over its other
// variables, defined by one rule from the literal. The variables projected
// away no longer multiply c's instances: in (<= (next (cell ?x ?y ?m))
// (true (cell ?x ?y ?m)) (does blocker (mark ?xb ?yb ?x2 ?y2)) (does crosser
// (mark ?xc ?yc ?x3 ?y3)) ...) each move would otherwise pair with each
// other move whatever the ?x2 ?y2 ?x3 ?y3 that no other literal reads.
func (g *grounder) project(c *clause) {
	npos := 0
	for _, l := range c.body {
		if l.kind == litPos {
			npos++
		}
	}
	if npos < 2 {
		return
	}
	uses := make([]int, c.nvars)
	for _, p := range c.head.args {
		countVars(p, uses)
	}
	for _, l := range c.body {
		if l.kind == litDistinct {
			countVars(l.x, uses)
			countVars(l.y, uses)
		}
		for _, p := range l.args {
			countVars(p, uses)
		}
	}
	for i := range c.body {
		l := &c.body[i]
		if l.kind != litPos {
			continue
		}
		var keep []int
		single := false
		for _, v := range l.vars {
			if uses[v] == 1 {
				single = true
			} else {
				keep = append(keep, v)
			}
		}
		if !single {
			continue
		}
		// The new relation's name cannot be written in KIF, so it meets
		// no relation of the game.
		name := fmt.Sprintf("projection %d", len(g.rels))
		aux := literal{kind: litPos, rel: g.relation(name, len(keep)), vars: keep}
		for _, v := range keep {
			aux.args = append(aux.args, pat{kind: patVar, v: v})
		}
		g.rules = append(g.rules, &clause{head: aux, body: []literal{*l}, nvars: c.nvars, pos: c.pos})
		c.body[i] = aux
	}
}

func countVars(p pat, uses []int) {
	switch p.kind {
	case patVar:
		uses[p.v]++
	case patFunc:
		for _, a := range p.args {
			countVars(a, uses)
		}
	}
}

// expand returns a literal as alternatives of conjunctions of sentences,
// negated sentences and distincts: disjunctions are multiplied out and
// negations pushed inwards.
func expand(l gdl.Literal, negated bool) ([][]gdl.Literal, error) {
	switch l := l.(type) {
	case *gdl.Sentence:
		if negated {
			return [][]gdl.Literal{{&gdl.Not{Lparen: l.Lparen, Arg: l}}}, nil
		}
		return [][]gdl.Literal{{l}}, nil
	case *gdl.Distinct:
		if negated {
			return nil, errors.New("negated distinct is not supported")
		}
		return [][]gdl.Literal{{l}}, nil
	case *gdl.Not:
		return expand(l.Arg, !negated)
	case *gdl.Or:
		var out [][]gdl.Literal
		if negated {
			// not (a or b) = (not a) and (not b)
			out = [][]gdl.Literal{nil}
			for _, d := range l.Disjuncts {
				ds, err := expand(d, true)
				if err != nil {
					return nil, err
				}
				var next [][]gdl.Literal
				for _, a := range out {
					for _, b := range ds {
						next = append(next, append(slices.Clip(a), b...))
					}
				}
				out = next
				if len(out) > maxExpansion {
					return nil, fmt.Errorf("%w: disjunctions expand into more than %d rules", ErrBudget, maxExpansion)
				}
			}
			return out, nil
		}
		for _, d := range l.Disjuncts {
			ds, err := expand(d, false)
			if err != nil {
				return nil, err
			}
			out = append(out, ds...)
			if len(out) > maxExpansion {
				return nil, fmt.Errorf("%w: disjunctions expand into more than %d rules", ErrBudget, maxExpansion)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown literal %T", l)
}

// clause compiles one rule whose body holds only sentences, negated
// sentences and distincts.
func (g *grounder) clause(head *gdl.Sentence, body []gdl.Literal) (*clause, error) {
	vars := map[string]int{}
	c := &clause{}
	var err error
	if c.head, err = g.atomLiteral(litPos, head, vars); err != nil {
		return nil, err
	}
	for _, l := range body {
		var lit literal
		switch l := l.(type) {
		case *gdl.Sentence:
			lit, err = g.atomLiteral(litPos, l, vars)
		case *gdl.Not:
			lit, err = g.atomLiteral(litNeg, l.Arg.(*gdl.Sentence), vars)
		case *gdl.Distinct:
			lit.kind = litDistinct
			if lit.x, err = g.pattern(l.X, vars, 0); err == nil {
				lit.y, err = g.pattern(l.Y, vars, 0)
			}
			collectVars(lit.x, &lit.vars)
			collectVars(lit.y, &lit.vars)
		}
		if err != nil {
			return nil, err
		}
		c.body = append(c.body, lit)
	}
	c.nvars = len(vars)
	return c, nil
}

func (g *grounder) atomLiteral(kind litKind, s *gdl.Sentence, vars map[string]int) (literal, error) {
	if s == nil || s.Name == nil {
		return literal{}, errors.New("sentence without a name")
	}
	lit := literal{kind: kind, rel: g.relation(s.Name.Name, len(s.Args))}
	for _, a := range s.Args {
		p, err := g.pattern(a, vars, 1)
		if err != nil {
			return literal{}, err
		}
		lit.args = append(lit.args, p)
		collectVars(p, &lit.vars)
	}
	return lit, nil
}

func (g *grounder) pattern(t gdl.Term, vars map[string]int, depth int) (pat, error) {
	if depth > g.limits.MaxDepth {
		return pat{}, fmt.Errorf("%s: %w: term nested deeper than %d", t.Pos(), ErrBudget, g.limits.MaxDepth)
	}
	switch t := t.(type) {
	case *gdl.Const:
		return pat{kind: patGround, id: g.ts.intern(g.ts.symbol(t.Name), nil)}, nil
	case *gdl.Var:
		v, ok := vars[t.Name]
		if !ok {
			v = len(vars)
			vars[t.Name] = v
		}
		return pat{kind: patVar, v: v}, nil
	case *gdl.Func:
		p := pat{kind: patFunc, sym: g.ts.symbol(t.Name.Name)}
		ground := true
		for _, a := range t.Args {
			ap, err := g.pattern(a, vars, depth+1)
			if err != nil {
				return pat{}, err
			}
			ground = ground && ap.kind == patGround
			p.args = append(p.args, ap)
		}
		if ground {
			ids := make([]termID, len(p.args))
			for i, a := range p.args {
				ids[i] = a.id
			}
			return pat{kind: patGround, id: g.ts.intern(p.sym, ids)}, nil
		}
		return p, nil
	}
	return pat{}, fmt.Errorf("unknown term %T", t)
}

func collectVars(p pat, vs *[]int) {
	switch p.kind {
	case patVar:
		if !slices.Contains(*vs, p.v) {
			*vs = append(*vs, p.v)
		}
	case patFunc:
		for _, a := range p.args {
			collectVars(a, vs)
		}
	}
}

// needed returns the relations the game's queries depend on: legal, next,
// goal, terminal, init and role, and what they use.
func (g *grounder) needed() []bool {
	need := make([]bool, len(g.rels))
	byHead := make([][]*clause, len(g.rels))
	for _, c := range g.rules {
		byHead[c.head.rel] = append(byHead[c.head.rel], c)
	}
	var stack []int
	mark := func(r int) {
		if !need[r] {
			need[r] = true
			stack = append(stack, r)
		}
	}
	for i, r := range g.rels {
		switch r.name {
		case gdl.KeyLegal, gdl.KeyNext, gdl.KeyGoal, gdl.KeyTerminal, gdl.KeyInit, gdl.KeyRole, gdl.KeyTrue, gdl.KeyDoes:
			mark(i)
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range byHead[r] {
			for _, l := range c.body {
				if l.kind != litDistinct {
					mark(l.rel)
				}
			}
		}
	}
	return need
}

// certainRelations returns the relations that depend on no true, does or
// negation, however indirectly.
func (g *grounder) certainRelations() []bool {
	dynamic := make([]bool, len(g.rels))
	negated := make([]bool, len(g.rels))
	for i, r := range g.rels {
		dynamic[i] = (r.name == gdl.KeyTrue && r.arity == 1) || (r.name == gdl.KeyDoes && r.arity == 2)
	}
	for changed := true; changed; {
		changed = false
		for _, c := range g.rules {
			h := c.head.rel
			for _, l := range c.body {
				if l.kind == litDistinct || l.filter {
					continue
				}
				if dynamic[l.rel] && !dynamic[h] {
					dynamic[h], changed = true, true
				}
				if (l.kind == litNeg || negated[l.rel]) && !negated[h] {
					negated[h], changed = true, true
				}
			}
		}
	}
	certain := make([]bool, len(g.rels))
	for i := range certain {
		certain[i] = !dynamic[i] && !negated[i]
	}
	return certain
}

// isCertain reports whether atom belongs to a certain relation: if
// derived, it holds in every state.
func (g *grounder) isCertain(atom termID) bool {
	t := &g.ts.terms[atom]
	r, ok := g.relIDs[[2]int32{t.sym, int32(len(t.args))}]
	return ok && r < len(g.certain) && g.certain[r]
}

// components returns the strongly connected components of the needed
// relations' dependency graph (body to head), dependencies first.
func (g *grounder) components(need []bool) [][]int {
	// Edges run from a head to the relations its body uses, so that
	// components come dependencies first.
	uses := make([][]int, len(g.rels))
	for _, c := range g.rules {
		if !need[c.head.rel] {
			continue
		}
		for _, l := range c.body {
			if l.kind != litDistinct {
				uses[c.head.rel] = append(uses[c.head.rel], l.rel)
			}
		}
	}
	comp, count := scc.Components(len(g.rels), func(v int) []int { return uses[v] })
	comps := make([][]int, count)
	for v, c := range comp {
		if need[v] {
			comps[c] = append(comps[c], v)
		}
	}
	return slices.DeleteFunc(comps, func(c []int) bool { return len(c) == 0 })
}

// ground runs the relaxed fixpoint and records every rule instance.
func (g *grounder) ground() error {
	g.certain = g.certainRelations()
	need := g.needed()
	byHead := make([][]*clause, len(g.rels))
	for _, c := range g.rules {
		if need[c.head.rel] {
			byHead[c.head.rel] = append(byHead[c.head.rel], c)
		}
	}
	inComp := make([]bool, len(g.rels))
	g.inComp = inComp
	lo := make([]int, len(g.rels))
	hi := make([]int, len(g.rels))
	for _, comp := range g.components(need) {
		for _, r := range comp {
			inComp[r] = true
		}
		var clauses, recursive []*clause
		for _, r := range comp {
			for _, c := range byHead[r] {
				rec := false
				for _, l := range c.body {
					if l.kind == litPos && inComp[l.rel] {
						rec = true
					}
				}
				if rec {
					recursive = append(recursive, c)
				} else {
					clauses = append(clauses, c)
				}
			}
		}
		for _, c := range clauses {
			if err := g.join(c, -1, nil, nil); err != nil {
				return err
			}
		}
		for _, r := range comp {
			lo[r], hi[r] = 0, len(g.rels[r].atoms)
		}
		for len(recursive) > 0 {
			progress := false
			for _, r := range comp {
				if hi[r] > lo[r] {
					progress = true
				}
			}
			if !progress {
				break
			}
			for _, c := range recursive {
				for i, l := range c.body {
					if l.kind == litPos && inComp[l.rel] && hi[l.rel] > lo[l.rel] {
						if err := g.join(c, i, lo, hi); err != nil {
							return err
						}
					}
				}
			}
			for _, r := range comp {
				lo[r], hi[r] = hi[r], len(g.rels[r].atoms)
			}
		}
		for _, r := range comp {
			inComp[r] = false
		}
	}
	return nil
}

// join enumerates the instances of c. With delta >= 0, body literal delta
// ranges over the atoms in [lo, hi) of its relation, the literals before it
// of a relation of the same component over those before lo, the literals
// after it over those before hi: each instance is found in exactly one
// round. Relations of earlier components are complete and range over all.
func (g *grounder) join(c *clause, delta int, lo, hi []int) error {
	g.ranges = g.ranges[:0]
	for i, l := range c.body {
		r := [2]int{0, 0}
		if l.kind == litPos {
			r[1] = len(g.rels[l.rel].atoms)
			if delta >= 0 && g.inComp[l.rel] {
				switch {
				case i == delta:
					r = [2]int{lo[l.rel], hi[l.rel]}
				case i < delta:
					r[1] = lo[l.rel]
				default:
					r[1] = hi[l.rel]
				}
			}
		}
		g.ranges = append(g.ranges, r)
	}
	order, err := g.plan(c, delta)
	if err != nil {
		return err
	}
	if cap(g.env) < c.nvars {
		g.env = make([]termID, c.nvars)
	}
	g.env = g.env[:c.nvars]
	for i := range g.env {
		g.env[i] = -1
	}
	g.trail = g.trail[:0]
	if cap(g.posOf) < len(c.body) {
		g.posOf = make([]termID, len(c.body))
	}
	g.posOf = g.posOf[:len(c.body)]
	return g.step(c, order, 0)
}

// plan orders the body of c for a join: the positive literals in the order
// joinOrder finds cheapest, each distinct as soon as its variables are
// bound, negations last. It reports an unsafe rule: a variable of the head,
// a negation or a distinct that no positive literal binds.
func (g *grounder) plan(c *clause, delta int) ([]int, error) {
	var order []int
	bound := make([]bool, c.nvars)
	used := make([]bool, len(c.body))
	isBound := func(vs []int) bool {
		for _, v := range vs {
			if !bound[v] {
				return false
			}
		}
		return true
	}
	take := func(i int) {
		used[i] = true
		order = append(order, i)
		for _, v := range c.body[i].vars {
			bound[v] = true
		}
		for j, l := range c.body {
			if !used[j] && l.kind == litDistinct && isBound(l.vars) {
				used[j] = true
				order = append(order, j)
			}
		}
	}
	for j, l := range c.body {
		if l.kind == litDistinct && isBound(l.vars) && !used[j] {
			used[j] = true
			order = append(order, j)
		}
	}
	for _, i := range g.joinOrder(c, delta) {
		take(i)
	}
	for i, l := range c.body {
		if used[i] {
			continue
		}
		if !isBound(l.vars) {
			return nil, fmt.Errorf("%s: unsafe rule: a variable of %s is not bound by a positive literal", c.pos, kindName(l.kind))
		}
		order = append(order, i)
	}
	for _, v := range c.head.vars {
		if !bound[v] {
			return nil, fmt.Errorf("%s: unsafe rule: a variable of the head is not bound by a positive literal", c.pos)
		}
	}
	return order, nil
}

func kindName(k litKind) string {
	switch k {
	case litNeg:
		return "a negation"
	case litDistinct:
		return "a distinct"
	}
	return "a literal"
}

// checkBudget is called at every join step; it looks at the clock now and
// then.
func (g *grounder) checkBudget() error {
	g.steps++
	if g.steps&4095 == 0 || g.expired {
		if err := g.ctx.Err(); err != nil {
			return fmt.Errorf("%w: time limit reached after %d terms and %d rule instances (%v)", ErrBudget, len(g.ts.terms), g.ninst, err)
		}
	}
	if g.steps&65535 == 0 {
		if err := g.mem.check(); err != nil {
			return err
		}
	}
	if len(g.flip) > 0 {
		return errTooLarge
	}
	if len(g.ts.terms) > g.limits.MaxTerms {
		return fmt.Errorf("%w: more than %d ground terms", ErrBudget, g.limits.MaxTerms)
	}
	if g.links > g.limits.MaxLinks {
		return fmt.Errorf("%w: rule instances with more than %d literals", ErrBudget, g.limits.MaxLinks)
	}
	return nil
}

func (g *grounder) step(c *clause, order []int, k int) error {
	if err := g.checkBudget(); err != nil {
		return err
	}
	if k == len(order) {
		return g.emit(c)
	}
	i := order[k]
	l := &c.body[i]
	switch l.kind {
	case litDistinct:
		x, err := g.build(l.x)
		if err != nil {
			return err
		}
		y, err := g.build(l.y)
		if err != nil {
			return err
		}
		if x == y {
			return nil
		}
		return g.step(c, order, k+1)
	case litNeg:
		return g.step(c, order, k+1) // recorded by emit
	}
	rel := g.rels[l.rel]
	from, to := g.ranges[i][0], g.ranges[i][1]
	if from >= to {
		return nil
	}
	// Narrow the candidates by every bound part together.
	cands, indexed, ok := g.candidates(rel, l, from, to)
	if !ok {
		return nil // nothing matches
	}
	try := func(atom termID) error {
		mark := len(g.trail)
		args := g.ts.terms[atom].args
		ok := true
		for a, p := range l.args {
			if !g.match(p, args[a]) {
				ok = false
				break
			}
		}
		var err error
		if ok {
			g.posOf[i] = atom
			err = g.step(c, order, k+1)
		}
		g.undo(mark)
		return err
	}
	if indexed {
		for _, j := range cands {
			if err := try(rel.atoms[j]); err != nil {
				return err
			}
		}
		return nil
	}
	for j := from; j < to; j++ {
		if err := try(rel.atoms[j]); err != nil {
			return err
		}
	}
	return nil
}

func (g *grounder) undo(mark int) {
	for _, v := range g.trail[mark:] {
		g.env[v] = -1
	}
	g.trail = g.trail[:mark]
}

// match unifies pattern p with ground term t, binding variables.
func (g *grounder) match(p pat, t termID) bool {
	switch p.kind {
	case patGround:
		return p.id == t
	case patVar:
		if b := g.env[p.v]; b >= 0 {
			return b == t
		}
		g.env[p.v] = t
		g.trail = append(g.trail, p.v)
		return true
	}
	tt := &g.ts.terms[t]
	if tt.sym != p.sym || len(tt.args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !g.match(a, tt.args[i]) {
			return false
		}
	}
	return true
}

// resolve returns the term p denotes under the bindings: bound reports
// whether p has no unbound variable, ok whether that term exists.
func (g *grounder) resolve(p pat) (id termID, ok, bound bool) {
	switch p.kind {
	case patGround:
		return p.id, true, true
	case patVar:
		b := g.env[p.v]
		return b, b >= 0, b >= 0
	}
	var buf [8]termID
	args := buf[:0]
	for _, a := range p.args {
		id, ok, bound := g.resolve(a)
		if !bound {
			return 0, false, false
		}
		if !ok {
			return 0, false, true
		}
		args = append(args, id)
	}
	id, ok = g.ts.lookup(p.sym, args)
	return id, ok, true
}

// build returns the ground term p denotes under the bindings, interning it.
func (g *grounder) build(p pat) (termID, error) {
	switch p.kind {
	case patGround:
		return p.id, nil
	case patVar:
		return g.env[p.v], nil
	}
	return g.buildCompound(p.sym, p.args)
}

// buildAtom returns the ground atom of literal l under the bindings.
func (g *grounder) buildAtom(l *literal) (termID, error) {
	return g.buildCompound(g.rels[l.rel].sym, l.args)
}

// buildCompound returns the ground term sym(args...) under the bindings (a
// constant when there are no args), interning it.
func (g *grounder) buildCompound(sym int32, pats []pat) (termID, error) {
	var buf [8]termID
	args := buf[:0]
	for _, a := range pats {
		id, err := g.build(a)
		if err != nil {
			return 0, err
		}
		args = append(args, id)
	}
	id := g.ts.intern(sym, args)
	if int(g.ts.terms[id].depth) > g.limits.MaxDepth {
		return 0, fmt.Errorf("%w: a term nested deeper than %d (rules that build ever larger terms?)", ErrBudget, g.limits.MaxDepth)
	}
	return id, nil
}

// emit records the instance of c under the current bindings.
func (g *grounder) emit(c *clause) error {
	head, err := g.buildAtom(&c.head)
	if err != nil {
		return err
	}
	if !c.relax && !g.certain[c.head.rel] {
		start := len(g.instances)
		g.instances = append(g.instances, head, 0, 0)
		for i := range c.body {
			// A certain atom is true: the AND needs no input for it.
			if l := &c.body[i]; l.kind == litPos && !l.filter && !g.certain[l.rel] {
				g.instances = append(g.instances, g.posOf[i])
				g.instances[start+1]++
			}
		}
		for i := range c.body {
			if l := &c.body[i]; l.kind == litNeg {
				a, err := g.buildAtom(l)
				if err != nil {
					return err
				}
				if g.certain[l.rel] && !g.inComp[l.rel] {
					// Its relation is complete: the negation is false
					// when the atom was derived, true otherwise.
					if g.isPossible(a) {
						g.instances = g.instances[:start]
						g.add(c.head.rel, head)
						return nil
					}
					continue
				}
				g.instances = append(g.instances, a)
				g.instances[start+2]++
			}
		}
		g.ninst++
		g.links = len(g.instances)
	}
	g.add(c.head.rel, head)
	return nil
}

// add records atom as derivable in relation r.
func (g *grounder) add(r int, atom termID) {
	if int(atom) < len(g.possible) && g.possible[atom] {
		return
	}
	switch rel := g.rels[r]; len(rel.atoms) {
	case maxWholeStatic:
		if g.wholeStatic(r) {
			g.flip = append(g.flip, relKey{rel.name, rel.arity})
		}
	case maxDemand:
		if q := g.demandFor(r); q >= 0 {
			g.flip = append(g.flip, relKey{g.rels[q].name, g.rels[q].arity})
		}
	}
	for int(atom) >= len(g.possible) {
		g.possible = append(g.possible, false)
	}
	g.possible[atom] = true
	rel := g.rels[r]
	rel.atoms = append(rel.atoms, atom)
}

// A compIndex indexes a relation's atoms by the values of some of their
// parts together: the parts a literal has bound when the join reaches it,
// such as the cell of (true (cell ?x ?y ?p)) with ?x and ?y bound. Indexes
// are built when first asked for and extended as atoms are added.
type compIndex struct {
	probes []probe
	m      map[string][]int32 // encoded values -> positions in atoms
	upto   int                // atoms indexed so far
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
		ci = &compIndex{m: map[string][]int32{}, probes: decodeProbes(g.keyBuf)}
		rel.indexes[string(g.keyBuf)] = ci
	}
	g.extend(rel, ci)
	key := g.keyBuf[:0]
	for _, v := range g.valBuf {
		key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	g.keyBuf = key
	list := ci.m[string(key)]
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

func functorKey(sym int32, arity int) int32 { return -1 - (sym<<6 | int32(min(arity, 63))) }

// extend indexes the atoms of rel added since ci was last used.
func (g *grounder) extend(rel *relation, ci *compIndex) {
	var key []byte
	for ; ci.upto < len(rel.atoms); ci.upto++ {
		if ci.upto&4095 == 4095 && g.ctx.Err() != nil {
			g.expired = true // checkBudget reports it
			return
		}
		key = key[:0]
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
			key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		if ok {
			ci.m[string(key)] = append(ci.m[string(key)], int32(ci.upto))
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

// memoryBudget watches the heap's growth since grounding began.
type memoryBudget struct {
	start, limit uint64
	sample       []metrics.Sample
}

func newMemoryBudget(limit int64) *memoryBudget {
	m := &memoryBudget{limit: uint64(limit), sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	m.start = m.heap()
	return m
}

func (m *memoryBudget) heap() uint64 {
	metrics.Read(m.sample)
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// check reports an error when the heap has grown past the limit.
func (m *memoryBudget) check() error {
	if h := m.heap(); h > m.start && h-m.start > m.limit {
		return fmt.Errorf("%w: the heap grew by more than %d MiB", ErrBudget, m.limit>>20)
	}
	return nil
}
