package mctsplayer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// A hiddenMatch is a GDL-II match of the mcts player. The player knows
// only its view, which an infoset.Follower follows, and searches with package ismcts over the states
// the view holds possible, drawn by their chance, so that it neither acts
// on what it cannot see nor gives up what it could learn.
//
// The search runs in the goroutine of the call, PlayTurn, under mu: a
// hidden match has no goroutine of its own. end cancels ctx, which stops a
// search under way, and takes mu to wait for it.
type hiddenMatch struct {
	ctx    context.Context
	cancel context.CancelFunc
	clock  time.Duration // play clock, used when a call has no deadline

	mu   sync.Mutex
	g    *follow.Game
	view *infoset.Follower
	// search is the search of turn searched, kept for the next turn: its
	// tree under what the player then observes is the start of the next
	// search. The first turn's begins during the start clock (searched
	// -1).
	search   *ismcts.Search
	searched int
	rng      *rand.Rand
}

// startHidden starts a GDL-II match: it loads the rules, and searches the
// first turn until shortly before the deadline.
func (p *mctsPlayer) startHidden(ctx context.Context, m *player.Match) error {
	if warning := p.opts.gdlIIWarning(p.opts.Name); warning != "" {
		p.logf("match %s: warning: %s", m.ID, warning)
	}
	deadline := p.deadline(ctx, m.StartClock)
	defer p.holdToDeadline(ctx, deadline)
	g, err := follow.Start(ctx, m, p.opts.NewReasoner)
	if err != nil {
		return err
	}
	seed := p.opts.Seed ^ uint64(len(m.ID))
	view, err := follow.NewFollower(ctx, g, seed)
	if err != nil {
		return err
	}
	hctx, cancel := context.WithCancel(context.Background())
	hm := &hiddenMatch{
		ctx:    hctx,
		cancel: cancel,
		clock:  m.PlayClock,
		g:      g,
		view:   view,
		rng:    rand.New(rand.NewPCG(seed, 0x69736d637473)),
	}
	if err := p.hidden.Add(m.ID, hm); err != nil {
		cancel()
		return err
	}
	hm.mu.Lock()
	defer hm.mu.Unlock()
	moves, err := hm.view.Moves(ctx)
	if err != nil {
		return nil // PLAY says why
	}
	states, weights := hm.view.States()
	hm.search, _ = p.searchHidden(ctx, hm, nil, p.hiddenConfig(hm), moves, deadline, ismcts.Weighted(states, weights, hm.rng))
	hm.searched = -1
	return nil
}

// PlayTurn follows the step t tells of and searches the next move over the
// states the player then holds possible, until shortly before the
// deadline. Its moves are those legal in every state it holds possible
// (or, when no move is, those most likely legal), so that it never plays
// a move that may be illegal while a sure one exists. It
// searches even when it has one move, while the other roles think: the
// tree grown then under what it may observe is where the next turn's
// search starts.
func (p *mctsPlayer) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	hm, err := p.hidden.Get(id)
	if err != nil {
		return "", err
	}
	budget := p.opts.budget(ctx, hm.clock)
	deadline, _ := budget.Deadline()
	defer p.holdToDeadline(ctx, deadline)
	hm.mu.Lock()
	defer hm.mu.Unlock()
	// Following the step may take long (a belief whose states must be
	// searched for): it takes its share of the budget, and the search
	// the rest.
	if err := follow.Turn(ctx, hm.view, id, t, budget, p.logf); err != nil {
		return "", err
	}
	moves, err := hm.view.Moves(ctx)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	s := hm.search
	switch {
	case s == nil:
	case hm.searched == t.Number:
		// A PLAY repeated: the same decision.
	case hm.searched == t.Number-1 && s.Advance(t.Move, t.Percepts, moves):
	case hm.searched == -1 && t.Number == 0:
	default:
		s = nil
	}
	hm.search, hm.searched = nil, t.Number
	states, weights := hm.view.States()
	s, err = p.searchHidden(ctx, hm, s, p.hiddenConfig(hm), moves, deadline, ismcts.Weighted(states, weights, hm.rng))
	hm.search = s
	if len(moves) == 1 {
		return moves[0], nil
	}
	return p.chooseHidden(hm, s, err, moves), nil
}

// chooseHidden returns the move the search s found best, or else a random
// one of moves.
func (p *mctsPlayer) chooseHidden(hm *hiddenMatch, s *ismcts.Search, err error, moves []reasoner.Move) reasoner.Move {
	if err != nil {
		p.logf("match %s: %v", hm.g.ID, err)
	}
	if s != nil {
		if best, ok := s.Best(); ok {
			return best
		}
	}
	return moves[hm.rng.IntN(len(moves))]
}

// searchHidden searches hm's next move among moves, over the states sample
// draws, until deadline or the end of the match, going on with s if it is
// not nil and otherwise with a new search of cfg. It returns the search
// even when it failed part of the way, with the error: its statistics are
// still sound.
func (p *mctsPlayer) searchHidden(ctx context.Context, hm *hiddenMatch, s *ismcts.Search, cfg ismcts.Config, moves []reasoner.Move, deadline time.Time, sample ismcts.Sampler) (_ *ismcts.Search, err error) {
	sctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	stop := context.AfterFunc(hm.ctx, cancel)
	defer stop()
	defer func() {
		// The search is an adviser: a fault in it, or in the
		// reasoner it calls, costs the turn its advice only.
		if v := recover(); v != nil {
			err = fmt.Errorf("search panicked: %v\n%s", v, debug.Stack())
		}
	}()
	if s == nil {
		if s, err = ismcts.New(hm.g.R, hm.g.Role, moves, cfg); err != nil {
			return nil, err
		}
	}
	return s, s.Run(sctx, sample, 0)
}

// hiddenConfig returns the configuration of a hidden match's searches:
// the GDL-II search's settings, drawing from the match's random numbers.
func (p *mctsPlayer) hiddenConfig(hm *hiddenMatch) ismcts.Config {
	cfg := p.opts.GDLIISearch
	cfg.Rand = hm.rng
	return cfg
}

// StopTurn ends a GDL-II match.
func (p *mctsPlayer) StopTurn(ctx context.Context, id string, t player.Turn) error {
	return p.end(ctx, id)
}

// endHidden ends the hidden match id, if there is one, and reports
// whether there was: it stops a search under way and waits for it.
func (p *mctsPlayer) endHidden(id string) bool {
	hm, err := p.hidden.Remove(id)
	if err != nil {
		return false
	}
	hm.cancel()
	hm.mu.Lock()
	defer hm.mu.Unlock()
	return true
}

var _ player.GDLIIPlayer = (*mctsPlayer)(nil)
