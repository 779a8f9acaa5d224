package local

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// A view is what a player of a GDL-II match knows of it: the steps it was
// told, and the states it holds possible (package reasoner/infoset). It
// follows the steps in a belief, unless an update fails (its search found
// no consistent state within its limits): from then on approx, the states
// the belief held, follows the steps approximately (see approximate).
type view struct {
	g      *follow.Game
	belief *infoset.Belief
	err    error // why belief is nil
	opts   infoset.Options
	steps  infoset.View
	approx []*reasoner.State // nil while belief follows the steps
	rng    *rand.Rand
	logf   func(format string, args ...any)
}

// newView returns the view of g's role at the start of a GDL-II match. A
// server cannot tell a GDL match of rules that name a role random from a
// GDL-II one before its first PLAY: the belief is only needed, and its
// failure only an error, in the latter, so the view keeps it in err.
func newView(ctx context.Context, g *follow.Game, seed uint64, logf func(string, ...any)) *view {
	for _, c := range g.ID {
		seed = seed*31 + uint64(c)
	}
	v := &view{
		g: g,
		// Nature's moves that deal cards are many (thousands in
		// small_dominion): past MaxJoints the belief samples, and so
		// loses the chances of the states it holds. A larger bound
		// keeps it complete while the time allows (an update
		// enumerates for at most half of its time).
		//
		// A sampled belief's moves are those legal in every
		// hypothesis: 64 of them, not the default 16, hold more of
		// what the role cannot see (an unseen pawn in front of its
		// own), at a cost that stays small.
		opts:  infoset.Options{MaxJoints: 1 << 14, Samples: 64, Rand: rand.New(rand.NewPCG(seed, 0x62656c696566))},
		steps: infoset.View{Role: g.Role},
		rng:   rand.New(rand.NewPCG(seed, 0x617070726f78)),
		logf:  logf,
	}
	v.belief, v.err = infoset.New(ctx, g.R, v.steps, v.opts)
	return v
}

// follow takes the step t tells of into the view: none on the first turn,
// and none again for a turn already followed, as a repeated PLAY is. A
// turn that skips a step is an error: the player cannot know what it
// missed. Once the belief cannot follow a step, the states it held follow
// the steps approximately instead. The belief's update takes half of the
// budget b, and the whole step is followed within b, as far as it is by
// then.
func (v *view) follow(ctx context.Context, t player.Turn, b clock.Budget) error {
	if v.belief == nil {
		if v.err != nil {
			return v.err
		}
		return fmt.Errorf("PLAY of a GDL-II match, but the rules are GDL")
	}
	done := len(v.steps.Steps)
	switch {
	case t.Number < 0:
		return fmt.Errorf("turn %d", t.Number)
	case t.Number > done+1:
		return fmt.Errorf("turn %d after turn %d: the steps between are not known", t.Number, done)
	case t.Number <= done:
		return nil
	}
	step := infoset.Step{Move: t.Move, Percepts: slices.Clone(t.Percepts)}
	v.steps.Steps = append(v.steps.Steps, step)
	ctx, cancel := b.Context(ctx)
	defer cancel()
	if v.approx == nil {
		uctx, cancel := b.Share(0.5).Context(ctx)
		err := v.belief.Update(uctx, step)
		cancel()
		if err == nil {
			return nil
		}
		v.logf("match %s: turn %d: %v; following the states held possible approximately", v.g.ID, t.Number, err)
		v.approx = slices.Clone(v.belief.States())
	}
	next, err := approximate(ctx, v.g.R, v.g.Role, v.approx, step, v.rng)
	if err != nil {
		return fmt.Errorf("turn %d: %w", t.Number, err)
	}
	if len(next) > 0 {
		v.approx = next
	}
	return nil
}

// states returns the states the view holds possible and the chance of
// each (infoset.Belief.Weights; equal once they are approximate).
func (v *view) states() ([]*reasoner.State, []float64) {
	if v.approx == nil {
		return v.belief.States(), v.belief.Weights()
	}
	w := make([]float64, len(v.approx))
	for i := range w {
		w[i] = 1
	}
	return v.approx, w
}

