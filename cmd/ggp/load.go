package main

import (
	"context"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// loadReasoner resolves a GAME argument (a bundled game name, a .kif file or
// a game folder), parses its rules and loads them with newReasoner.
func loadReasoner(ctx context.Context, arg string, newReasoner reasoner.Factory) (*games.Game, *gdl.Description, reasoner.Reasoner, error) {
	g, err := games.Open(arg)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		return nil, nil, nil, err
	}
	r, err := newReasoner(ctx, d)
	if err != nil {
		return nil, nil, nil, err
	}
	return g, d, r, nil
}
