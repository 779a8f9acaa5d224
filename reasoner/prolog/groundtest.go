package prolog

import (
	"context"
	"fmt"
	"slices"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
)

// Ground tests.
//
// Once the planner has ordered a rule body, many literals are tests: every
// variable they mention is already bound. The engine charges each call for
// a procedure lookup, a context binding and a continuation, which for a test
// is most of the work. So each run of consecutive tests is compiled into one
// native predicate, test:N(V1, ..., Vk), that checks them all in Go against
// the state, the joint move and the static tables, binding nothing.

// template is a GDL term with its variables numbered: the arguments of a
// test, instantiated by the values of the fused predicate's arguments.
type template struct {
	atom engine.Atom // the constant, or the functor of a compound
	slot int         // >= 0: the value of argument slot; -1 otherwise
	args []template  // arguments of a compound
	wild bool        // matches any term: a variable of an unfolded rule
}

// testKind says what a test checks.
type testKind int

const (
	testTrue     testKind = iota // a fact of the state, by true slot
	testTrueAny                  // a fact of the state, any functor
	testDoes                     // a move of the joint move, by does slot
	testDoesAny                  // a move of the joint move, any functor
	testTable                    // a row of a static table
	testDistinct                 // two terms differ
	testCall                     // a relation of a lower stratum has an answer
	testOr                       // one of several tests holds
	testDerived                  // a row of a derived relation in the state
)

// test is one compiled ground test.
type test struct {
	kind   testKind
	negate bool
	slot   int           // testTrue, testDoes
	table  *table        // testTable
	name   engine.Atom   // testCall
	depth  bool          // testCall: the relation takes a depth argument
	flat   *flatRelation // testCall: the relation's flat version, if any
	args   []template    // the arguments (testDoes: role first)
	or     []test        // testOr
	rel    *derivedRel   // testDerived
}

// testCompiler builds ground tests for one rule.
type testCompiler struct {
	c     *compiler
	slots map[string]int // variable name -> argument slot of the fused test
	vars  []string       // variables in slot order
	scc   int            // component of the rule's head
	// derive is the component being derived when the rule is one of its
	// rules, and occ counts the rule's reads of it so far.
	derive *derivedSCC
	occ    int
}

func (tc *testCompiler) template(t gdl.Term) template {
	switch t := t.(type) {
	case *gdl.Const:
		return template{atom: engine.NewAtom(t.Name), slot: -1}
	case *gdl.Var:
		if t.Name == wildcard {
			return template{slot: -1, wild: true}
		}
		s, ok := tc.slots[t.Name]
		if !ok {
			s = len(tc.vars)
			tc.slots[t.Name] = s
			tc.vars = append(tc.vars, t.Name)
		}
		return template{slot: s}
	case *gdl.Func:
		args := make([]template, len(t.Args))
		for i, a := range t.Args {
			args[i] = tc.template(a)
		}
		return template{atom: engine.NewAtom(t.Name.Name), slot: -1, args: args}
	}
	panic(fmt.Sprintf("unknown term %T", t))
}

func (tc *testCompiler) templates(ts []gdl.Term) []template {
	out := make([]template, len(ts))
	for i, t := range ts {
		out[i] = tc.template(t)
	}
	return out
}

// compile returns the test for l, which must have all its variables bound,
// or false when l cannot be checked in Go. It must not record variables for
// a literal it rejects, so it checks before building templates.
func (tc *testCompiler) compile(l gdl.Literal) (test, bool) {
	if !tc.supported(l) {
		return test{}, false
	}
	return tc.build(l), true
}

// supported reports whether l can be compiled as a ground test.
func (tc *testCompiler) supported(l gdl.Literal) bool {
	switch l := l.(type) {
	case *gdl.Distinct:
		return true
	case *gdl.Not:
		return tc.supported(l.Arg)
	case *gdl.Or:
		for _, d := range l.Disjuncts {
			if !tc.supported(d) {
				return false
			}
		}
		return true
	case *gdl.Sentence:
		switch l.Name.Name {
		case gdl.KeyTrue:
			return len(l.Args) == 1
		case gdl.KeyDoes:
			return len(l.Args) == 2
		}
		s := signature{l.Name.Name, len(l.Args)}
		if _, ok := tc.c.tables[s]; ok {
			return true
		}
		if _, defined := tc.c.prog.rules[s]; !defined {
			return true // always false; checked as an empty table
		}
		// A call back into the head's own component must stay in the
		// engine, where the depth limit applies; a lower stratum is a
		// bounded nested query.
		return tc.c.prog.scc[s] != tc.scc
	}
	return false
}