// moves returns the moves most likely legal given what the view holds
// possible: those the role can be sure are legal, while some are, and
// otherwise the best guess there is.
func (v *view) moves(ctx context.Context) ([]reasoner.Move, error) {
	states, weights := v.states()
	return likeliestLegal(ctx, v.g.R, v.g.Role, states, weights)
}

// maxApprox bounds the states approximate follows, and approxTries the
// joint moves it tries from each.
const (
	maxApprox   = 16
	approxTries = 64
)

// approximate follows step from states when the belief could not: from
// each state (at most maxApprox), the successor of a random joint move
// holding the role's own move that gives the role the percepts it had,
// if one of approxTries such moves does, or else the successor of the
// first. The states are then not all consistent with the view, but they
// hold the effects of the role's own moves, which its legal moves often
// depend on. When ctx is done it returns the states followed so far,
// perhaps none.
func approximate(ctx context.Context, r reasoner.Reasoner, role int, states []*reasoner.State, step infoset.Step, rng *rand.Rand) ([]*reasoner.State, error) {
	seer, ok := r.(reasoner.Perceiver)
	if !ok {
		return nil, fmt.Errorf("reasoner %T gives no percepts", r)
	}
	want := slices.Compact(slices.Sorted(slices.Values(step.Percepts)))
	nroles := len(r.Roles())
	var next []*reasoner.State
	// A time-out keeps the states followed so far: they are what the
	// turn can use, and an error in their place would cost the move.
	stop := func(err error) ([]*reasoner.State, error) {
		if cutShort(err) {
			return next, nil
		}
		return nil, err
	}
	for _, s := range states[:min(len(states), maxApprox)] {
		if done, err := r.Terminal(ctx, s); err != nil || done {
			if err != nil {
				return stop(err)
			}
			continue
		}
		legal := make([][]reasoner.Move, nroles)
		for i := range legal {
			var err error
			if legal[i], err = r.Legal(ctx, s, i); err != nil {
				return stop(err)
			}
		}
		if !slices.Contains(legal[role], step.Move) || slices.ContainsFunc(legal, func(l []reasoner.Move) bool { return len(l) == 0 }) {
			continue
		}
		var first *reasoner.State
		for range approxTries {
			joint := make([]reasoner.Move, nroles)
			for i, l := range legal {
				joint[i] = l[rng.IntN(len(l))]
			}
			joint[role] = step.Move
			got, err := seer.Sees(ctx, s, joint, role)
			if err != nil {
				return stop(err)
			}
			succ, err := r.Next(ctx, s, joint)
			if err != nil {
				return stop(err)
			}
			if slices.Equal(got, want) {
				first = succ
				break
			}
			if first == nil {
				first = succ
			}
		}
		next = append(next, first)
	}
	return next, nil
}

// likeliestLegal returns the moves of role whose states, of those given
// with their weights, weigh the most, sorted: the moves legal in all of
// them, if any. When no move is (in blind breakthrough, which of two
// pawns is blocked may be unknown), the guess follows the chances of the
// states, not their number. When ctx is done before every state is
// read, the states read so far decide; an error only if none was.
func likeliestLegal(ctx context.Context, r reasoner.Reasoner, role int, states []*reasoner.State, weights []float64) ([]reasoner.Move, error) {
	weight := map[reasoner.Move]float64{}
	count := map[reasoner.Move]int{}
	for i, s := range states {
		legal, err := r.Legal(ctx, s, role)
		if err != nil {
			if i == 0 || !cutShort(err) {
				return nil, err
			}
			states = states[:i]
			break
		}
		for _, mv := range legal {
			weight[mv] += weights[i]
			count[mv]++
		}
	}
	// A move legal in every state is sure, whatever the sums' rounding.
	best, sure := 0.0, false
	for mv, w := range weight {
		if count[mv] == len(states) {
			sure = true
		}
		best = max(best, w)
	}
	var moves []reasoner.Move
	for mv, w := range weight {
		if sure && count[mv] == len(states) || !sure && w >= best*(1-1e-9) {
			moves = append(moves, mv)
		}
	}
	if len(moves) == 0 {
		return nil, errors.New("no move is legal in any state held possible")
	}
	slices.Sort(moves)
	return moves, nil
}
