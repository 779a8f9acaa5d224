// Package prolog is the reasoner backend that compiles a game description
// into Prolog clauses and answers queries with the embedded interpreter
// github.com/ichiban/prolog.
//
// The interpreter starts empty: no built-in predicate, file, stream or
// operator is registered, so a game's rules can reach nothing but their own
// relations and the few natives this package installs. The current state and
// joint move are fed from Go through native predicates indexed by functor,
// and relations that do not depend on the state are computed once, at load
// time, into indexed tables.
package prolog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Options tune a Reasoner. The zero value selects the defaults.
type Options struct {
	// MaxDepth bounds the recursion depth of a query through recursive
	// relations. Default 10000.
	MaxDepth int
	// QueryTimeout bounds a query whose context has no deadline.
	// Default 60 s.
	QueryTimeout time.Duration
	// LoadTimeout bounds the compilation of the game, which evaluates its
	// state-independent relations. Default 60 s.
	LoadTimeout time.Duration
	// MaxTableRows bounds the size of one precomputed relation; a larger
	// relation stays as rules, answered on demand. Default 1 << 18.
	MaxTableRows int
	// TableTimeout bounds the time spent precomputing one relation; a
	// relation that takes longer stays as rules. Default 1 s.
	TableTimeout time.Duration
	// MaxAnswers bounds the answers one query of the game-state machine
	// collects (legal moves, next facts, goals); a query with more fails
	// with reasoner.ErrAnswers. Default 1 << 17.
	MaxAnswers int
	// MaxTermDepth bounds the nesting of the terms a recursive relation
	// is called with; deeper fails with reasoner.ErrTermDepth. Default
	// gdl.MaxDepth, the nesting the parser reads.
	MaxTermDepth int

	// Plain turns off every load-time optimisation: no relation is
	// precomputed into a table, none is compiled for binding patterns,
	// answer-tabled, evaluated by the flat evaluator or fused into native
	// tests, and rule bodies keep their written order (recursive calls
	// last). What is left is the rules run as written by the interpreter:
	// a second opinion for differential tests. It is far slower, and a
	// static relation that recurses around a cycle fails with ErrDepth
	// instead of being computed to its fixpoint.
	Plain bool

	// noFlat leaves every relation to the engine, for tests comparing the
	// two evaluations.
	noFlat bool
}

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = 10000
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = 60 * time.Second
	}
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = 60 * time.Second
	}
	if o.MaxTableRows <= 0 {
		o.MaxTableRows = 1 << 18
	}
	if o.TableTimeout <= 0 {
		o.TableTimeout = time.Second
	}
	if o.MaxAnswers <= 0 {
		o.MaxAnswers = 1 << 17
	}
	if o.MaxTermDepth <= 0 {
		o.MaxTermDepth = gdl.MaxDepth
	}
	return o
}

// flatQueries returns the relations the queries ask that may be evaluated
// by the flat evaluator.
func flatQueries() []signature {
	return []signature{{gdl.KeyLegal, 2}, {gdl.KeyNext, 1}, {gdl.KeyTerminal, 0}, {gdl.KeyGoal, 2}}
}

// game is the compiled form of a description, shared read-only by every
// instance of it.
type game struct {
	opts      Options
	roles     []string
	roleAtoms []engine.Atom
	initial   *reasoner.State
	clauses   []engine.Term
	tables    map[signature]*table
	takeDepth map[signature]bool // relations called with a depth argument
	trueSlots *functorSlots
	doesSlots *functorSlots
	fused     []fusedTests
	memos     []*memoVersion
	names     map[engine.Atom]string // constants of the description
	// flat holds the relations the queries ask that are evaluated in Go;
	// see flat.go.
	flat map[signature]*flatRelation
	// derived holds the recursive components evaluated bottom-up in each
	// state; see derive.go.
	derived []*derivedSCC
}

