// Package baseline holds the players that choose their moves by a fixed
// rule, without search: random, a uniformly random legal move, and legal,
// the first legal move in sorted order. They are the baselines a search
// is measured against and the quick opponents of tests. Each implements
// player.Player and player.GDLIIPlayer, so that the game master can run
// it in the same process or package player/server can serve it over HTTP;
// package player/players builds them by name.
package baseline

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// The kinds of player of this package, as a player's name writes them
// and as they name themselves by default.
const (
	RandomKind = "random"
	LegalKind  = "legal"
)

// Options configures the players Random and Legal return. The zero value
// selects the defaults.
type Options struct {
	// Name is what the player's Name method returns, in match records and
	// in answers to INFO. Default: its kind.
	Name string

	// NewReasoner builds the reasoner for the rules of a match; the
	// command chooses the backend (package reasoner/backend). Required:
	// Start fails without it.
	NewReasoner reasoner.Factory

	// Margin is the time a player keeps free before the deadline of each
	// call to PlayTurn, for the answer to get back on a busy machine: the
	// belief update of a GDL-II match stops short of it. Default
	// clock.Margin.OrDefault's.
	Margin clock.Margin

	// Seed seeds the random player's choices and what a player holds
	// possible in a GDL-II match; 0 picks a random seed.
	Seed uint64

	// Log receives a line for each failure a player recovers from. Nil
	// discards them.
	Log *log.Logger
}

func (o Options) withDefaults(kind string) Options {
	if o.Name == "" {
		o.Name = kind
	}
	o.Margin = o.Margin.OrDefault()
	if o.Seed == 0 {
		o.Seed = rand.Uint64()
	}
	return o
}

// Random returns a player that plays a uniformly random legal move.
func Random(opts Options) player.Player {
	opts = opts.withDefaults(RandomKind)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x72616e646f6d))
	var mu sync.Mutex
	return &chooser{opts: opts, choose: func(moves []reasoner.Move) reasoner.Move {
		mu.Lock()
		defer mu.Unlock()
		return moves[rng.IntN(len(moves))]
	}}
}

// Legal returns a player that plays the first legal move in sorted order.
func Legal(opts Options) player.Player {
	return &chooser{opts: opts.withDefaults(LegalKind), choose: func(moves []reasoner.Move) reasoner.Move {
		return slices.Min(moves)
	}}
}

// chooser is a player that chooses among the legal moves without search.
// In a GDL-II match it knows only its view, and chooses among the moves
// most likely legal in the states it holds possible (package
// reasoner/infoset): the moves legal in all of them when there are any,
// sure to be legal while its belief holds every consistent state, and
// otherwise those legal in the states of the most weight, the best guess
// it has. Each can play several matches at once, one role in each.
type chooser struct {
	opts   Options
	choose func([]reasoner.Move) reasoner.Move

	matches follow.Matches[*match]
}

type match struct {
	clock time.Duration // play clock, used when a call has no deadline
	mu    sync.Mutex
	g     *follow.Game
	view  *infoset.Follower // what the player knows of a GDL-II match; nil in a GDL one
}

func (p *chooser) Name() string { return p.opts.Name }

func (p *chooser) Start(ctx context.Context, m *player.Match) error {
	g, err := follow.Start(ctx, m, p.opts.NewReasoner)
	if err != nil {
		return err
	}
	sm := &match{g: g, clock: m.PlayClock}
	if m.GDLII {
		if sm.view, err = follow.NewFollower(ctx, g, p.opts.Seed^uint64(len(m.ID))); err != nil {
			return err
		}
	}
	return p.matches.Add(m.ID, sm)
}

// PlayTurn follows the step t tells of in the player's view and chooses
// among the moves most likely legal (infoset.Follower.Moves).
func (p *chooser) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	m, err := p.matches.Get(id)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.view == nil {
		return "", fmt.Errorf("match %s: PLAY of a GDL-II match, but START did not say GDL-II", id)
	}
	// Following the step takes the budget of the call, less the margin
	// kept for the answer: choosing takes no time.
	if err := follow.Turn(ctx, m.view, id, t, clock.New(ctx, m.clock, p.opts.Margin), p.logf); err != nil {
		return "", err
	}
	moves, err := m.view.Moves(ctx)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	return p.choose(moves), nil
}

// StopTurn ends a GDL-II match.
func (p *chooser) StopTurn(ctx context.Context, id string, t player.Turn) error {
	return p.end(id)
}

func (p *chooser) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	m, err := p.matches.Get(id)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// A stale PLAY is answered as any other: choosing takes no time.
	if _, err := m.g.Play(ctx, &m.mu, last); err != nil {
		return "", fmt.Errorf("match %s: %w", id, err)
	}
	moves, err := m.g.Legal(ctx, p.logf)
	if err != nil {
		return "", fmt.Errorf("match %s: %w", id, err)
	}
	return p.choose(moves), nil
}

// logf writes a line to Log, if set.
func (p *chooser) logf(format string, args ...any) {
	if p.opts.Log != nil {
		p.opts.Log.Printf(format, args...)
	}
}

func (p *chooser) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	return p.end(id)
}

func (p *chooser) Abort(ctx context.Context, id string) error {
	return p.end(id)
}

func (p *chooser) end(id string) error {
	_, err := p.matches.Remove(id)
	return err
}

var _ player.GDLIIPlayer = (*chooser)(nil)
