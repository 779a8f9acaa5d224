// Package exact computes, by exhaustive search, what a role of a small
// GDL-II game can expect to score when it plays as well as its information
// allows: the exact value against which a search that values information
// is measured.
//
// The search reads the game through its reasoner alone (Legal, Next,
// Terminal, Goals and Sees), so it needs nothing written for a game. It
// follows the role's information sets: a node of the search is the role's
// view (its moves and percepts so far) with the states the match may then
// be in, weighed by their chance, and the role chooses one move for all of
// them, the move of the highest expected goal. Nature draws each of its
// moves uniformly among its legal ones, as the game master does.
//
// Best is the optimum of one role when every other role plays a known
// policy (a move, or a uniform choice of moves, for each of its views).
// Solve is the value of a game: for a role alone against nature, Best;
// with one opponent that has choices to make, the role's best pure
// strategy when the opponent knows it and best-responds at each of its own
// information sets (a max-min over the role's strategies, the opponent's
// reply computed by Best).
//
// The work is exponential in the game's length and bounded by Options: a
// game too large for them is an error, never a wrong answer.
package exact

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// Key returns the name of the information set a role is in after steps,
// its view: how Policy and Solution name a role's information sets.
func Key(steps []infoset.Step) string {
	var b strings.Builder
	for _, st := range steps {
		b.WriteString(stepKey(st.Move, st.Percepts))
	}
	return b.String()
}

// stepKey is one step of a Key.
func stepKey(m reasoner.Move, percepts []reasoner.Percept) string {
	return fmt.Sprintf("%s %v; ", m, percepts)
}

// A Policy is how a role plays: at each of its views, by Key, the moves it
// chooses among, uniformly at random; a move listed twice is chosen twice
// as often, so a Policy can hold any strategy measured by counting.
type Policy map[string][]reasoner.Move

// Options bound the work of a search. The zero value selects the
// defaults.
type Options struct {
	// MaxNodes bounds the information sets visited by one Best. Default
	// 1<<20.
	MaxNodes int
	// MaxStrategies bounds the role's pure strategies Solve tries
	// against an opponent. Default 1<<12.
	MaxStrategies int
}

func (o Options) withDefaults() Options {
	if o.MaxNodes <= 0 {
		o.MaxNodes = 1 << 20
	}
	if o.MaxStrategies <= 0 {
		o.MaxStrategies = 1 << 12
	}
	return o
}

// ErrLimit is returned, wrapped, when a search needs more work than its
// Options allow.
var ErrLimit = errors.New("exact: the game is too large for the search's limits")

// errUnmodelled is returned, wrapped, by Best when a role other than the
// one it optimizes has a choice and no policy: Solve then takes it for an
// opponent.
var errUnmodelled = errors.New("has moves to choose from and no policy")

// An Outcome is what Best finds.
type Outcome struct {
	// Goals holds every role's expected goal under the policies played,
	// in role order (nature's as the rules give it).
	Goals []float64
	// Strategy holds the role's best moves at each view it reaches where
	// it has a move to choose: all of them when several are equally good.
	Strategy Policy
}

// Best returns the best the role (an index into r.Roles()) can expect
// when each role in fixed plays its policy, nature draws uniformly and
// every other role has one legal move wherever it is to move. Among
// moves of equal value for the role, the strategy keeps those worst for
// role against (a rival's pessimism; -1 for none). r must be a
// reasoner.Perceiver.
func Best(ctx context.Context, r reasoner.Reasoner, role int, fixed map[int]Policy, against int, opts Options) (*Outcome, error) {
	seer, ok := r.(reasoner.Perceiver)
	if !ok {
		return nil, fmt.Errorf("exact: reasoner %T gives no percepts", r)
	}
	roles := r.Roles()
	if role < 0 || role >= len(roles) || roles[role] == reasoner.Nature {
		return nil, fmt.Errorf("exact: no player role %d", role)
	}
	s0, err := r.Initial(ctx)
	if err != nil {
		return nil, fmt.Errorf("exact: initial state: %w", err)
	}
	sv := &solver{
		r: r, seer: seer, role: role, against: against, fixed: fixed,
		nature: reasoner.NatureIndex(roles), opts: opts.withDefaults(), strategy: Policy{},
	}
	goals, err := sv.value(ctx, "", []entry{{s: s0, p: 1, views: make([]string, len(roles))}})
	if err != nil {
		return nil, err
	}
	return &Outcome{Goals: goals, Strategy: sv.strategy}, nil
}

