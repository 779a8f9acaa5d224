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
// point of Go (Gelly and Silver's RAVE). That holds best where a move,
// once played, is never legal again: a stone of hex or reversi claims its
// cell for the rest of the match. Where moves come back (connect four's
// columns, breakthrough's and knightThrough's steps, pentago's rotations)
// the same move is a different move at another time, and GRAVE lost
// there in the measurements of docs/strength.md while it won every hex
// match. Whether the rules let a move come back is read from random
// playouts before the first search: the game is a placement game when,
// over enough choices to tell, hardly any move a role played was legal
// for it again later in the playout.

// Limits of the placement probe.
const (
	placementPlayouts = 64                    // playouts at most
	placementBudget   = 50 * time.Millisecond // time at most
	placementMargin   = 20 * time.Millisecond // for a reasoner call to return
	placementSteps    = 1000                  // steps of one playout at most
	placementChoices  = 100                   // choices needed to decide
	placementReturns  = 0.01                  // fraction of played moves legal again allowed
)

// returnCounter counts, over random playouts, the choices the roles made
// and the moves played that were legal again later for the same role in
// the same playout. It is the Policy of the probe through a
// PolicyPlayouter, which numbers the moves; through Legal and Next it
// keeps their names.
type returnCounter struct {
	rng              *rand.Rand
	played, back     [][]uint64 // by number: the moves played, and those legal again since
	named            []map[reasoner.Move]bool
	choices, returns int
}

// Choose draws one of role's legal moves uniformly and counts it.
func (c *returnCounter) Choose(role int, legal []int32) int {
	played, back := c.played[role], c.back[role]
	for _, m := range legal {
		if played[m>>6]&^back[m>>6]&(1<<(m&63)) != 0 {
			c.returns++
			back[m>>6] |= 1 << (m & 63)
		}
	}
	i := c.rng.IntN(len(legal))
	m := legal[i]
	played[m>>6] |= 1 << (m & 63)
	c.choices++
	return i
}

// chooseNamed draws one of role's legal moves uniformly and counts it, as
// Choose does by number. named maps a move played to whether it was legal
// again since.
func (c *returnCounter) chooseNamed(role int, legal []reasoner.Move) reasoner.Move {
	named := c.named[role]
	for _, m := range legal {
		if again, ok := named[m]; ok && !again {
			c.returns++
			named[m] = true
		}
	}
	m := legal[c.rng.IntN(len(legal))]
	if _, ok := named[m]; !ok {
		named[m] = false
	}
	c.choices++
	return m
}

// probePlacement runs placementGame from st on a fork of the search's
// reasoner, and returns false if it panics or has not answered within
// placementBudget and a margin: a reasoner that does not heed its
// context (a slow Next) keeps the fork, not the caller, until it returns.
func (s *Search) probePlacement(ctx context.Context, st *reasoner.State) bool {
	s.forkMu.Lock()
	r, err := s.tmpl.Fork()
	s.forkMu.Unlock()
	if err != nil {
		s.logf("mcts: forking the reasoner: %v", err)
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, placementBudget)
	answer := make(chan bool, 1)
	go func() {
		defer cancel()
		placement := false
		defer func() {
			if p := recover(); p != nil {
				s.panics.Add(1)
				s.logf("mcts: probing for a placement game: panic: %v", p)
			}
			answer <- placement
		}()
		placement = placementGame(ctx, r, st, s.cfg.Seed)
	}()
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
// fraction placementReturns of the moves the roles played were legal for
// them again later in the playout, over at least placementChoices
// choices; false when ctx is done or the playouts run out first, or the
// reasoner fails. It plays through the reasoner's PolicyPlayout when
// it has one.
func placementGame(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, seed uint64) bool {
	nr := len(r.Roles())
	c := &returnCounter{rng: rand.New(rand.NewPCG(seed, 0x9a1ace))}
	pp, numbered := r.(reasoner.PolicyPlayouter)
	for role := range nr {
		if numbered {
			words := (len(pp.Moves(role)) + 63) / 64
			c.played = append(c.played, make([]uint64, words))
			c.back = append(c.back, make([]uint64, words))
		} else {
			c.named = append(c.named, map[reasoner.Move]bool{})
		}
	}
	for range placementPlayouts {
		if ctx.Err() != nil {
			break
		}
		var err error
		if numbered {
			for role := range nr {
				clear(c.played[role])
				clear(c.back[role])
			}
			_, _, err = pp.PolicyPlayout(ctx, st, c, placementSteps)
		} else {
			for role := range nr {
				clear(c.named[role])
			}
			err = c.playout(ctx, r, st)
		}
		if err != nil && ctx.Err() == nil {
			return false
		}
	}
	return c.choices >= placementChoices && float64(c.returns) <= placementReturns*float64(c.choices)
}

// playout plays uniformly random moves from st through Legal and Next,
// counting the choices of every role with more than one legal move, as
// PolicyPlayout asks a Policy for them.
func (c *returnCounter) playout(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) error {
	joint := make([]reasoner.Move, len(r.Roles()))
	for range placementSteps {
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
