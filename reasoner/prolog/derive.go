package prolog

import (
	"context"
	"fmt"
	"slices"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
)

// Derived relations.
//
// A recursive relation that depends on the state, such as a line of
// pieces in reversi or a clear path in chess, is proved top-down by the
// interpreter one call at a time, and each call walks its chain again.
// When every rule of the relation's recursive component is flat but for
// its calls into the component, the component is evaluated here instead,
// bottom-up, once per state (per joint move when it depends on does): the
// rules run in the flat evaluator, semi-naively, reading the component's
// relations from the rows found so far, until a round adds no row. The
// relations are then tables of the state, which flat rules join with,
// ground tests look up and the interpreter calls through a native.
//
// Bottom-up evaluation ends when no head of the component builds a
// compound term: every value in a row is then a value found in the state,
// the joint move, a table or a lower relation, and there are finitely many
// rows. A component whose heads build terms stays with the interpreter.

// derivedSCC is a recursive component evaluated bottom-up.
type derivedSCC struct {
	id       int // index in game.derived and Reasoner.derived
	scc      int // the component's id in the program
	rels     []*derivedRel
	rules    []derivedRule
	usesDoes bool // rows depend on the joint move
}

// derivedRel is one relation of a derived component.
type derivedRel struct {
	scc    *derivedSCC
	index  int // in scc.rels
	sig    signature
	native engine.Atom // the interpreter's way in; 0 when over the arity limit
	depth  bool        // the interpreter passes a depth argument, ignored
}

// derivedRule is one rule of a derived component, as a flat relation of
// one rule with every argument free.
type derivedRule struct {
	head  int // index of the head's relation in scc.rels
	rel   *flatRelation
	calls int // literals of the body reading the component
	// needsRows is set when a step of the body, not inside a disjunction,
	// reads the component: the rule has no answer before it has rows.
	needsRows bool
}

// maxDerivedRows bounds the rows of one component in one state. A
// component is derived only if it has at most maxTrialRows rows in the
// initial state, and takes less than the table timeout to evaluate there:
// a bottom-up evaluation computes every row, where the interpreter proves
// only the calls made, which can be far fewer (chess asks whether a line
// is clear ignoring one given square, of 64).
const (
	maxDerivedRows = 1 << 18
	maxTrialRows   = 2048
)

// costlyDerived returns the components of g.derived, by component id, too
// costly to derive.
func (g *game) costlyDerived(ctx context.Context) (map[int]bool, error) {
	r, err := g.instance()
	if err != nil {
		return nil, err
	}
	if err := r.setState(g.initial); err != nil {
		return nil, err
	}
	banned := map[int]bool{}
	for _, d := range g.derived {
		tctx, cancel := context.WithTimeout(ctx, g.opts.TableTimeout)
		r.ctx = tctx
		err := r.derive(tctx, d, &r.derived[d.id], maxTrialRows)
		r.ctx = nil
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			banned[d.scc] = true
		}
	}
	return banned, nil
}

// derivedRel returns the derived relation s, compiling its component the
// first time, or false when s is not recursive, does not depend on the
// state, or its component cannot be derived. Components are keyed by
// their id, so that two components of the same shape stay apart.
func (c *compiler) derivedRel(s signature) (*derivedRel, bool) {
	if c.noFlat || c.tables == nil || !c.prog.recursive[s] || !c.prog.dynamic[s] || c.tabled[s] {
		return nil, false
	}
	id, ok := c.prog.scc[s]
	if !ok {
		return nil, false
	}
	d, seen := c.derivs[id]
	if !seen {
		c.derivs[id] = nil // being compiled: not derivable meanwhile
		d = c.deriveSCC(id)
		c.derivs[id] = d
		if d != nil {
			d.id = len(c.derived)
			c.derived = append(c.derived, d)
		}
	}
	if d == nil {
		return nil, false
	}
	for _, r := range d.rels {
		if r.sig == s {
			return r, true
		}
	}
	return nil, false
}

