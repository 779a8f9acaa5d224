package infoset

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/reasoner"
)

// A Follower follows what one role of a GDL-II match knows, turn by turn,
// as every player of such a match needs to: the mcts player, a person's
// seat, random and legal alike. It holds the role's view, every step it
// was told, and the states it holds possible then.
//
// While it can, it follows the steps exactly, in a Belief. When the
// belief cannot follow a step within the follower's share of the time (its
// search found no consistent state within its limits), it follows them
// approximately (see approximate): the states held before the step are
// taken through it, each by a joint move that holds the role's own move
// and gives it its percepts where one is found. At every later step it
// first tries again to follow exactly, building the belief anew from the
// whole view within the same share, and so returns to exact following as
// soon as the time allows.
//
// A Follower is not safe for concurrent use.
type Follower struct {
	r    reasoner.Reasoner
	opts Options
	view View
	rng  *rand.Rand

	belief *Belief           // nil while the follower is approximate
	approx []*reasoner.State // the states followed approximately, while belief is nil
	lost   error             // why the belief could not follow, while belief is nil
}

// exactShare is the share of a step's time that following it exactly may
// take (an update of the belief, or else building it anew); the rest is
// for following it approximately when that fails.
const exactShare = 0.5

// Defaults of a Follower's Options where they differ from a Belief's.
// Nature's moves that deal cards are many (thousands in small_dominion):
// past MaxJoints the belief samples, and so loses the chances of the
// states it holds; a larger bound keeps it complete while the time allows.
// A sampled belief's moves are those legal in every hypothesis: 64 of
// them hold more of what the role cannot see (an unseen pawn in front of
// its own) than 16, at a cost that stays small. A belief built anew from
// the whole view may examine rebuildWork joint moves: hypotheses that fit
// a step late in the match can be rare among those a sample draws.
const (
	followJoints  = 1 << 14
	followSamples = 64
	rebuildWork   = 1 << 18
)

// NewFollower returns the follower of role at the start of a match of r,
// which must be a reasoner.Perceiver. Options left zero take the
// Follower's defaults, then the Belief's.
func NewFollower(ctx context.Context, r reasoner.Reasoner, role int, opts Options) (*Follower, error) {
	if opts.MaxJoints <= 0 {
		opts.MaxJoints = followJoints
	}
	if opts.Samples <= 0 {
		opts.Samples = followSamples
	}
	opts = opts.withDefaults()
	f := &Follower{
		r:    r,
		opts: opts,
		view: View{Role: role},
		rng:  rand.New(rand.NewPCG(opts.Rand.Uint64(), opts.Rand.Uint64())),
	}
	b, err := New(ctx, r, f.view, opts)
	if err != nil {
		return nil, err
	}
	f.belief = b
	return f, nil
}

// Follow takes in the step of turn number, the steps played so far as
// the game master counts them (player.Turn.Number): the step told with
// turn number is step number. Turn 0 tells no step, and a turn already
// followed (a repeated message) none again: Follow reports whether it took
// a new step. A turn that skips a step is an error: what was missed is not
// known.
//
// The step is followed within the deadline of ctx, its budget (package
// clock): following exactly takes exactShare of it, and following
// approximately, when that fails, the rest. An error is left only when
// no state can be followed at all.
func (f *Follower) Follow(ctx context.Context, number int, st Step) (bool, error) {
	done := len(f.view.Steps)
	switch {
	case number < 0:
		return false, fmt.Errorf("turn %d", number)
	case number > done+1:
		return false, fmt.Errorf("turn %d after turn %d: the steps between are not known", number, done)
	case number <= done:
		return false, nil
	}
	st.Percepts = slices.Clone(st.Percepts)
	f.view.Steps = append(f.view.Steps, st)
	budget := clock.FromContext(ctx)
	ectx, cancel := budget.Share(exactShare).Context(ctx)
	err := f.followExactly(ectx, st)
	cancel()
	if err == nil {
		return true, nil
	}
	next, err := approximate(ctx, f.r, f.view.Role, f.approx, st, f.rng)
	if err != nil {
		return true, fmt.Errorf("turn %d: %w", number, err)
	}
	if len(next) > 0 {
		f.approx = next
	}
	return true, nil
}

// followExactly follows st, the last step of the view, in the belief: by
// an update while there is one, and else, or when the update fails, by a
// belief built anew from the whole view. On failure the follower is left
// approximate, holding the states it held before st.
func (f *Follower) followExactly(ctx context.Context, st Step) error {
	if f.belief != nil {
		err := f.belief.Update(ctx, st)
		if err == nil {
			return nil
		}
		f.belief, f.approx, f.lost = nil, slices.Clone(f.belief.States()), err
	}
	if ctx.Err() != nil {
		return f.lost
	}
	opts := f.opts
	opts.MaxWork = max(opts.MaxWork, rebuildWork)
	b, err := New(ctx, f.r, f.view, opts)
	if err != nil {
		return f.lost
	}
	f.belief, f.approx, f.lost = b, nil, nil
	return nil
}

// Exact reports whether the follower follows the steps exactly, in a
// belief; otherwise Lost says why it does not.
func (f *Follower) Exact() bool { return f.belief != nil }

// Lost returns why the follower follows the steps approximately, or nil
// while it follows them exactly.
func (f *Follower) Lost() error { return f.lost }

// Complete reports whether the follower holds every state consistent with
// the view (Belief.Complete).
func (f *Follower) Complete() bool { return f.belief != nil && f.belief.Complete() }

// Turns returns the number of steps followed.
func (f *Follower) Turns() int { return len(f.view.Steps) }

// States returns the states the follower holds possible and the chance of
// each (Belief.Weights; equal once they are approximate). The caller must
// not modify them.
func (f *Follower) States() ([]*reasoner.State, []float64) {
	if f.belief != nil {
		return f.belief.States(), f.belief.Weights()
	}
	w := make([]float64, len(f.approx))
	for i := range w {
		w[i] = 1 / float64(len(w))
	}
	return f.approx, w
}

// Moves returns the moves of the role most likely legal in the states the
// follower holds possible, sorted: the moves legal in all of them, which
// the role can be sure of while it follows exactly and its belief is
// Complete, if there are any; otherwise those legal in the states of the
// most weight, the best guess there is (in blind breakthrough, which of
// two pawns is blocked may be unknown). When ctx is done before every
// state is read, the states read so far decide; it fails only if none was,
// or no move is legal in any state.
func (f *Follower) Moves(ctx context.Context) ([]reasoner.Move, error) {
	states, weights := f.States()
	return likeliestLegal(ctx, f.r, f.view.Role, states, weights)
}

// cutShort reports whether err only says that the time was up or the
// work was cancelled.
func cutShort(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
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
func approximate(ctx context.Context, r reasoner.Reasoner, role int, states []*reasoner.State, step Step, rng *rand.Rand) ([]*reasoner.State, error) {
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
// them, if any. When no move is, the guess follows the chances of the
// states, not their number. When ctx is done before every state is read,
// the states read so far decide; an error only if none was.
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