// Reasoner is one instance of the Prolog backend for a game. It is not safe
// for concurrent use; Fork returns independent instances.
type Reasoner struct {
	game *game
	vm   engine.VM

	state     factIndex
	stateOf   *reasoner.State // the state held in state, or nil
	moves     factIndex
	moveTerms []engine.Term // $does/2 facts of the current joint move

	ctx   context.Context       // the query under way, for nested queries
	terms map[string]parsedTerm // facts and moves already parsed
	buf   []byte                // scratch for writing terms

	// legal caches the legal moves of every role in legalOf: a playout
	// asks each role in turn about the same state, and one query answers
	// them all.
	legal   [][]reasoner.Move
	legalOf *reasoner.State

	memo memoTable // answer tables of the state in stateOf
	// Evaluators and frames of the flat evaluator, kept for reuse.
	evals  []*flatEval
	frames []*flatFrame
	// derived holds the rows of the derived components in the state, by
	// derivedSCC.id.
	derived []derivedState
	keyBuf  []engine.Term // scratch for partition keys
	holds   holdsMemo     // answers of tests of flat relations
}

// parsedTerm is a fact or move in the engine's form, split into its
// arguments for the indexed natives, with its functor's slot.
type parsedTerm struct {
	term     engine.Term
	args     row
	trueSlot int // -1 when no true native looks such facts up
	doesSlot int // -1 when no does native looks such moves up
}

var _ reasoner.Reasoner = (*Reasoner)(nil)

// New compiles d with the default options.
func New(d *gdl.Description) (*Reasoner, error) {
	return NewWithOptions(context.Background(), d, Options{})
}

// NewWithOptions compiles d. ctx bounds the compilation along with
// opts.LoadTimeout.
func NewWithOptions(ctx context.Context, d *gdl.Description, opts Options) (r *Reasoner, err error) {
	// Compilation must never crash the caller on a game it mishandles: a
	// panic here is a bug in this package, reported as an error with the
	// game's name.
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%s: internal error compiling the game: %v", d.Filename, p)
		}
	}()
	opts = opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.LoadTimeout)
	defer cancel()
	g, err := compileGame(ctx, d, opts)
	if err != nil {
		if d.Filename != "" {
			return nil, fmt.Errorf("%s: %w", d.Filename, err)
		}
		return nil, err
	}
	return g.instance()
}

// Fork returns an independent instance of the same game.
func (r *Reasoner) Fork() (reasoner.Reasoner, error) { return r.game.instance() }

func (g *game) instance() (*Reasoner, error) {
	r := &Reasoner{game: g, terms: map[string]parsedTerm{}}
	r.memo = memoTable{
		answers:     map[string][]row{},
		moveAnswers: map[string][]row{},
		busy:        map[string]bool{},
		stats:       make([]memoStats, len(g.memos)),
	}
	r.derived = make([]derivedState, len(g.derived))
	r.state = newFactIndex(len(g.trueSlots.keys))
	r.moves = newFactIndex(len(g.doesSlots.keys))
	if err := setUnknownFail(&r.vm); err != nil {
		return nil, err
	}
	r.registerNatives()
	for _, c := range g.clauses {
		if _, err := engine.Assertz(&r.vm, c, engine.Success, nil).Force(context.Background()); err != nil {
			return nil, fmt.Errorf("compiling clause: %w", err)
		}
	}
	return r, nil
}