// deriveSCC compiles the component id, or returns nil when it cannot be
// derived.
func (c *compiler) deriveSCC(id int) *derivedSCC {
	var comp []signature
	for s, k := range c.prog.scc {
		if k == id {
			comp = append(comp, s)
		}
	}
	// Map order must not decide the relations' order.
	slices.SortFunc(comp, func(a, b signature) int {
		if a.name != b.name {
			if a.name < b.name {
				return -1
			}
			return 1
		}
		return a.arity - b.arity
	})
	d := &derivedSCC{scc: id}
	for i, s := range comp {
		if s.arity > maxModeArity {
			return nil
		}
		rel := &derivedRel{scc: d, index: i, sig: s, depth: c.takesDepth(s)}
		arity := s.arity
		if rel.depth {
			arity++
		}
		if arity <= maxNativeArity {
			rel.native = engine.NewAtom("derived:" + relationAtom(s.name))
		}
		d.rels = append(d.rels, rel)
		d.usesDoes = d.usesDoes || c.prog.usesDoes[s]
	}
	for i, s := range comp {
		for _, r := range c.prog.rules[s] {
			if buildsTerms(r.Head.Args) {
				return nil
			}
			tc := c.newTestCompiler(s)
			tc.derive = d
			fr, ok := c.flatRuleWith(tc, r, s, 0)
			if !ok {
				return nil
			}
			needs := false
			for _, st := range fr.steps {
				needs = needs || (st.kind == stepDerived && st.occ >= 0)
			}
			d.rules = append(d.rules, derivedRule{head: i, rel: &flatRelation{rules: []flatRule{fr}}, calls: tc.occ, needsRows: needs})
		}
	}
	return d
}

// buildsTerms reports whether some argument is a compound term.
func buildsTerms(args []gdl.Term) bool {
	for _, a := range args {
		if _, ok := a.(*gdl.Func); ok {
			return true
		}
	}
	return false
}

// inDerived reports whether the literal l calls a relation of the
// component tc's rule is being derived in.
func (tc *testCompiler) inDerived(l gdl.Literal) bool {
	s, ok := l.(*gdl.Sentence)
	if !ok || tc.derive == nil {
		return false
	}
	k, ok := tc.c.prog.scc[signature{s.Name.Name, len(s.Args)}]
	return ok && k == tc.derive.scc
}

// derivedStep returns the step reading the derived relation sig: from the
// rows found so far when the rule being compiled is of its component,
// else from its rows in the state.
func (tc *testCompiler) derivedStep(sig signature, args []gdl.Term) (flatStep, bool) {
	if tc.derive != nil && tc.c.prog.scc[sig] == tc.derive.scc {
		for _, r := range tc.derive.rels {
			if r.sig == sig {
				st := flatStep{kind: stepDerived, derived: r, occ: tc.occ, args: tc.templates(args)}
				tc.occ++
				return st, true
			}
		}
		return flatStep{}, false
	}
	r, ok := tc.c.derivedRel(sig)
	if !ok {
		return flatStep{}, false
	}
	return flatStep{kind: stepDerived, derived: r, occ: -1, args: tc.templates(args)}, true
}

// derivedState is the evaluation of one derived component in the current
// state: complete when done, else under way or not started.
type derivedState struct {
	done, busy bool
	rows       [][]row  // by relation, every row found
	full       []*table // by relation, indexing rows
	delta      []*table // by relation, the rows new in the last round
	seen       []rowSet // by relation
	fresh      [][]row  // by relation, the rows new in this round
	deltaAt    int      // occurrence reading delta in the rule run; -1: none
	total      int      // rows found
	arities    []int    // by relation
}

// resetDerived forgets the derived rows of the state, or only those that
// depend on the joint move.
func (r *Reasoner) resetDerived(movesOnly bool) {
	for i, d := range r.game.derived {
		if !movesOnly || d.usesDoes {
			r.derived[i].done = false
		}
	}
}

// derivedTable returns the table of the derived relation rel in the
// current state, evaluating its component first if need be.
func (r *Reasoner) derivedTable(ctx context.Context, rel *derivedRel) (*table, error) {
	ds := &r.derived[rel.scc.id]
	if !ds.done {
		if err := r.derive(ctx, rel.scc, ds, maxDerivedRows); err != nil {
			return nil, err
		}
	}
	return ds.full[rel.index], nil
}

