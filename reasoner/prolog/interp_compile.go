package prolog

import (
	"fmt"
	"math"
	"strings"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
)

// Names of the native predicates and control atoms the compiled program
// uses. None can be written by a game: every game relation is prefixed by
// relationAtom, and these names are not of that form.
var (
	atomIf       = engine.NewAtom(":-")
	atomAnd      = engine.NewAtom(",")
	atomCut      = engine.NewAtom("!")
	atomFail     = engine.NewAtom("$fail")
	atomDistinct = engine.NewAtom("$distinct")
	atomTrue     = engine.NewAtom("$true")
	atomDoes     = engine.NewAtom("$does")
	atomDeeper   = engine.NewAtom("$deeper")
)

// maxNativeArity is the largest arity the engine accepts for a native
// predicate (Register0 to Register8).
const maxNativeArity = 8

// functorKey identifies the functor of a fact or move: its name and arity.
// A constant has arity 0.
type functorKey struct {
	name  engine.Atom
	arity int
}

// compiler turns a game description into Prolog clause terms.
type compiler struct {
	prog *program
	// tabled relations are answered by native tables; they take no depth
	// argument and have no clauses.
	tabled map[signature]bool
	// trueKeys and doesKeys number the functors of facts and moves the
	// program looks up, each with its specialised true:f/n or does:f/n
	// native.
	trueKeys *functorSlots
	doesKeys *functorSlots
	clauses  []engine.Term
	fused    []fusedTests
	// nextAux numbers the auxiliary predicates of negations and
	// disjunctions. Their names must be unique in the interpreter the
	// clauses go to, across every compiler that feeds it: clauses asserted
	// under a name already used would join that predicate, and a negation
	// of one relation would also test another's, so that two relations of
	// the same shape answer alike (testdata/same_shape.kif). Compilers
	// feeding one interpreter share the counter (see sharing).
	nextAux  *int
	versions map[version]engine.Atom // compiled or queued, with names
	memos    map[version]*memoVersion
	flats    map[version]*flatRelation // nil: not flat, or being compiled
	noFlat   bool                      // Options.noFlat
	nextFlat int                       // flatRelation.id of the next one
	bottomUp bool                      // planning rules of a derived component
	// derivs holds the recursive components evaluated bottom-up, by
	// component id (nil: not derivable, or being compiled); derived lists
	// them by their own dense id.
	derivs  map[int]*derivedSCC
	derived []*derivedSCC
	// partOnly holds the components, by id, derived only by partition:
	// all their rows are too many.
	partOnly map[int]bool
	// badMasks holds, by component id, the partitions too large to use.
	badMasks map[int]map[uint64]bool
	queue    []version // versions still to compile
	// tables, when set, are the precomputed static relations; their sizes
	// drive the choice of literal order. Without them rule bodies keep
	// their written order.
	tables map[signature]*table
}

func newCompiler(p *program, tabled map[signature]bool) *compiler {
	return &compiler{
		prog:     p,
		tabled:   tabled,
		nextAux:  new(int),
		versions: map[version]engine.Atom{},
		memos:    map[version]*memoVersion{},
		flats:    map[version]*flatRelation{},
		derivs:   map[int]*derivedSCC{},
		trueKeys: &functorSlots{kind: "true", slots: map[functorKey]int{}},
		doesKeys: &functorSlots{kind: "does", slots: map[functorKey]int{}},
	}
}

// sharing returns a compiler whose clauses go to the same interpreter as
// c's: it numbers its auxiliary predicates after c's.
func (c *compiler) sharing(p *program, tabled map[signature]bool) *compiler {
	d := newCompiler(p, tabled)
	d.nextAux = c.nextAux
	return d
}

// takesDepth reports whether calls to s carry a depth argument: only
// recursive relations can recurse without bound, so only they pay for it.
func (c *compiler) takesDepth(s signature) bool {
	return c.prog.recursive[s] && !c.tabled[s]
}

// A version of a relation is its clauses compiled for one binding pattern:
// bit i of mode is set when callers always pass a ground argument i. Bodies
// are planned knowing those head variables are bound, which can change the
// best order completely (a line check for a given player starts from that
// player's pieces, not from every row). Mode 0, all arguments free, is the
// version Go's queries and unspecialised calls use.
type version struct {
	s    signature
	mode uint64
}

// maxModeArity bounds the arity of relations that get versions.
const maxModeArity = 64

