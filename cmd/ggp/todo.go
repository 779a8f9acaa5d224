package main

import (
	"context"
	"errors"
)

// The commands below are being built; each moves to its own file when done.

var errNotYet = errors.New("not implemented yet")

func runQuery(ctx context.Context, env *environment, args []string) error { return errNotYet }