// An entry is a history the match may have followed, as far as the
// search needs it: its state, its chance given the role's view, and the
// view of each role that plays a policy.
type entry struct {
	s     *reasoner.State
	p     float64
	views []string
}

type solver struct {
	r        reasoner.Reasoner
	seer     reasoner.Perceiver
	role     int
	against  int
	fixed    map[int]Policy
	nature   int
	opts     Options
	nodes    int
	strategy Policy
}

// eps is the difference below which two expected goals are taken as equal.
const eps = 1e-9

// value returns the expected goals of every role from the information set
// of the role with view, whose histories are belief (chances summing to
// 1), when the role chooses its best move there and later.
func (sv *solver) value(ctx context.Context, view string, belief []entry) ([]float64, error) {
	if sv.nodes++; sv.nodes > sv.opts.MaxNodes {
		return nil, fmt.Errorf("%w: more than %d information sets", ErrLimit, sv.opts.MaxNodes)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := len(sv.r.Roles())
	goals := make([]float64, n)
	var live []entry
	for _, e := range belief {
		done, err := sv.r.Terminal(ctx, e.s)
		if err != nil {
			return nil, fmt.Errorf("exact: view %q: %w", view, err)
		}
		if !done {
			live = append(live, e)
			continue
		}
		g, err := sv.r.Goals(ctx, e.s)
		if err != nil {
			return nil, fmt.Errorf("exact: view %q: goals: %w", view, err)
		}
		for i := range goals {
			goals[i] += e.p * float64(g[i])
		}
	}
	if len(live) == 0 {
		return goals, nil
	}
	moves, err := sv.r.Legal(ctx, live[0].s, sv.role)
	if err != nil {
		return nil, fmt.Errorf("exact: view %q: %w", view, err)
	}
	for _, e := range live[1:] {
		other, err := sv.r.Legal(ctx, e.s, sv.role)
		if err != nil {
			return nil, fmt.Errorf("exact: view %q: %w", view, err)
		}
		if !slices.Equal(moves, other) {
			return nil, fmt.Errorf("exact: view %q: the legal moves %v and %v of two states the role cannot tell apart differ", view, moves, other)
		}
	}
	var best []float64
	var bestMoves []reasoner.Move
	for _, m := range moves {
		v, err := sv.after(ctx, view, live, m)
		if err != nil {
			return nil, err
		}
		switch {
		case best == nil || v[sv.role] > best[sv.role]+eps:
			best, bestMoves = v, []reasoner.Move{m}
		case v[sv.role] < best[sv.role]-eps:
		case sv.against >= 0 && v[sv.against] < best[sv.against]-eps:
			best, bestMoves = v, []reasoner.Move{m}
		case sv.against < 0 || v[sv.against] < best[sv.against]+eps:
			bestMoves = append(bestMoves, m)
		}
	}
	if len(moves) > 1 {
		sv.strategy[view] = bestMoves
	}
	for i := range goals {
		goals[i] += best[i]
	}
	return goals, nil
}

// after returns the expected goals, weighted by the chance of the live
// histories, when the role plays m in all of them and best later.
func (sv *solver) after(ctx context.Context, view string, live []entry, m reasoner.Move) ([]float64, error) {
	n := len(sv.r.Roles())
	children := map[string][]entry{}
	for _, e := range live {
		options := make([][]reasoner.Move, n)
		for i := range n {
			if i == sv.role {
				options[i] = []reasoner.Move{m}
				continue
			}
			o, err := sv.options(ctx, e, i)
			if err != nil {
				return nil, fmt.Errorf("exact: view %q: %w", view, err)
			}
			options[i] = o
		}
		p := e.p
		for _, o := range options {
			p /= float64(len(o))
		}
		for joint := range jointMoves(options) {
			next, err := sv.r.Next(ctx, e.s, joint)
			if err != nil {
				return nil, fmt.Errorf("exact: view %q: %v: %w", view, joint, err)
			}
			percepts, err := sv.seer.Sees(ctx, e.s, joint, sv.role)
			if err != nil {
				return nil, fmt.Errorf("exact: view %q: %v: %w", view, joint, err)
			}
			views := slices.Clone(e.views)
			for i := range sv.fixed {
				ps, err := sv.seer.Sees(ctx, e.s, joint, i)
				if err != nil {
					return nil, fmt.Errorf("exact: view %q: %v: %w", view, joint, err)
				}
				views[i] += stepKey(joint[i], ps)
			}
			k := stepKey(m, percepts)
			children[k] = merge(children[k], entry{s: next, p: p, views: views})
		}
	}
	v := make([]float64, n)
	for _, k := range slices.Sorted(maps.Keys(children)) {
		child := children[k]
		mass := 0.0
		for _, e := range child {
			mass += e.p
		}
		for i := range child {
			child[i].p /= mass
		}
		g, err := sv.value(ctx, view+k, child)
		if err != nil {
			return nil, err
		}
		for i := range v {
			v[i] += mass * g[i]
		}
	}
	return v, nil
}

// options returns the moves role i chooses among, uniformly, in the
// history e.
func (sv *solver) options(ctx context.Context, e entry, i int) ([]reasoner.Move, error) {
	legal, err := sv.r.Legal(ctx, e.s, i)
	if err != nil {
		return nil, err
	}
	role := sv.r.Roles()[i]
	if len(legal) == 0 {
		return nil, fmt.Errorf("%s has no legal move in %v", role, e.s)
	}
	policy, ok := sv.fixed[i]
	switch {
	case i == sv.nature || !ok && len(legal) == 1:
		return legal, nil
	case !ok:
		return nil, fmt.Errorf("%s %w (%d moves)", role, errUnmodelled, len(legal))
	}
	chosen, ok := policy[e.views[i]]
	if !ok && len(legal) == 1 {
		return legal, nil
	}
	if !ok || len(chosen) == 0 {
		return nil, fmt.Errorf("the policy of %s has no move for its view %q", role, e.views[i])
	}
	for _, c := range chosen {
		if !slices.Contains(legal, c) {
			return nil, fmt.Errorf("the policy of %s plays %s at its view %q, where it is not legal", role, c, e.views[i])
		}
	}
	return chosen, nil
}

// merge adds e to the histories of an information set, adding its chance
// to a history of the same state and views.
func merge(set []entry, e entry) []entry {
	for i, o := range set {
		if o.s.Hash() == e.s.Hash() && o.s.Equal(e.s) && slices.Equal(o.views, e.views) {
			set[i].p += e.p
			return set
		}
	}
	return append(set, e)
}

// jointMoves yields every joint move of one option for each role. The
// slice yielded is reused.
func jointMoves(options [][]reasoner.Move) func(func([]reasoner.Move) bool) {
	return func(yield func([]reasoner.Move) bool) {
		joint := make([]reasoner.Move, len(options))
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(options) {
				return yield(joint)
			}
			for _, m := range options[i] {
				joint[i] = m
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		rec(0)
	}
}

// A Solution is the value of a game to a role.
type Solution struct {
	// Value is the role's expected goal.
	Value float64
	// Strategy is the role's strategy that achieves it, as Best gives it.
	Strategy Policy
	// Opponent is the index of the role that best-responds, or -1 when
	// the role plays alone against nature.
	Opponent int
	// Reply is the opponent's best response to Strategy; nil without an
	// opponent.
	Reply Policy
}

// Solve returns the value of the game to role. Alone against nature (the
// other roles, but nature, never having a choice) it is Best's. With one
// opponent that has choices, it is the most the role can expect from a
// pure strategy (a move at each of its views) that the opponent knows and
// best-responds to, maximizing its own expected goal at each of its views
// and, among equal replies, taking those worst for the role. Among equal
// strategies of the role, the first in the order of its views and moves
// is returned. More than one opponent is an error.
func Solve(ctx context.Context, r reasoner.Reasoner, role int, opts Options) (*Solution, error) {
	opts = opts.withDefaults()
	all, err := Best(ctx, r, role, nil, -1, opts)
	if err == nil {
		return &Solution{Value: all.Goals[role], Strategy: all.Strategy, Opponent: -1}, nil
	}
	if !errors.Is(err, errUnmodelled) {
		return nil, err
	}
	// Find the roles with choices: with a uniform policy everywhere, Best
	// meets every view of theirs.
	sets, err := choices(ctx, r, role, opts)
	if err != nil {
		return nil, err
	}
	var opponents []int
	for i := range sets {
		if i != role && len(sets[i]) > 0 {
			opponents = append(opponents, i)
		}
	}
	if len(opponents) != 1 {
		return nil, fmt.Errorf("exact: %s has %d opponents with choices; Solve handles one", r.Roles()[role], len(opponents))
	}
	opp := opponents[0]
	views := slices.Sorted(maps.Keys(sets[role]))
	total := 1
	for _, v := range views {
		if total *= len(sets[role][v]); total > opts.MaxStrategies {
			return nil, fmt.Errorf("%w: %s has more than %d pure strategies", ErrLimit, r.Roles()[role], opts.MaxStrategies)
		}
	}
	var best *Solution
	for k := range total {
		strategy := Policy{}
		for _, v := range views {
			moves := sets[role][v]
			strategy[v] = []reasoner.Move{moves[k%len(moves)]}
			k /= len(moves)
		}
		reply, err := Best(ctx, r, opp, map[int]Policy{role: strategy}, role, opts)
		if err != nil {
			return nil, fmt.Errorf("exact: the reply of %s: %w", r.Roles()[opp], err)
		}
		if v := reply.Goals[role]; best == nil || v > best.Value+eps {
			best = &Solution{Value: v, Strategy: strategy, Opponent: opp, Reply: reply.Strategy}
		}
	}
	return best, nil
}

// choices returns, for each role, its views with a choice of moves and
// those moves, over every history of the game: each role's information
// sets when every player chooses uniformly.
func choices(ctx context.Context, r reasoner.Reasoner, role int, opts Options) ([]map[string][]reasoner.Move, error) {
	seer, ok := r.(reasoner.Perceiver)
	if !ok {
		return nil, fmt.Errorf("exact: reasoner %T gives no percepts", r)
	}
	roles := r.Roles()
	sets := make([]map[string][]reasoner.Move, len(roles))
	for i := range sets {
		sets[i] = map[string][]reasoner.Move{}
	}
	s0, err := r.Initial(ctx)
	if err != nil {
		return nil, fmt.Errorf("exact: initial state: %w", err)
	}
	nature := reasoner.NatureIndex(roles)
	nodes := 0
	var visit func(s *reasoner.State, views []string) error
	visit = func(s *reasoner.State, views []string) error {
		if nodes++; nodes > opts.MaxNodes {
			return fmt.Errorf("%w: more than %d histories", ErrLimit, opts.MaxNodes)
		}
		if done, err := r.Terminal(ctx, s); err != nil || done {
			return err
		}
		options := make([][]reasoner.Move, len(roles))
		for i := range roles {
			legal, err := r.Legal(ctx, s, i)
			if err != nil {
				return err
			}
			if i != nature && len(legal) > 1 {
				sets[i][views[i]] = legal
			}
			options[i] = legal
		}
		for joint := range jointMoves(options) {
			next := slices.Clone(views)
			for i := range roles {
				ps, err := seer.Sees(ctx, s, joint, i)
				if err != nil {
					return err
				}
				next[i] += stepKey(joint[i], ps)
			}
			ns, err := r.Next(ctx, s, joint)
			if err != nil {
				return err
			}
			if err := visit(ns, next); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(s0, make([]string, len(roles))); err != nil {
		return nil, fmt.Errorf("exact: %w", err)
	}
	return sets, nil
}

// Opponent returns a policy for the opponent of sol (which must have one)
// that best-responds wherever the match may go: at the views sol's
// strategy leads to, sol's reply; at the others, the best reply to a role
// that chooses uniformly among its moves, as if the role had trembled.
// Where several replies are equally good it chooses among them
// uniformly.
func Opponent(ctx context.Context, r reasoner.Reasoner, role int, sol *Solution, opts Options) (Policy, error) {
	if sol.Opponent < 0 {
		return nil, errors.New("exact: the solution has no opponent")
	}
	uniform, err := Uniform(ctx, r, role, opts)
	if err != nil {
		return nil, err
	}
	off, err := Best(ctx, r, sol.Opponent, map[int]Policy{role: uniform}, role, opts)
	if err != nil {
		return nil, fmt.Errorf("exact: the reply of %s to a uniform %s: %w", r.Roles()[sol.Opponent], r.Roles()[role], err)
	}
	p := maps.Clone(off.Strategy)
	maps.Copy(p, sol.Reply)
	return p, nil
}

// Uniform returns the policy that chooses uniformly among all of role's
// legal moves at each of its views with a choice: what Solve assumes of
// nobody, and what a trembling opponent plays off its path.
func Uniform(ctx context.Context, r reasoner.Reasoner, role int, opts Options) (Policy, error) {
	sets, err := choices(ctx, r, role, opts.withDefaults())
	if err != nil {
		return nil, err
	}
	return Policy(sets[role]), nil
}
