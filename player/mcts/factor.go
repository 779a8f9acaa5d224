package mcts

// Games that fall into factors (Config.Factor). The simultaneous connect
// four is two connect fours side by side: each turn a role drops a disc
// on the board it holds while the other role drops on the other board,
// and the game ends when either board has a line. Searched whole, each
// step is a choice of both roles at once, and looking d moves ahead on
// one board costs the product of both boards' moves at every step. A
// reasoner that finds the game's factors (propnet's Factors) lets each
// be searched alone, as Sancho does: a search of one factor plays the
// moves of that factor only, a role without one there plays a pseudo
// noop, and the other factors' facts stay as they are; the goals and the
// end of the game are read as the rules say. The player moves by the
// search of the factor its legal moves are in, and by a search of the
// whole game where they are in several or none.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// Factorer is a reasoner that finds the factors of its game and steps
// within one of them.
type Factorer interface {
	reasoner.Reasoner
	// Moves returns every move role can ever make, sorted; Factors
	// numbers moves by their position here.
	Moves(role int) []reasoner.Move
	// Factors returns the factors: for each, per role, the numbers of
	// its moves; nil when the game has fewer than two.
	Factors() [][][]int32
	// NextInFactor returns the state after the moves of joint that are
	// in factor f, with the other factors' facts as in s.
	NextInFactor(ctx context.Context, s *reasoner.State, f int, joint []reasoner.Move) (*reasoner.State, error)
}

// pseudoNoop is the move of a role without a legal move in a factor, in
// that factor's search. It is not a GDL term (a compound move is written
// in parentheses), so no game has it.
const pseudoNoop reasoner.Move = "pseudo noop"

// ErrNoFactors is returned by NewFactored for a game that does not fall
// into two or more factors holding the role's moves.
var ErrNoFactors = errors.New("mcts: the game has no factors to search apart")

// factorGame is the game of one factor of a Factorer: its legal moves
// are the factor's, or the pseudo noop; its steps leave the other
// factors alone; it ends where the game does or where no role has a move
// left in the factor.
type factorGame struct {
	base Factorer
	f    int
	in   []map[reasoner.Move]bool // per role: the factor's moves
}

func newFactorGame(base Factorer, f int, factor [][]int32) *factorGame {
	g := &factorGame{base: base, f: f, in: make([]map[reasoner.Move]bool, len(factor))}
	for role, ms := range factor {
		g.in[role] = make(map[reasoner.Move]bool, len(ms))
		for _, i := range ms {
			g.in[role][base.Moves(role)[i]] = true
		}
	}
	return g
}

func (g *factorGame) Roles() []string { return g.base.Roles() }

func (g *factorGame) Initial(ctx context.Context) (*reasoner.State, error) {
	return g.base.Initial(ctx)
}

// Legal returns role's legal moves in the factor, or the pseudo noop.
func (g *factorGame) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	ms, err := g.base.Legal(ctx, s, role)
	if err != nil {
		return nil, err
	}
	out := ms[:0:0]
	for _, m := range ms {
		if g.in[role][m] {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		out = append(out, pseudoNoop)
	}
	return out, nil
}

func (g *factorGame) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	return g.base.NextInFactor(ctx, s, g.f, joint)
}

// Terminal reports whether the game ends in s or the factor is spent.
func (g *factorGame) Terminal(ctx context.Context, s *reasoner.State) (bool, error) {
	if term, err := g.base.Terminal(ctx, s); err != nil || term {
		return term, err
	}
	return g.spent(ctx, s)
}

// spent reports whether no role has a legal move of the factor in s.
func (g *factorGame) spent(ctx context.Context, s *reasoner.State) (bool, error) {
	for role := range g.in {
		ms, err := g.base.Legal(ctx, s, role)
		if err != nil {
			return false, err
		}
		if slices.ContainsFunc(ms, func(m reasoner.Move) bool { return g.in[role][m] }) {
			return false, nil
		}
	}
	return true, nil
}

// Goals returns the goals where the game ends, and where only the factor
// is spent an equal share for every role: what the other factors will
// make of the game is not searched here.
func (g *factorGame) Goals(ctx context.Context, s *reasoner.State) ([]int, error) {
	term, err := g.base.Terminal(ctx, s)
	if err != nil {
		return nil, err
	}
	if term {
		return g.base.Goals(ctx, s)
	}
	out := make([]int, len(g.in))
	for i := range out {
		out[i] = 100 / len(out)
	}
	return out, nil
}

