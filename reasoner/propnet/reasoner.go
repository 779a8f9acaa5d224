// Package propnet is the reasoner backend that grounds a game's rules into a
// propositional network: a proposition per ground fact of the state (base),
// per move (input), and per legal move, goal value and terminal; AND, OR and
// NOT gates between them; and for each base the gate that computes it in the
// next state. A state is a bitset over the bases, a move an input node.
//
// Grounding (ground.go) over-approximates the reachable atoms by a relaxed
// fixpoint and records every rule instance; the network (network.go,
// graph.go) is optimised by folding constants, bypassing single-input gates,
// merging identical gates and dropping what reaches no output; evaluation
// (eval.go) propagates changes only. Grounding is bounded in time (the
// context), in terms, in the size of the network and in the depth of terms,
// so a game too large for it fails with an error wrapping ErrBudget and can
// be handed to the Prolog backend instead.
package propnet

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// ErrNotGrounded is wrapped by every error of New: the game could not be
// grounded, and another backend should play it.
var ErrNotGrounded = errors.New("not grounded")

// Options configure grounding. The zero value selects the defaults.
type Options struct {
	Limits
}

// Reasoner is one instance of a grounded game. It is not safe for
// concurrent use; Fork returns independent instances sharing the network.
type Reasoner struct {
	net     *network
	m       *machine
	initial *reasoner.State

	words []uint64 // scratch: a state being built
	joint []int32  // scratch: input nodes of a joint move
	ids   []int32  // scratch: numbers (positions in net.legal) of one role's legal moves
}

var (
	_ reasoner.Reasoner        = (*Reasoner)(nil)
	_ reasoner.Playouter       = (*Reasoner)(nil)
	_ reasoner.PolicyPlayouter = (*Reasoner)(nil)
)

// New grounds d and builds its network. ctx bounds the time spent; past it,
// or past a limit of opts, New returns an error wrapping ErrBudget.
func New(ctx context.Context, d *gdl.Description, opts Options) (r *Reasoner, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%s: internal error grounding the game: %v", d.Filename, p)
		}
	}()
	net, err := build(ctx, d, opts.Limits)
	if err != nil {
		if d.Filename != "" {
			return nil, fmt.Errorf("%s: %w: %w", d.Filename, ErrNotGrounded, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrNotGrounded, err)
	}
	net.enc = &encoding{facts: net.facts}
	net.factIndex = make(map[reasoner.Fact]int, len(net.facts))
	for i, f := range net.facts {
		net.factIndex[f] = i
	}
	return net.instance(), nil
}

func (net *network) instance() *Reasoner {
	return &Reasoner{
		net:     net,
		m:       net.newMachine(),
		initial: reasoner.NewEncodedState(net.enc, slices.Clone(net.initial)),
		words:   make([]uint64, len(net.initial)),
	}
}

// Stats returns the sizes of the grounded game and its network.
func (r *Reasoner) Stats() Stats { return r.net.stats }

// Fork returns an independent instance sharing the network.
func (r *Reasoner) Fork() (reasoner.Reasoner, error) {
	f := r.net.instance()
	f.initial = r.initial
	return f, nil
}

// Roles returns the roles in the order the description lists them.
func (r *Reasoner) Roles() []string { return slices.Clone(r.net.roles) }

// Initial returns the initial state.
func (r *Reasoner) Initial(ctx context.Context) (*reasoner.State, error) { return r.initial, nil }

// load sets the network to state s and clears the moves when the queries
// read them.
func (r *Reasoner) load(s *reasoner.State) error {
	if s == nil {
		return fmt.Errorf("nil state")
	}
	words, ok := s.Encoded(r.net.enc)
	if !ok {
		clear(r.words)
		for _, f := range s.Facts() {
			i, ok := r.net.factIndex[f]
			if !ok {
				return fmt.Errorf("state fact %s is no base proposition of the grounded game", f)
			}
			r.words[i/64] |= 1 << (i % 64)
		}
		words = r.words
	}
	r.m.load(words)
	if r.net.queriesReadInputs && len(r.m.inputs) > 0 {
		r.m.setInputs(nil)
	}
	return nil
}

// Legal returns the legal moves of role in s, sorted.
func (r *Reasoner) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if role < 0 || role >= len(r.net.roles) {
		return nil, fmt.Errorf("legal: no role %d", role)
	}
	if err := r.load(s); err != nil {
		return nil, err
	}
	var out []reasoner.Move
	for _, p := range r.net.legal[role] {
		if r.m.value(p.node) {
			out = append(out, p.move)
		}
	}
	return out, nil
}

