package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ggp-go/ggp/reasoner/conform"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

func runConform(ctx context.Context, env *environment, args []string) error {
	fs := newFlagSet(env, "conform", "[flags] TRACE.json...",
		"ggp conform ../shared/conformance/*.json")
	backendName := addBackendFlag(fs)
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: no trace files given", errUsage)
	}
	load, err := newFactory(env, *backendName, false)
	if err != nil {
		return err
	}
	agree, skipped := 0, 0
	for _, path := range args {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		game := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		tr, err := conform.ReadFile(path)
		if err == nil {
			if tr.Game != "" {
				game = tr.Game
			}
			err = conform.Check(ctx, path, tr, load)
		}
		var m *conform.Mismatch
		switch {
		case err == nil:
			agree++
			fmt.Fprintf(env.stdout, "ok %s\n", game)
		case errors.Is(err, propnet.ErrNotGrounded):
			// Only --backend propnet gets here: auto falls back.
			skipped++
			_, reason, _ := strings.Cut(err.Error(), propnet.ErrNotGrounded.Error()+": ")
			fmt.Fprintf(env.stdout, "skip %s: not grounded: %s\n", game, oneLine(reason))
		case errors.As(err, &m):
			fmt.Fprintf(env.stdout, "FAIL %s playout %d step %d: %s\n", game, m.Playout+1, m.Step, m.What)
		default:
			fmt.Fprintf(env.stdout, "FAIL %s: %s\n", game, oneLine(err.Error()))
		}
	}
	fmt.Fprintf(env.stdout, "agree %d/%d\n", agree, len(args)-skipped)
	if agree != len(args)-skipped {
		return errFailed
	}
	return nil
}

// oneLine folds a multi-line error (such as a list of parse errors) so that
// each trace keeps to one line of output.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
