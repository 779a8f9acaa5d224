package prolog

import (
	"fmt"
	"slices"

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
	// trueKeys and doesKeys collect the functors for which the compiled
	// program calls a specialised true:f/n or does:f/n native.
	trueKeys map[functorKey]engine.Atom
	doesKeys map[functorKey]engine.Atom
	clauses  []engine.Term
	nextAux  int
}

func newCompiler(p *program, tabled map[signature]bool) *compiler {
	return &compiler{
		prog:     p,
		tabled:   tabled,
		trueKeys: map[functorKey]engine.Atom{},
		doesKeys: map[functorKey]engine.Atom{},
	}
}

// takesDepth reports whether calls to s carry a depth argument: only
// recursive relations can recurse without bound, so only they pay for it.
func (c *compiler) takesDepth(s signature) bool {
	return c.prog.recursive[s] && !c.tabled[s]
}

// compileRelation adds the clauses of relation s.
func (c *compiler) compileRelation(s signature) error {
	for _, r := range c.prog.rules[s] {
		if err := c.compileRule(r); err != nil {
			return err
		}
	}
	return nil
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

func (c *compiler) compileRule(r *gdl.Rule) error {
	s := signature{r.Head.Name.Name, len(r.Head.Args)}
	sc := &ruleScope{vars: map[string]engine.Variable{}, depth: engine.Integer(0)}
	args := c.terms(r.Head.Args, sc)
	var goals []engine.Term
	if c.takesDepth(s) {
		d, d1 := engine.NewVariable(), engine.NewVariable()
		args = append(args, d)
		sc.depth = d1
		goals = append(goals, atomDeeper.Apply(d, d1))
	}
	for _, l := range c.prog.literals[r] {
		g, err := c.literal(l, sc)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Pos(), err)
		}
		goals = append(goals, g)
	}
	c.addClause(engine.NewAtom(relationAtom(s.name)).Apply(args...), goals)
	return nil
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

// literal compiles one body literal into a goal.
func (c *compiler) literal(l gdl.Literal, sc *ruleScope) (engine.Term, error) {
	switch l := l.(type) {
	case *gdl.Sentence:
		return c.sentence(l, sc)
	case *gdl.Distinct:
		return atomDistinct.Apply(c.term(l.X, sc), c.term(l.Y, sc)), nil
	case *gdl.Not:
		// (not L) becomes aux(Vs) :- L, !, fail.  aux(Vs).
		head, inner, names := c.auxHead(l)
		g, err := c.literal(l.Arg, inner)
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
			var goals []engine.Term
			for _, dl := range orderBody([]gdl.Literal{d}) {
				g, err := c.literal(dl, inner)
				if err != nil {
					return nil, err
				}
				goals = append(goals, g)
			}
			c.addClause(head, goals)
		}
		return auxCall(head, names, sc), nil
	}
	return nil, fmt.Errorf("unknown literal %T", l)
}

// auxHead makes the head of an auxiliary predicate for a negation or
// disjunction: its arguments are the literal's variables and the depth. It
// returns the head, the scope of the auxiliary clauses (which share the
// head's variables) and the variable names in argument order.
func (c *compiler) auxHead(l gdl.Literal) (engine.Term, *ruleScope, []string) {
	c.nextAux++
	name := engine.NewAtom(fmt.Sprintf("aux:%d", c.nextAux))
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
func (c *compiler) sentence(l *gdl.Sentence, sc *ruleScope) (engine.Term, error) {
	switch l.Name.Name {
	case gdl.KeyTrue:
		if len(l.Args) != 1 {
			return nil, fmt.Errorf("true takes 1 argument, not %d", len(l.Args))
		}
		if name, args, ok := c.flatten(l.Args[0], sc, 0); ok {
			atom := c.nativeName(c.trueKeys, "true", name, len(args))
			return atom.Apply(args...), nil
		}
		return atomTrue.Apply(c.term(l.Args[0], sc)), nil
	case gdl.KeyDoes:
		if len(l.Args) != 2 {
			return nil, fmt.Errorf("does takes 2 arguments, not %d", len(l.Args))
		}
		role := c.term(l.Args[0], sc)
		if name, args, ok := c.flatten(l.Args[1], sc, 1); ok {
			atom := c.nativeName(c.doesKeys, "does", name, len(args))
			return atom.Apply(append([]engine.Term{role}, args...)...), nil
		}
		return atomDoes.Apply(role, c.term(l.Args[1], sc)), nil
	}
	s := signature{l.Name.Name, len(l.Args)}
	args := c.terms(l.Args, sc)
	if c.takesDepth(s) {
		args = append(args, sc.depth)
	}
	return engine.NewAtom(relationAtom(s.name)).Apply(args...), nil
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

func (c *compiler) nativeName(keys map[functorKey]engine.Atom, kind, name string, arity int) engine.Atom {
	k := functorKey{engine.NewAtom(name), arity}
	a, ok := keys[k]
	if !ok {
		a = engine.NewAtom(fmt.Sprintf("%s:%s/%d", kind, name, arity))
		keys[k] = a
	}
	return a
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

// sortedKeys returns the keys of m in a fixed order, so that compilation is
// deterministic.
func sortedKeys(m map[functorKey]engine.Atom) []functorKey {
	keys := make([]functorKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b functorKey) int {
		if a.name != b.name {
			if a.name < b.name {
				return -1
			}
			return 1
		}
		return a.arity - b.arity
	})
	return keys
}
