// Package follow keeps an in-process player's own view of a match: the
// reasoner built for its rules, its role and the current state, advanced
// by the joint moves the game master sends. Every player follows its
// matches this way, whatever chooses its moves (a search, a person, a
// rule); package player/local and package player/human share it.
package follow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// A Game is a player's view of one match. It is not safe for concurrent
// use.
type Game struct {
	ID    string // the match's
	R     reasoner.Reasoner
	Roles []string
	Role  int // the player's, an index into Roles
	State *reasoner.State
}

// Start builds the reasoner for m's rules with newReasoner, finds m's role
// among the game's roles (as written, or else whatever its case, since
// some game masters change it) and computes the initial state.
func Start(ctx context.Context, m *player.Match, newReasoner reasoner.Factory) (*Game, error) {
	if m.Rules == nil {
		return nil, fmt.Errorf("match %s: no rules", m.ID)
	}
	if newReasoner == nil {
		return nil, fmt.Errorf("match %s: no reasoner factory", m.ID)
	}
	r, err := newReasoner(ctx, m.Rules)
	if err != nil {
		return nil, fmt.Errorf("match %s: loading the rules: %w", m.ID, err)
	}
	roles := r.Roles()
	role := slices.Index(roles, m.Role)
	if role < 0 {
		role = slices.IndexFunc(roles, func(r string) bool { return strings.EqualFold(r, m.Role) })
	}
	if role < 0 {
		return nil, fmt.Errorf("match %s: role %q is not one of the game's roles %v", m.ID, m.Role, roles)
	}
	st, err := r.Initial(ctx)
	if err != nil {
		return nil, fmt.Errorf("match %s: initial state: %w", m.ID, err)
	}
	return &Game{ID: m.ID, R: r, Roles: roles, Role: role, State: st}, nil
}

// Advance plays the joint move last, if any: nil before the first move.
func (g *Game) Advance(ctx context.Context, last []reasoner.Move) error {
	if last == nil {
		return nil
	}
	if len(last) != len(g.Roles) {
		return fmt.Errorf("joint move of %d moves for %d roles", len(last), len(g.Roles))
	}
	st, err := g.R.Next(ctx, g.State, last)
	if err != nil {
		return fmt.Errorf("next state: %w", err)
	}
	g.State = st
	return nil
}

// Legal returns the legal moves of the player's role. When not all could
// be computed in time or within the reasoner's limits, it returns those
// that were, and tells logf why; it fails only when no legal move is
// known.
func (g *Game) Legal(ctx context.Context, logf func(string, ...any)) ([]reasoner.Move, error) {
	moves, err := g.AllLegal(ctx)
	var pe *reasoner.PartialError
	if errors.As(err, &pe) && len(pe.Moves) > 0 {
		logf("match %s: %v; choosing among those", g.ID, err)
		return pe.Moves, nil
	}
	return moves, err
}

// AllLegal returns every legal move of the player's role.
func (g *Game) AllLegal(ctx context.Context) ([]reasoner.Move, error) {
	moves, err := g.R.Legal(ctx, g.State, g.Role)
	if err != nil {
		return nil, fmt.Errorf("legal moves: %w", err)
	}
	if len(moves) == 0 {
		return nil, errors.New("no legal move")
	}
	return moves, nil
}