// setUnknownFail makes calls to undefined relations fail, as GDL requires,
// instead of raising existence errors.
func setUnknownFail(vm *engine.VM) error {
	_, err := engine.SetPrologFlag(vm, engine.NewAtom("unknown"), engine.NewAtom("fail"), engine.Success, nil).Force(context.Background())
	return err
}

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
	var walk func(l gdl.Literal)
	walk = func(l gdl.Literal) {
		switch l := l.(type) {
		case *gdl.Sentence:
			f(l)
		case *gdl.Not:
			walk(l.Arg)
		case *gdl.Or:
			for _, d := range l.Disjuncts {
				walk(d)
			}
		}
	}
	for _, l := range body {
		walk(l)
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

// startQuery bounds ctx by the query timeout when it has no deadline and
// makes it the context of the natives' nested queries until done is called.
func (r *Reasoner) startQuery(ctx context.Context) (_ context.Context, done func()) {
	cancel := context.CancelFunc(func() {})
	if ctx.Done() == nil {
		ctx, cancel = context.WithTimeout(ctx, r.game.opts.QueryTimeout)
	}
	r.ctx = ctx
	return ctx, func() {
		r.ctx = nil
		cancel()
	}
}

// solve runs the goal name(args...) and calls each for every answer until it
// returns true.
func (r *Reasoner) solve(ctx context.Context, name engine.Atom, args []engine.Term, each func(*engine.Env) bool) error {
	ctx, done := r.startQuery(ctx)
	defer done()
	_, err := r.vm.Arrive(name, args, func(env *engine.Env) *engine.Promise {
		return engine.Bool(each(env))
	}, nil).Force(ctx)
	if err != nil {
		var ex engine.Exception
		if errors.As(err, &ex) {
			return fmt.Errorf("prolog: %s", ex.Term())
		}
		return err
	}
	return nil
}

// call runs the game relation name with as many arguments as vars, which
// are distinct fresh variables, and calls each with the arguments of every
// answer, to be resolved in env, until it returns true.
func (r *Reasoner) call(ctx context.Context, name string, vars []engine.Term, each func(args []engine.Term, env *engine.Env) bool) error {
	if rel := r.game.flat[signature{name, len(vars)}]; rel != nil {
		ctx, done := r.startQuery(ctx)
		defer done()
		return r.solveFlat(ctx, rel, func(head []engine.Term) bool { return each(head, nil) })
	}
	args := vars
	if r.game.takeDepth[signature{name, len(vars)}] {
		args = append(slices.Clip(vars), engine.Integer(0))
	}
	return r.solve(ctx, engine.NewAtom(relationAtom(name)), args, func(env *engine.Env) bool { return each(vars, env) })
}

// tooMany returns the error of a query that stopped after n answers, or
// nil if n is within the answer limit.
func (r *Reasoner) tooMany(n int) error {
	if n > r.game.opts.MaxAnswers {
		return fmt.Errorf("%w of %d", reasoner.ErrAnswers, r.game.opts.MaxAnswers)
	}
	return nil
}

// Roles returns the roles in the order the description lists them.
func (r *Reasoner) Roles() []string { return slices.Clone(r.game.roles) }

// Initial returns the initial state.
func (r *Reasoner) Initial(ctx context.Context) (*reasoner.State, error) {
	return r.game.initial, nil
}

// Legal returns the sorted legal moves of role in s.
func (r *Reasoner) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if role < 0 || role >= len(r.game.roles) {
		return nil, fmt.Errorf("legal: no role %d", role)
	}
	if r.legalOf != s || s == nil {
		if err := r.allLegal(ctx, s); err != nil {
			if found := r.legal[role]; len(found) > 0 {
				moves := slices.Clone(found)
				slices.Sort(moves)
				return nil, &reasoner.PartialError{Moves: slices.Compact(moves), Err: err}
			}
			return nil, err
		}
	}
	return slices.Clone(r.legal[role]), nil
}

// allLegal computes the legal moves of every role in s into r.legal.
func (r *Reasoner) allLegal(ctx context.Context, s *reasoner.State) error {
	r.legalOf = nil
	if err := r.setState(s); err != nil {
		return err
	}
	r.setMoves(nil)
	if r.legal == nil {
		r.legal = make([][]reasoner.Move, len(r.game.roles))
	}
	for i := range r.legal {
		r.legal[i] = r.legal[i][:0]
	}
	role, m := engine.NewVariable(), engine.NewVariable()
	n := 0
	err := r.call(ctx, gdl.KeyLegal, []engine.Term{role, m}, func(args []engine.Term, env *engine.Env) bool {
		if n++; n > r.game.opts.MaxAnswers {
			return true
		}
		ra, _ := env.Resolve(args[0]).(engine.Atom)
		if i := slices.Index(r.game.roleAtoms, ra); i >= 0 {
			r.legal[i] = append(r.legal[i], reasoner.Move(r.format(args[1], env)))
		}
		return false
	})
	if err == nil {
		err = r.tooMany(n)
	}
	if err != nil {
		return fmt.Errorf("legal moves: %w", err)
	}
	for i, ms := range r.legal {
		slices.Sort(ms)
		r.legal[i] = slices.Compact(ms)
	}
	r.legalOf = s
	return nil
}

// Next returns the state after joint is played in s.
func (r *Reasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if len(joint) != len(r.game.roles) {
		return nil, fmt.Errorf("next: %d moves for %d roles", len(joint), len(r.game.roles))
	}
	if err := r.setState(s); err != nil {
		return nil, err
	}
	if err := r.setMoves(joint); err != nil {
		return nil, err
	}
	x := engine.NewVariable()
	var facts []reasoner.Fact
	err := r.call(ctx, gdl.KeyNext, []engine.Term{x}, func(args []engine.Term, env *engine.Env) bool {
		facts = append(facts, reasoner.Fact(r.format(args[0], env)))
		return len(facts) > r.game.opts.MaxAnswers
	})
	if err == nil {
		err = r.tooMany(len(facts))
	}
	r.setMoves(nil)
	if err != nil {
		return nil, fmt.Errorf("next state: %w", err)
	}
	return reasoner.NewState(facts), nil
}

