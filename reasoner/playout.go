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

// A DecisiveMover is a PolicyPlayouter that can read from the rules which
// moves win at once: a playout that plays them when it can ends as a game
// between players who see a win in one move, at the cost of a look-up.
type DecisiveMover interface {
	// DecisiveMoves returns the numbers, in the numbering of Moves, of
	// the moves of role that end the game with role's highest goal in
	// whatever state role plays them and whatever the other roles play,
	// ascending. A move that wins only in some states is not among them.
	// The caller must not modify the slice.
	DecisiveMoves(role int) []int32
}

// A Retracter is a Policy that lets a playout take back its moves. A
// PolicyPlayouter that is a DecisiveMover, once its DecisiveMoves have been
// asked for, playing a step where one role alone has a choice, asks Retract when the move chosen lets another role
// play one of its decisive moves next; if Retract returns true, the move
// is taken back, forgotten by the policy, and Choose is asked again
// without it, until a move leaves no such win or one move is left
// (anti-decisive moves). A FactWinner whose policy seeks wins
// (WinSeeker) does the same for the wins on facts that hold in the state
// reached, for a bounded number of moves.
type Retracter interface {
	Policy
	// Retract reports whether the playout may take back the move role
	// chose last; if so, the policy forgets that choice.
	Retract(role int) bool
}

// A WinCondition is a move that ends the game at once with its role's
// highest goal, whatever the other roles play, in every state where the
// facts Pos hold and the facts Neg do not.
type WinCondition struct {
	Move int32 // in the numbering of PolicyPlayouter.Moves
	Condition
}

// A FactWinner is a PolicyPlayouter that can read from the rules which
// moves win at once in the states where a few facts hold: connect four's
// disc dropped where it completes a line of four, which a DecisiveMover
// does not find, for it does not win wherever it is played. Once
// WinConditions has been asked for, its playouts whose policy is a
// WinSeeker that seeks wins play, where a role has a choice and a win
// among its legal moves, one of its wins; and, when the policy is also a
// Retracter, take back a move after which another role has a win, as for
// decisive moves. Testing the facts costs a few bit tests per legal move
// per step.
type FactWinner interface {
	PolicyPlayouter
	// WinConditions returns role's moves that win at once in the states
	// where some facts hold, with the facts, a move once per set of
	// facts; moves that win wherever they are played (DecisiveMoves) are
	// not among them. The first call finds them for every role, within a
	// bounded time, and may return only some.
	WinConditions(role int) []WinCondition
}

// A WinSeeker is a Policy that may ask a FactWinner's playouts to play
// wins on facts.
type WinSeeker interface {
	Policy
	// SeekWins reports whether the playout about to start plays the
	// wins; it is asked once per playout.
	SeekWins() bool
	// ChooseWin returns the position, in wins, of the move role plays,
	// where each move of wins (one or more, ascending, in the numbering
	// of Moves) ends the game at once with role's highest goal; Choose is
	// not asked for that role at that step. ChooseWin must not keep wins.
	ChooseWin(role int, wins []int32) int
}
