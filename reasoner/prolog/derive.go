package prolog

import (
	"context"
	"fmt"
	"math/bits"
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
	// inv marks the invariant arguments of a component of one relation:
	// each rule's head has a variable there that every call into the
	// component passes on unchanged. A call binding them needs only the
	// rows with those values, a partition evaluated with partRules, the
	// rules compiled with the invariant arguments bound.
	inv uint64
	// partOnly is set when all the rows are too many: only calls binding
	// some invariant arguments are answered here, by partition; the
	// interpreter proves the others. partRules holds the rules compiled
	// for each set of invariant arguments bound that a call site binds,
	// and masks those sets, most arguments first.
	partOnly  bool
	partRules map[uint64][]derivedRule
	masks     []uint64
	comp      []signature
}

// derivedRel is one relation of a derived component.
type derivedRel struct {
	scc    *derivedSCC
	index  int // in scc.rels
	sig    signature
	native engine.Atom // the interpreter's way in; 0 when over the arity limit
	// fallback proves, in the interpreter, the native's calls that leave
	// an invariant argument free when the component is partOnly.
	fallback engine.Atom
	depth    bool // the interpreter passes a depth argument, ignored
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

// initialInstance returns an instance of g holding its initial state,
// for trying derivations at load time.
func (g *game) initialInstance() (*Reasoner, error) {
	r, err := g.instance()
	if err != nil {
		return nil, err
	}
	if err := r.setState(g.initial); err != nil {
		return nil, err
	}
	return r, nil
}

// trialDerive derives dv with rules and limit, bounded by the table
// timeout.
func (r *Reasoner) trialDerive(ctx context.Context, d *derivedSCC, dv *derivation, rules []derivedRule, limit int) error {
	tctx, cancel := context.WithTimeout(ctx, r.game.opts.TableTimeout)
	defer cancel()
	r.ctx = tctx
	defer func() { r.ctx = nil }()
	return r.derive(tctx, d, &r.derived[d.id], dv, rules, limit)
}

// costlyDerived returns the components of g.derived, by component id,
// too costly to derive (banned), and those to derive only by partition.
func (g *game) costlyDerived(ctx context.Context) (banned, partOnly map[int]bool, err error) {
	r, err := g.initialInstance()
	if err != nil {
		return nil, nil, err
	}
	banned, partOnly = map[int]bool{}, map[int]bool{}
	trial := func(d *derivedSCC, dv *derivation, rules []derivedRule) error {
		return r.trialDerive(ctx, d, dv, rules, maxTrialRows)
	}
	for _, d := range g.derived {
		ds := &r.derived[d.id]
		err := trial(d, &ds.whole, d.rules)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if err == nil {
			continue
		}
		banned[d.scc] = true
		if d.inv == 0 {
			continue
		}
		// Try a partition, keyed by a row found before giving up.
		rows := ds.whole.fresh[0] // a component with invariants has one relation
		if len(rows) == 0 {
			rows = ds.whole.full[0].rows
		}
		if len(rows) == 0 {
			continue
		}
		var key []engine.Term
		for j, t := range rows[0] {
			if d.inv&(1<<j) != 0 {
				key = append(key, t)
			}
		}
		if trial(d, &derivation{mask: d.inv, key: key}, d.partRules[d.inv]) == nil {
			delete(banned, d.scc)
			partOnly[d.scc] = true
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
	}
	return banned, partOnly, nil
}

// maxPartitionRows bounds the rows of a partition in the initial state:
// a partition is worth it when a call binding those arguments needs few
// rows. Bound from the wrong end, a partition holds far more rows than a
// top-down proof visits (amazons asks for the open paths from a given
// square in a given direction; the direction alone keys a partition of
// every path that way).
const maxPartitionRows = 128

// costlyPartitions returns, by component id, the partitions of g.derived
// with more than maxPartitionRows rows in the initial state, tried with
// the key of a row of the component found there.
func (g *game) costlyPartitions(ctx context.Context) (map[int]map[uint64]bool, error) {
	r, err := g.initialInstance()
	if err != nil {
		return nil, err
	}
	bad := map[int]map[uint64]bool{}
	try := func(d *derivedSCC, dv *derivation, rules []derivedRule, limit int) error {
		return r.trialDerive(ctx, d, dv, rules, limit)
	}
	for _, d := range g.derived {
		if len(d.masks) == 0 {
			continue
		}
		ds := &r.derived[d.id]
		_ = try(d, &ds.whole, d.rules, maxTrialRows) // only a sample is wanted
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rows := ds.whole.full[0].rows
		if len(rows) == 0 {
			rows = ds.whole.fresh[0]
		}
		if len(rows) == 0 {
			continue
		}
		for _, mask := range d.masks {
			var key []engine.Term
			for j, t := range rows[0] {
				if mask&(1<<j) != 0 {
					key = append(key, t)
				}
			}
			if try(d, &derivation{mask: mask, key: key}, d.partRules[mask], maxPartitionRows) != nil {
				if bad[d.scc] == nil {
					bad[d.scc] = map[uint64]bool{}
				}
				bad[d.scc][mask] = true
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return bad, nil
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
	// Recursion through compound terms, in a head or in a call of the
	// component, stays with the interpreter: the first may build terms
	// without end, and the second is how rules walk terms (or fail to,
	// when GDL's recursion restriction is broken, which the interpreter
	// reports at its depth limit).
	inComp := map[signature]bool{}
	for _, s := range comp {
		inComp[s] = true
	}
	for _, s := range comp {
		for _, r := range c.prog.rules[s] {
			if buildsTerms(r.Head.Args) || callsWithTerms(r.Body, inComp) {
				return nil
			}
		}
	}
	var ok bool
	if d.rules, ok = c.derivedRules(d, comp, 0); !ok {
		return nil
	}
	d.comp = comp
	if len(comp) == 1 {
		d.inv = invariantArgs(comp[0], c.prog.rules[comp[0]])
	}
	d.partRules = map[uint64][]derivedRule{}
	if d.inv != 0 && !c.partitioned(d, d.inv) {
		d.inv = 0
	}
	d.partOnly = c.partOnly[id] && d.inv != 0
	return d
}

// partitioned compiles the rules of d for partitions by the invariant
// arguments in mask, and reports whether they are flat.
func (c *compiler) partitioned(d *derivedSCC, mask uint64) bool {
	if _, ok := d.partRules[mask]; ok {
		return true
	}
	if c.badMasks[d.scc][mask] && mask != d.inv {
		return false
	}
	rules, ok := c.derivedRules(d, d.comp, mask)
	if !ok {
		return false
	}
	d.partRules[mask] = rules
	d.masks = append(d.masks, mask)
	slices.SortStableFunc(d.masks, func(a, b uint64) int { return bits.OnesCount64(b) - bits.OnesCount64(a) })
	return true
}

// derivedRules compiles the rules of the component d, whose relations
// are comp, for calls binding the arguments in mode.
func (c *compiler) derivedRules(d *derivedSCC, comp []signature, mode uint64) ([]derivedRule, bool) {
	var out []derivedRule
	for i, s := range comp {
		for _, r := range c.prog.rules[s] {
			tc := c.newTestCompiler(s)
			tc.derive = d
			c.bottomUp = true
			fr, ok := c.flatRuleWith(tc, r, s, mode)
			c.bottomUp = false
			if !ok {
				return nil, false
			}
			needs := false
			for _, st := range fr.steps {
				needs = needs || (st.kind == stepDerived && st.occ >= 0)
			}
			out = append(out, derivedRule{head: i, rel: &flatRelation{mode: mode, rules: []flatRule{fr}}, calls: tc.occ, needsRows: needs})
		}
	}
	return out, true
}

// invariantArgs returns the arguments of the recursive relation s that
// every rule passes on unchanged to its recursive calls: in each head a
// variable, found at the same place in each call of s in the body.
func invariantArgs(s signature, rules []*gdl.Rule) uint64 {
	var inv uint64
	for i := 0; i < s.arity && i < maxModeArity; i++ {
		inv |= 1 << i
	}
	for _, r := range rules {
		for i, a := range r.Head.Args {
			v, ok := a.(*gdl.Var)
			if !ok || v.Name == wildcard {
				inv &^= 1 << i
				continue
			}
			visitSentences(r.Body, func(l *gdl.Sentence) {
				if l.Name.Name != s.name || len(l.Args) != s.arity {
					return
				}
				if w, ok := l.Args[i].(*gdl.Var); !ok || w.Name != v.Name {
					inv &^= 1 << i
				}
			})
		}
	}
	return inv
}

// partitionKey returns the values of the arguments in mask of a call with
// the templates args instantiated by vals (resolved in env), appended to
// buf, or nil when some is not bound.
func partitionKey(mask uint64, args []template, vals []engine.Term, env *engine.Env, buf []engine.Term) []engine.Term {
	key := buf[:0]
	for i, a := range args {
		if mask&(1<<i) == 0 {
			continue
		}
		if !templateBound(a, vals) {
			return nil
		}
		t := resolveTemplate(a, vals, env)
		if t == nil {
			return nil
		}
		if _, free := t.(engine.Variable); free {
			return nil
		}
		key = append(key, t)
	}
	return key
}

// boundMask returns the invariant arguments of d among args that the
// variables in bound bind.
func boundMask(d *derivedSCC, args []gdl.Term, bound map[string]bool) uint64 {
	var mask uint64
	for i, a := range args {
		if d.inv&(1<<i) != 0 && allBound(termVars([]gdl.Term{a}, nil), bound) {
			mask |= 1 << i
		}
	}
	return mask
}

// templateBound reports whether every variable of a is bound in vals.
func templateBound(a template, vals []engine.Term) bool {
	switch {
	case a.wild:
		return false
	case a.slot >= 0:
		return vals[a.slot] != nil
	}
	for _, x := range a.args {
		if !templateBound(x, vals) {
			return false
		}
	}
	return true
}

// callsWithTerms reports whether a literal of body, looking inside not
// and or, calls a relation in set with a compound argument.
func callsWithTerms(body []gdl.Literal, set map[signature]bool) bool {
	found := false
	visitSentences(body, func(l *gdl.Sentence) {
		if set[signature{l.Name.Name, len(l.Args)}] && buildsTerms(l.Args) {
			found = true
		}
	})
	return found
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
func (tc *testCompiler) derivedStep(sig signature, args []gdl.Term, bound map[string]bool) (flatStep, bool) {
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
	// A call binding invariant arguments reads their partition, which
	// has fewer rows than the whole; planned for the arguments bound,
	// its rules tend to run faster too.
	mask := boundMask(r.scc, args, bound)
	if mask != 0 && !tc.c.partitioned(r.scc, mask) {
		mask = 0
	}
	if r.scc.partOnly && mask == 0 {
		return flatStep{}, false
	}
	return flatStep{kind: stepDerived, derived: r, occ: -1, mask: mask, args: tc.templates(args)}, true
}

// derivedState holds the derivations of one derived component in the
// current state: of all its rows, and of the partitions asked for.
type derivedState struct {
	whole derivation
	parts map[uint64][]*derivation // by hash of the key
	cur   *derivation              // under way
	// deltaAt is the read of the component, numbered in the rule, that
	// sees the rows new in the last round in the rule being run; -1:
	// none.
	deltaAt int
}

// derivation is the evaluation of a component, or of one partition of
// it, in the current state.
type derivation struct {
	done  bool
	mask  uint64        // the invariant arguments the partition binds; 0: whole
	key   []engine.Term // their values
	full  []*table      // by relation, every row found
	delta []*table      // by relation, the rows new in the last round
	seen  []rowSet      // by relation
	fresh [][]row       // by relation, the rows new in this round
	total int           // rows found
}

// resetDerived forgets the derived rows of the state, or only those that
// depend on the joint move.
func (r *Reasoner) resetDerived(movesOnly bool) {
	for i, d := range r.game.derived {
		if !movesOnly || d.usesDoes {
			ds := &r.derived[i]
			ds.whole.done = false
			clear(ds.parts)
		}
	}
}

// derivedTable returns the table of the derived relation rel in the
// current state, evaluating its component first if need be. key holds
// the values of the component's invariant arguments, when the caller
// knows them all: then only that partition is evaluated.
func (r *Reasoner) derivedTable(ctx context.Context, rel *derivedRel, mask uint64, key []engine.Term) (*table, error) {
	d := rel.scc
	ds := &r.derived[d.id]
	if d.partOnly && (mask == 0 || key == nil) {
		return nil, fmt.Errorf("derived relation %s called with its invariant arguments free", rel.sig)
	}
	if mask == 0 || key == nil {
		if !ds.whole.done {
			if err := r.derive(ctx, d, ds, &ds.whole, d.rules, maxDerivedRows); err != nil {
				return nil, err
			}
		}
		return ds.whole.full[rel.index], nil
	}
	h := mixAtom(rowSeed, engine.Atom(mask))
	for _, t := range key {
		h = hashTerm(h, t)
	}
	for _, dv := range ds.parts[h] {
		if dv.mask == mask && identicalRows(dv.key, key) {
			return dv.full[rel.index], nil
		}
	}
	dv := &derivation{mask: mask, key: slices.Clone(key)}
	if err := r.derive(ctx, d, ds, dv, d.partRules[mask], maxDerivedRows); err != nil {
		return nil, err
	}
	if ds.parts == nil {
		ds.parts = map[uint64][]*derivation{}
	}
	ds.parts[h] = append(ds.parts[h], dv)
	return dv.full[rel.index], nil
}

// derive evaluates the component d, or the partition dv.key of it, in the
// current state into dv with rules; finding more than limit rows is an
// error.
func (r *Reasoner) derive(ctx context.Context, d *derivedSCC, ds *derivedState, dv *derivation, rules []derivedRule, limit int) error {
	if ds.cur != nil {
		return fmt.Errorf("derived relation %s called while being derived", d.rels[0].sig)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ds.cur = dv
	defer func() { ds.cur = nil }()
	n := len(d.rels)
	if dv.full == nil {
		dv.full = make([]*table, n)
		dv.delta = make([]*table, n)
		dv.seen = make([]rowSet, n)
		dv.fresh = make([][]row, n)
		for i := range d.rels {
			dv.full[i], dv.delta[i] = &table{}, &table{}
		}
	}
	dv.total = 0
	for i, rel := range d.rels {
		// Rows are handed out in tables; fresh slices keep earlier
		// states' tables, which nobody holds any more, out of the way.
		dv.fresh[i] = nil
		dv.seen[i].reset()
		dv.full[i].reset(rel.sig.arity)
		dv.delta[i].reset(rel.sig.arity)
	}
	// A partition's rules take the key as their bound arguments.
	var args []template
	var vals []engine.Term
	if dv.mask != 0 {
		arity := d.rels[0].sig.arity
		args = make([]template, arity)
		vals = make([]engine.Term, arity)
		k := 0
		for i := range args {
			args[i] = template{slot: i}
			if dv.mask&(1<<i) != 0 {
				vals[i] = dv.key[k]
				k++
			}
		}
	}
	var err error
	// One closure for every rule run: head says which relation the rule
	// running derives.
	var head int
	collect := func(row []engine.Term) bool {
		if rw, ok := dv.seen[head].add(row); ok {
			dv.fresh[head] = append(dv.fresh[head], rw)
			dv.total++
			if dv.total > limit {
				err = fmt.Errorf("derived relation %s: more than %d rows in one state", d.rels[head].sig, limit)
				return true
			}
		}
		return false
	}
	run := func(rule *derivedRule, deltaAt int) error {
		ds.deltaAt = deltaAt
		head = rule.head
		if e := r.solveFlatWith(ctx, rule.rel, args, vals, collect); e != nil {
			return e
		}
		return err
	}
	// The first round runs every rule that can answer with no row of the
	// component yet: those that read it only in some alternatives of a
	// disjunction, if at all.
	for k := range rules {
		if !rules[k].needsRows {
			if e := run(&rules[k], -1); e != nil {
				return e
			}
		}
	}
	for {
		added := false
		for i, rel := range d.rels {
			if len(dv.fresh[i]) > 0 {
				added = true
			}
			dv.full[i].extend(dv.fresh[i])
			dv.delta[i].fill(rel.sig.arity, dv.fresh[i])
			dv.fresh[i] = nil
		}
		if !added {
			break
		}
		for k := range rules {
			for j := 0; j < rules[k].calls; j++ {
				if e := run(&rules[k], j); e != nil {
					return e
				}
			}
		}
	}
	dv.done = true
	return nil
}

// rowSet is a set of ground rows, by hash.
type rowSet struct {
	m map[uint64][]row
}

func (s *rowSet) reset() {
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
	if s.m == nil {
		s.m = map[uint64][]row{}
	}
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