// derive evaluates the component d in the current state into ds; finding
// more than limit rows is an error.
func (r *Reasoner) derive(ctx context.Context, d *derivedSCC, ds *derivedState, limit int) error {
	if ds.busy {
		return fmt.Errorf("derived relation %s called while being derived", d.rels[0].sig)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ds.busy = true
	defer func() { ds.busy = false }()
	n := len(d.rels)
	if ds.full == nil {
		ds.rows = make([][]row, n)
		ds.full = make([]*table, n)
		ds.delta = make([]*table, n)
		ds.seen = make([]rowSet, n)
		ds.fresh = make([][]row, n)
		ds.arities = make([]int, n)
		for i, rel := range d.rels {
			ds.full[i], ds.delta[i] = &table{}, &table{}
			ds.arities[i] = rel.sig.arity
		}
	}
	ds.total = 0
	for i := range d.rels {
		// Rows are handed out in tables; fresh slices keep earlier
		// states' tables, which nobody holds any more, out of the way.
		ds.rows[i] = nil
		ds.fresh[i] = nil
		ds.seen[i].reset()
		ds.full[i].fill(ds.arities[i], nil)
		ds.delta[i].fill(ds.arities[i], nil)
	}
	var err error
	collect := func(head int) func([]engine.Term) bool {
		return func(args []engine.Term) bool {
			if rw, ok := ds.seen[head].add(args); ok {
				ds.fresh[head] = append(ds.fresh[head], rw)
				ds.total++
				if ds.total > limit {
					err = fmt.Errorf("derived relation %s: more than %d rows in one state", d.rels[head].sig, limit)
					return true
				}
			}
			return false
		}
	}
	run := func(rule *derivedRule, deltaAt int) error {
		ds.deltaAt = deltaAt
		if e := r.solveFlat(ctx, rule.rel, collect(rule.head)); e != nil {
			return e
		}
		return err
	}
	// The first round runs every rule that can answer with no row of the
	// component yet: those that read it only in some alternatives of a
	// disjunction, if at all.
	for k := range d.rules {
		if !d.rules[k].needsRows {
			if e := run(&d.rules[k], -1); e != nil {
				return e
			}
		}
	}
	for {
		added := false
		for i := range d.rels {
			if len(ds.fresh[i]) > 0 {
				added = true
			}
			ds.rows[i] = append(ds.rows[i], ds.fresh[i]...)
			ds.full[i].fill(ds.arities[i], ds.rows[i])
			ds.delta[i].fill(ds.arities[i], ds.fresh[i])
			ds.fresh[i] = nil
		}
		if !added {
			break
		}
		for k := range d.rules {
			for j := 0; j < d.rules[k].calls; j++ {
				if e := run(&d.rules[k], j); e != nil {
					return e
				}
			}
		}
	}
	ds.done = true
	return nil
}

// rowSet is a set of ground rows, by hash.
type rowSet struct {
	m map[uint64][]row
}

func (s *rowSet) reset() {
	if s.m == nil {
		s.m = map[uint64][]row{}
	}
	clear(s.m)
}

// add adds a copy of rw when it is new, and returns the copy.
func (s *rowSet) add(rw []engine.Term) (row, bool) {
	h := rowSeed
	for _, t := range rw {
		h = hashTerm(h, t)
	}
	for _, x := range s.m[h] {
		if identicalRows(x, rw) {
			return nil, false
		}
	}
	c := row(slices.Clone(rw))
	s.m[h] = append(s.m[h], c)
	return c, true
}

func identicalRows(a, b []engine.Term) bool {
	for i := range a {
		if !identical(a[i], b[i], nil) {
			return false
		}
	}
	return true
}

// hashTerm mixes the ground term t into h.
func hashTerm(h uint64, t engine.Term) uint64 {
	switch t := t.(type) {
	case engine.Atom:
		return mixAtom(h, t)
	case engine.Compound:
		h = mixAtom(h, t.Functor())
		h = mixAtom(h, engine.Atom(t.Arity()))
		for i := range t.Arity() {
			h = hashTerm(h, t.Arg(i))
		}
		return h
	case engine.Integer:
		return mixAtom(h^0x9e3779b97f4a7c15, engine.Atom(t))
	}
	return mixAtom(h, 0)
}
