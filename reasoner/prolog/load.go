// Loading a game: compiling its rules into clauses, evaluating the
// relations that do not depend on the state, recursive ones to a fixpoint,
// into tables, and reading the roles and the initial state.

package prolog

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// compileGame analyses d, evaluates its state-independent relations into
// tables, and compiles the rest into clauses.
func compileGame(ctx context.Context, d *gdl.Description, opts Options) (*game, error) {
	prog, err := analyse(d)
	if err != nil {
		return nil, err
	}
	g := &game{
		opts:      opts,
		tables:    map[signature]*table{},
		takeDepth: map[signature]bool{},
		names:     map[engine.Atom]string{},
	}
	for name := range prog.constants {
		g.names[engine.NewAtom(name)] = name
	}
	if err := g.evaluateStatic(ctx, prog); err != nil {
		return nil, err
	}
	if err := g.compileRules(prog, nil, nil, nil); err != nil {
		return nil, err
	}
	if len(g.derived) == 0 {
		return g, nil
	}
	// Evaluating a component bottom-up computes all its rows, where the
	// interpreter proves only the calls made; a component with many rows
	// in the initial state stays with the interpreter.
	banned, partOnly, err := g.costlyDerived(ctx)
	if err != nil {
		return nil, err
	}
	if len(banned) > 0 || len(partOnly) > 0 {
		if err := g.compileRules(prog, banned, partOnly, nil); err != nil {
			return nil, err
		}
	}
	badMasks, err := g.costlyPartitions(ctx)
	if err != nil {
		return nil, err
	}
	if len(badMasks) > 0 {
		if err := g.compileRules(prog, banned, partOnly, badMasks); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// compileRules compiles the rules left once the static relations are
// tables into g, deriving no component in banned, those in partOnly only
// by partition, and using no partition in badMasks.
func (g *game) compileRules(prog *program, banned, partOnly map[int]bool, badMasks map[int]map[uint64]bool) error {
	g.takeDepth = map[signature]bool{}
	c := g.ruleCompiler(prog)
	for id := range banned {
		c.derivs[id] = nil
	}
	c.partOnly = partOnly
	c.badMasks = badMasks
	for _, s := range prog.order {
		if c.tabled[s] {
			continue
		}
		if err := c.compileRelation(s); err != nil {
			return err
		}
		if c.takesDepth(s) {
			g.takeDepth[s] = true
		}
	}
	g.flat = map[signature]*flatRelation{}
	for _, s := range flatQueries() {
		if rel, ok := c.flatRelation(s, 0); ok {
			g.flat[s] = rel
		}
	}
	g.derived = c.derived
	g.clauses = c.clauses
	g.trueSlots, g.doesSlots = c.trueKeys, c.doesKeys
	g.fused = c.fused
	g.memos = nil
	for _, m := range c.memos {
		g.memos = append(g.memos, m)
	}
	return nil
}

// ruleCompiler returns the compiler of the rules left once the static
// relations are evaluated into g's tables.
func (g *game) ruleCompiler(prog *program) *compiler {
	tabled := map[signature]bool{}
	for s := range g.tables {
		tabled[s] = true
	}
	c := newCompiler(prog, tabled)
	c.noFlat = g.opts.noFlat
	if !g.opts.Plain {
		// Table statistics turn on planning, versions, answer tables
		// and fused tests.
		c.tables = g.tables
	} else {
		c.noFlat = true
	}
	return c
}

// evaluateStatic computes every relation that does not depend on true or
// does, dependencies first, in a scratch interpreter holding only those
// relations. Each becomes a table when all its answers are ground and few
// enough; otherwise it stays as rules. It also reads the roles and the
// initial state.
func (g *game) evaluateStatic(ctx context.Context, prog *program) error {
	c := newCompiler(prog, map[signature]bool{})
	for _, s := range prog.order {
		if !prog.dynamic[s] {
			if err := c.compileRelation(s); err != nil {
				return err
			}
		}
	}
	// The scratch interpreter answers no true or does: static relations
	// never ask.
	g.trueSlots, g.doesSlots = c.trueKeys, c.doesKeys
	scratch := &Reasoner{game: g, terms: map[string]parsedTerm{}}
	if err := setUnknownFail(&scratch.vm); err != nil {
		return err
	}
	scratch.registerNatives()
	for _, cl := range c.clauses {
		if _, err := engine.Assertz(&scratch.vm, cl, engine.Success, nil).Force(ctx); err != nil {
			return fmt.Errorf("compiling clause: %w", err)
		}
	}
	install := func(s signature, rows []row) {
		t := newTable(s.arity, rows)
		g.tables[s] = t
		name := engine.NewAtom(relationAtom(s.name))
		register(&scratch.vm, name, s.arity, t.call)
		if c.takesDepth(s) && s.arity < maxNativeArity {
			// Callers in the scratch interpreter pass a depth; ignore it.
			// (At the arity limit they keep calling the clauses.)
			n := s.arity
			register(&scratch.vm, name, n+1, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
				return t.call(args[:n], k, env)
			})
		}
	}
	for _, comp := range prog.sccs {
		if prog.dynamic[comp[0]] || g.opts.Plain {
			continue // components are wholly dynamic or wholly static
		}
		if prog.recursive[comp[0]] {
			tctx, cancel := context.WithTimeout(ctx, g.opts.TableTimeout)
			tables, ok, err := g.fixpoint(tctx, c, scratch, comp)
			cancel()
			if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				err, ok = nil, false // over budget: leave it as rules
			}
			if err != nil {
				return err
			}
			if ok {
				for _, s := range comp {
					install(s, tables[s])
				}
				continue
			}
		}
		for _, s := range comp {
			tctx, cancel := context.WithTimeout(ctx, g.opts.TableTimeout)
			rows, ok, err := scratch.extension(tctx, s, c.takesDepth(s))
			cancel()
			if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				continue // over budget: leave it as rules, answered on demand
			}
			if err != nil {
				return fmt.Errorf("evaluating %s: %w", s, err)
			}
			if !ok || len(rows) > g.opts.MaxTableRows || s.arity > maxNativeArity {
				continue
			}
			install(s, rows)
		}
	}

	roleSig := signature{gdl.KeyRole, 1}
	roles, _, err := scratch.extension(ctx, roleSig, c.takesDepth(roleSig))
	if err != nil {
		return fmt.Errorf("reading roles: %w", err)
	}
	if len(roles) == 0 {
		return errors.New("the game defines no role")
	}
	for _, r := range roles {
		a, ok := r[0].(engine.Atom)
		if !ok {
			return fmt.Errorf("role %s is not a constant", scratch.format(r[0], nil))
		}
		g.roles = append(g.roles, g.atomName(a))
		g.roleAtoms = append(g.roleAtoms, a)
	}
	initSig := signature{gdl.KeyInit, 1}
	inits, _, err := scratch.extension(ctx, initSig, c.takesDepth(initSig))
	if err != nil {
		return fmt.Errorf("reading the initial state: %w", err)
	}
	facts := make([]reasoner.Fact, len(inits))
	for i, r := range inits {
		facts[i] = reasoner.Fact(scratch.format(r[0], nil))
	}
	g.initial = reasoner.NewState(facts)
	return nil
}