// compileRelation adds the clauses of relation s, in its all-free version,
// and of every version the compiled bodies call.
func (c *compiler) compileRelation(s signature) error {
	c.request(s, 0)
	for len(c.queue) > 0 {
		v := c.queue[0]
		c.queue = c.queue[1:]
		for _, r := range c.prog.rules[v.s] {
			if err := c.compileRule(r, v.mode); err != nil {
				return err
			}
		}
	}
	return nil
}

// request returns the name of version (s, mode), queueing its compilation
// the first time it is asked for.
func (c *compiler) request(s signature, mode uint64) engine.Atom {
	v := version{s, mode}
	if name, ok := c.versions[v]; ok {
		return name
	}
	name := relationAtom(s.name)
	if mode != 0 {
		var b strings.Builder
		b.WriteString(name)
		b.WriteByte('@')
		for i := 0; i < s.arity; i++ {
			if mode&(1<<i) != 0 {
				b.WriteByte('b')
			} else {
				b.WriteByte('f')
			}
		}
		name = b.String()
	}
	atom := engine.NewAtom(name)
	c.versions[v] = atom
	c.queue = append(c.queue, v)
	return atom
}

// callMode returns the binding pattern of a call to s with args, given the
// bound variables, or 0 when s gets no versions (tables and natives need
// none). Recursive relations get versions too: a recursive call with its
// arguments bound walks one chain instead of enumerating the relation at
// every level. There are finitely many patterns, so this terminates; every
// version of a recursive relation carries the depth argument.
func (c *compiler) callMode(s signature, args []gdl.Term, bound map[string]bool) uint64 {
	if c.tables == nil || bound == nil || c.tabled[s] || s.arity > maxModeArity {
		return 0
	}
	if _, defined := c.prog.rules[s]; !defined {
		return 0
	}
	var mode uint64
	for i, a := range args {
		if allBound(termVars([]gdl.Term{a}, nil), bound) {
			mode |= 1 << i
		}
	}
	return mode
}

// modeBound returns the variables of the head arguments that the callers
// of the version for mode bind.
func modeBound(head []gdl.Term, mode uint64) map[string]bool {
	bound := map[string]bool{}
	for i, a := range head {
		if mode&(1<<i) != 0 {
			for _, v := range termVars([]gdl.Term{a}, nil) {
				bound[v] = true
			}
		}
	}
	return bound
}

// ruleScope holds the variables of one clause.
type ruleScope struct {
	vars  map[string]engine.Variable
	depth engine.Term // depth passed to recursive calls in the body
}

func (sc *ruleScope) variable(name string) engine.Variable {
	v, ok := sc.vars[name]
	if !ok {
		v = engine.NewVariable()
		sc.vars[name] = v
	}
	return v
}

func (c *compiler) compileRule(r *gdl.Rule, mode uint64) error {
	s := signature{r.Head.Name.Name, len(r.Head.Args)}
	bound := modeBound(r.Head.Args, mode)
	sc := &ruleScope{vars: map[string]engine.Variable{}, depth: engine.Integer(0)}
	args := c.terms(r.Head.Args, sc)
	var goals []engine.Term
	if c.takesDepth(s) {
		d, d1 := engine.NewVariable(), engine.NewVariable()
		args = append(args, d)
		sc.depth = d1
		goals = append(goals, atomDeeper.Apply(d, d1))
	}
	// Runs of ground tests become one fused native; see groundtest.go.
	tc := c.newTestCompiler(s)
	var pending []test
	flush := func() {
		if len(pending) == 0 {
			return
		}
		name := engine.NewAtom(fmt.Sprintf("test:%d", len(c.fused)))
		c.fused = append(c.fused, fusedTests{name: name, arity: len(tc.vars), tests: pending})
		vars := make([]engine.Term, len(tc.vars))
		for i, v := range tc.vars {
			vars[i] = sc.variable(v)
		}
		goals = append(goals, name.Apply(vars...))
		pending = nil
		tc = c.newTestCompiler(s)
	}
	for _, l := range c.plan(r, s, bound) {
		vs := literalVars(l, nil)
		if c.tables != nil && allBound(vs, bound) {
			if tc.newVars(vs) > maxNativeArity {
				flush()
			}
			// A test over more variables than a native can take stays in
			// the engine.
			if tc.newVars(vs) <= maxNativeArity {
				if t, ok := tc.compile(l); ok {
					pending = append(pending, t)
					continue
				}
			}
		}
		flush()
		g, err := c.literal(l, sc, bound)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Pos(), err)
		}
		goals = append(goals, g)
		switch l.(type) {
		case *gdl.Sentence, *gdl.Or:
			for _, v := range vs {
				bound[v] = true
			}
		}
	}
	flush()
	c.addClause(c.request(s, mode).Apply(args...), goals)
	return nil
}

