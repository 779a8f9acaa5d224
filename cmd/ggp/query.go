package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"
	"unicode"
)

// queryCommands describes the commands of ggp query, for help and -h.
var queryCommands = []struct{ usage, summary string }{
	{"legal [ROLE]", "list the legal moves of every role, or of ROLE"},
	{"play MOVE...", "play one move per role, in role order; a role with a single legal move may be left out"},
	{"random", "play a random legal move for every role"},
	{"undo", "take back the last joint move"},
	{"state", "print the facts of the current state"},
	{"terminal", "tell whether the current state ends the game"},
	{"goals", "print the goal value of every role in the current state"},
	{"ask QUERY", "print the instances of QUERY that hold in the current state, such as (line ?w) or (true (cell 1 ?n x))"},
	{"history", "list the joint moves played so far"},
	{"help", "print this list"},
	{"quit", "leave; so does the end of the input"},
}

// writeQueryHelp lists the commands, their summaries wrapped to fit 80
// columns beside the usage.
func writeQueryHelp(w io.Writer) {
	const indent = "                " // the width of "  %-13s "
	for _, c := range queryCommands {
		var b strings.Builder
		writeWrapped(&b, c.summary, indent, 78)
		fmt.Fprintf(w, "  %-13s %s", c.usage, strings.TrimPrefix(b.String(), indent))
	}
	fmt.Fprintln(w, "Lines starting with # are ignored.")
}

// runQuery lets a user, or a script, explore a game's rules: play moves,
// take them back and ask the rules any question in the current state.
func runQuery(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "query", "[flags] GAME",
		"ggp query ticTacToe\n  printf 'play (mark 2 2)\\nask (line ?w)\\n' | ggp query ticTacToe")
	timeout := flags.Duration("timeout", 10*time.Second, "give up a question to the rules after this long, so that rules that loop cannot hang the session")
	backendName := addBackendFlag(flags)
	seed := flags.Uint64("seed", 0, "seed of the random command, to replay a session (0: a new seed each run)")
	usage := flags.Usage
	flags.Usage = func() {
		usage()
		fmt.Fprintln(env.stderr, "\nCommands, one a line, read from a terminal with line editing or from a pipe:")
		writeQueryHelp(env.stderr)
	}
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: want one GAME, got %d arguments", errUsage, len(args))
	}
	if *timeout <= 0 {
		return fmt.Errorf("%w: -timeout must be positive", errUsage)
	}
	factory, err := newFactory(env, *backendName, false)
	if err != nil {
		return err
	}
	g, d, r, err := loadReasoner(ctx, args[0], factory)
	if err != nil {
		return err
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	s, err := newQuerySession(ctx, env.stdout, r, d, *timeout, *seed)
	if err != nil {
		return err
	}

	var lines lineReader
	var prompts io.Writer // where the prompts go, if anywhere
	switch stdout, _ := env.stdout.(*os.File); {
	case !env.stdinIsTerminal:
		lines = &pipeReader{r: bufio.NewReader(env.stdin)}
	case stdout == nil || !isTerminal(stdout):
		// Typed at a terminal but written elsewhere: keep the prompts out
		// of the output. The terminal edits the line as usual.
		prompts = env.stderr
		lines = &pipeReader{r: bufio.NewReader(env.stdin), prompts: prompts}
	default:
		prompts = env.stdout
		t := newTerminalReader(env, s.complete)
		defer t.close()
		lines = t
	}
	// report prints the error of a command on one line, which names the
	// line of a script.
	report := func(lineNo int, err error) {
		if env.stdinIsTerminal || lineNo == 0 {
			fmt.Fprintf(env.stderr, "error: %v\n", err)
		} else {
			fmt.Fprintf(env.stderr, "line %d: %v\n", lineNo, err)
		}
	}

	fmt.Fprintf(env.stdout, "%s: roles %s", g.Key, strings.Join(s.roles, ", "))
	if prompts != nil {
		fmt.Fprint(env.stdout, "; type help for the commands")
	}
	fmt.Fprintln(env.stdout)
	if err := s.show(); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		report(0, err)
	}
	// The prompt names the game, without what a terminal would take for
	// control sequences.
	prompt := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, g.Key)
	for lineNo := 1; ; lineNo++ {
		line, err := lines.readLine(ctx, fmt.Sprintf("%s %d> ", prompt, len(s.steps)-1))
		switch {
		case errors.Is(err, io.EOF):
			if prompts != nil {
				fmt.Fprintln(prompts) // end the prompt's line
			}
			return nil
		case ctx.Err() != nil:
			return errInterrupted
		case errors.Is(err, errLineTooLong):
			// The rest of the input may be fine.
			report(lineNo, err)
			continue
		case err != nil:
			return fmt.Errorf("reading commands: %w", err)
		}
		cmd, err := parseQueryCommand(line)
		if err == nil && cmd.verb == "quit" {
			return nil
		}
		if err == nil {
			err = s.exec(cmd)
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			report(lineNo, err)
		}
	}
}

// errInterrupted ends a session whose context is cancelled, as by Ctrl-C
// while the rules are being asked something.
var errInterrupted = errors.New("interrupted")
