package main

import (
	"context"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// loadReasoner resolves a GAME argument (a bundled game name, a .kif file or
// a game folder), parses its rules and compiles them.
func loadReasoner(ctx context.Context, arg string) (*games.Game, *prolog.Reasoner, error) {
	g, err := games.Open(arg)
	if err != nil {
		return nil, nil, err
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		return nil, nil, err
	}
	r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
	if err != nil {
		return nil, nil, err
	}
	return g, r, nil
}