// fusedTests is one native predicate checking a run of ground tests.
type fusedTests struct {
	name  engine.Atom
	arity int
	tests []test
}

func (c *compiler) newTestCompiler(head signature) *testCompiler {
	return &testCompiler{c: c, slots: map[string]int{}, scc: c.prog.scc[head]}
}

// newVars returns how many argument slots the fused test would have after
// adding the variables vs.
func (tc *testCompiler) newVars(vs []string) int {
	n := len(tc.vars)
	for _, v := range vs {
		if _, ok := tc.slots[v]; !ok {
			n++
		}
	}
	return n
}

func allBound(vs []string, bound map[string]bool) bool {
	for _, v := range vs {
		if !bound[v] {
			return false
		}
	}
	return true
}

// plan returns the body of r, whose head is s, in evaluation order, given
// the variables bound by the caller.
func (c *compiler) plan(r *gdl.Rule, s signature, bound map[string]bool) []gdl.Literal {
	scc, recursive := c.prog.scc[s], c.prog.recursive[s]
	// Bound variables that are whole head arguments: a recursive call
	// passing only these on makes no progress.
	whole := map[string]bool{}
	for _, a := range r.Head.Args {
		if v, ok := a.(*gdl.Var); ok && bound[v.Name] {
			whole[v.Name] = true
		}
	}
	pinned := func(l *gdl.Sentence) bool {
		if !recursive {
			return false
		}
		d, ok := c.prog.scc[signature{l.Name.Name, len(l.Args)}]
		return ok && d == scc
	}
	if c.tables == nil {
		// Without table statistics keep the written order, but for
		// recursive calls.
		return planBody(r.Body, bound, whole, nil, pinned)
	}
	if c.bottomUp {
		// A rule of a component evaluated bottom-up reads the
		// component's rows found so far, mostly those new in the last
		// round: few, and known, so they come first.
		return planBody(r.Body, bound, whole, func(l *gdl.Sentence, b map[string]bool) float64 {
			if d, ok := c.prog.scc[signature{l.Name.Name, len(l.Args)}]; ok && d == scc {
				return 0.9
			}
			return c.cost(l, b)
		}, nil)
	}
	return planBody(r.Body, bound, whole, c.cost, pinned)
}

// cost estimates how many answers the positive literal l has when the
// variables in bound are bound: the fan-out the planner minimises. Tests
// (every argument bound) cost below 1 and so run as early as possible.
func (c *compiler) cost(l *gdl.Sentence, bound map[string]bool) float64 {
	isBound := func(t gdl.Term) bool {
		for _, v := range termVars([]gdl.Term{t}, nil) {
			if !bound[v] {
				return false
			}
		}
		return true
	}
	countBound := func(ts []gdl.Term) int {
		n := 0
		for _, t := range ts {
			if isBound(t) {
				n++
			}
		}
		return n
	}
	switch l.Name.Name {
	case gdl.KeyTrue:
		if len(l.Args) != 1 {
			return 0 // never true
		}
		switch t := l.Args[0].(type) {
		case *gdl.Func:
			b := countBound(t.Args)
			if b == len(t.Args) {
				return 0.5
			}
			return 10 / math.Pow(3, float64(b))
		case *gdl.Var:
			if bound[t.Name] {
				return 0.5
			}
			return 30
		}
		return 0.5
	case gdl.KeyDoes:
		return 1
	}
	s := signature{l.Name.Name, len(l.Args)}
	if t, ok := c.tables[s]; ok {
		return t.estimate(l.Args, isBound)
	}
	if _, defined := c.prog.rules[s]; !defined {
		return 0 // always false: fail at once
	}
	b := countBound(l.Args)
	if b == len(l.Args) {
		return 2
	}
	// A state-independent relation left as rules was too large to
	// precompute, so enumerating it is ruinous; recursion makes any
	// relation costlier to enumerate.
	base := 20.0
	if !c.prog.dynamic[s] {
		base = 1000
	}
	if c.prog.recursive[s] {
		base *= 10
	}
	return base / math.Pow(2, float64(b))
}

func (c *compiler) addClause(head engine.Term, goals []engine.Term) {
	if len(goals) == 0 {
		c.clauses = append(c.clauses, head)
		return
	}
	body := goals[len(goals)-1]
	for i := len(goals) - 2; i >= 0; i-- {
		body = atomAnd.Apply(goals[i], body)
	}
	c.clauses = append(c.clauses, atomIf.Apply(head, body))
}

