package follow

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// What a player of a GDL-II match knows of it, the steps it was told and
// the states it holds possible, is followed by an infoset.Follower, as
// every in-process player follows it; this file only seeds it and takes
// the turns into it.

// NewFollower returns the follower of g's role at the start of a GDL-II
// match, its random choices seeded by seed and the match.
func NewFollower(ctx context.Context, g *Game, seed uint64) (*infoset.Follower, error) {
	for _, c := range g.ID {
		seed = seed*31 + uint64(c)
	}
	f, err := infoset.NewFollower(ctx, g.R, g.Role, infoset.Options{Rand: rand.New(rand.NewPCG(seed, 0x62656c696566))})
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", g.ID, err)
	}
	return f, nil
}

// Turn takes the step t of match id tells of into f within the budget b,
// and logs a change between exact and approximate following.
func Turn(ctx context.Context, f *infoset.Follower, id string, t player.Turn, b clock.Budget, logf func(string, ...any)) error {
	ctx, cancel := b.Context(ctx)
	defer cancel()
	exact := f.Exact()
	if _, err := f.Follow(ctx, t.Number, infoset.Step{Move: t.Move, Percepts: t.Percepts}); err != nil {
		return fmt.Errorf("match %s: %w", id, err)
	}
	switch {
	case exact && !f.Exact():
		logf("match %s: turn %d: %v; following the states held possible approximately", id, t.Number, f.Lost())
	case !exact && f.Exact():
		logf("match %s: turn %d: following the states held possible exactly again", id, t.Number)
	}
	return nil
}
