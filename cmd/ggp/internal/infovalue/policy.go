package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/infoset/exact"
)

// A policyPlayer plays a role of a GDL-II match by a policy the exhaustive
// search computed (package exact): at a view with a choice, uniformly
// among the policy's moves there; elsewhere its one legal move, which
// its belief (every state its view allows) tells it.
type policyPlayer struct {
	name        string
	policy      exact.Policy
	newReasoner reasoner.Factory
	rng         *rand.Rand

	mu      sync.Mutex
	matches map[string]*policyMatch
}

type policyMatch struct {
	steps  []infoset.Step
	belief *infoset.Belief
}

func newPolicyPlayer(name string, policy exact.Policy, f reasoner.Factory, seed uint64) *policyPlayer {
	return &policyPlayer{name: name, policy: policy, newReasoner: f, rng: rand.New(rand.NewPCG(seed, 0x706f6c696379)),
		matches: map[string]*policyMatch{}}
}

func (p *policyPlayer) Name() string { return p.name }

func (p *policyPlayer) Start(ctx context.Context, m *player.Match) error {
	if !m.GDLII {
		return fmt.Errorf("match %s: a policy plays GDL-II matches only", m.ID)
	}
	r, err := p.newReasoner(ctx, m.Rules)
	if err != nil {
		return err
	}
	role := slices.Index(r.Roles(), m.Role)
	if role < 0 {
		return fmt.Errorf("match %s: no role %s", m.ID, m.Role)
	}
	b, err := infoset.New(ctx, r, infoset.View{Role: role}, infoset.Options{})
	if err != nil {
		return fmt.Errorf("match %s: %w", m.ID, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.matches[m.ID] = &policyMatch{belief: b}
	return nil
}

func (p *policyPlayer) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.matches[id]
	if !ok {
		return "", fmt.Errorf("match %s: not started", id)
	}
	if t.Number > 0 {
		st := infoset.Step{Move: t.Move, Percepts: t.Percepts}
		if err := m.belief.Update(ctx, st); err != nil {
			return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
		}
		m.steps = append(m.steps, st)
	}
	if moves, ok := p.policy[exact.Key(m.steps)]; ok {
		return moves[p.rng.IntN(len(moves))], nil
	}
	legal, err := m.belief.SureLegal(ctx)
	if err != nil {
		return "", fmt.Errorf("match %s: turn %d: %w", id, t.Number, err)
	}
	if len(legal) != 1 {
		return "", fmt.Errorf("match %s: turn %d: the policy has no move for the view %q, where %d moves are legal", id, t.Number, exact.Key(m.steps), len(legal))
	}
	return legal[0], nil
}

func (p *policyPlayer) StopTurn(ctx context.Context, id string, t player.Turn) error {
	return p.end(id)
}

var errGDL = errors.New("a policy plays GDL-II matches only")

func (p *policyPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	return "", fmt.Errorf("match %s: %w", id, errGDL)
}

func (p *policyPlayer) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	return p.end(id)
}

func (p *policyPlayer) Abort(ctx context.Context, id string) error { return p.end(id) }

func (p *policyPlayer) end(id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.matches, id)
	return nil
}

var _ player.GDLIIPlayer = (*policyPlayer)(nil)
