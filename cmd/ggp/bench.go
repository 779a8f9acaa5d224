package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

func runBench(ctx context.Context, env *environment, args []string) error {
	fs := newFlagSet(env, "bench", "[flags] GAME",
		"ggp bench --seconds 10 connectFour")
	seconds := fs.Float64("seconds", 5, "how long to run playouts")
	maxSteps := fs.Int("max-steps", 10000, "give up a playout after this many steps")
	backendName := addBackendFlag(fs)
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: want one GAME", errUsage)
	}
	if *seconds <= 0 {
		return fmt.Errorf("%w: --seconds must be positive", errUsage)
	}
	factory, err := newFactory(env, *backendName)
	if err != nil {
		return err
	}
	g, _, r, err := loadReasoner(ctx, args[0], factory)
	if err != nil {
		return err
	}
	s0, err := r.Initial(ctx)
	if err != nil {
		return err
	}
	if pn, ok := r.(*propnet.Reasoner); ok {
		st := pn.Stats()
		fmt.Fprintf(env.stdout, "grounded in %.3fs, network built in %.3fs\n", st.Ground.Seconds(), st.Build.Seconds())
		fmt.Fprintf(env.stdout, "network: %d bases, %d inputs, %d nodes and %d links (%d and %d before optimisation)\n",
			st.Bases, st.Inputs, st.NodesAfter, st.LinksAfter, st.NodesBefore, st.LinksBefore)
	}
	fmt.Fprintf(env.stdout, "%s: random playouts for %gs in one goroutine\n", g.Key, *seconds)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var moves []reasoner.Move
	rollouts, states := 0, 0
	start := time.Now()
	deadline := start.Add(time.Duration(*seconds * float64(time.Second)))
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		_, n, err := reasoner.Playout(ctx, r, s0, rng, *maxSteps, moves)
		if err != nil {
			return fmt.Errorf("playout %d: %w", rollouts+1, err)
		}
		rollouts++
		states += n
	}
	elapsed := time.Since(start).Seconds()
	fmt.Fprintf(env.stdout, "%d rollouts, %d states in %.2fs\n", rollouts, states, elapsed)
	fmt.Fprintf(env.stdout, "rollouts/s %.1f states/s %.0f\n", float64(rollouts)/elapsed, float64(states)/elapsed)
	return nil
}
