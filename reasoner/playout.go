package reasoner

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// A Playouter is a Reasoner that plays random playouts itself, in its own
// representation, without building a State or a Move per step. A backend
// implements it when that is much faster than the generic loop; Playout
// uses it when present, and a search may call it directly.
type Playouter interface {
	// Playout plays as the package's Playout does, drawing the same
	// random numbers in the same order (one rng.IntN(len(legal)) per role,
	// in role order, per step, over the sorted legal moves), so that both
	// reach the same state from the same generator.
	Playout(ctx context.Context, s *State, rng *rand.Rand, maxSteps int) (*State, int, error)
}

// Playout plays uniformly random joint moves from s until a terminal state
// or maxSteps steps, and returns the last state and the number of steps
// played. moves is scratch space for the joint move and may be nil. When r
// is a Playouter, its own Playout does the work. It stops with the error
// of ctx once ctx is done, checked at every step: a reasoner may not heed
// ctx within its own calls.
func Playout(ctx context.Context, r Reasoner, s *State, rng *rand.Rand, maxSteps int, moves []Move) (*State, int, error) {
	if p, ok := r.(Playouter); ok {
		return p.Playout(ctx, s, rng, maxSteps)
	}
	n := len(r.Roles())
	if cap(moves) < n {
		moves = make([]Move, n)
	}
	joint := moves[:n]
	for step := 0; step < maxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return s, step, err
		}
		terminal, err := r.Terminal(ctx, s)
		if err != nil {
			return s, step, err
		}
		if terminal {
			return s, step, nil
		}
		for i := range joint {
			legal, err := r.Legal(ctx, s, i)
			if err != nil {
				return s, step, err
			}
			if len(legal) == 0 {
				return s, step, fmt.Errorf("step %d: %s has no legal move", step, r.Roles()[i])
			}
			joint[i] = legal[rng.IntN(len(legal))]
		}
		next, err := r.Next(ctx, s, joint)
		if err != nil {
			return s, step, fmt.Errorf("step %d: %w", step, err)
		}
		s = next
	}
	return s, maxSteps, nil
}

// A Policy chooses the moves of a playout that a PolicyPlayouter plays.
type Policy interface {
	// Choose returns the position, in legal, of the move role plays.
	// legal holds the numbers of role's legal moves, ascending, in the
	// numbering of the PolicyPlayouter's Moves; it has at least two
	// entries, for a role with one legal move plays it without being
	// asked. Choose must not keep legal.
	Choose(role int, legal []int32) int
}

// A PolicyPlayouter is a Reasoner that plays playouts in its own
// representation, as a Playouter does, with each move chosen by a Policy
// instead of uniformly at random. A search whose playouts follow learned
// move values uses it to play them without a State or a Move per step.
type PolicyPlayouter interface {
	// Moves returns every move role can ever make in the game, sorted:
	// the numbering a Policy's legal moves refer to. The caller must not
	// modify the slice.
	Moves(role int) []Move
	// PolicyPlayout plays from s until a terminal state or maxSteps
	// steps, asking p for the move of every role with a choice, in role
	// order, at every step, and returns the last state and the number of
	// steps played. A role without a legal move ends it with an error.
	PolicyPlayout(ctx context.Context, s *State, p Policy, maxSteps int) (*State, int, error)
}

// A WinReader is a PolicyPlayouter that reads from the rules which moves
// win at once, and plays playouts that play them and keep from handing
// them to another role: a playout between players who see a win in one
// move. Reading changes nothing: a playout plays the wins its call is
// given, and only those.
type WinReader interface {
	PolicyPlayouter
	// DecisiveMoves returns, per role, the numbers in the numbering of
	// Moves of the moves that end the game with the role's highest goal
	// in whatever state the role plays them and whatever the other roles
	// play (breakthrough's steps onto the last row), ascending. A move
	// that wins only in some states is not among them. The first call
	// reads them, within a bounded time, for the reasoner and its forks;
	// the caller must not modify the slices.
	DecisiveMoves() [][]int32
	// WinConditions returns, per role, the moves that win at once in the
	// states where a few facts hold, with the facts, a move once per set
	// of facts (connect four's disc dropped where it completes a line):
	// the wins DecisiveMoves leaves out, for they do not win wherever
	// they are played. The first call reads them, within a bounded time,
	// for the reasoner and its forks, and may find only some; the caller
	// must not modify the slices.
	WinConditions() [][]WinCondition
	// WinPlayout is PolicyPlayout playing the wins of wins, which this
	// reasoner, or one it was forked from or with, returned. Where a role
	// has a choice and one or more of its wins on facts (wins.OnFacts)
	// are legal and hold, it plays one, chosen by p.ChooseWin. Where one
	// role alone had a choice and the move it chose lets another role
	// play a decisive move (wins.Decisive) or a win on facts that holds,
	// the move is taken back (p.Retract) and p asked again without it,
	// until a move leaves no such win or one move is left (anti-decisive
	// moves); against a win on facts, at most a few moves are tried.
	// Testing the facts costs a few bit tests per legal move per step,
	// and a move taken back a next state.
	WinPlayout(ctx context.Context, s *State, p WinPolicy, wins Wins, maxSteps int) (*State, int, error)
}

// Wins are the wins a WinPlayout plays, each kind as the WinReader's
// DecisiveMoves or WinConditions returned it, read once and given to
// every playout that plays it; a kind left nil is not played.
type Wins struct {
	Decisive [][]int32        // as DecisiveMoves returns them
	OnFacts  [][]WinCondition // as WinConditions returns them
}

// Any reports whether some role has a win of wins.
func (w Wins) Any() bool {
	for _, ms := range w.Decisive {
		if len(ms) > 0 {
			return true
		}
	}
	for _, cs := range w.OnFacts {
		if len(cs) > 0 {
			return true
		}
	}
	return false
}

// A WinPolicy is the Policy of a WinPlayout.
type WinPolicy interface {
	Policy
	// ChooseWin returns the position, in wins, of the move role plays,
	// where each move of wins (one or more, ascending, in the numbering
	// of Moves) ends the game at once with role's highest goal; Choose is
	// not asked for that role at that step. ChooseWin must not keep wins.
	ChooseWin(role int, wins []int32) int
	// Retract tells the policy that the playout took back the move role
	// chose last, which the policy forgets; Choose is then asked again,
	// among the moves left, when two or more are.
	Retract(role int)
}

// A WinCondition is a move that ends the game at once with its role's
// highest goal, whatever the other roles play, in every state where the
// facts Pos hold and the facts Neg do not.
type WinCondition struct {
	Move int32 // in the numbering of PolicyPlayouter.Moves
	Condition
}