// literal compiles one body literal into a goal. bound holds the variables
// bound when it runs, or is nil when unknown. An auxiliary predicate has a
// single call site, so its clauses can be specialised for what that site
// binds.
func (c *compiler) literal(l gdl.Literal, sc *ruleScope, bound map[string]bool) (engine.Term, error) {
	switch l := l.(type) {
	case *gdl.Sentence:
		return c.sentence(l, sc, bound)
	case *gdl.Distinct:
		return atomDistinct.Apply(c.term(l.X, sc), c.term(l.Y, sc)), nil
	case *gdl.Not:
		// (not L) becomes aux(Vs) :- L, !, fail.  aux(Vs).
		head, inner, names := c.auxHead(l)
		g, err := c.literal(l.Arg, inner, innerBound(names, bound))
		if err != nil {
			return nil, err
		}
		c.addClause(head, []engine.Term{g, atomCut, atomFail})
		c.addClause(head, nil)
		return auxCall(head, names, sc), nil
	case *gdl.Or:
		// (or L1 L2 ...) becomes aux(Vs) :- L1.  aux(Vs) :- L2.  ...
		head, inner, names := c.auxHead(l)
		for _, d := range l.Disjuncts {
			g, err := c.literal(d, inner, innerBound(names, bound))
			if err != nil {
				return nil, err
			}
			c.addClause(head, []engine.Term{g})
		}
		return auxCall(head, names, sc), nil
	}
	return nil, fmt.Errorf("unknown literal %T", l)
}

// innerBound returns which of an auxiliary predicate's variables its call
// site binds, or nil when that is unknown.
func innerBound(names []string, bound map[string]bool) map[string]bool {
	if bound == nil {
		return nil
	}
	in := map[string]bool{}
	for _, v := range names {
		if bound[v] {
			in[v] = true
		}
	}
	return in
}

// auxHead makes the head of an auxiliary predicate for a negation or
// disjunction: its arguments are the literal's variables and the depth. It
// returns the head, the scope of the auxiliary clauses (which share the
// head's variables) and the variable names in argument order.
func (c *compiler) auxHead(l gdl.Literal) (engine.Term, *ruleScope, []string) {
	*c.nextAux++
	name := engine.NewAtom(fmt.Sprintf("aux:%d", *c.nextAux))
	inner := &ruleScope{vars: map[string]engine.Variable{}, depth: engine.NewVariable()}
	names := literalVars(l, nil)
	args := make([]engine.Term, 0, len(names)+1)
	for _, v := range names {
		args = append(args, inner.variable(v))
	}
	args = append(args, inner.depth)
	return name.Apply(args...), inner, names
}

// auxCall is the goal that calls an auxiliary predicate from the scope sc.
func auxCall(head engine.Term, names []string, sc *ruleScope) engine.Term {
	args := make([]engine.Term, 0, len(names)+1)
	for _, v := range names {
		args = append(args, sc.variable(v))
	}
	args = append(args, sc.depth)
	return head.(engine.Compound).Functor().Apply(args...)
}

// sentence compiles a positive literal: a call to a game relation, or a
// true/does test answered natively from the current state or joint move.
// bound holds the variables bound before the call, or is nil when unknown.
func (c *compiler) sentence(l *gdl.Sentence, sc *ruleScope, bound map[string]bool) (engine.Term, error) {
	switch l.Name.Name {
	case gdl.KeyTrue:
		if len(l.Args) != 1 {
			return nil, fmt.Errorf("true takes 1 argument, not %d", len(l.Args))
		}
		if name, args, ok := c.flatten(l.Args[0], sc, 0); ok {
			_, atom := c.trueKeys.key(name, len(args))
			return atom.Apply(args...), nil
		}
		return atomTrue.Apply(c.term(l.Args[0], sc)), nil
	case gdl.KeyDoes:
		if len(l.Args) != 2 {
			return nil, fmt.Errorf("does takes 2 arguments, not %d", len(l.Args))
		}
		role := c.term(l.Args[0], sc)
		if name, args, ok := c.flatten(l.Args[1], sc, 1); ok {
			_, atom := c.doesKeys.key(name, len(args))
			return atom.Apply(append([]engine.Term{role}, args...)...), nil
		}
		return atomDoes.Apply(role, c.term(l.Args[1], sc)), nil
	}
	s := signature{l.Name.Name, len(l.Args)}
	args := c.terms(l.Args, sc)
	if c.takesDepth(s) {
		args = append(args, sc.depth)
	}
	return c.callee(s, c.callMode(s, l.Args, bound)).Apply(args...), nil
}

