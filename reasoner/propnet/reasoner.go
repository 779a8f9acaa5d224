// Package propnet is the reasoner backend that grounds a game's rules into a
// propositional network: a proposition per ground fact of the state (base),
// per move (input), and per legal move, goal value and terminal; AND, OR and
// NOT gates between them; and for each base the gate that computes it in the
// next state. A state is a bitset over the bases, a move an input node.
//
// Grounding (ground.go: the fixpoint; rules.go: rules compiled to clauses;
// relevance.go: what to derive and in which order; join.go and index.go:
// the join; unfold.go, split.go and demand.go: the rewriting; budget.go:
// the limits)
// over-approximates the reachable atoms by a relaxed fixpoint and records
// every rule instance; the network (network.go,
// graph.go) is optimised by folding constants, bypassing single-input gates,
// merging identical gates and dropping what reaches no output; evaluation
// (eval.go) propagates changes only, and keeps the next state and each
// role's legal moves as bitsets that gates update as they flip. The goals
// have a network of their own, read only when asked, and so have a GDL-II
// game's percepts (sees), with the moves as well; turn-taking games get
// a network per role to move (phase.go). Grounding is bounded in time (the
// context), in terms, in the size of the network and in the depth of terms,
// so a game too large for it fails with an error wrapping ErrBudget and can
// be handed to the Prolog backend instead.
package propnet

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
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
	phases  []*machine // on net.phases, each made when first used
	goals   *machine   // on net.goalNet, made when first asked
	sees    *machine   // on net.seesNet, made when first asked
	initial *reasoner.State

	words []uint64 // scratch: a state being built
	prev  []uint64 // scratch: the state before a move a playout may take back
	joint []int32  // scratch: input nodes of a joint move
	ids   []int32  // scratch: numbers (positions in net.legal) of one role's legal moves
	// cleared is, in a playout seeking wins on facts, the role whose
	// move reached the current state, when every other role was found
	// to have no win on facts in it; noRole when not known.
	cleared int
	// plainWins makes playouts test wins on facts pattern by pattern,
	// not in their trie: tests compare the two.
	plainWins bool
	held      []uint64 // scratch: a role's moves with a win on facts
}

var (
	_ reasoner.Reasoner  = (*Reasoner)(nil)
	_ reasoner.Playouter = (*Reasoner)(nil)
	_ reasoner.WinReader = (*Reasoner)(nil)
	_ reasoner.Perceiver = (*Reasoner)(nil)
)

// New grounds d and builds its network. ctx bounds the time spent; past it,
// or past a limit of opts, New returns an error wrapping ErrBudget.
//
// A GDL-II description is grounded as gdl.Repair reads it, as the Prolog
// backend compiles it, and only when it has no error (gdl.Errors): an
// error marks a rule with no single reading, and New returns the errors,
// each naming its place.
func New(ctx context.Context, d *gdl.Description, opts Options) (r *Reasoner, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%s: internal error grounding the game: %v", d.Filename, p)
		}
	}()
	if gdl.DecideMode(d, gdl.NatureSeated) == gdl.GDLII {
		repaired, problems := gdl.Repair(d)
		if err := gdl.Errors(problems); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotGrounded, err)
		}
		d = repaired
	}
	net, err := build(ctx, d, opts.Limits)
	if err != nil {
		if d.Filename != "" {
			return nil, fmt.Errorf("%s: %w: %w", d.Filename, ErrNotGrounded, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrNotGrounded, err)
	}
	net.enc = &encoding{facts: net.facts}
	net.decisive = &decisiveMoves{}
	net.wins = &winFacts{}
	net.factors = &factors{}
	net.factIndex = make(map[reasoner.Fact]int, len(net.facts))
	for i, f := range net.facts {
		net.factIndex[f] = i
	}
	return net.instance(), nil
}