// Terminal reports whether s is terminal.
func (r *Reasoner) Terminal(ctx context.Context, s *reasoner.State) (bool, error) {
	if err := r.setState(s); err != nil {
		return false, err
	}
	r.setMoves(nil)
	terminal := false
	err := r.call(ctx, gdl.KeyTerminal, nil, func([]engine.Term, *engine.Env) bool {
		terminal = true
		return true
	})
	if err != nil {
		return false, fmt.Errorf("terminal: %w", err)
	}
	return terminal, nil
}

// Goals returns the goal value of every role in s.
func (r *Reasoner) Goals(ctx context.Context, s *reasoner.State) ([]int, error) {
	if err := r.setState(s); err != nil {
		return nil, err
	}
	r.setMoves(nil)
	values := make([][]int, len(r.game.roles))
	role, value := engine.NewVariable(), engine.NewVariable()
	var bad error
	err := r.call(ctx, gdl.KeyGoal, []engine.Term{role, value}, func(args []engine.Term, env *engine.Env) bool {
		ra, _ := env.Resolve(args[0]).(engine.Atom)
		i := slices.Index(r.game.roleAtoms, ra)
		if i < 0 {
			return false // a goal for something that is not a role
		}
		text := r.format(args[1], env)
		v, err := strconv.Atoi(text)
		if err != nil {
			bad = fmt.Errorf("goal of %s is %s, not a number", r.game.roles[i], text)
			return true
		}
		if !slices.Contains(values[i], v) {
			values[i] = append(values[i], v)
		}
		return false
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, fmt.Errorf("goals: %w", err)
	}
	return reasoner.GoalsOf(r.game.roles, values)
}

// Ask answers a query against the rules in state s: every instance of q
// that holds, in compact KIF, sorted. Variables of q may be bound by the
// answers; q may also be a true or does sentence.
func (r *Reasoner) Ask(ctx context.Context, s *reasoner.State, q *gdl.Sentence) ([]string, error) {
	if err := r.setState(s); err != nil {
		return nil, err
	}
	r.setMoves(nil)
	c := newCompiler(&program{recursive: map[signature]bool{}}, map[signature]bool{})
	sc := &ruleScope{vars: map[string]engine.Variable{}, depth: engine.Integer(0)}
	var goal engine.Term
	var err error
	switch q.Name.Name {
	case gdl.KeyTrue, gdl.KeyDoes:
		// The natives for the specialised forms exist only when the rules
		// use them; the generic natives always do.
		args := c.terms(q.Args, sc)
		if q.Name.Name == gdl.KeyTrue && len(args) == 1 {
			goal = atomTrue.Apply(args...)
		} else if len(args) == 2 {
			goal = atomDoes.Apply(args...)
		} else {
			return nil, fmt.Errorf("%s: wrong number of arguments", q.Name.Name)
		}
	default:
		goal, err = c.sentence(q, sc, nil)
		if err != nil {
			return nil, err
		}
	}
	name, args := engine.Atom(0), []engine.Term(nil)
	switch gt := goal.(type) {
	case engine.Atom:
		name = gt
	case engine.Compound:
		name = gt.Functor()
		for i := 0; i < gt.Arity(); i++ {
			args = append(args, gt.Arg(i))
		}
	}
	if r.game.takeDepth[signature{q.Name.Name, len(q.Args)}] {
		args = append(args, engine.Integer(0))
	}
	qt := c.term(&gdl.Func{Name: q.Name, Args: q.Args}, sc)
	if len(q.Args) == 0 {
		qt = engine.NewAtom(q.Name.Name)
	}
	var answers []string
	err = r.solve(ctx, name, args, func(env *engine.Env) bool {
		answers = append(answers, r.format(qt, env))
		return len(answers) > 100000
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(answers)
	return slices.Compact(answers), nil
}

// maxTermCache bounds the cache of parsed facts and moves; it is cleared
// when full, which only costs re-parsing.
const maxTermCache = 1 << 18

// term returns the engine form of a fact or move in compact KIF.
func (r *Reasoner) term(text string) (parsedTerm, error) {
	if t, ok := r.terms[text]; ok {
		return t, nil
	}
	parsed, err := gdl.ParseTerm(text)
	if err != nil {
		return parsedTerm{}, err
	}
	t, ok := groundTerm(parsed)
	if !ok {
		return parsedTerm{}, fmt.Errorf("%q is not ground", text)
	}
	p := parsedTerm{term: t, args: splitArgs(t), trueSlot: -1, doesSlot: -1}
	if slot, ok := r.game.trueSlots.slots[keyOf(t)]; ok {
		p.trueSlot = slot
	}
	if slot, ok := r.game.doesSlots.slots[keyOf(t)]; ok {
		p.doesSlot = slot
	}
	if len(r.terms) >= maxTermCache {
		clear(r.terms)
	}
	r.terms[text] = p
	return p, nil
}

// setState loads the facts of s into the true natives' index.
func (r *Reasoner) setState(s *reasoner.State) error {
	if s == nil {
		return errors.New("nil state")
	}
	if r.stateOf == s {
		return nil
	}
	r.stateOf = nil
	r.state.reset()
	r.memo.reset()
	r.holds.reset()
	r.resetDerived(false)
	for _, f := range s.Facts() {
		t, err := r.term(string(f))
		if err != nil {
			return fmt.Errorf("state fact %s: %w", f, err)
		}
		r.state.all = append(r.state.all, t.term)
		if t.trueSlot >= 0 {
			r.state.slots[t.trueSlot] = append(r.state.slots[t.trueSlot], t.args)
		}
	}
	r.stateOf = s
	return nil
}

// setMoves loads a joint move into the does natives' index; nil clears it.
func (r *Reasoner) setMoves(joint []reasoner.Move) error {
	r.memo.clearMoves()
	r.holds.clearMoves()
	r.resetDerived(true)
	r.moves.reset()
	r.moveTerms = r.moveTerms[:0]
	for i, m := range joint {
		t, err := r.term(string(m))
		if err != nil {
			return fmt.Errorf("move %q of %s: %w", m, r.game.roles[i], err)
		}
		role := r.game.roleAtoms[i]
		r.moveTerms = append(r.moveTerms, atomDoes.Apply(role, t.term))
		if t.doesSlot >= 0 {
			r.moves.slots[t.doesSlot] = append(r.moves.slots[t.doesSlot], append(row{role}, t.args...))
		}
	}
	return nil
}

func keyOf(t engine.Term) functorKey {
	switch t := t.(type) {
	case engine.Atom:
		return functorKey{t, 0}
	case engine.Compound:
		return functorKey{t.Functor(), t.Arity()}
	}
	return functorKey{}
}

// format writes t, resolved under env, as compact KIF.
func (r *Reasoner) format(t engine.Term, env *engine.Env) string {
	r.buf = r.appendTerm(r.buf[:0], t, env)
	return string(r.buf)
}

func (r *Reasoner) appendTerm(b []byte, t engine.Term, env *engine.Env) []byte {
	switch t := env.Resolve(t).(type) {
	case engine.Atom:
		return append(b, r.game.atomName(t)...)
	case engine.Compound:
		b = append(b, '(')
		b = append(b, r.game.atomName(t.Functor())...)
		for i := 0; i < t.Arity(); i++ {
			b = append(b, ' ')
			b = r.appendTerm(b, t.Arg(i), env)
		}
		return append(b, ')')
	case engine.Variable:
		return append(b, "?_"+strconv.FormatInt(int64(t), 10)...)
	case engine.Integer:
		return strconv.AppendInt(b, int64(t), 10)
	default:
		var sb strings.Builder
		_ = t.WriteTerm(&sb, &engine.WriteOptions{}, env)
		return append(b, sb.String()...)
	}
}

// atomName returns the GDL name of an atom. Constants of the description
// are looked up without the engine's global lock.
func (g *game) atomName(a engine.Atom) string {
	if n, ok := g.names[a]; ok {
		return n
	}
	return a.String()
}

// Interpreted returns the relations the queries ask (legal/2, next/1,
// terminal/0 and goal/2, as name/arity) that the interpreter answers
// rather than the flat evaluator, in that order. Benchmarks report them:
// they are where a game's time goes.
func (r *Reasoner) Interpreted() []string {
	var out []string
	for _, s := range flatQueries() {
		if r.game.flat[s] == nil {
			out = append(out, s.String())
		}
	}
	return out
}