func (tc *testCompiler) build(l gdl.Literal) test {
	switch l := l.(type) {
	case *gdl.Distinct:
		return test{kind: testDistinct, args: tc.templates([]gdl.Term{l.X, l.Y})}
	case *gdl.Not:
		t := tc.build(l.Arg)
		t.negate = !t.negate
		return t
	case *gdl.Or:
		t := test{kind: testOr}
		for _, d := range l.Disjuncts {
			t.or = append(t.or, tc.build(d))
		}
		return t
	}
	s := l.(*gdl.Sentence)
	switch s.Name.Name {
	case gdl.KeyTrue:
		if slot, args, ok := tc.indexedFact(s); ok {
			return test{kind: testTrue, slot: slot, args: args}
		}
		return test{kind: testTrueAny, args: tc.templates(s.Args)}
	case gdl.KeyDoes:
		if slot, args, ok := tc.indexedFact(s); ok {
			return test{kind: testDoes, slot: slot, args: args}
		}
		return test{kind: testDoesAny, args: tc.templates(s.Args)}
	}
	sig := signature{s.Name.Name, len(s.Args)}
	if t, ok := tc.c.tables[sig]; ok {
		return test{kind: testTable, table: t, args: tc.templates(s.Args)}
	}
	if _, defined := tc.c.prog.rules[sig]; !defined {
		return test{kind: testTable, table: newTable(len(s.Args), nil), args: tc.templates(s.Args)}
	}
	if rel, ok := tc.c.derivedRel(sig); ok {
		return test{kind: testDerived, rel: rel, args: tc.templates(s.Args)}
	}
	if t, ok := tc.unfold(s); ok {
		return t
	}
	// Every argument is bound: call the version planned for that.
	all := map[string]bool{}
	for _, v := range termVars(s.Args, nil) {
		all[v] = true
	}
	mode := tc.c.callMode(sig, s.Args, all)
	t := test{
		kind:  testCall,
		name:  tc.c.callee(sig, mode),
		depth: tc.c.takesDepth(sig),
		args:  tc.templates(s.Args),
	}
	if rel, ok := tc.c.flatRelation(sig, mode); ok {
		t.flat = rel
	}
	return t
}

// wildcard names the variables of an unfolded rule that occur only once;
// no variable read from GDL text can have this name.
const wildcard = "\x00"

// maxUnfold bounds the rules of a relation that unfold replaces a call by.
const maxUnfold = 8

// unfold returns, for a call of a relation whose every rule has a body of
// one true or does literal, such as (<= (moved ?x) (does ?r (move ?x ?y))),
// the test those bodies make with the call's arguments put in: one check
// of the state or joint move instead of a nested query, which in frame
// rules like (not (moved ?x)) runs once for every fact of the state. It
// reports false for any other relation.
func (tc *testCompiler) unfold(call *gdl.Sentence) (test, bool) {
	rules := tc.c.prog.rules[signature{call.Name.Name, len(call.Args)}]
	if len(rules) == 0 || len(rules) > maxUnfold {
		return test{}, false
	}
	bodies := make([]gdl.Literal, 0, len(rules))
	for _, r := range rules {
		if len(r.Body) != 1 {
			return test{}, false
		}
		b, ok := r.Body[0].(*gdl.Sentence)
		if !ok || (b.Name.Name != gdl.KeyTrue && b.Name.Name != gdl.KeyDoes) {
			return test{}, false
		}
		// Head arguments must be distinct variables, so that each stands
		// for the call's argument, and a variable of the body alone must
		// occur once, so that it matches anything.
		subst := map[string]gdl.Term{}
		for i, a := range r.Head.Args {
			v, ok := a.(*gdl.Var)
			if !ok || subst[v.Name] != nil {
				return test{}, false
			}
			subst[v.Name] = call.Args[i]
		}
		seen := map[string]bool{}
		for _, v := range allVars(b.Args, nil) {
			if _, ok := subst[v]; ok {
				continue
			}
			if seen[v] {
				return test{}, false
			}
			seen[v] = true
		}
		bodies = append(bodies, &gdl.Sentence{Lparen: b.Lparen, Name: b.Name, Args: substitute(b.Args, subst)})
	}
	if len(bodies) == 1 {
		return tc.build(bodies[0]), true
	}
	t := test{kind: testOr}
	for _, b := range bodies {
		t.or = append(t.or, tc.build(b))
	}
	return t, true
}

