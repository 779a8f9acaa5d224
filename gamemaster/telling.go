package gamemaster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// A telling is what the referee does differently in a match of each mode
// (gdl.DecideMode): what a role is told of each step, and who draws
// nature's moves. A match holds one, and its flow asks it; gdlTelling
// tells every player the joint moves, gdlIITelling each its own move and
// percepts.
type telling interface {
	// mode returns the mode the match is played in.
	mode() gdl.Mode
	// admit checks that p can play a role in this mode.
	admit(p player.Player) error
	// record notes the mode in a new record.
	record(rec *record.Record)
	// nature returns the role whose moves the referee draws, or -1.
	nature() int
	// natureMove draws nature's move among legal.
	natureMove(legal []reasoner.Move) reasoner.Move
	// anyCase reports whether a move is read whatever the case of its
	// symbols, as the Dresden GameController reads moves.
	anyCase() bool
	// observe works out and records what each player is told of the
	// step that plays joint in mt.state.
	observe(ctx context.Context, mt *match, step int, joint []reasoner.Move) error
	// play and stop return the calls that ask s for its move and that
	// end its match, telling it of the last step.
	play(mt *match, s *contestant) func(context.Context) (reasoner.Move, error)
	stop(mt *match, s *contestant) func(context.Context) (reasoner.Move, error)
	// goals settles the goals of the final state, given what the
	// reasoner gave, goals and err.
	goals(ctx context.Context, mt *match, goals []int, err error) ([]int, error)
}

// tell returns the telling of a match of g, the game key, with the given
// number of players: nature sits in the role random when the players are
// one fewer than the roles and the rules name it. Nature's moves are drawn
// from seed; 0 picks one.
func tell(g *game, key string, players int, seed uint64) (telling, error) {
	n := reasoner.NatureIndex(g.roles)
	seating := gdl.RulesAlone
	if n >= 0 && players == len(g.roles)-1 {
		seating = gdl.NatureSeated
	}
	if gdl.DecideMode(g.desc, seating) == gdl.GDL {
		if players != len(g.roles) {
			return nil, fmt.Errorf("%d players for the %d roles of %s (%s)", players, len(g.roles), key, roleList(g.roles, -1))
		}
		return gdlTelling{}, nil
	}
	seer, ok := g.r.(reasoner.Perceiver)
	if !ok {
		return nil, fmt.Errorf("the reasoner %T of this GDL-II game gives no percepts", g.r)
	}
	switch {
	case n < 0 && players != len(g.roles):
		return nil, fmt.Errorf("%s: %d players for the %d roles (%s)", key, players, len(g.roles), roleList(g.roles, -1))
	case n >= 0 && players != len(g.roles)-1:
		return nil, fmt.Errorf("%s: %d players given; a GDL-II game wants one for each role but random, which nature plays: %d (%s)", key, players, len(g.roles)-1, roleList(g.roles, n))
	}
	for seed == 0 {
		seed = rand.Uint64()
	}
	return &gdlIITelling{seer: seer, natureRole: n, seed: seed, chance: newChance(seed)}, nil
}

// roleList returns the roles but the one at skip, comma separated.
func roleList(roles []string, skip int) string {
	if skip >= 0 {
		roles = slices.Delete(slices.Clone(roles), skip, skip+1)
	}
	return strings.Join(roles, ", ")
}

// gdlTelling tells every player the joint move of each step.
type gdlTelling struct{}

func (gdlTelling) mode() gdl.Mode                                 { return gdl.GDL }
func (gdlTelling) admit(player.Player) error                      { return nil }
func (gdlTelling) record(*record.Record)                          {}
func (gdlTelling) nature() int                                    { return -1 }
func (gdlTelling) natureMove(legal []reasoner.Move) reasoner.Move { return legal[0] }
func (gdlTelling) anyCase() bool                                  { return false }

func (gdlTelling) observe(context.Context, *match, int, []reasoner.Move) error { return nil }

func (gdlTelling) play(mt *match, s *contestant) func(context.Context) (reasoner.Move, error) {
	last := slices.Clone(mt.last)
	return func(ctx context.Context) (reasoner.Move, error) { return s.p.Play(ctx, mt.m.ID, last) }
}

