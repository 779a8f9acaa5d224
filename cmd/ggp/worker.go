package main

import (
	"context"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/ggp-go/ggp/gamemaster/host"
)

// workerExamples are the examples of ggp worker -h.
const workerExamples = `ggp worker --db postgres://ggp:secret@db.example.org/ggp --workers 4`

// parseWorkerFlags parses the arguments of ggp worker, flags alone.
func parseWorkerFlags(env *environment, args []string) (*queueFlags, error) {
	flags := newFlagSet(env, "worker", "--db postgres://... [flags]", workerExamples)
	q := addQueueFlags(flags, false)
	rest, err := parseFlags(flags, args)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %q", errUsage, rest)
	}
	if *q.db == "" {
		return nil, fmt.Errorf("%w: --db is required: the host's PostgreSQL database", errUsage)
	}
	if *q.workers < 1 {
		return nil, fmt.Errorf("%w: --workers must be at least 1", errUsage)
	}
	return q, nil
}

// runWorker plays matches of a host's queue until interrupted.
func runWorker(ctx context.Context, env *environment, args []string) error {
	q, err := parseWorkerFlags(env, args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	policy, err := q.policy(false)
	if err != nil {
		return err
	}
	st, err := q.open(ctx, env, policy, host.MatchLimit(host.DefaultLongestStart, host.DefaultLongestPlay, 0))
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "worker: playing up to %d matches at once\n", *q.workers)
	<-ctx.Done()
	// The matches in play go back on the queue, to be played again.
	return st.Close()
}
