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
func runValidate(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "validate", "[-q] FILE...",
		"ggp validate ticTacToe.kif ../shared/games/chess")
	quiet := flags.Bool("q", false, "print errors only, not warnings (the summary still counts them)")
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
		errs, warns := validatePath(env.stdout, path, *quiet)
		sum.files++
		sum.errors += errs
		sum.warnings += warns
		if errs > 0 {
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
}

// String returns "3 files: 1 with errors, 2 errors, 5 warnings".
func (s validateSummary) String() string {
	return fmt.Sprintf("%s: %d with errors, %s, %s",
		validateCount(s.files, "file"), s.failed, validateCount(s.errors, "error"), validateCount(s.warnings, "warning"))
}

func validateCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// validatePath loads, parses and validates one file or game folder,
// printing its problems to w, and returns how many errors and warnings it
// found.
func validatePath(w io.Writer, path string, quiet bool) (errs, warns int) {
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
		return 1, 0
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		var list gdl.ErrorList
		if !errors.As(err, &list) {
			fmt.Fprintf(w, "%s: error: %v\n", g.Filename, err)
			return 1, 0
		}
		for _, e := range list {
			fmt.Fprintln(w, gdl.Problem{Pos: e.Pos, Severity: gdl.SeverityError, Code: gdl.CodeSyntax, Msg: e.Msg})
		}
		return max(len(list), 1), 0
	}
	for _, p := range gdl.Validate(d) {
		if p.Severity == gdl.SeverityError {
			errs++
		} else {
			warns++
			if quiet {
				continue
			}
		}
		fmt.Fprintln(w, p)
	}
	return errs, warns
}
