package prolog

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Flat relations.
//
// Most of a game's time goes into legal and next, and in most games their
// rules are joins: a body of true and does literals, static tables, tests,
// disjunctions of those, and calls of other relations of that kind.
// Such a relation is evaluated here, in Go, by nested loops over the
// state's, the joint move's and the tables' indexed rows, binding the rule's
// variables in one slice. This skips the interpreter's per-call work (a
// procedure lookup, a continuation and a persistent binding per variable),
// which is most of the cost of so small a query. Any other relation is left
// to the engine, and a test inside a flat rule may still query the engine
// for a relation of a lower stratum.

// flatRelation is a relation whose every rule is flat, compiled for calls
// that bind the arguments in mode.
type flatRelation struct {
	mode  uint64
	rules []flatRule
	// id numbers the relations compiled for a game, for the answers of
	// tests kept per state (holdsMemo); usesDoes says they depend on the
	// joint move too.
	id       int
	usesDoes bool
}

// flatRule is one rule of a flat relation: its body in the planner's
// order, over variables numbered from 0.
type flatRule struct {
	vars  int
	head  []template
	steps []flatStep
}

type stepKind int

const (
	stepTrue    stepKind = iota // enumerate facts of the state, by true slot
	stepDoes                    // enumerate moves of the joint move, by does slot
	stepTable                   // enumerate rows of a static table
	stepTests                   // check ground tests
	stepCall                    // enumerate the answers of a flat relation
	stepOr                      // run each of several alternative steps
	stepDerived                 // enumerate rows of a derived relation
)

type flatStep struct {
	kind  stepKind
	slot  int           // stepTrue, stepDoes
	table *table        // stepTable
	args  []template    // stepTrue, stepTable; stepDoes: role first
	tests []test        // stepTests
	rel   *flatRelation // stepCall; args are the call's arguments
	alts  []flatStep    // stepOr
	// stepDerived: the relation, and which of the rule's reads of its
	// own component this is (-1 for a relation of a lower component).
	derived *derivedRel
	occ     int
	mask    uint64 // the invariant arguments giving the partition read; 0: all rows
}

// flatRelation returns s compiled as a flat relation for calls binding
// the arguments in mode, or false when some rule of s is not flat. Results
// are kept per version, and a relation is not flat while it is being
// compiled, which guards against cycles.
func (c *compiler) flatRelation(s signature, mode uint64) (*flatRelation, bool) {
	if c.noFlat {
		return nil, false
	}
	v := version{s, mode}
	if rel, ok := c.flats[v]; ok {
		return rel, rel != nil
	}
	c.flats[v] = nil
	rules := c.prog.rules[s]
	if len(rules) == 0 || c.tabled[s] || c.prog.recursive[s] {
		return nil, false
	}
	rel := &flatRelation{mode: mode, id: c.nextFlat, usesDoes: c.prog.usesDoes[s]}
	c.nextFlat++
	for _, r := range rules {
		fr, ok := c.flatRule(r, s, mode)
		if !ok {
			return nil, false
		}
		rel.rules = append(rel.rules, fr)
	}
	c.flats[v] = rel
	return rel, true
}

func (c *compiler) flatRule(r *gdl.Rule, s signature, mode uint64) (flatRule, bool) {
	// One test compiler for the whole rule, so that its variable slots
	// are the rule's variables.
	return c.flatRuleWith(c.newTestCompiler(s), r, s, mode)
}

// flatRuleWith compiles r with the test compiler tc, which is fresh.
func (c *compiler) flatRuleWith(tc *testCompiler, r *gdl.Rule, s signature, mode uint64) (flatRule, bool) {
	head := tc.templates(r.Head.Args)
	bound := modeBound(r.Head.Args, mode)
	var steps []flatStep
	lits := c.plan(r, s, maps.Clone(bound))
	for k, l := range lits {
		vs := literalVars(l, nil)
		if allBound(vs, bound) && !tc.inDerived(l) {
			t, ok := tc.compile(l)
			if !ok {
				return flatRule{}, false
			}
			if n := len(steps); n > 0 && steps[n-1].kind == stepTests {
				steps[n-1].tests = append(steps[n-1].tests, t)
			} else {
				steps = append(steps, flatStep{kind: stepTests, tests: []test{t}})
			}
			continue
		}
		st, ok := tc.generatorOrDisjunction(l, bound, laterVars(r, lits[k+1:]))
		if !ok {
			return flatRule{}, false
		}
		steps = append(steps, st)
		for _, v := range vs {
			bound[v] = true
		}
	}
	// A variable of the head that the body does not bind (an unsafe
	// rule) has no value to give.
	if !allBound(termVars(r.Head.Args, nil), bound) {
		return flatRule{}, false
	}
	return flatRule{vars: len(tc.vars), head: head, steps: steps}, true
}