func (g *factorGame) Fork() (reasoner.Reasoner, error) {
	r, err := g.base.Fork()
	if err != nil {
		return nil, err
	}
	f, ok := r.(Factorer)
	if !ok {
		return nil, fmt.Errorf("mcts: a fork of %T finds no factors", g.base)
	}
	return &factorGame{base: f, f: g.f, in: g.in}, nil
}

// project returns joint as factor g's search plays it: the moves outside
// the factor become the pseudo noop.
func (g *factorGame) project(joint []reasoner.Move) []reasoner.Move {
	out := make([]reasoner.Move, len(joint))
	for role, m := range joint {
		out[role] = pseudoNoop
		if g.in[role][m] {
			out[role] = m
		}
	}
	return out
}

// holds reports whether every move of legal, role's legal moves, is in
// the factor, and there is one.
func (g *factorGame) holds(role int, legal []reasoner.Move) bool {
	return len(legal) > 0 && !slices.ContainsFunc(legal, func(m reasoner.Move) bool { return !g.in[role][m] })
}

// Factored searches a game that falls into factors for one role: a
// Search of each factor that holds moves of the role, and a Search of
// the whole game, all advanced with every joint move played. Its methods
// are those of Search that a player uses, and the role's move comes from
// the search that is active: the factor's when every legal move of the
// role is in that one factor, the whole game's otherwise. Like Search,
// its methods are called from one goroutine at a time, except TryBest
// and TryLegal, which any goroutine may call.
type Factored struct {
	role  int
	whole *Search
	games []*factorGame
	parts []*Search
	snap  atomic.Pointer[factoredSnap]
}

// factoredSnap is the current state and the search that is active in it,
// published whenever they change; never modified once published.
type factoredSnap struct {
	state  *reasoner.State
	active int             // index into parts, or -1 for whole
	part   *reasoner.State // the active part's state, nil without one
}

// maxFactors bounds the factors searched apart: each is a Search of its
// own, with its share of the memory bounds.
const maxFactors = 8

// NewFactored returns a Factored search of the game r plays for role, or
// ErrNoFactors when it would not search the game apart: r finds no
// factors, the role has moves in fewer than two or more than maxFactors,
// the role's first legal moves are not all in one factor (a puzzle whose
// every cell is a factor, where the whole game's search would answer
// each turn), or the game has one role (the search of a puzzle looks for
// whole lines). The memory bounds of cfg are shared out among the
// searches.
func NewFactored(ctx context.Context, r reasoner.Reasoner, cfg Config, role int) (*Factored, error) {
	fr, ok := r.(Factorer)
	if !ok || len(r.Roles()) < 2 {
		return nil, ErrNoFactors
	}
	var games []*factorGame
	for f, factor := range fr.Factors() {
		if role >= 0 && role < len(factor) && len(factor[role]) > 0 {
			games = append(games, newFactorGame(fr, f, factor))
		}
	}
	if len(games) < 2 || len(games) > maxFactors {
		return nil, ErrNoFactors
	}
	init, err := r.Initial(ctx)
	if err != nil {
		return nil, err
	}
	legal, err := r.Legal(ctx, init, role)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(games, func(g *factorGame) bool { return g.holds(role, legal) }) {
		return nil, ErrNoFactors
	}
	cfg = cfg.withDefaults()
	n := len(games) + 1
	cfg.MaxNodes /= n
	cfg.MaxBytes /= int64(n)
	fz := &Factored{role: role}
	if fz.whole, err = New(ctx, r, cfg); err != nil {
		return nil, err
	}
	for _, g := range games {
		fork, err := fr.Fork()
		if err != nil {
			return nil, errors.Join(err, fz.Close())
		}
		g.base = fork.(Factorer)
		s, err := New(ctx, g, cfg)
		if err != nil {
			return nil, errors.Join(err, fz.Close())
		}
		fz.games = append(fz.games, g)
		fz.parts = append(fz.parts, s)
	}
	fz.publish()
	return fz, nil
}

