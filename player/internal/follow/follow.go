// Package follow keeps an in-process player's own view of a match: the
// reasoner built for its rules, its role and the current state, advanced
// by the joint moves the game master sends. Every player follows its
// matches this way, whatever chooses its moves (a search, a person, a
// rule); packages player/mctsplayer, player/baseline and player/human
// share it, and the first two the table of their matches (Matches) and
// the seeding of what a role knows of a GDL-II match (NewFollower, Turn).
package follow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// A Game is a player's view of one match. It is not safe for concurrent
// use: its player holds a lock while it uses it, which Play releases while
// a PLAY waits for an earlier one.
type Game struct {
	ID    string // the match's
	R     reasoner.Reasoner
	Roles []string
	Role  int // the player's, an index into Roles
	State *reasoner.State

	played [][]reasoner.Move // the joint moves that led to State, in order
	// early holds the joint moves of PLAYs waiting for an earlier PLAY,
	// one entry per waiting call; parked those of PLAYs that gave up
	// waiting, played as soon as they follow the state.
	early, parked [][]reasoner.Move
	changed       chan struct{} // closed and replaced when State changes
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
// It takes the joint moves in the order given; Play puts PLAYs that
// arrive out of order back in order.
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
	g.played = append(g.played, last)
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
	return nil
}

// Played returns the joint moves played so far, in order. The caller must
// not modify it; later moves are appended.
func (g *Game) Played() [][]reasoner.Move { return g.played }

// ErrEarly is returned by Play for a PLAY whose joint move does not follow
// the current state, when the PLAY before it has not arrived by the
// deadline: the state it asks about is not known.
var ErrEarly = errors.New("the PLAY before this one has not arrived")

// maxParked bounds the joint moves kept from PLAYs that gave up waiting.
const maxParked = 8

// Play follows the joint move last of a PLAY (nil in the first), putting
// PLAYs that arrive out of order back in the order of their joint moves:
// a game master that gives up waiting for a move sends the next PLAY, and
// a PLAY held up on the network can arrive after it. mu is the lock the
// caller holds while it uses g.
//
// A joint move is played when every move in it is legal in the current
// state. One that is not is a later PLAY's: Play releases mu and waits,
// until ctx is done, for the PLAY before it to arrive and play its own
// (returning ErrEarly if none does, and keeping the joint move to play
// once it follows). A PLAY is stale when a later one has arrived: once its
// joint move is played, a kept one follows it, or a waiting PLAY's; or it
// is the first PLAY and arrives after others. Its answer no longer counts:
// the caller answers it at once, without thinking, and leaves the current
// step to the later PLAY.
//
// Games whose joint moves are legal in the states before them too (every
// role choosing among the same moves all game) cannot be put back in
// order this way: their PLAYs are taken in the order they arrive, as
// Advance does.
func (g *Game) Play(ctx context.Context, mu sync.Locker, last []reasoner.Move) (stale bool, err error) {
	g.catchUp(ctx)
	if last == nil {
		return len(g.played) > 0, nil
	}
	if len(last) != len(g.Roles) {
		return false, fmt.Errorf("joint move of %d moves for %d roles", len(last), len(g.Roles))
	}
	for {
		ok, err := g.follows(ctx, last)
		if err == nil && ok {
			break
		}
		if err == nil && g.wait(ctx, mu, last) {
			g.catchUp(ctx)
			continue
		}
		// Kept, to be played once the PLAY before it arrives.
		g.parked = append(g.parked, last)
		if len(g.parked) > maxParked {
			g.parked = g.parked[1:]
		}
		return false, fmt.Errorf("%w: its joint move %v does not follow the state", ErrEarly, last)
	}
	if err := g.Advance(ctx, last); err != nil {
		return false, err
	}
	if g.catchUp(ctx) {
		return true, nil
	}
	for _, j := range g.early {
		if ok, _ := g.follows(ctx, j); ok {
			return true, nil
		}
	}
	return false, nil
}

// wait releases mu until the state changes or ctx is done, with joint
// listed among the early ones meanwhile, and reports whether the state
// changed.
func (g *Game) wait(ctx context.Context, mu sync.Locker, joint []reasoner.Move) bool {
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	changed := g.changed
	g.early = append(g.early, joint)
	mu.Unlock()
	select {
	case <-changed:
	case <-ctx.Done():
	}
	mu.Lock()
	if i := slices.IndexFunc(g.early, func(j []reasoner.Move) bool { return slices.Equal(j, joint) }); i >= 0 {
		g.early = slices.Delete(g.early, i, i+1)
	}
	select {
	case <-changed:
		return true
	default:
		return false
	}
}

// catchUp plays the kept joint moves that follow the state, in turn, and
// reports whether it played any. One whose next state cannot be computed
// is dropped.
func (g *Game) catchUp(ctx context.Context) bool {
	played := false
	for i := 0; i < len(g.parked); {
		ok, err := g.follows(ctx, g.parked[i])
		if err != nil {
			return played
		}
		if !ok {
			i++
			continue
		}
		joint := g.parked[i]
		g.parked = slices.Delete(g.parked, i, i+1)
		if g.Advance(ctx, joint) == nil {
			played = true
		}
		i = 0
	}
	return played
}

// follows reports whether joint can be played in the current state: false
// when one of its moves is surely not legal there. When the legal moves
// cannot all be computed, the joint move is taken to follow, as the game
// master sends only legal moves.
func (g *Game) follows(ctx context.Context, joint []reasoner.Move) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	for role, m := range joint {
		moves, err := g.R.Legal(ctx, g.State, role)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			return true, nil
		}
		if !slices.Contains(moves, m) {
			return false, nil
		}
	}
	return true, nil
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