// Next returns the state after joint is played in s.
func (r *Reasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if len(joint) != len(r.net.roles) {
		return nil, fmt.Errorf("next: %d moves for %d roles", len(joint), len(r.net.roles))
	}
	if err := r.load(s); err != nil {
		return nil, err
	}
	r.joint = r.joint[:0]
	for i, mv := range joint {
		n, ok := r.net.moveIndex[i][mv]
		if !ok {
			return nil, fmt.Errorf("next: move %s of %s is never legal in the grounded game", mv, r.net.roles[i])
		}
		r.joint = append(r.joint, n)
	}
	r.m.setInputs(r.joint)
	words := make([]uint64, len(r.net.initial))
	r.m.nextState(words)
	return reasoner.NewEncodedState(r.net.enc, words), nil
}

// Terminal reports whether s is terminal.
func (r *Reasoner) Terminal(ctx context.Context, s *reasoner.State) (bool, error) {
	if err := r.load(s); err != nil {
		return false, err
	}
	return r.m.value(r.net.terminal), nil
}

// Goals returns the goal value of every role in s.
func (r *Reasoner) Goals(ctx context.Context, s *reasoner.State) ([]int, error) {
	if err := r.load(s); err != nil {
		return nil, err
	}
	values := make([][]int, len(r.net.roles))
	for i, ps := range r.net.goals {
		for _, p := range ps {
			if !r.m.value(p.node) {
				continue
			}
			if p.bad {
				return nil, fmt.Errorf("goals: goal of %s is %s, not a number", r.net.roles[i], p.text)
			}
			if !slices.Contains(values[i], p.value) {
				values[i] = append(values[i], p.value)
			}
		}
	}
	return reasoner.GoalsOf(r.net.roles, values)
}

// Playout plays uniformly random joint moves from s until a terminal state
// or maxSteps steps, as reasoner.Playout does and drawing the same random
// numbers, without building a state or a move on the way.
func (r *Reasoner) Playout(ctx context.Context, s *reasoner.State, rng *rand.Rand, maxSteps int) (*reasoner.State, int, error) {
	return r.play(ctx, s, nil, rng, maxSteps)
}

// Moves returns every move role can ever make, sorted: a move's number in
// PolicyPlayout is its position here. It returns nil for a role out of
// range.
func (r *Reasoner) Moves(role int) []reasoner.Move {
	if role < 0 || role >= len(r.net.moves) {
		return nil
	}
	return r.net.moves[role]
}

// PolicyPlayout plays joint moves chosen by p from s until a terminal state
// or maxSteps steps, without building a state or a move on the way.
func (r *Reasoner) PolicyPlayout(ctx context.Context, s *reasoner.State, p reasoner.Policy, maxSteps int) (*reasoner.State, int, error) {
	return r.play(ctx, s, p, nil, maxSteps)
}

// play is Playout when p is nil, drawing every role's move from rng, and
// PolicyPlayout otherwise.
func (r *Reasoner) play(ctx context.Context, s *reasoner.State, p reasoner.Policy, rng *rand.Rand, maxSteps int) (*reasoner.State, int, error) {
	if err := r.load(s); err != nil {
		return s, 0, err
	}
	cur := r.words
	copy(cur, r.m.state)
	m := r.m
	net := r.net
	done := func() *reasoner.State { return reasoner.NewEncodedState(net.enc, slices.Clone(cur)) }
	for step := 0; step < maxSteps; step++ {
		if step&63 == 63 {
			if err := ctx.Err(); err != nil {
				return done(), step, err
			}
		}
		if net.queriesReadInputs && len(m.inputs) > 0 {
			m.setInputs(nil)
		}
		if m.value(net.terminal) {
			return done(), step, nil
		}
		r.joint = r.joint[:0]
		for role, ps := range net.legal {
			r.ids = r.ids[:0]
			for i, lp := range ps {
				if m.value(lp.node) {
					r.ids = append(r.ids, int32(i))
				}
			}
			var i int
			switch {
			case len(r.ids) == 0:
				return done(), step, fmt.Errorf("step %d: %s has no legal move", step, net.roles[role])
			case p == nil:
				i = rng.IntN(len(r.ids))
			case len(r.ids) > 1:
				i = p.Choose(role, r.ids)
				if i < 0 || i >= len(r.ids) {
					return done(), step, fmt.Errorf("step %d: the policy chose move %d of %d for %s", step, i, len(r.ids), net.roles[role])
				}
			}
			r.joint = append(r.joint, ps[r.ids[i]].input)
		}
		m.setInputs(r.joint)
		m.nextState(cur)
		m.load(cur)
	}
	return done(), maxSteps, nil
}
