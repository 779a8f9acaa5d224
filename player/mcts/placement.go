package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// GRAVE by default only in placement games. AMAF values assume that a
// move is worth about the same whenever it is played, as a stone on a
// point of Go (Gelly and Silver's RAVE). That holds best where a move is
// open until someone claims it and never again after: a stone of hex or
// tic-tac-toe claims its cell for the rest of the match. Where moves come
// back (connect four's columns, breakthrough's and knightThrough's steps)
// or open and close with the rest of the position (reversi's flanks,
// pentago's rotations) the same move is a different move at another time.
// Against GRAVE off, GRAVE won 5 of 6 hex matches and 2 of 5 reversi
// matches (docs/strength.md). Whether the rules make a game a placement
// game is read from random playouts before the first search:
// every choice a role makes must be among the moves legal at its previous
// choice in the playout, less the one it played then, bar a tiny fraction
// of choices, over enough choices to tell.

// Limits of the placement probe.
const (
	placementPlayouts = 64                    // playouts at most
	placementBudget   = 50 * time.Millisecond // time at most
	placementMargin   = 20 * time.Millisecond // for a reasoner call to return
	placementSteps    = 1000                  // steps of one playout at most
	placementChoices  = 100                   // choices needed to decide
	placementBreaks   = 0.01                  // fraction of choices allowed a new move
)

// shrinkCounter counts, over random playouts, the choices the roles made
// and those that broke the rule of placement games: a legal move that was
// not legal at the role's previous choice in the playout, or was the move
// played there. It is the Policy of the probe through a PolicyPlayouter,
// which numbers the moves; through Legal and Next it keeps their names.
type shrinkCounter struct {
	rng             *rand.Rand
	started         []bool                       // the role has chosen in this playout
	allowed         [][]uint64                   // by number: moves still open to the role
	named           []map[reasoner.Move]struct{} // by name: the same
	choices, breaks int
}

// Choose draws one of role's legal moves uniformly and counts it.
func (c *shrinkCounter) Choose(role int, legal []int32) int {
	allowed := c.allowed[role]
	if c.started[role] {
		for _, m := range legal {
			if allowed[m>>6]&(1<<(m&63)) == 0 {
				c.breaks++
				break
			}
		}
	}
	clear(allowed)
	for _, m := range legal {
		allowed[m>>6] |= 1 << (m & 63)
	}
	i := c.rng.IntN(len(legal))
	m := legal[i]
	allowed[m>>6] &^= 1 << (m & 63)
	c.started[role] = true
	c.choices++
	return i
}

// chooseNamed draws one of role's legal moves uniformly and counts it, as
// Choose does by number.
func (c *shrinkCounter) chooseNamed(role int, legal []reasoner.Move) reasoner.Move {
	allowed := c.named[role]
	if c.started[role] {
		for _, m := range legal {
			if _, ok := allowed[m]; !ok {
				c.breaks++
				break
			}
		}
	}
	clear(allowed)
	for _, m := range legal {
		allowed[m] = struct{}{}
	}
	m := legal[c.rng.IntN(len(legal))]
	delete(allowed, m)
	c.started[role] = true
	c.choices++
	return m
}

// probePlacement runs placementGame from st on a fork of the search's
// reasoner, and returns false if it panics or has not answered within
// placementBudget and a margin. The fork is made and played in a
// goroutine of its own, so that a reasoner slow to fork or that does not
// heed its context (a slow Next) holds up the goroutine and not the
// caller; the fork then joins the workers' pool. The goroutine belongs to
// the search, and Close waits for it if it is still playing.
func (s *Search) probePlacement(ctx context.Context, st *reasoner.State) bool {
	ctx, cancel := context.WithTimeout(ctx, placementBudget)
	stop := context.AfterFunc(s.life, cancel)
	answer := make(chan bool, 1)
	started := s.owned.Go(func() {
		defer stop()
		defer cancel()
		placement := false
		defer func() { answer <- placement }()
		r, err := s.fork()
		if err != nil {
			s.logf("mcts: forking the reasoner: %v", err)
			return
		}
		defer s.releaseRecovered(r, "probing for a placement game")
		placement = placementGame(ctx, r, st, s.cfg.Seed)
	})
	if !started {
		cancel()
		stop()
		return false
	}
	timer := time.NewTimer(placementBudget + placementMargin)
	defer timer.Stop()
	select {
	case placement := <-answer:
		return placement
	case <-timer.C:
		return false
	}
}

// placementGame reports whether, in random playouts from st, at most a
// fraction placementBreaks of the roles' choices had a legal move that
// was not open at the role's previous choice (shrinkCounter), over at
// least placementChoices choices; false when ctx is done or the playouts
// run out first, or the reasoner fails. It plays through the reasoner's
// PolicyPlayout when it has one.
func placementGame(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, seed uint64) bool {
	nr := len(r.Roles())
	c := &shrinkCounter{rng: rand.New(rand.NewPCG(seed, 0x9a1ace)), started: make([]bool, nr)}
	pp, numbered := r.(reasoner.PolicyPlayouter)
	for role := range nr {
		if numbered {
			c.allowed = append(c.allowed, make([]uint64, (len(pp.Moves(role))+63)/64))
		} else {
			c.named = append(c.named, map[reasoner.Move]struct{}{})
		}
	}
	for range placementPlayouts {
		if ctx.Err() != nil {
			break
		}
		clear(c.started)
		var err error
		if numbered {
			_, _, err = pp.PolicyPlayout(ctx, st, c, placementSteps)
		} else {
			err = c.playout(ctx, r, st)
		}
		if err != nil && ctx.Err() == nil {
			return false
		}
	}
	return c.choices >= placementChoices && float64(c.breaks) <= placementBreaks*float64(c.choices)
}

// playout plays uniformly random moves from st through Legal and Next,
// counting the choices of every role with more than one legal move, as
// PolicyPlayout asks a Policy for them. It stops once ctx is done,
// checked at every step, as the search's playouts do.
func (c *shrinkCounter) playout(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) error {
	joint := make([]reasoner.Move, len(r.Roles()))
	for range placementSteps {
		if err := ctx.Err(); err != nil {
			return err
		}
		terminal, err := r.Terminal(ctx, st)
		if err != nil || terminal {
			return err
		}
		for role := range joint {
			legal, err := r.Legal(ctx, st, role)
			switch {
			case err != nil:
				return err
			case len(legal) == 0:
				return fmt.Errorf("%s has no legal move", r.Roles()[role])
			case len(legal) == 1:
				joint[role] = legal[0]
			default:
				joint[role] = c.chooseNamed(role, legal)
			}
		}
		if st, err = r.Next(ctx, st, joint); err != nil {
			return err
		}
	}
	return nil
}