// Sees returns the percepts of role when joint is played in s, sorted and
// without duplicates, read from the network that perceives; a game without
// sees rules has none. It evaluates that network only, never the one that
// plays.
func (r *Reasoner) Sees(ctx context.Context, s *reasoner.State, joint []reasoner.Move, role int) ([]reasoner.Percept, error) {
	if role < 0 || role >= len(r.net.roles) {
		return nil, fmt.Errorf("sees: no role %d", role)
	}
	if len(joint) != len(r.net.roles) {
		return nil, fmt.Errorf("sees: %d moves for %d roles", len(joint), len(r.net.roles))
	}
	sn := r.net.seesNet
	if sn == nil {
		return nil, nil
	}
	words, err := r.stateWords(s)
	if err != nil {
		return nil, err
	}
	r.joint = r.joint[:0]
	for i, mv := range joint {
		n, ok := sn.moveIndex[i][mv]
		if !ok {
			return nil, fmt.Errorf("sees: move %s of %s is never legal in the grounded game", mv, r.net.roles[i])
		}
		r.joint = append(r.joint, n)
	}
	if r.sees == nil {
		r.sees = sn.newMachine()
	}
	r.sees.load(words)
	r.sees.setInputs(r.joint)
	var out []reasoner.Percept
	for _, p := range sn.sees[role] {
		if r.sees.value(p.node) {
			out = append(out, p.percept)
		}
	}
	return out, nil
}

func (net *network) instance() *Reasoner {
	return &Reasoner{
		net:     net,
		m:       net.newMachine(),
		phases:  make([]*machine, len(net.phases)),
		initial: reasoner.NewEncodedState(net.enc, slices.Clone(net.initial)),
		words:   make([]uint64, len(net.initial)),
		prev:    make([]uint64, len(net.initial)),
		held:    make([]uint64, (maxMoves(net)+63)/64),
	}
}

// maxMoves returns the most moves a role of net can ever make.
func maxMoves(net *network) int {
	n := 0
	for _, ps := range net.legal {
		n = max(n, len(ps))
	}
	return n
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

// machineFor returns the network to play the state words in, and this
// instance's machine on it: the phase network of the turn when one turn
// fact holds, the general network otherwise.
func (r *Reasoner) machineFor(words []uint64) (*network, *machine) {
	p := phaseOf(r.net.phaseBits, words)
	if p < 0 {
		return r.net, r.m
	}
	if r.phases[p] == nil {
		r.phases[p] = r.net.phases[p].newMachine()
	}
	return r.net.phases[p], r.phases[p]
}

// load sets the network that plays s to s, clears the moves when its
// queries read them, and returns it and its machine.
func (r *Reasoner) load(s *reasoner.State) (*network, *machine, error) {
	words, err := r.stateWords(s)
	if err != nil {
		return nil, nil, err
	}
	net, m := r.machineFor(words)
	loadQuery(net, m, words)
	return net, m, nil
}

// loadQuery sets m, a machine on net, to the state words, with the moves
// cleared when net's queries read them.
func loadQuery(net *network, m *machine, words []uint64) {
	m.load(words)
	if net.queriesReadInputs && len(m.inputs) > 0 {
		m.setInputs(nil)
	}
}

// stateWords returns the base words of s.
func (r *Reasoner) stateWords(s *reasoner.State) ([]uint64, error) {
	if s == nil {
		return nil, fmt.Errorf("nil state")
	}
	words, ok := s.Encoded(r.net.enc)
	if ok {
		return words, nil
	}
	clear(r.words)
	for _, f := range s.Facts() {
		i, ok := r.net.factIndex[f]
		if !ok {
			return nil, fmt.Errorf("state fact %s is no base proposition of the grounded game", f)
		}
		r.words[i/64] |= 1 << (i % 64)
	}
	return r.words, nil
}

// Legal returns the legal moves of role in s, sorted.
func (r *Reasoner) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if role < 0 || role >= len(r.net.roles) {
		return nil, fmt.Errorf("legal: no role %d", role)
	}
	_, m, err := r.load(s)
	if err != nil {
		return nil, err
	}
	var out []reasoner.Move
	for i, w := range m.legalWords(role) {
		for ; w != 0; w &= w - 1 {
			out = append(out, r.net.legal[role][i*64+bits.TrailingZeros64(w)].move)
		}
	}
	return out, nil
}

