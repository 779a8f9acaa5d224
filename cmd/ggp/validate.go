package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
)

// runValidate checks game descriptions against the GDL specification.
//
// Each argument is a .kif file or a game folder in the repository layout.
// Every problem is printed as "file:line:col: error: msg" or "...: warning:
// msg", then one summary line. The command fails when any file has an
// error: one it cannot read, a syntax error, or a broken GDL restriction.
// A departure from strict GDL that a GDL-II game's dialect reads through is
// a warning saying how it is read, marked "(not strict GDL)", and counted
// in the summary; with --strict it is an error, as the other commands'
// --strict refuse it.
func runValidate(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "validate", "[-q] [--strict] FILE...",
		"ggp validate ticTacToe.kif ../shared/games/chess")
	quiet := flags.Bool("q", false, "print errors only, not warnings (the summary still counts them)")
	strict := flags.Bool("strict", false, "report each departure from strict GDL that a GDL-II game's dialect reads through as an error, not a warning, as --strict of match, tournament and play refuses it")
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: no files to validate", errUsage)
	}
	var sum validateSummary
	for _, path := range args {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := validatePath(env.stdout, path, *quiet, *strict)
		sum.files++
		sum.errors += n.errors
		sum.warnings += n.warnings
		sum.notStrict += n.notStrict
		if n.errors > 0 {
			sum.failed++
		}
	}
	fmt.Fprintln(env.stdout, sum)
	if sum.failed > 0 {
		return errFailed
	}
	return nil
}

type validateSummary struct {
	files, failed, errors, warnings int
	// notStrict counts the departures from strict GDL among the warnings
	// (or, under --strict, the errors).
	notStrict int
}

// String returns "3 files: 1 with errors, 2 errors, 5 warnings", followed
// by " (4 not strict GDL)" when there are departures from strict GDL.
func (s validateSummary) String() string {
	out := fmt.Sprintf("%s: %d with errors, %s, %s",
		validateCount(s.files, "file"), s.failed, validateCount(s.errors, "error"), validateCount(s.warnings, "warning"))
	if s.notStrict > 0 {
		out += fmt.Sprintf(" (%d not strict GDL)", s.notStrict)
	}
	return out
}

// validateCounts are the problems validatePath found in one file.
type validateCounts struct {
	errors, warnings, notStrict int
}

func validateCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// validatePath loads, parses and validates one file or game folder,
// printing its problems to w, and returns how many it found of each kind.
// Under strict a departure from strict GDL is an error.
func validatePath(w io.Writer, path string, quiet, strict bool) validateCounts {
	g, err := games.Open(path)
	if err != nil {
		// The path starts the line already: keep only the cause.
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == path {
			err = pe.Err
		} else if prefix := "game " + path + ": "; strings.HasPrefix(err.Error(), prefix) {
			err = errors.New(strings.TrimPrefix(err.Error(), prefix))
		}
		fmt.Fprintf(w, "%s: error: %v\n", path, err)
		return validateCounts{errors: 1}
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		var list gdl.ErrorList
		if !errors.As(err, &list) {
			fmt.Fprintf(w, "%s: error: %v\n", g.Filename, err)
			return validateCounts{errors: 1}
		}
		for _, e := range list {
			fmt.Fprintln(w, gdl.Problem{Pos: e.Pos, Severity: gdl.SeverityError, Code: gdl.CodeSyntax, Msg: e.Msg})
		}
		return validateCounts{errors: max(len(list), 1)}
	}
	var n validateCounts
	for _, p := range gdl.Validate(d) {
		line := p.String()
		if p.NotStrict {
			n.notStrict++
			if strict {
				p.Severity = gdl.SeverityError
			}
			line = p.String() + " (not strict GDL)"
		}
		if p.Severity == gdl.SeverityError {
			n.errors++
		} else {
			n.warnings++
			if quiet {
				continue
			}
		}
		fmt.Fprintln(w, line)
	}
	return n
}
