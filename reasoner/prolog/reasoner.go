package prolog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	// see flat_compile.go.
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

	// sees caches the percepts of every role for the state seesOf and
	// the joint move seesJoint: a game master asks each role in turn.
	sees      [][]reasoner.Percept
	seesOf    *reasoner.State
	seesJoint []reasoner.Move

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

var (
	_ reasoner.Reasoner  = (*Reasoner)(nil)
	_ reasoner.Perceiver = (*Reasoner)(nil)
)

// New compiles d with the default options.
func New(d *gdl.Description) (*Reasoner, error) {
	return NewWithOptions(context.Background(), d, Options{})
}

// NewWithOptions compiles d. ctx bounds the compilation along with
// opts.LoadTimeout.
//
// A GDL-II description is compiled as gdl.Repair reads it, and only when
// gdl.Validate finds no error in it: an error there marks a rule with no
// single reading, and NewWithOptions returns the errors, each naming its
// place. A GDL description is compiled as written, as before.
func NewWithOptions(ctx context.Context, d *gdl.Description, opts Options) (r *Reasoner, err error) {
	// Compilation must never crash the caller on a game it mishandles: a
	// panic here is a bug in this package, reported as an error with the
	// game's name.
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%s: internal error compiling the game: %v", d.Filename, p)
		}
	}()
	if gdl.DecideMode(d, gdl.NatureSeated) == gdl.GDLII {
		repaired, problems := gdl.Repair(d)
		if err := gdl.Errors(problems); err != nil {
			return nil, err
		}
		d = repaired
	}
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

// Sees returns the percepts of role when joint is played in s, sorted and
// without duplicates. It computes every role's at once and keeps them for
// the next call with the same state and moves.
func (r *Reasoner) Sees(ctx context.Context, s *reasoner.State, joint []reasoner.Move, role int) ([]reasoner.Percept, error) {
	if role < 0 || role >= len(r.game.roles) {
		return nil, fmt.Errorf("sees: no role %d", role)
	}
	if len(joint) != len(r.game.roles) {
		return nil, fmt.Errorf("sees: %d moves for %d roles", len(joint), len(r.game.roles))
	}
	if r.seesOf != s || s == nil || !slices.Equal(r.seesJoint, joint) {
		if err := r.allSees(ctx, s, joint); err != nil {
			return nil, err
		}
	}
	return slices.Clone(r.sees[role]), nil
}

// allSees computes the percepts of every role into r.sees.
func (r *Reasoner) allSees(ctx context.Context, s *reasoner.State, joint []reasoner.Move) error {
	r.seesOf = nil
	if err := r.setState(s); err != nil {
		return err
	}
	if err := r.setMoves(joint); err != nil {
		return err
	}
	if r.sees == nil {
		r.sees = make([][]reasoner.Percept, len(r.game.roles))
	}
	for i := range r.sees {
		r.sees[i] = r.sees[i][:0]
	}
	who, what := engine.NewVariable(), engine.NewVariable()
	n := 0
	err := r.call(ctx, gdl.KeySees, []engine.Term{who, what}, func(args []engine.Term, env *engine.Env) bool {
		if n++; n > r.game.opts.MaxAnswers {
			return true
		}
		ra, _ := env.Resolve(args[0]).(engine.Atom)
		if i := slices.Index(r.game.roleAtoms, ra); i >= 0 {
			r.sees[i] = append(r.sees[i], reasoner.Percept(r.format(args[1], env)))
		}
		return false
	})
	if err == nil {
		err = r.tooMany(n)
	}
	r.setMoves(nil)
	if err != nil {
		return fmt.Errorf("percepts: %w", err)
	}
	for i, ps := range r.sees {
		slices.Sort(ps)
		r.sees[i] = slices.Compact(ps)
	}
	r.seesOf, r.seesJoint = s, append(r.seesJoint[:0], joint...)
	return nil
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
