package reasoner

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Playout plays uniformly random joint moves from s until a terminal state
// or maxSteps steps, and returns the last state and the number of steps
// played. moves is scratch space for the joint move and may be nil.
func Playout(ctx context.Context, r Reasoner, s *State, rng *rand.Rand, maxSteps int, moves []Move) (*State, int, error) {
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
