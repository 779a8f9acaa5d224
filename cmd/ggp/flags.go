package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// newFlagSet returns a flag set for a command whose help shows usage and
// an example. Errors are returned, not fatal, so run decides the exit status.
func newFlagSet(env *environment, name, usage, example string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: ggp %s %s\n\n", name, usage)
		fmt.Fprintln(env.stderr, "Flags:")
		fs.PrintDefaults()
		if example != "" {
			fmt.Fprintf(env.stderr, "\nExample:\n  %s\n", example)
		}
	}
	return fs
}

// withPlayersHelp makes fs's usage end with how a player is named and
// the settings an in-process mcts player takes, for the commands that
// name players.
func withPlayersHelp(env *environment, fs *flag.FlagSet) {
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintf(env.stderr, "\n%s\n\n%s\n", players.Help, mctsplayer.SettingsHelp())
	}
}

// parseFlags parses the flags in args, placed before, between or after the
// arguments, as every command takes them, and returns the arguments. A
// lone "--" ends the flags: what follows is arguments, even if it starts
// with "-". A flag error becomes a usage error.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// addBackendFlag adds the --backend flag that chooses the reasoner.
func addBackendFlag(fs *flag.FlagSet) *string {
	return fs.String("backend", backend.Auto, "reasoner backend: "+strings.Join(backend.Names(), ", ")+
		" (auto grounds the rules into a propositional network when it can, else uses prolog)")
}

// addStrictFlag adds the --strict flag of the commands that play rules:
// refuse rules that are not strict GDL rather than play them as the
// Dresden referee reads them.
func addStrictFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("strict", false, "refuse rules that are not strict GDL; without it a GDL-II game written for the Dresden referee is played as that referee reads it, with a warning naming each place read so (ggp validate lists them)")
}

// newFactory returns the factory of the named backend, logging on env's
// standard error the choice made for each game and each place its rules
// are read otherwise than strict GDL, which strict refuses instead.
func newFactory(env *environment, name string, strict bool) (reasoner.Factory, error) {
	f, err := backend.New(name, backend.Options{Log: log.New(env.stderr, "ggp: ", 0), Strict: strict})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return f, nil
}

// writeWrapped writes text to w as lines of at most width bytes, each
// starting with indent; a word longer than a line gets a line of its own.
func writeWrapped(w io.Writer, text, indent string, width int) {
	var line strings.Builder
	for _, word := range strings.Fields(text) {
		if line.Len() > 0 && line.Len()+1+len(word) > width-len(indent) {
			fmt.Fprintf(w, "%s%s\n", indent, line.String())
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(word)
	}
	if line.Len() > 0 {
		fmt.Fprintf(w, "%s%s\n", indent, line.String())
	}
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