// laterVars returns the variables of r's head and of the literals rest.
func laterVars(r *gdl.Rule, rest []gdl.Literal) map[string]bool {
	later := map[string]bool{}
	for _, v := range termVars(r.Head.Args, nil) {
		later[v] = true
	}
	for _, l := range rest {
		for _, v := range literalVars(l, nil) {
			later[v] = true
		}
	}
	return later
}

// generatorOrDisjunction returns the step enumerating the answers of l, a
// positive literal or a disjunction of them, given the variables bound. A
// disjunction is taken only when each of its disjuncts binds every variable
// the disjunction leaves free and the rest of the rule (in later) uses, as
// in (or (succ ?x ?u) (pred ?x ?u)), so that the steps after it find them
// bound whichever disjunct answered.
func (tc *testCompiler) generatorOrDisjunction(l gdl.Literal, bound, later map[string]bool) (flatStep, bool) {
	or, ok := l.(*gdl.Or)
	if !ok {
		return tc.generator(l, bound)
	}
	var free []string
	for _, v := range literalVars(or, nil) {
		if !bound[v] && later[v] {
			free = append(free, v)
		}
	}
	st := flatStep{kind: stepOr}
	for _, d := range or.Disjuncts {
		vs := literalVars(d, nil)
		for _, v := range free {
			if !slices.Contains(vs, v) {
				return flatStep{}, false
			}
		}
		alt, ok := tc.generator(d, bound)
		if !ok {
			return flatStep{}, false
		}
		st.alts = append(st.alts, alt)
	}
	return st, true
}

// generator returns the step enumerating the answers of the positive
// literal l given the variables bound, or false when l is not a true, does
// or table literal or a call of a flat relation.
func (tc *testCompiler) generator(l gdl.Literal, bound map[string]bool) (flatStep, bool) {
	s, ok := l.(*gdl.Sentence)
	if !ok {
		return flatStep{}, false
	}
	switch s.Name.Name {
	case gdl.KeyTrue, gdl.KeyDoes:
		slot, args, ok := tc.indexedFact(s)
		if !ok {
			return flatStep{}, false
		}
		kind := stepTrue
		if s.Name.Name == gdl.KeyDoes {
			kind = stepDoes
		}
		return flatStep{kind: kind, slot: slot, args: args}, true
	}
	sig := signature{s.Name.Name, len(s.Args)}
	if t, ok := tc.c.tables[sig]; ok {
		return flatStep{kind: stepTable, table: t, args: tc.templates(s.Args)}, true
	}
	if st, ok := tc.derivedStep(sig, s.Args, bound); ok {
		return st, true
	}
	if tc.c.prog.scc[sig] == tc.scc {
		return flatStep{}, false
	}
	rel, ok := tc.c.flatRelation(sig, tc.c.callMode(sig, s.Args, bound))
	if !ok {
		return flatStep{}, false
	}
	return flatStep{kind: stepCall, rel: rel, args: tc.templates(s.Args)}, true
}

// flatEval is the state of one evaluation of a flat relation.
type flatEval struct {
	r     *Reasoner
	ctx   context.Context
	trail []*engine.Term // variables bound, in order, for undoing
	// each receives the answers of the top-level rule; nil asks only
	// whether there is one, and found says.
	each  func(head []engine.Term) bool
	found bool
	head  []engine.Term
	steps int // rows tried, for checking the deadline now and then
	err   error
	key   []engine.Term // scratch for partition keys
	// skipped is the first limit error that ended one top-level rule; the
	// other rules still run, so that their answers are known.
	skipped error
}

// flatFrame is one rule being evaluated: the top-level query's, or that of
// a relation called by a step of the rule of caller.
type flatFrame struct {
	rule   *flatRule
	vals   []engine.Term // values of the rule's variables; nil: unbound
	caller *flatFrame
	call   *flatStep // the caller's step that called this rule
	next   int       // the caller's step to run after an answer
}

// solveFlat calls each with the arguments of every answer of rel, asked
// with every argument free, until it returns true. The arguments are valid
// only during the call.
func (r *Reasoner) solveFlat(ctx context.Context, rel *flatRelation, each func(head []engine.Term) bool) error {
	return r.solveFlatWith(ctx, rel, nil, nil, each)
}