// Next returns the state after joint is played in s.
func (r *Reasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if len(joint) != len(r.net.roles) {
		return nil, fmt.Errorf("next: %d moves for %d roles", len(joint), len(r.net.roles))
	}
	net, m, err := r.load(s)
	if err != nil {
		return nil, err
	}
	if net != r.net && !r.allLegal(m, joint) {
		// A phase network assumes legal moves.
		words := m.state
		net, m = r.net, r.m
		loadQuery(net, m, words)
	}
	r.joint = r.joint[:0]
	for i, mv := range joint {
		n, ok := net.moveIndex[i][mv]
		if !ok {
			return nil, fmt.Errorf("next: move %s of %s is never legal in the grounded game", mv, r.net.roles[i])
		}
		r.joint = append(r.joint, n)
	}
	m.setInputs(r.joint)
	words := make([]uint64, len(r.net.initial))
	m.nextState(words)
	return reasoner.NewEncodedState(r.net.enc, words), nil
}

// allLegal reports whether every move of joint is legal in the state m
// holds.
func (r *Reasoner) allLegal(m *machine, joint []reasoner.Move) bool {
	for role, mv := range joint {
		i, ok := slices.BinarySearch(r.net.moves[role], mv)
		if !ok || m.legalWords(role)[i/64]&(1<<(i%64)) == 0 {
			return false
		}
	}
	return true
}

// Terminal reports whether s is terminal.
func (r *Reasoner) Terminal(ctx context.Context, s *reasoner.State) (bool, error) {
	net, m, err := r.load(s)
	if err != nil {
		return false, err
	}
	return m.value(net.terminal), nil
}