// allVars appends the names of every occurrence of a variable in ts to vs.
func allVars(ts []gdl.Term, vs []string) []string {
	for _, t := range ts {
		gdl.Inspect(t, func(n gdl.Node) bool {
			if v, ok := n.(*gdl.Var); ok {
				vs = append(vs, v.Name)
			}
			return true
		})
	}
	return vs
}

// substitute returns ts with the variables in subst replaced and the
// others made wildcards.
func substitute(ts []gdl.Term, subst map[string]gdl.Term) []gdl.Term {
	out := make([]gdl.Term, len(ts))
	for i, t := range ts {
		switch t := t.(type) {
		case *gdl.Var:
			if u, ok := subst[t.Name]; ok {
				out[i] = u
			} else {
				out[i] = &gdl.Var{NamePos: t.NamePos, Name: wildcard}
			}
		case *gdl.Func:
			out[i] = &gdl.Func{Lparen: t.Lparen, Name: t.Name, Args: substitute(t.Args, subst)}
		default:
			out[i] = t
		}
	}
	return out
}

// indexedFact returns, for a true or does literal whose fact or move has a
// functor the natives index, its index slot and the templates of its
// arguments (for does, the role first), or false. It records no variable
// for a literal it rejects.
func (tc *testCompiler) indexedFact(s *gdl.Sentence) (int, []template, bool) {
	var lead []gdl.Term // the role of a does literal
	var fact gdl.Term
	slotOf := tc.c.trueSlot
	switch {
	case s.Name.Name == gdl.KeyTrue && len(s.Args) == 1:
		fact = s.Args[0]
	case s.Name.Name == gdl.KeyDoes && len(s.Args) == 2:
		lead, fact, slotOf = s.Args[:1], s.Args[1], tc.c.doesSlot
	default:
		return 0, nil, false
	}
	f, args, ok := splitTerm(fact)
	if !ok {
		return 0, nil, false
	}
	slot, ok := slotOf(f, len(args))
	if !ok {
		return 0, nil, false
	}
	return slot, tc.templates(append(slices.Clip(lead), args...)), true
}

// splitTerm returns the functor name and arguments of a constant or
// compound term.
func splitTerm(t gdl.Term) (string, []gdl.Term, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return t.Name, nil, true
	case *gdl.Func:
		return t.Name.Name, t.Args, true
	}
	return "", nil, false
}

// trueSlot returns the index slot of true facts with this functor: facts
// are indexed by functor for tests as for the true natives.
func (c *compiler) trueSlot(name string, arity int) (int, bool) {
	if arity > maxNativeArity {
		return 0, false
	}
	slot, _ := c.trueKeys.key(name, arity)
	return slot, true
}

func (c *compiler) doesSlot(name string, arity int) (int, bool) {
	if arity+1 > maxNativeArity {
		return 0, false
	}
	slot, _ := c.doesKeys.key(name, arity)
	return slot, true
}

