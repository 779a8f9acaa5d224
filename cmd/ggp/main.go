// Command ggp plays, referees and explores games written in GDL.
//
// Usage:
//
//	ggp <command> [flags] [arguments]
//
// Run "ggp help" for the list of commands and "ggp <command> -h" for one
// command's flags and an example.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
)

// A command is one subcommand of ggp.
type command struct {
	name    string
	summary string
	// run executes the command with its arguments (the command name
	// excluded). It returns errUsage, possibly wrapped, for bad usage.
	run func(ctx context.Context, env *environment, args []string) error
}

// environment is what a command may touch of the outside world, so that
// tests can run commands in-process with their own streams.
type environment struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// stdinIsTerminal tells interactive commands to offer line editing.
	stdinIsTerminal bool
}

// errUsage marks an error as a usage error: exit status 2.
var errUsage = errors.New("usage")

// errFailed reports a failure that the command has already described on
// its output: exit status 1 with nothing more printed.
var errFailed = errors.New("failed")

func commands() []command {
	return []command{
		{"match", "run one match between players", runMatch},
		{"tournament", "run every game against every assignment of players", runTournament},
		{"replay", "print and check a recorded match", runReplay},
		{"view", "watch, replay and play matches in a web browser", runView},
		{"play", "serve the GGP HTTP protocol as a player", runPlay},
		{"host", "run a match service that players register with", runHost},
		{"worker", "play the matches of a host's queue", runWorker},
		{"query", "explore a game's rules interactively", runQuery},
		{"validate", "check game descriptions against the GDL specification", runValidate},
		{"conform", "check the reasoner against reference traces", runConform},
		{"bench", "measure random playouts per second", runBench},
		{"games", "list the bundled games", runGames},
	}
}

// tuneGC makes the garbage collector run less often than Go's default,
// unless GOGC or GOMEMLIMIT say otherwise. The reasoner allocates much and
// keeps little, so at the default the collector takes a quarter to a third
// of the time (ggp bench: about 25% more playouts at 400; the mcts search
// on connect four: 78 iterations per CPU-second at 100, 120 at 400). The
// soft memory limit keeps the heap near what the players' default bounds
// need. It is set here, once, for every command: matches and tournaments
// run players in-process too.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1536 << 20)
}

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stdinIsTerminal: isTerminal(os.Stdin)}
	os.Exit(run(ctx, env, os.Args[1:]))
}

// run executes the command line args and returns the exit status:
// 0 on success, 1 on failure, 2 on bad usage.
func run(ctx context.Context, env *environment, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		printHelp(env.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, env, args[1:])
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(env.stderr, "ggp %s: %v\n", c.name, err)
			fmt.Fprintf(env.stderr, "run 'ggp %s -h' for usage\n", c.name)
			return 2
		case errors.Is(err, errFailed):
			return 1
		default:
			fmt.Fprintf(env.stderr, "ggp %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(env.stderr, "ggp: unknown command %q\nrun 'ggp help' for the list of commands\n", args[0])
	return 2
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "ggp plays, referees and explores games written in GDL.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ggp <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'ggp <command> -h' for a command's flags and an example.")
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