// publish records the current state and the search active in it: the
// part whose factor holds every legal move of the role, or -1.
func (fz *Factored) publish() {
	active := -1
	legal := fz.whole.Legal(fz.role)
	for i, g := range fz.games {
		if g.holds(fz.role, legal) {
			active = i
			break
		}
	}
	snap := &factoredSnap{state: fz.whole.State(), active: active}
	if active >= 0 {
		snap.part = fz.parts[active].State()
	}
	fz.snap.Store(snap)
}

// active returns the search that chooses the role's move now.
func (fz *Factored) active() *Search {
	if i := fz.snap.Load().active; i >= 0 {
		return fz.parts[i]
	}
	return fz.whole
}

// Factors reports how many factors are searched apart.
func (fz *Factored) Factors() int { return len(fz.parts) }

// ponderSlice is the longest a Run gives one search before the next.
const ponderSlice = time.Second

// Run searches until ctx is done: the active search and the searches of
// the other factors that hold the role's moves by turns, the active one
// last (in a game whose factors take turns, such as the simultaneous
// connect four, the role moves next in another factor), each at first
// for an equal share of the time left and then for at most ponderSlice.
func (fz *Factored) Run(ctx context.Context) error {
	cur := fz.active()
	order := []*Search{}
	for _, s := range fz.parts {
		if s != cur {
			order = append(order, s)
		}
	}
	order = append(order, cur)
	for round := 0; ctx.Err() == nil; round++ {
		start := time.Now()
		for i, s := range order {
			slice := ponderSlice
			if dl, ok := ctx.Deadline(); ok && round == 0 {
				slice = time.Until(dl) / time.Duration(len(order)-i)
			}
			sctx, cancel := context.WithTimeout(ctx, slice)
			err := s.Run(sctx)
			cancel()
			if err != nil {
				return err
			}
		}
		if time.Since(start) < time.Millisecond {
			// Every search has finished (proven): nothing to do
			// until the next command.
			<-ctx.Done()
		}
	}
	return nil
}

// Decide is Search.Decide on the active search.
func (fz *Factored) Decide(ctx context.Context, role int) (bool, error) {
	return fz.active().Decide(ctx, role)
}

// Best is Search.Best on the active search. Its factor holds every
// legal move of the role, so its move is never the pseudo noop.
func (fz *Factored) Best(role int) (reasoner.Move, error) { return fz.active().Best(role) }

// Advance advances every search by joint. A factor's search whose factor
// is spent stays where it is: no move of the role is left there.
func (fz *Factored) Advance(ctx context.Context, joint []reasoner.Move) error {
	if err := fz.whole.Advance(ctx, joint); err != nil {
		return err
	}
	for i, s := range fz.parts {
		if err := s.Advance(ctx, fz.games[i].project(joint)); err != nil && !errors.Is(err, ErrTerminal) {
			return fmt.Errorf("factor %d: %w", fz.games[i].f, err)
		}
	}
	fz.publish()
	return nil
}

// Focus is Search.Focus on the active search.
func (fz *Factored) Focus(role int, move reasoner.Move) bool { return fz.active().Focus(role, move) }

// State returns the current state of the game.
func (fz *Factored) State() *reasoner.State { return fz.whole.State() }

// RootMove is Search.RootMove on the active search.
func (fz *Factored) RootMove(role int, m reasoner.Move) (MoveStat, bool) {
	return fz.active().RootMove(role, m)
}

// Stats returns the active search's statistics.
func (fz *Factored) Stats() Stats { return fz.active().Stats() }

// TryBest is Search.TryBest on the search active in st.
func (fz *Factored) TryBest(role int, st *reasoner.State) (reasoner.Move, bool) {
	snap := fz.snap.Load()
	if !snap.state.Equal(st) || snap.active < 0 {
		return fz.whole.TryBest(role, st)
	}
	return fz.parts[snap.active].TryBest(role, snap.part)
}

// TryLegal is Search.TryLegal of the whole game.
func (fz *Factored) TryLegal(role int, st *reasoner.State) ([]reasoner.Move, bool) {
	return fz.whole.TryLegal(role, st)
}

// Close closes every search.
func (fz *Factored) Close() error {
	var errs []error
	for _, s := range append([]*Search{fz.whole}, fz.parts...) {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}
