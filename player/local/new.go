// Package local holds the in-process players: mcts, which searches with
// package player/mcts, and the random and legal players. New builds one by
// name; each implements player.Player, so that the game master can run it
// in the same process or package player/server can serve it over HTTP.
package local

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/ismcts"

	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// DefaultMargin is the fixed part of the time an in-process player keeps,
// by default, between returning its answer and the deadline of the call.
const DefaultMargin = 100 * time.Millisecond

// DefaultMarginShare is the share of the time left that an in-process
// player keeps free, by default, on top of DefaultMargin: on a loaded
// machine the answer to a long call can be held up longer.
const DefaultMarginShare = 0.05

// Options configures the players that New returns. The zero value selects
// the defaults; those of the settings a player specification sets, the
// search's and Ponder and FullClock, are in their table (spec.go).
type Options struct {
	// Name is what the player's Name method returns, in match records and
	// in answers to INFO. Default: the kind of player, such as "mcts".
	Name string

	// NewReasoner builds the reasoner for the rules of a match; the
	// command chooses the backend (package reasoner/backend). Required:
	// Start fails without it.
	NewReasoner reasoner.Factory

	// Search configures the search of the mcts player in a GDL match.
	Search mcts.Config

	// GDLIISearch configures the search of the mcts player in a GDL-II
	// match (hidden.go).
	GDLIISearch ismcts.Config

	// Ponder switches the mcts player's search between its answer and
	// the next call of the match: the time it gives back when its
	// decision settles early, its margin and the other players' thinking
	// go to the turns to come. It stops when the next call arrives, or
	// after two play clocks without one.
	Ponder mcts.Switch

	// PonderPlayed, with Ponder, keeps the search between an answer and
	// the next call below the move answered (mcts.Search.Focus): the
	// game goes on from there, and the other moves' subtrees are
	// dropped at the next call.
	PonderPlayed mcts.Switch

	// FullClock, when on, makes the mcts player answer START and PLAY
	// only at the end of their clocks (less its margins), even when its
	// move is settled or proven sooner: a player that takes the whole of
	// every clock, to check a game master, a network or a host at long
	// clocks, as ggp-base's game server can force with
	// setForceUsingEntireClock.
	FullClock mcts.Switch

	// Margin is the time a player keeps free before the deadline of
	// each call to Start and Play, for the answer to get back on a busy
	// machine; MarginShare of the time left is kept on top of it. The HTTP
	// server adds its own margin for the network. Default DefaultMargin.
	Margin time.Duration

	// MarginShare is the share of the time left at each call that a
	// player keeps free in addition to Margin. Default DefaultMarginShare;
	// a negative value keeps none.
	MarginShare float64

	// Seed seeds the random choices of the random player and of the
	// fallback moves; 0 picks a random seed.
	Seed uint64

	// Log receives a line for each failure a player recovers from, such as
	// a search that panicked. Nil discards them.
	Log *log.Logger
}

func (o Options) withDefaults(kind string) Options {
	for _, s := range o.playerSettings() {
		s.SetDefault()
	}
	if o.Name == "" {
		o.Name = kind
	}
	if o.Margin <= 0 {
		o.Margin = DefaultMargin
	}
	if o.MarginShare == 0 {
		o.MarginShare = DefaultMarginShare
	}
	o.MarginShare = max(o.MarginShare, 0)
	if o.Seed == 0 {
		o.Seed = rand.Uint64()
	}
	if o.Search.Log == nil {
		o.Search.Log = o.Log
	}
	return o
}

// Kinds returns the kinds of player that New makes.
func Kinds() []string { return []string{"mcts", "random", "legal"} }

// New returns a new in-process player of the kind spec names:
//
//	mcts    Monte Carlo tree search (package mcts)
//	random  a uniformly random legal move
//	legal   the first legal move in sorted order
//
// Every kind also plays GDL-II (player.GDLIIPlayer), from its view alone,
// among the moves it can be sure are legal: random and legal choose among
// them, and mcts searches over the states it holds possible (hidden.go).
//
// The kind may be followed by settings, as in "mcts:base:workers=1" (see
// spec.go and SettingsHelp); they override opts.Search. The player's name
// defaults to spec.
//
// Each player can play several matches at once, one role in each.
func New(spec string, opts Options) (player.Player, error) {
	kind, err := parseSpec(spec, &opts)
	if err != nil {
		return nil, err
	}
	opts = opts.withDefaults(spec)
	switch kind {
	case "mcts":
		return &mctsPlayer{opts: opts}, nil
	case "random":
		rng := rand.New(rand.NewPCG(opts.Seed, 0x72616e646f6d))
		var mu sync.Mutex
		return newSimple(opts, func(moves []reasoner.Move) reasoner.Move {
			mu.Lock()
			defer mu.Unlock()
			return moves[rng.IntN(len(moves))]
		}), nil
	case "legal":
		return newSimple(opts, func(moves []reasoner.Move) reasoner.Move {
			return slices.Min(moves)
		}), nil
	}
	panic("local: parseSpec accepted unknown kind " + kind)
}

// simple is a player that chooses among the legal moves without search.
// In a GDL-II match it knows only its view, and chooses among the moves
// most likely legal in the states it holds possible (package
// reasoner/infoset): the moves legal in all of them when there are any,
// sure to be legal while its belief holds every consistent state, and
// otherwise those legal in the states of the most weight, the best guess
// it has.
type simple struct {
	opts   Options
	choose func([]reasoner.Move) reasoner.Move

	matches follow.Matches[*simpleMatch]
}

type simpleMatch struct {
	clock time.Duration // play clock, used when a call has no deadline
	mu    sync.Mutex
	g     *follow.Game
	view  *infoset.Follower // what the player knows of a GDL-II match; nil in a GDL one
}

func newSimple(opts Options, choose func([]reasoner.Move) reasoner.Move) *simple {
	return &simple{opts: opts, choose: choose}
}

func (p *simple) Name() string { return p.opts.Name }

func (p *simple) Start(ctx context.Context, m *player.Match) error {
	g, err := follow.Start(ctx, m, p.opts.NewReasoner)
	if err != nil {
		return err
	}
	sm := &simpleMatch{g: g, clock: m.PlayClock}
	if m.GDLII {
		if sm.view, err = follow.NewFollower(ctx, g, p.opts.Seed^uint64(len(m.ID))); err != nil {
			return err
		}
	}
	return p.matches.Add(m.ID, sm)
}

// PlayTurn follows the step t tells of in the player's view and chooses
// among the moves most likely legal (infoset.Follower.Moves).
func (p *simple) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
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
	if err := follow.Turn(ctx, m.view, id, t, p.opts.budget(ctx, m.clock), p.logf); err != nil {
		return "", err
	}
	moves, err := m.view.Moves(ctx)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	return p.choose(moves), nil
}

// StopTurn ends a GDL-II match.
func (p *simple) StopTurn(ctx context.Context, id string, t player.Turn) error {
	return p.end(id)
}

func (p *simple) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
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

func (p *simple) logf(format string, args ...any) { p.opts.logf(format, args...) }

// logf writes a line to Log, if set.
func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log.Printf(format, args...)
	}
}

func (p *simple) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	return p.end(id)
}

func (p *simple) Abort(ctx context.Context, id string) error {
	return p.end(id)
}

func (p *simple) end(id string) error {
	_, err := p.matches.Remove(id)
	return err
}