// callee names the predicate a call to version (s, mode) goes to: the
// version itself, or its memo native when s is memoised.
func (c *compiler) callee(s signature, mode uint64) engine.Atom {
	if d, ok := c.derivedRel(s); ok && d.native != 0 {
		if d.scc.partOnly && d.fallback == 0 {
			d.fallback = c.interpreterCallee(s, 0)
		}
		return d.native
	}
	return c.interpreterCallee(s, mode)
}

// interpreterCallee is callee for relations the interpreter proves.
func (c *compiler) interpreterCallee(s signature, mode uint64) engine.Atom {
	name := engine.NewAtom(relationAtom(s.name))
	if mode != 0 {
		name = c.request(s, mode)
	}
	if !c.memoised(s) {
		return name
	}
	v := version{s, mode}
	if m, ok := c.memos[v]; ok {
		return m.name
	}
	if mode == 0 {
		c.request(s, 0)
	}
	arity := s.arity
	if c.takesDepth(s) {
		arity++
	}
	m := &memoVersion{
		id:     len(c.memos),
		name:   engine.NewAtom("memo:" + name.String()),
		target: name,
		arity:  s.arity,
		depth:  c.takesDepth(s),

		recursive: c.prog.recursive[s],
		usesDoes:  c.prog.usesDoes[s],
	}
	if arity > maxNativeArity {
		return name
	}
	c.memos[v] = m
	return m.name
}

// memoised reports whether calls to s go through an answer table:
// relations that were not precomputed (those depending on the state or the
// joint move, and static ones too large to table), once table statistics
// are known (the final compilation).
func (c *compiler) memoised(s signature) bool {
	if c.tables == nil || c.tabled[s] {
		return false
	}
	_, defined := c.prog.rules[s]
	return defined
}

// flatten splits a term with a constant functor into its name and
// arguments, so that (true (cell ?x ?y b)) can call true:cell/3(X, Y, b)
// and match the state's cell facts argument by argument. It fails for a
// variable, or when the native would exceed the engine's arity limit.
func (c *compiler) flatten(t gdl.Term, sc *ruleScope, extra int) (string, []engine.Term, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return t.Name, nil, true
	case *gdl.Func:
		if len(t.Args)+extra > maxNativeArity {
			return "", nil, false
		}
		return t.Name.Name, c.terms(t.Args, sc), true
	}
	return "", nil, false
}

// functorSlots numbers the functors of facts (or moves) in the order first
// used, and names the native predicate that looks each up.
type functorSlots struct {
	kind  string // "true" or "does"
	slots map[functorKey]int
	keys  []functorKey
	names []engine.Atom
}

// key returns the slot and native name for facts name/arity.
func (fs *functorSlots) key(name string, arity int) (int, engine.Atom) {
	k := functorKey{engine.NewAtom(name), arity}
	slot, ok := fs.slots[k]
	if !ok {
		slot = len(fs.keys)
		fs.slots[k] = slot
		fs.keys = append(fs.keys, k)
		fs.names = append(fs.names, engine.NewAtom(fmt.Sprintf("%s:%s/%d", fs.kind, name, arity)))
	}
	return slot, fs.names[slot]
}

func (c *compiler) terms(ts []gdl.Term, sc *ruleScope) []engine.Term {
	out := make([]engine.Term, len(ts))
	for i, t := range ts {
		out[i] = c.term(t, sc)
	}
	return out
}

func (c *compiler) term(t gdl.Term, sc *ruleScope) engine.Term {
	switch t := t.(type) {
	case *gdl.Const:
		return engine.NewAtom(t.Name)
	case *gdl.Var:
		return sc.variable(t.Name)
	case *gdl.Func:
		return engine.NewAtom(t.Name.Name).Apply(c.terms(t.Args, sc)...)
	}
	panic(fmt.Sprintf("unknown term %T", t))
}

// groundTerm converts a ground GDL term; it reports false for a variable.
func groundTerm(t gdl.Term) (engine.Term, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return engine.NewAtom(t.Name), true
	case *gdl.Func:
		args := make([]engine.Term, len(t.Args))
		for i, a := range t.Args {
			g, ok := groundTerm(a)
			if !ok {
				return nil, false
			}
			args[i] = g
		}
		return engine.NewAtom(t.Name.Name).Apply(args...), true
	}
	return nil, false
}
