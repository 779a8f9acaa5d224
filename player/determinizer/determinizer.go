// Package determinizer holds the baseline that a search over information
// sets is measured against: a player of GDL-II games that, each turn,
// takes one state consistent with what it knows, drawn by its chance, for
// the true one, and searches it as a game of complete information (the
// "sample" player of the HyperPlay papers, Schofield, Cerexhe and
// Thielscher, AAAI 2012). It believes it will know everything it could
// know, so it gives nothing for information: it guesses where asking
// pays, and expects its opponents to see what it hides.
//
// It is a measuring instrument, used by the tests of package
// player/mctsplayer and by the measurement of docs/gdl2.md's "Valuing
// information", not one of the players a command names.
package determinizer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// Options configures a Player. The zero value selects the defaults.
type Options struct {
	// Name is what the player's Name method returns. Default "sample",
	// or "cheat" with Cheat.
	Name string

	// NewReasoner builds the reasoner for the rules of a match.
	// Required: Start fails without it.
	NewReasoner reasoner.Factory

	// Cheat makes the player search the true state, which the caller
	// shows it before each turn (ShowTruth), instead of a state drawn
	// from its view: what hidden information costs a player.
	Cheat bool

	// Search configures the search of the state taken for the true one;
	// its Perfect is set, and its MaxBackup is off unless set: the
	// baseline is plain UCT over the state it draws. Its Iterations, when
	// positive, bounds each turn's search, which otherwise runs until the
	// deadline.
	Search ismcts.Config

	// Margin is the time kept free before the deadline of each call, as
	// the mcts player keeps it, so that both think as long. Default
	// clock.Margin.OrDefault's.
	Margin clock.Margin

	// Seed seeds the player's random choices; 0 picks a random seed.
	Seed uint64
}

// A Player is the determinizing player. It plays GDL-II matches only,
// several at once.
type Player struct {
	opts    Options
	matches follow.Matches[*match]
}

type match struct {
	mu    sync.Mutex
	g     *follow.Game
	view  *infoset.Follower
	rng   *rand.Rand
	clock time.Duration   // play clock, used when a call has no deadline
	truth *reasoner.State // the true state, with Options.Cheat
}

// New returns a determinizing player.
func New(opts Options) *Player {
	if opts.Name == "" {
		opts.Name = "sample"
		if opts.Cheat {
			opts.Name = "cheat"
		}
	}
	opts.Margin = opts.Margin.OrDefault()
	if opts.Seed == 0 {
		opts.Seed = rand.Uint64()
	}
	opts.Search.Perfect = true
	if opts.Search.MaxBackup == mcts.Default {
		opts.Search.MaxBackup = mcts.Off
	}
	return &Player{opts: opts}
}

// Name returns the player's name.
func (p *Player) Name() string { return p.opts.Name }

// Start prepares for a GDL-II match.
func (p *Player) Start(ctx context.Context, m *player.Match) error {
	if !m.GDLII {
		return fmt.Errorf("match %s: the determinizer plays GDL-II matches only", m.ID)
	}
	g, err := follow.Start(ctx, m, p.opts.NewReasoner)
	if err != nil {
		return err
	}
	seed := p.opts.Seed ^ uint64(len(m.ID))
	view, err := follow.NewFollower(ctx, g, seed)
	if err != nil {
		return err
	}
	return p.matches.Add(m.ID, &match{g: g, view: view, clock: m.PlayClock, rng: rand.New(rand.NewPCG(seed, 1))})
}

// ShowTruth tells a cheating player the true state of match id before a
// turn.
func (p *Player) ShowTruth(id string, s *reasoner.State) error {
	m, err := p.matches.Get(id)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.truth = s
	return nil
}

// PlayTurn follows the step t tells of, takes one state for the true one
// and returns the move a complete-information search of it finds best,
// among the moves most likely legal (infoset.Follower.Moves).
func (p *Player) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	m, err := p.matches.Get(id)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	budget := clock.New(ctx, m.clock, p.opts.Margin)
	deadline, _ := budget.Deadline()
	if err := follow.Turn(ctx, m.view, id, t, budget, func(string, ...any) {}); err != nil {
		return "", err
	}
	moves, err := m.view.Moves(ctx)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	state := m.truth
	if p.opts.Cheat {
		if state == nil {
			return "", fmt.Errorf("match %s: turn %d: a cheat not shown the truth", id, t.Number)
		}
		if moves, err = m.g.R.Legal(ctx, state, m.g.Role); err != nil {
			return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
		}
	} else {
		// A state drawn from approximate ones may be terminal, or allow
		// none of the moves: draw again.
		states, weights := m.view.States()
		draw := ismcts.Weighted(states, weights, m.rng)
		for range 100 {
			if state = draw(); usable(ctx, m.g, state, moves) {
				break
			}
		}
	}
	if len(moves) == 1 {
		return moves[0], nil
	}
	cfg := p.opts.Search
	cfg.Rand = m.rng
	s, err := ismcts.New(m.g.R, m.g.Role, moves, cfg)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	sctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if err := s.Run(sctx, func() *reasoner.State { return state }, 0); err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	if best, ok := s.Best(); ok {
		return best, nil
	}
	return moves[m.rng.IntN(len(moves))], nil
}

// usable reports whether s is not terminal and one of moves is legal there.
func usable(ctx context.Context, g *follow.Game, s *reasoner.State, moves []reasoner.Move) bool {
	if done, err := g.R.Terminal(ctx, s); err != nil || done {
		return false
	}
	legal, err := g.R.Legal(ctx, s, g.Role)
	return err == nil && slices.ContainsFunc(moves, func(m reasoner.Move) bool { return slices.Contains(legal, m) })
}

// StopTurn ends a GDL-II match.
func (p *Player) StopTurn(ctx context.Context, id string, t player.Turn) error { return p.end(id) }

// errGDL is the answer to the calls of a GDL match.
var errGDL = errors.New("the determinizer plays GDL-II matches only")

// Play refuses: the player plays GDL-II matches only, and Start refuses
// any other.
func (p *Player) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	return "", fmt.Errorf("match %s: %w", id, errGDL)
}

// Stop ends a match.
func (p *Player) Stop(ctx context.Context, id string, last []reasoner.Move) error { return p.end(id) }

// Abort ends a match.
func (p *Player) Abort(ctx context.Context, id string) error { return p.end(id) }

func (p *Player) end(id string) error {
	_, err := p.matches.Remove(id)
	return err
}

var _ player.GDLIIPlayer = (*Player)(nil)