// eval runs the tests of one fused predicate on the values of its
// arguments.
func (r *Reasoner) evalTests(tests []test, vals []engine.Term, env *engine.Env) (bool, error) {
	for i := range tests {
		ok, err := r.evalTest(&tests[i], vals, env)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func (r *Reasoner) evalTest(t *test, vals []engine.Term, env *engine.Env) (bool, error) {
	var found bool
	switch t.kind {
	case testTrue:
		if x := r.state.indexed(t.slot); x != nil {
			found = x.contains(t.args, vals, env)
		} else {
			found = anyRow(r.state.slots[t.slot], t.args, vals, env)
		}
	case testDoes:
		found = anyRow(r.moves.slots[t.slot], t.args, vals, env)
	case testTable:
		found = t.table.contains(t.args, vals, env)
	case testTrueAny:
		for _, f := range r.state.all {
			if matchTemplate(t.args[0], f, vals, env) {
				found = true
				break
			}
		}
	case testDoesAny:
		for _, m := range r.moveTerms {
			c := m.(engine.Compound) // $does(Role, Move)
			if matchTemplate(t.args[0], c.Arg(0), vals, env) && matchTemplate(t.args[1], c.Arg(1), vals, env) {
				found = true
				break
			}
		}
	case testDerived:
		ctx := r.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		var mask uint64
		var key []engine.Term
		if t.rel.scc.inv != 0 {
			mask = t.rel.scc.inv
			if key = partitionKey(mask, t.args, vals, env, r.keyBuf); key != nil {
				r.keyBuf = key
			}
		}
		x, err := r.derivedTable(ctx, t.rel, mask, key)
		if err != nil {
			return false, err
		}
		found = x.contains(t.args, vals, env)
	case testDistinct:
		found = !identical(instantiate(t.args[0], vals), instantiate(t.args[1], vals), env)
	case testOr:
		for i := range t.or {
			ok, err := r.evalTest(&t.or[i], vals, env)
			if err != nil {
				return false, err
			}
			if ok {
				found = true
				break
			}
		}
	case testCall:
		if t.flat != nil {
			ok, err := r.holdsMemoised(t.flat, t.args, vals, env)
			if err != nil {
				return false, err
			}
			found = ok
			break
		}
		args := make([]engine.Term, len(t.args), len(t.args)+1)
		for i, a := range t.args {
			args[i] = instantiate(a, vals)
		}
		if t.depth {
			args = append(args, engine.Integer(0))
		}
		ok, err := r.vm.Arrive(t.name, args, engine.Success, env).Force(r.ctx)
		if err != nil {
			return false, err
		}
		found = ok
	}
	return found != t.negate, nil
}

// anyRow reports whether some row equals the instantiated templates.
func anyRow(rows []row, args []template, vals []engine.Term, env *engine.Env) bool {
next:
	for _, rw := range rows {
		for i := range args {
			if !matchTemplate(args[i], rw[i], vals, env) {
				continue next
			}
		}
		return true
	}
	return false
}

// contains reports whether the table has the row given by the templates.
func (t *table) contains(args []template, vals []engine.Term, env *engine.Env) bool {
	if rows, ok := t.lookup(args, vals, env); ok {
		return anyRow(rows, args, vals, env)
	}
	return anyRow(t.candidates(args, vals, env), args, vals, env)
}

// lookup returns the rows hashed like the templates when every template
// is a known constant and the table holds constants only.
func (t *table) lookup(args []template, vals []engine.Term, env *engine.Env) ([]row, bool) {
	if t.small() || t.compound {
		return nil, false
	}
	h := rowSeed
	for _, a := range args {
		atom, ok := knownAtom(a, vals, env)
		if !ok {
			return nil, false
		}
		h = mixAtom(h, atom)
	}
	return t.byRow[h], true
}

// candidates returns the rows that may match the templates: those indexed
// under the most selective argument that is a known constant, else every
// row.
func (t *table) candidates(args []template, vals []engine.Term, env *engine.Env) []row {
	if rows, ok := t.lookup(args, vals, env); ok {
		return rows
	}
	best := t.rows
	if t.small() {
		return best
	}
	for i, a := range args {
		if len(t.open[i]) > 0 {
			continue
		}
		if atom, ok := knownAtom(a, vals, env); ok && len(t.index[i][atom]) < len(best) {
			best = t.index[i][atom]
		}
	}
	return best
}

// knownAtom returns the constant a template stands for: itself, or the
// value of its variable when that is bound to a constant.
func knownAtom(a template, vals []engine.Term, env *engine.Env) (engine.Atom, bool) {
	switch {
	case a.wild:
		return 0, false
	case a.slot >= 0:
		if vals[a.slot] == nil {
			return 0, false
		}
		v, ok := env.Resolve(vals[a.slot]).(engine.Atom)
		return v, ok
	case a.args == nil:
		return a.atom, true
	}
	return 0, false
}

// matchTemplate reports whether the ground term g equals the template
// instantiated by vals.
func matchTemplate(a template, g engine.Term, vals []engine.Term, env *engine.Env) bool {
	if a.wild {
		return true
	}
	if a.slot >= 0 {
		return identical(vals[a.slot], g, env)
	}
	if a.args == nil {
		return g == engine.Term(a.atom)
	}
	c, ok := env.Resolve(g).(engine.Compound)
	if !ok || c.Functor() != a.atom || c.Arity() != len(a.args) {
		return false
	}
	for i := range a.args {
		if !matchTemplate(a.args[i], c.Arg(i), vals, env) {
			return false
		}
	}
	return true
}

// instantiate builds the term of a template.
func instantiate(a template, vals []engine.Term) engine.Term {
	if a.slot >= 0 {
		return vals[a.slot]
	}
	if a.args == nil {
		return a.atom
	}
	args := make([]engine.Term, len(a.args))
	for i := range a.args {
		args[i] = instantiate(a.args[i], vals)
	}
	return a.atom.Apply(args...)
}