// solveFlatWith is solveFlat for a call binding the arguments in rel's
// mode to the templates args instantiated by vals.
func (r *Reasoner) solveFlatWith(ctx context.Context, rel *flatRelation, args []template, vals []engine.Term, each func(head []engine.Term) bool) error {
	e := r.newEval(ctx, each)
	defer r.freeEval(e)
	e.enter(rel, args, vals, nil, nil, nil, 0)
	return cmp.Or(e.err, e.skipped)
}

// holdsFlat reports whether rel, called with the templates instantiated by
// vals as arguments, has an answer. It is a test inside a query under way,
// flat or not, so it has an evaluator of its own.
func (r *Reasoner) holdsFlat(rel *flatRelation, args []template, vals []engine.Term, env *engine.Env) (bool, error) {
	ctx := r.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	e := r.newEval(ctx, nil)
	defer r.freeEval(e)
	e.enter(rel, args, vals, env, nil, nil, 0)
	return e.found, e.err
}

// newEval returns an evaluator, reusing one freed earlier: evaluations
// nest (a test of a flat relation inside another's rule), and each needs
// its own.
func (r *Reasoner) newEval(ctx context.Context, each func([]engine.Term) bool) *flatEval {
	var e *flatEval
	if k := len(r.evals); k > 0 {
		e, r.evals = r.evals[k-1], r.evals[:k-1]
	} else {
		e = &flatEval{r: r}
	}
	*e = flatEval{r: r, ctx: ctx, each: each, trail: e.trail[:0], head: e.head[:0], key: e.key[:0]}
	return e
}

func (r *Reasoner) freeEval(e *flatEval) {
	e.ctx, e.each = nil, nil
	r.evals = append(r.evals, e)
}

// newFrame returns a frame for rule with every variable unbound, reusing
// one freed earlier.
func (r *Reasoner) newFrame(rule *flatRule, caller *flatFrame, call *flatStep, next int) *flatFrame {
	var f *flatFrame
	if k := len(r.frames); k > 0 {
		f, r.frames = r.frames[k-1], r.frames[:k-1]
	} else {
		f = &flatFrame{}
	}
	vals := f.vals[:0]
	if cap(vals) < rule.vars {
		vals = make([]engine.Term, rule.vars)
	} else {
		vals = vals[:rule.vars]
		clear(vals)
	}
	*f = flatFrame{rule: rule, vals: vals, caller: caller, call: call, next: next}
	return f
}

// freeFrame returns f for reuse; no binding on the trail may point into
// it.
func (r *Reasoner) freeFrame(f *flatFrame) {
	r.frames = append(r.frames, f)
}

// enter runs each rule of rel with the arguments in rel's mode bound to
// the templates args instantiated by vals (resolved in env), handing its
// answers on as answer does; caller, call and next say where they go. It
// reports whether to stop.
func (e *flatEval) enter(rel *flatRelation, args []template, vals []engine.Term, env *engine.Env, caller *flatFrame, call *flatStep, next int) bool {
	for k := range rel.rules {
		if e.tick() {
			return true
		}
		rule := &rel.rules[k]
		f := e.r.newFrame(rule, caller, call, next)
		mark := len(e.trail)
		ok := true
		for j, a := range args {
			if rel.mode&(1<<j) != 0 && !e.bind(f.vals, rule.head[j], resolveTemplate(a, vals, env)) {
				ok = false
				break
			}
		}
		stop := ok && e.step(f, 0)
		e.undo(mark)
		e.r.freeFrame(f)
		if stop && caller == nil && e.each != nil && isLimit(e.err) {
			// One rule of the query hit a limit: its answers are lost,
			// but the other rules' are still sound, and the query still
			// fails with the error once they are found.
			e.skipped = cmp.Or(e.skipped, e.err)
			e.err, stop = nil, false
		}
		if stop {
			return true
		}
	}
	return false
}

// isLimit reports whether err says that the rules went past one of the
// reasoner's depth limits.
func isLimit(err error) bool {
	return errors.Is(err, reasoner.ErrTermDepth) || errors.Is(err, reasoner.ErrDepth)
}

// resolveTemplate returns the ground term a template stands for, with the
// values in vals resolved in env.
func resolveTemplate(a template, vals []engine.Term, env *engine.Env) engine.Term {
	t := instantiate(a, vals)
	if env == nil {
		return t
	}
	g, _ := resolveGround(t, env)
	return g
}

