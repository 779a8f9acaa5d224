package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// defaultMaxHeap is the default of ggp play's --max-heap, in MiB: three
// quarters of a gibibyte, so that the process stays below one.
const defaultMaxHeap = 768

// runPlay serves a player over the GGP HTTP protocol until ctx is done.
func runPlay(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "play", "--port P [--player mcts[:SETTINGS]|random|legal] [--name N] [flags]",
		"ggp play --port 9147 --player mcts --name gopher")
	port := flags.Int("port", 9147, "TCP port to listen on (0 picks a free one)")
	host := flags.String("host", "", "address to listen on (default: all interfaces)")
	withPlayersHelp(env, flags)
	kind := flags.String("player", "mcts", "the player served, in process: "+strings.Join(players.InProcessKinds(), ", ")+", or mcts with settings, as mcts:base (named as below)")
	name := flags.String("name", "", "name given to INFO requests (default: the player kind)")
	margin := flags.Duration("margin", server.DefaultMargin, "time kept free before each clock runs out, for the network")
	maxNodes := flags.Int("max-nodes", mcts.DefaultMaxNodes, "states the mcts player keeps at most")
	maxConns := flags.Int("max-conns", 0, "connections held open at most; the longest waiting one is closed for a new one (default: 3/4 of the open-file limit)")
	maxHeap := flags.Int("max-heap", defaultMaxHeap, "heap size in MiB at which the garbage collector works hardest to stay below, so that a search or the rules cannot run the process out of memory; the mcts player stops adding states at half of it (0: none; GOMEMLIMIT if set)")
	abandonClocks := flags.Int("abandon-clocks", server.DefaultAbandonClocks, "play clocks of silence after its last deadline at which a match is given up for a new START")
	abandonMin := flags.Duration("abandon-min", server.DefaultAbandonMin, "silence after its last deadline at which a match is given up, at least")
	backendName := addBackendFlag(flags)
	strict := addStrictFlag(flags)
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, args[0])
	}
	spec, err := players.Parse(*kind)
	if err != nil {
		return fmt.Errorf("%w: --player: %v", errUsage, err)
	}
	if !spec.Kind.InProcess() {
		return fmt.Errorf("%w: --player %s: ggp play serves an in-process player (%s), not a %s one", errUsage, *kind, strings.Join(players.InProcessKinds(), ", "), spec.Kind)
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("%w: --port %d is not a TCP port", errUsage, *port)
	}
	if *margin < 0 || *maxNodes < 0 || *maxConns < 0 || *maxHeap < 0 || *abandonClocks < 0 || *abandonMin < 0 {
		return fmt.Errorf("%w: --margin, --max-nodes, --max-conns, --max-heap and --abandon-* cannot be negative", errUsage)
	}
	if *maxHeap > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(*maxHeap) << 20)
	}
	logger := log.New(env.stderr, "ggp play: ", log.LstdFlags)
	// The player logs which backend each match got, either way.
	factory, err := backend.New(*backendName, backend.Options{Log: logger, LogGrounded: true, Strict: *strict})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	p, err := spec.NewInProcess(players.InProcess{
		Name:        *name,
		NewReasoner: factory,
		MaxNodes:    *maxNodes,
		Log:         logger,
	})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	srv := server.New(p)
	srv.Margin = *margin
	srv.ErrorLog = logger

	srv.MaxConns = *maxConns
	srv.AbandonClocks = *abandonClocks
	srv.AbandonMin = *abandonMin

	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "ggp play: %s player %s listening on %s\n", *kind, p.Name(), ln.Addr())
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(env.stdout, "ggp play: stopped")
	return nil
}