func (gdlTelling) stop(mt *match, s *contestant) func(context.Context) (reasoner.Move, error) {
	last := slices.Clone(mt.last)
	return func(ctx context.Context) (reasoner.Move, error) { return "", s.p.Stop(ctx, mt.m.ID, last) }
}

func (gdlTelling) goals(_ context.Context, _ *match, goals []int, err error) ([]int, error) {
	return goals, err
}

// gdlIITelling tells each player of a GDL-II match only its own move and
// its percepts (player.GDLIIPlayer), and draws nature's moves from seed.
type gdlIITelling struct {
	seer       reasoner.Perceiver
	natureRole int // -1 when the rules name no role random
	seed       uint64
	chance     *rand.Rand
}

func (t *gdlIITelling) mode() gdl.Mode { return gdl.GDLII }

func (t *gdlIITelling) admit(p player.Player) error {
	if _, ok := p.(player.GDLIIPlayer); !ok {
		return fmt.Errorf("player %s cannot play GDL-II games", p.Name())
	}
	return nil
}

func (t *gdlIITelling) record(rec *record.Record) {
	rec.GDLII, rec.Seed, rec.Percepts = true, t.seed, [][][]string{}
	if t.natureRole >= 0 {
		rec.Nature = rec.Roles[t.natureRole]
	}
}

func (t *gdlIITelling) nature() int { return t.natureRole }

func (t *gdlIITelling) natureMove(legal []reasoner.Move) reasoner.Move {
	return NatureMove(t.chance, legal)
}

func (t *gdlIITelling) anyCase() bool { return true }

// observe computes the percepts of every player of the step that plays
// joint, records them, and sets what each player is told next.
func (t *gdlIITelling) observe(ctx context.Context, mt *match, step int, joint []reasoner.Move) error {
	percepts := make([][]string, len(mt.contestants))
	err := mt.rules(ctx, func(ctx context.Context) error {
		for i, s := range mt.contestants {
			percepts[i] = []string{}
			if s.p == nil {
				continue
			}
			ps, err := t.seer.Sees(ctx, mt.state, joint, i)
			if err != nil {
				return &roleError{i, fmt.Errorf("percepts: %w", err)}
			}
			s.turn = player.Turn{Number: step, Move: joint[i], Percepts: ps}
			for _, p := range ps {
				percepts[i] = append(percepts[i], string(p))
			}
		}
		return nil
	})
	if err != nil {
		return mt.roleStepError(step, err)
	}
	mt.rec.Percepts = append(mt.rec.Percepts, percepts)
	return nil
}

func (t *gdlIITelling) play(mt *match, s *contestant) func(context.Context) (reasoner.Move, error) {
	turn := s.turn
	turn.Percepts = slices.Clone(turn.Percepts)
	return func(ctx context.Context) (reasoner.Move, error) {
		return s.p.(player.GDLIIPlayer).PlayTurn(ctx, mt.m.ID, turn)
	}
}

func (t *gdlIITelling) stop(mt *match, s *contestant) func(context.Context) (reasoner.Move, error) {
	turn := s.turn
	return func(ctx context.Context) (reasoner.Move, error) {
		return "", s.p.(player.GDLIIPlayer).StopTurn(ctx, mt.m.ID, turn)
	}
}

// goals settles the goals of a GDL-II game as the Dresden GameController
// does (FirstGoals), and ignores nature's.
func (t *gdlIITelling) goals(ctx context.Context, mt *match, goals []int, err error) ([]int, error) {
	if ge, ok := errors.AsType[*reasoner.GoalError](err); ok {
		var notes []string
		goals, notes, err = FirstGoals(ctx, mt.g.desc, mt.state, mt.g.roles, goals, ge)
		for _, n := range notes {
			mt.logf("match %s: step %d: %s", mt.m.ID, mt.rec.Steps(), n)
		}
	}
	n := t.natureRole
	if n < 0 {
		return goals, err
	}
	if ge, ok := errors.AsType[*reasoner.GoalError](err); ok && len(goals) == len(mt.contestants) && slices.Equal(ge.Roles, mt.g.roles[n:n+1]) {
		err = nil // nature's goal is ignored
	}
	if err == nil {
		goals[n] = 0
	}
	return goals, err
}