// step runs the body of f's rule from step i; it reports whether to stop.
func (e *flatEval) step(f *flatFrame, i int) bool {
	rule := f.rule
	if i == len(rule.steps) {
		return e.answer(f)
	}
	st := &rule.steps[i]
	if st.kind != stepOr {
		return e.run(f, st, i+1)
	}
	for k := range st.alts {
		if e.run(f, &st.alts[k], i+1) {
			return true
		}
	}
	return false
}

// run runs the step st of f's rule, then the rule from step next for each
// of its answers; it reports whether to stop.
func (e *flatEval) run(f *flatFrame, st *flatStep, next int) bool {
	var rows []row
	switch st.kind {
	case stepTests:
		ok, err := e.r.evalTests(st.tests, f.vals, nil)
		if err != nil {
			e.err = err
			return true
		}
		return ok && e.step(f, next)
	case stepCall:
		return e.enter(st.rel, st.args, f.vals, nil, f, st, next)
	case stepTrue:
		if t := e.r.state.indexed(st.slot); t != nil {
			rows = t.candidates(st.args, f.vals, nil)
		} else {
			rows = e.r.state.slots[st.slot]
		}
	case stepDoes:
		rows = e.r.moves.slots[st.slot]
	case stepTable:
		rows = st.table.candidates(st.args, f.vals, nil)
	case stepDerived:
		t, err := e.derivedRows(f, st)
		if err != nil {
			e.err = err
			return true
		}
		rows = t.candidates(st.args, f.vals, nil)
	}
	for _, rw := range rows {
		if e.tick() {
			return true
		}
		mark := len(e.trail)
		ok := true
		for j := range st.args {
			if !e.bind(f.vals, st.args[j], rw[j]) {
				ok = false
				break
			}
		}
		if ok && e.step(f, next) {
			return true
		}
		e.undo(mark)
	}
	return false
}

// answer hands on an answer of f's rule: to each at the top level, else
// to the rest of the caller's rule, with the arguments the call left free
// bound to it.
func (e *flatEval) answer(f *flatFrame) bool {
	c := f.caller
	if c == nil && e.each == nil {
		e.found = true
		return true
	}
	if c == nil {
		e.head = e.head[:0]
		for _, h := range f.rule.head {
			e.head = append(e.head, instantiate(h, f.vals))
		}
		return e.each(e.head)
	}
	st := f.call
	mark := len(e.trail)
	ok := true
	for j, a := range st.args {
		if st.rel.mode&(1<<j) == 0 && !e.bind(c.vals, a, instantiate(f.rule.head[j], f.vals)) {
			ok = false
			break
		}
	}
	stop := ok && e.step(c, f.next)
	e.undo(mark)
	return stop
}

// tick counts a row tried and reports whether the deadline has passed.
func (e *flatEval) tick() bool {
	e.steps++
	if e.steps%1024 == 0 {
		if err := e.ctx.Err(); err != nil {
			e.err = err
			return true
		}
	}
	return false
}

// undo unbinds the variables bound since the trail had length mark.
func (e *flatEval) undo(mark int) {
	for _, p := range e.trail[mark:] {
		*p = nil
	}
	e.trail = e.trail[:mark]
}

// bind matches the ground term g against the template a over vals,
// binding the unbound variables it meets.
func (e *flatEval) bind(vals []engine.Term, a template, g engine.Term) bool {
	switch {
	case a.wild:
		return true
	case a.slot >= 0:
		if v := vals[a.slot]; v != nil {
			return identical(v, g, nil)
		}
		vals[a.slot] = g
		e.trail = append(e.trail, &vals[a.slot])
		return true
	case a.args == nil:
		return g == engine.Term(a.atom)
	}
	c, ok := g.(engine.Compound)
	if !ok || c.Functor() != a.atom || c.Arity() != len(a.args) {
		return false
	}
	for i := range a.args {
		if !e.bind(vals, a.args[i], c.Arg(i)) {
			return false
		}
	}
	return true
}

// derivedRows returns the table a derived step reads: during the
// derivation of its own component, the rows found so far or those new in
// the last round, as the rule's semi-naive variant wants; else the
// relation's rows in the state.
func (e *flatEval) derivedRows(f *flatFrame, st *flatStep) (*table, error) {
	rel := st.derived
	if st.occ < 0 {
		var key []engine.Term
		if st.mask != 0 {
			e.key = partitionKey(st.mask, st.args, f.vals, nil, e.key)
			key = e.key
		}
		return e.r.derivedTable(e.ctx, rel, st.mask, key)
	}
	ds := &e.r.derived[rel.scc.id]
	if ds.deltaAt == st.occ {
		return ds.cur.delta[rel.index], nil
	}
	return ds.cur.full[rel.index], nil
}