// Goals returns the goal value of every role in s.
func (r *Reasoner) Goals(ctx context.Context, s *reasoner.State) ([]int, error) {
	words, err := r.stateWords(s)
	if err != nil {
		return nil, err
	}
	if r.goals == nil {
		r.goals = r.net.goalNet.newMachine()
	}
	r.goals.load(words)
	values := make([][]int, len(r.net.roles))
	for i, ps := range r.net.goalNet.goals {
		for _, p := range ps {
			if !r.goals.value(p.node) {
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
	return r.play(ctx, s, nil, nil, winPlay{}, rng, maxSteps)
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
	return r.play(ctx, s, p, nil, winPlay{}, nil, maxSteps)
}

// WinPlayout is PolicyPlayout playing the wins of wins, as
// reasoner.WinReader describes: the kinds of wins it holds, as r reads
// them (DecisiveMoves, WinConditions).
func (r *Reasoner) WinPlayout(ctx context.Context, s *reasoner.State, p reasoner.WinPolicy, wins reasoner.Wins, maxSteps int) (*reasoner.State, int, error) {
	var k winPlay
	if wins.Decisive != nil {
		r.net.decisive.find(r.net)
		k.decisive = r.net.decisive.bits != nil
	}
	if wins.OnFacts != nil {
		r.net.wins.find(r.net)
		k.onFacts = r.net.wins.some
	}
	return r.play(ctx, s, p, p, k, nil, maxSteps)
}

// winPlay is the kinds of wins a WinPlayout plays: decisive moves, wins
// on facts.
type winPlay struct{ decisive, onFacts bool }

// play is Playout when p is nil, drawing every role's move from rng,
// PolicyPlayout when wp is nil, and otherwise WinPlayout, with wp the
// policy p, playing the kinds of wins of k.
func (r *Reasoner) play(ctx context.Context, s *reasoner.State, p reasoner.Policy, wp reasoner.WinPolicy, k winPlay, rng *rand.Rand, maxSteps int) (*reasoner.State, int, error) {
	words, err := r.stateWords(s)
	if err != nil {
		return s, 0, err
	}
	cur := r.words
	copy(cur, words)
	done := func() *reasoner.State { return reasoner.NewEncodedState(r.net.enc, slices.Clone(cur)) }
	seek := wp != nil && k.onFacts
	careful := wp != nil && (k.decisive || seek)
	r.cleared = noRole
	for step := 0; step < maxSteps; step++ {
		if step&63 == 63 {
			if err := ctx.Err(); err != nil {
				return done(), step, err
			}
		}
		net, m := r.machineFor(cur)
		loadQuery(net, m, cur)
		if m.value(net.terminal) {
			return done(), step, nil
		}
		r.joint = r.joint[:0]
		mover, chosen := noRole, -1
		cleared := r.cleared
		r.cleared = noRole
		for role, ps := range net.legal {
			words := m.legalWords(role)
			n := countBits(words)
			var id int
			switch {
			case n == 0:
				return done(), step, fmt.Errorf("step %d: %s has no legal move", step, net.roles[role])
			case p == nil:
				id = nthBit(words, rng.IntN(n))
			case n == 1:
				id = nthBit(words, 0)
			default:
				r.ids = r.ids[:0]
				for i, w := range words {
					for ; w != 0; w &= w - 1 {
						r.ids = append(r.ids, int32(i*64+bits.TrailingZeros64(w)))
					}
				}
				var i int
				if seek && (cleared == noRole || cleared == role) && r.keepWins(role, cur) {
					i = wp.ChooseWin(role, r.ids)
				} else {
					i = p.Choose(role, r.ids)
				}
				if i < 0 || i >= len(r.ids) {
					return done(), step, fmt.Errorf("step %d: the policy chose move %d of %d for %s", step, i, len(r.ids), net.roles[role])
				}
				id = int(r.ids[i])
				if mover == noRole {
					mover, chosen = role, i
				} else {
					mover = several
				}
			}
			r.joint = append(r.joint, ps[id].input)
		}
		if careful && mover >= 0 {
			if err := r.careful(wp, mover, chosen, cur, k.decisive, seek); err != nil {
				return done(), step, fmt.Errorf("step %d: %w", step, err)
			}
			continue
		}
		m.setInputs(r.joint)
		m.nextState(cur)
	}
	return done(), maxSteps, nil
}

// noRole and several are values of a playout step's mover: no role had a
// choice, or more than one did.
const (
	noRole  = -1
	several = -2
)

// careful plays the joint move r.joint, in which mover alone chose, its
// choice chosen of r.ids, from the state cur into cur, as a WinPlayout
// does: while the state reached lets another role play a decisive move,
// with decisive, or with seek a win on facts (winfacts.go) that holds in
// it, the move is taken back and the policy asked again without it
// (anti-decisive moves: a move that hands the game over is played only
// when every other does too). Where a decisive win was open whatever the
// move, only the moves that close it whatever the state are tried; a win
// on facts is tried against at most maxWinRetracts moves.
func (r *Reasoner) careful(wp reasoner.WinPolicy, mover, chosen int, cur []uint64, decisive, seek bool) error {
	copy(r.prev, cur)
	net, m := r.machineFor(cur)
	tries := 0
	for {
		m.setInputs(r.joint)
		m.nextState(cur)
		if len(r.ids) < 2 {
			return nil
		}
		nnet, nm := r.machineFor(cur)
		loadQuery(nnet, nm, cur)
		if nm.value(nnet.terminal) {
			return nil
		}
		open, onFacts := r.alternatives(net, nm, mover, chosen, decisive, seek, cur)
		if !open || onFacts && tries >= maxWinRetracts {
			return nil
		}
		wp.Retract(mover)
		if onFacts {
			tries++
		}
		copy(cur, r.prev)
		net, m = r.machineFor(cur)
		loadQuery(net, m, cur)
		i := 0
		if len(r.ids) > 1 {
			i = wp.Choose(mover, r.ids)
			if i < 0 || i >= len(r.ids) {
				return fmt.Errorf("the policy chose move %d of %d for %s", i, len(r.ids), net.roles[mover])
			}
		}
		chosen = i
		r.joint[mover] = net.legal[mover][r.ids[i]].input
	}
}

// maxWinRetracts bounds the moves a playout step takes back for letting
// another role play a win on facts: where every move lets one through,
// trying them all would cost a next state each.
const maxWinRetracts = 8

// alternatives reports whether, in the state m holds, words, reached by
// mover's move r.ids[chosen] in the joint move r.joint of net, another
// role has, with decisive, a decisive move, or with seek a win on facts,
// and mover had other moves that may not allow it; if so, it leaves those
// in r.ids. onFacts reports that the win is on facts only.
func (r *Reasoner) alternatives(net *network, m *machine, mover, chosen int, decisive, seek bool, words []uint64) (open, onFacts bool) {
	d := r.net.decisive
	threat := false
	for role, win := range d.bits {
		if decisive && role != mover && win != nil {
			for i, w := range m.legalWords(role) {
				threat = threat || w&win[i] != 0
			}
		}
	}
	winner, win := noRole, int32(-1)
	if !threat && seek {
		winner, win = r.factThreat(m, mover, words)
	}
	if !threat && winner == noRole {
		if seek {
			r.cleared = mover // the next step need not look again
		}
		return false, false // most steps: nothing to take back
	}
	played := r.ids[chosen]
	keep := r.ids[:0]
	for i, id := range r.ids {
		if i != chosen {
			keep = append(keep, id)
		}
	}
	if !threat {
		// A move that writes none of the facts the win reads (its
		// patterns' and its legality's) reaches the same values of
		// them as every other such move: only the moves that write one
		// may close it.
		if wf := r.net.wins; wf.writes != nil && !meet(wf.writes[mover][played], wf.guard[winner][win]) {
			n := 0
			for _, id := range keep {
				if meet(wf.writes[mover][id], wf.guard[winner][win]) {
					keep[n] = id
					n++
				}
			}
			keep = keep[:n]
		}
		r.ids = keep
		return len(keep) > 0, true
	}
	// kills are known where the other roles' moves change nothing.
	inert := true
	for role, in := range r.joint {
		inert = inert && (role == mover || in < 0 || net.fan[in].start == net.fan[in].end)
	}
	for role, win := range d.bits {
		if role == mover || win == nil {
			continue
		}
		for i, w := range m.legalWords(role) {
			for w &= win[i]; w != 0; w &= w - 1 {
				dm := int32(i*64 + bits.TrailingZeros64(w))
				if d.touches == nil || !inert || meet(d.touches[mover][played], d.reads[role][dm]) {
					continue // the move may have opened it: try the others
				}
				// The win was open whatever mover played: only a
				// move that closes it can help.
				n := 0
				for _, id := range keep {
					if _, closes := slices.BinarySearch(d.kills[mover][id], int32(role)<<24|dm); closes {
						keep[n] = id
						n++
					}
				}
				keep = keep[:n]
			}
		}
	}
	r.ids = keep
	return len(keep) > 0, false
}

// factThreat returns a role other than mover and a legal move of it, in
// the state m holds, words, with a win on facts that holds in it, the
// first of the first such role; noRole when there is none.
func (r *Reasoner) factThreat(m *machine, mover int, words []uint64) (role int, move int32) {
	for role := range r.net.wins.tries {
		if role == mover {
			continue
		}
		held := r.heldWins(role, words)
		if held == nil {
			continue
		}
		for i, w := range m.legalWords(role) {
			if w &= held[i]; w != 0 {
				return role, int32(i*64 + bits.TrailingZeros64(w))
			}
		}
	}
	return noRole, -1
}

// keepWins leaves in r.ids, role's legal moves in the state words, those
// with a win on facts that holds in it, and reports whether there is
// one; if not, r.ids is unchanged.
func (r *Reasoner) keepWins(role int, words []uint64) bool {
	held := r.heldWins(role, words)
	if held == nil {
		return false
	}
	n := 0
	for _, id := range r.ids {
		if held[id>>6]>>(id&63)&1 != 0 {
			r.ids[n] = id // n never passes the entry read
			n++
		}
	}
	if n == 0 {
		return false
	}
	r.ids = r.ids[:n]
	return true
}

// heldWins returns, as a bitset over role's moves, those with a win on
// facts that holds in the state words; nil when there is none. It is
// valid until the next call.
func (r *Reasoner) heldWins(role int, words []uint64) []uint64 {
	wf := r.net.wins
	t := wf.tries[role]
	if t == nil {
		return nil
	}
	held := r.held[:(len(r.net.legal[role])+63)/64]
	clear(held)
	some := false
	if r.plainWins {
		some = holdingPlain(wf.pats[role], words, held)
	} else {
		some = t.holding(words, held)
	}
	if !some {
		return nil
	}
	return held
}

// countBits returns the number of set bits of words.
func countBits(words []uint64) int {
	n := 0
	for _, w := range words {
		n += bits.OnesCount64(w)
	}
	return n
}

// nthBit returns the position of the set bit of words that has k set bits
// before it; words has more than k.
func nthBit(words []uint64, k int) int {
	for i, w := range words {
		c := bits.OnesCount64(w)
		if k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		return i*64 + bits.TrailingZeros64(w)
	}
	panic("propnet: fewer set bits than asked")
}