// fixpoint computes the relations of a recursive static component by
// iteration, as a deductive database would: every rule body is evaluated
// with the component's own relations answered from the rows found so far,
// until no rule adds a row. Top-down evaluation cannot do this in general:
// a left-recursive rule, or a recursion around a torus, never returns,
// though the relation is finite.
//
// The iteration is semi-naive: a rule with no call into the component runs
// once; a rule with exactly one such call (linear recursion, the usual
// case) sees only the rows new in the previous round there, since any new
// row must use one; other rules see all rows. ok is false when the
// component cannot be tabled (an arity above the natives' limit, a
// non-ground answer, too many rows); it is then left as rules.
//
// Its clauses go to scratch, the interpreter of static's clauses.
func (g *game) fixpoint(ctx context.Context, static *compiler, scratch *Reasoner, comp []signature) (map[signature][]row, bool, error) {
	prog := static.prog
	tabled := map[signature]bool{}
	for s := range g.tables {
		tabled[s] = true
	}
	inComp := map[signature]bool{}
	for _, s := range comp {
		if s.arity > maxNativeArity {
			return nil, false, nil
		}
		tabled[s] = true
		inComp[s] = true
	}
	// Each rule becomes a relation of its own, named so that no game
	// relation can collide with it (GDL symbols hold no spaces).
	type ruleRel struct {
		sig       signature
		head      signature
		recursive int // calls into the component in the body
	}
	fc := static.sharing(prog, tabled)
	var rules []ruleRel
	for _, s := range comp {
		for j, r := range prog.rules[s] {
			// Named after the relation and the rule: components are
			// evaluated in one interpreter, one after another, so the
			// names must differ across components too.
			name := fmt.Sprintf("fixpoint %s %d", s, j)
			head := &gdl.Sentence{Lparen: r.Head.Lparen, Name: &gdl.Const{NamePos: r.Head.Name.NamePos, Name: name}, Args: r.Head.Args}
			if err := fc.compileRule(&gdl.Rule{Lparen: r.Lparen, Head: head, Body: r.Body}, 0); err != nil {
				return nil, false, err
			}
			rules = append(rules, ruleRel{sig: signature{name, s.arity}, head: s, recursive: countCalls(r.Body, inComp)})
		}
	}
	for _, cl := range fc.clauses {
		if _, err := engine.Assertz(&scratch.vm, cl, engine.Success, nil).Force(ctx); err != nil {
			return nil, false, fmt.Errorf("compiling clause: %w", err)
		}
	}
	// The component's relations read from all rows or from the last
	// round's new rows, as the rule being evaluated needs.
	all := map[signature]*table{}
	delta := map[signature]*table{}
	useDelta := false
	for _, s := range comp {
		all[s], delta[s] = newTable(s.arity, nil), newTable(s.arity, nil)
		register(&scratch.vm, engine.NewAtom(relationAtom(s.name)), s.arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			if useDelta {
				return delta[s].call(args, k, env)
			}
			return all[s].call(args, k, env)
		})
	}
	found := map[signature][]row{}
	seen := map[signature]map[string]bool{}
	for _, s := range comp {
		seen[s] = map[string]bool{}
	}
	for round := 0; ; round++ {
		fresh := map[signature][]row{}
		for _, rr := range rules {
			switch {
			case rr.recursive == 0 && round > 0:
				continue
			case rr.recursive == 1:
				useDelta = true
			default:
				useDelta = false
			}
			rows, ok, err := scratch.extension(ctx, rr.sig, false)
			if err != nil {
				return nil, false, fmt.Errorf("evaluating %s: %w", rr.head, err)
			}
			if !ok {
				return nil, false, nil
			}
			for _, rw := range rows {
				if key := scratch.rowKey(rw); !seen[rr.head][key] {
					seen[rr.head][key] = true
					fresh[rr.head] = append(fresh[rr.head], rw)
				}
			}
			if len(found[rr.head])+len(fresh[rr.head]) > g.opts.MaxTableRows {
				return nil, false, nil
			}
		}
		if len(fresh) == 0 {
			return found, true, nil
		}
		for _, s := range comp {
			found[s] = append(found[s], fresh[s]...)
			all[s], delta[s] = newTable(s.arity, found[s]), newTable(s.arity, fresh[s])
		}
	}
}

