package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/infoset/exact"
)

// probe writes, for each iteration count of list, what the search of the
// mcts player (package ismcts, configured by search) finds at the measured
// role's first decision of g: its root moves by visits, with their
// values, beside the exact strategy's moves there, and the nodes of the
// trees (against Config.MaxNodes). It shows where a
// shortfall of mcts comes from: a search that more iterations put right,
// or one that has settled on a move. The decision is the first at which
// the role has a choice after steps that showed it nothing; a game
// without one is reported so.
func probe(ctx context.Context, w io.Writer, g *game, list string, search ismcts.Config, seed uint64) error {
	b, err := infoset.New(ctx, g.r, infoset.View{Role: g.role}, infoset.Options{})
	if err != nil {
		return err
	}
	var steps []infoset.Step
	for {
		moves, err := b.SureLegal(ctx)
		if err != nil {
			return err
		}
		if len(moves) > 1 {
			break
		}
		st := infoset.Step{Move: moves[0]}
		if err := b.Update(ctx, st); err != nil {
			fmt.Fprintf(w, "%s: no decision follows steps that show the %s nothing\n", g.key, g.d.Roles()[g.role])
			return nil
		}
		steps = append(steps, st)
	}
	view := exact.Key(steps)
	fmt.Fprintf(w, "%s: the %s's decision after %q; the exact strategy plays %v\n", g.key, g.d.Roles()[g.role], view, g.sol.Strategy[view])
	for _, word := range strings.Split(list, ",") {
		n, err := strconv.Atoi(word)
		if err != nil || n < 1 {
			return fmt.Errorf("-probe: %q is not a number of iterations", word)
		}
		rng := rand.New(rand.NewPCG(seed, 0x70726f6265))
		search.Rand = rng
		s, err := ismcts.New(g.r, g.role, nil, search)
		if err != nil {
			return err
		}
		if err := s.Run(ctx, ismcts.Weighted(b.States(), b.Weights(), rng), n); err != nil {
			return err
		}
		stats := s.Moves()
		slices.SortStableFunc(stats, func(a, b ismcts.MoveStat) int { return b.Visits - a.Visits })
		var cells []string
		for _, m := range stats[:min(4, len(stats))] {
			cells = append(cells, fmt.Sprintf("%s %d visits %.1f", m.Move, m.Visits, m.Value))
		}
		fmt.Fprintf(w, "  %d iterations: %s (%d nodes)\n", n, strings.Join(cells, "; "), s.Nodes())
	}
	return nil
}
