package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// A queryCommand is one parsed line of input.
type queryCommand struct {
	verb  string          // the command, lower-cased; "" for an empty line
	role  string          // legal: the role, or "" for every role
	moves []reasoner.Move // play: the moves as typed, in canonical form
	query *gdl.Sentence   // ask
}

// parseQueryCommand parses one line of input. It checks the syntax of the
// arguments but not their meaning, which depends on the game and state.
func parseQueryCommand(line string) (queryCommand, error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return queryCommand{}, nil
	}
	verb, rest := line, ""
	if i := strings.IndexFunc(line, unicode.IsSpace); i >= 0 {
		verb, rest = line[:i], strings.TrimSpace(line[i:])
	}
	cmd := queryCommand{verb: strings.ToLower(verb)}
	switch cmd.verb {
	case "legal":
		if len(strings.Fields(rest)) > 1 {
			return cmd, fmt.Errorf("legal takes at most one ROLE, got %q", clip(rest))
		}
		cmd.role = rest
	case "play":
		moves, err := parseMoves(rest)
		if err != nil {
			return cmd, fmt.Errorf("play: %w", err)
		}
		cmd.moves = moves
	case "ask":
		if rest == "" {
			return cmd, errors.New("ask wants a query, such as (line ?w)")
		}
		q, err := gdl.ParseSentence(rest)
		if err != nil {
			return cmd, fmt.Errorf("ask: bad query %q: %s", clip(rest), gdlMessage(err))
		}
		cmd.query = q
	case "exit":
		cmd.verb = "quit"
		fallthrough
	case "random", "undo", "state", "terminal", "goals", "history", "help", "quit":
		if rest != "" {
			return cmd, fmt.Errorf("%s takes no arguments, got %q", cmd.verb, clip(rest))
		}
	default:
		if strings.HasPrefix(line, "(") {
			return cmd, fmt.Errorf("unknown command %q; to play moves, type %q", clip(verb), "play "+clip(line))
		}
		return cmd, fmt.Errorf("unknown command %q; type help for the commands", clip(verb))
	}
	return cmd, nil
}

// parseMoves reads a sequence of ground terms, such as "(mark 1 1) noop",
// and returns them in canonical form, so that "( mark 1  1 )" compares
// equal to the reasoner's "(mark 1 1)".
func parseMoves(src string) ([]reasoner.Move, error) {
	es, err := gdl.ReadExprs("", []byte(src))
	if err != nil {
		return nil, fmt.Errorf("bad moves %q: %s", clip(src), gdlMessage(err))
	}
	moves := make([]reasoner.Move, 0, len(es))
	for _, e := range es {
		t, err := gdl.ExprTerm(e)
		if err != nil {
			return nil, fmt.Errorf("bad move %s: %s", clip(e.String()), gdlMessage(err))
		}
		if !gdl.IsGround(t) {
			return nil, fmt.Errorf("bad move %s: a move cannot hold variables", clip(gdl.Format(t)))
		}
		moves = append(moves, reasoner.Move(gdl.Format(t)))
	}
	return moves, nil
}

// clip shortens text typed by the user to quote it in a one-line message.
func clip(text string) string {
	const max = 60
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "..."
}

// gdlMessage returns the message of a gdl error without its position, which
// would count from the start of an argument rather than of the line.
func gdlMessage(err error) string {
	var e *gdl.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}