// countCalls returns how many literals of body, looking inside not and or,
// call one of the relations in set.
func countCalls(body []gdl.Literal, set map[signature]bool) int {
	n := 0
	visitSentences(body, func(l *gdl.Sentence) {
		if set[signature{l.Name.Name, len(l.Args)}] {
			n++
		}
	})
	return n
}

// visitSentences calls f with every sentence of body, looking inside not
// and or.
func visitSentences(body []gdl.Literal, f func(*gdl.Sentence)) {
	for _, l := range body {
		gdl.Inspect(l, func(n gdl.Node) bool {
			switch n := n.(type) {
			case *gdl.Sentence:
				f(n)
				return false
			case *gdl.Distinct:
				return false
			}
			return true
		})
	}
}

// extension returns every answer of relation s, in the order found, without
// duplicates. ok is false when some answer is not ground.
func (r *Reasoner) extension(ctx context.Context, s signature, depth bool) (rows []row, ok bool, err error) {
	args := make([]engine.Term, s.arity)
	for i := range args {
		args[i] = engine.NewVariable()
	}
	goalArgs := args
	if depth {
		goalArgs = append(slices.Clip(args), engine.Integer(0))
	}
	seen := map[string]bool{}
	ok = true
	err = r.solve(ctx, engine.NewAtom(relationAtom(s.name)), goalArgs, func(env *engine.Env) bool {
		rw := make(row, len(args))
		for i, a := range args {
			t, ground := resolveGround(a, env)
			if !ground {
				ok = false
				return true
			}
			rw[i] = t
		}
		key := r.format(atomAnd.Apply(append([]engine.Term{atomAnd}, rw...)...), nil)
		if !seen[key] {
			seen[key] = true
			rows = append(rows, rw)
		}
		return len(rows) > r.game.opts.MaxTableRows
	})
	return rows, ok, err
}

// resolveGround returns t with every bound variable replaced by its value;
// ground is false if a variable is left.
func resolveGround(t engine.Term, env *engine.Env) (engine.Term, bool) {
	switch t := env.Resolve(t).(type) {
	case engine.Variable:
		return t, false
	case engine.Compound:
		args := make([]engine.Term, t.Arity())
		for i := range args {
			a, ok := resolveGround(t.Arg(i), env)
			if !ok {
				return nil, false
			}
			args[i] = a
		}
		return t.Functor().Apply(args...), true
	default:
		return t, true
	}
}
