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

// runWorker plays matches of a host's queue until interrupted.
func runWorker(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "worker", "--db postgres://... [flags]", workerExamples)
	q := addQueueFlags(flags, false)
	rest, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, rest)
	}
	if *q.db == "" {
		return fmt.Errorf("%w: --db is required: the host's PostgreSQL database", errUsage)
	}
	if *q.workers < 1 {
		return fmt.Errorf("%w: --workers must be at least 1", errUsage)
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
