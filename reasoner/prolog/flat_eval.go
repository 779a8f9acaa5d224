package prolog

import (
	"cmp"
	"context"
	"errors"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/reasoner"
)

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
