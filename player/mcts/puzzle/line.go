package puzzle

import (
	"context"
	"errors"
	"slices"

	"github.com/ggp-go/ggp/reasoner"
)

// Lines found in the graph, replayed on the real states before they count.

// A candidate is a line to be replayed on the real states: moves from the
// root, then, in a line found by both searches, moves to be found that
// lead through the states of through to the goal state.
type candidate struct {
	line    []reasoner.Move
	through []*pnode
}

// tryLine replays a candidate from root, the root state of generation
// gen: its moves, then moves found one by one that lead through its
// states. It keeps the line as the best if it ends the game with a better
// goal than the best known. A line that reaches a terminal state early is
// cut there.
func (p *Search) tryLine(ctx context.Context, r reasoner.Reasoner, gen uint64, root *reasoner.State, c candidate) {
	st := root
	joint := make([]reasoner.Move, 1)
	line := slices.Clone(c.line)
	through := c.through
	for n := 0; ; n++ {
		term, err := r.Terminal(ctx, st)
		if err != nil {
			return
		}
		if term {
			line = line[:n]
			break
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil {
			return
		}
		if n == len(line) {
			if len(through) == 0 {
				return // the line does not end the game
			}
			// Find the move to the next state of the line.
			target := through[0].state
			through = through[1:]
			found := false
			for _, m := range legal {
				joint[0] = m
				next, err := r.Next(ctx, st, joint)
				if err != nil {
					return
				}
				if p.same(next, target) {
					line, st, found = append(line, m), next, true
					break
				}
			}
			if !found {
				return
			}
			continue
		}
		if !slices.Contains(legal, line[n]) {
			return
		}
		joint[0] = line[n]
		if st, err = r.Next(ctx, st, joint); err != nil {
			return
		}
	}
	goal, err := score(ctx, r, st)
	if err != nil {
		return
	}
	p.host.OfferLine(gen, line, goal)
}

// score returns the goal of the one role in st as a share of 100, in
// [0, 1]. An undefined goal scores 0, as the tree search scores it.
func score(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) (float64, error) {
	g, err := r.Goals(ctx, st)
	var gerr *reasoner.GoalError
	if err != nil && !errors.As(err, &gerr) {
		return 0, err
	}
	if len(g) == 0 {
		return 0, nil
	}
	return min(max(float64(g[0])/100, 0), 1), nil
}
