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
// is a Playouter, its own Playout does the work.
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
