// Package infoset turns what a role of a GDL-II game knows of a match, its
// view, into the states the match may be in: its information set.
//
// In GDL-II a role is told of each step only the move it played and its
// percepts (the second arguments of its sees facts); it never sees the
// state, nor the other roles' moves, nor nature's. A state is consistent
// with a view when some sequence of joint moves leads to it from the
// initial state, each legal, none from a terminal state, each holding the
// role's own move, and each giving the role exactly the percepts it had.
//
// A Belief holds the consistent states of one role and follows the match
// step by step (Update). While the consistent states are few
// (Options.MaxStates) it holds every one of them, and is Complete. Beyond,
// it holds a sample of them, as HyperPlay does (Schofield, Cerexhe and
// Thielscher, "HyperPlay: A Solution to General Game Playing with
// Imperfect Information", AAAI 2012): each of Options.Samples hypotheses
// is a history from the last step at which the states were all known,
// extended at each step by a consistent successor chosen uniformly at
// random and, when none is left, taken back to the latest step with an
// untried alternative. Hypotheses are drawn independently. The sample is
// uniform over the consistent states when every consistent state of a step
// has the same number of consistent successors; otherwise states behind
// fewer alternatives are drawn more often. It is a sample of what is
// possible, not of what is likely: it weighs no state by the chance that
// nature and the other roles chose the moves leading to it, as a Complete
// belief does (Weights).
//
// Weights tells how likely each state held is, if nature and the other
// roles choose uniformly at random among their legal moves: the chance
// model of GDL-II for nature, and the most a role can assume of the others
// without modelling them. In Monty Hall, after the host opened a door, the
// car is behind the other closed door in two cases of three, not one of
// two, though both states are equally possible.
//
// SureLegal returns the moves legal in every state held: for a Complete
// belief, the moves the role can be sure are legal.
//
// A Follower is what a player uses: it follows a match turn by turn in a
// Belief within the player's time, gives way to approximate states when
// the belief cannot follow a step, returns to a Belief as soon as the time
// allows, and chooses the moves most likely legal. Every player follows a
// role's knowledge through it.
//
// The work is bounded: by the context, by the states held, by the joint
// moves examined from one state, and by the joint moves examined in one
// update (Options). An update whose context has a deadline spends at most
// half of the time left on finding every consistent state; past that, it
// samples them, so that a slow reasoner or a game of many joint moves
// (nature dealing cards) still follows the match within a play clock. A
// Belief reads the game only through its reasoner (Legal, Next, Terminal
// and Sees); it never needs the true state.
package infoset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/reasoner"
)

// ErrInconsistent is returned, wrapped, when no state is consistent with
// a view: it contradicts the rules (a move that is never legal, a percept
// that is never given).
var ErrInconsistent = errors.New("no state is consistent with the view")

// ErrLimit is returned, wrapped, when a limit of Options stopped the search
// before it found a consistent state.
var ErrLimit = errors.New("no consistent state found within the limits")

// A Step is what a role knows of one step of a match: the move it played
// (the one the game master reports, which replaces a late or illegal one)
// and its percepts, in the reasoner's compact KIF.
type Step struct {
	Move     reasoner.Move
	Percepts []reasoner.Percept
}

// A View is what a role knows of a match: its role, an index into the
// reasoner's Roles, and each step played so far.
type View struct {
	Role  int
	Steps []Step
}

// Options bound a Belief's work. The zero value selects the defaults.
type Options struct {
	// MaxStates bounds the states a Complete belief holds; past it, the
	// belief holds a sample. Default 1024.
	MaxStates int
	// Samples is the number of hypotheses a sampled belief holds.
	// Default 16.
	Samples int
	// MaxJoints bounds the joint moves examined from one state at one
	// step; when the other roles' legal moves make more, a selection of
	// at most that many is examined, and the states found are a sample
	// even if few. The selection starts with the joint moves made of
	// moves the percepts name (the hand nature dealt), then draws at
	// random.
	// Default 1024.
	MaxJoints int
	// SampleJoints bounds the joint moves examined from one state while
	// the belief samples: once a consistent successor is found, that
	// many; while none is, four times as many, past which the state is
	// taken for a dead end. The states found are a sample whatever their
	// number, and a small one keeps a slow reasoner within a play clock.
	// Default 256.
	SampleJoints int
	// MaxWork bounds the joint moves examined in one update, by the
	// enumeration and then by the sampling each. Default 65536.
	MaxWork int
	// Tries is how often Update searches for a step's states, each time
	// with fresh random choices and a fresh MaxWork, while the search
	// runs out of work. Default 3.
	Tries int
	// Rand is the source of the random choices; nil seeds one from the
	// runtime's random source. A Belief uses it alone: give each Belief
	// its own.
	Rand *rand.Rand
}

func (o Options) withDefaults() Options {
	if o.MaxStates <= 0 {
		o.MaxStates = 1024
	}
	if o.Samples <= 0 {
		o.Samples = 16
	}
	if o.MaxJoints <= 0 {
		o.MaxJoints = 1024
	}
	if o.SampleJoints <= 0 {
		o.SampleJoints = 256
	}
	if o.MaxWork <= 0 {
		o.MaxWork = 65536
	}
	if o.Tries <= 0 {
		o.Tries = 3
	}
	if o.Rand == nil {
		o.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return o
}

// A Belief is the states one role holds possible at a point of a match.
// It is not safe for concurrent use, nor is the reasoner it reads: give
// each goroutine its own Belief on its own reasoner (reasoner.Fork).
type Belief struct {
	r    reasoner.Reasoner
	p    reasoner.Perceiver
	opts Options
	view View

	// states holds every consistent state while the belief is
	// complete, and is nil once it samples; weights holds the chance of
	// each (see Weights).
	states  []*reasoner.State
	weights []float64
	// root holds every consistent state after the step view.Steps[:since]
	// when the belief samples: the last step at which they were all
	// known, from which the hypotheses start.
	root  []*reasoner.State
	since int
	hyps  []hypothesis
}

// A hypothesis is a history from the root: levels[0] holds a root state,
// levels[i] the state after the i-th step since the root.
type hypothesis struct {
	levels []level
}

// A level is one choice of a hypothesis: the state chosen and the
// alternatives left, in random order.
type level struct {
	state *reasoner.State
	rest  []*reasoner.State
	// partial is set when the alternatives were found among a
	// selection of the joint moves, not all: running out of them then
	// proves nothing.
	partial bool
}

// New returns the belief of view.Role after the steps of view, starting
// from the initial state. r must be a reasoner.Perceiver.
func New(ctx context.Context, r reasoner.Reasoner, view View, opts Options) (*Belief, error) {
	p, ok := r.(reasoner.Perceiver)
	if !ok {
		return nil, fmt.Errorf("infoset: reasoner %T gives no percepts", r)
	}
	if view.Role < 0 || view.Role >= len(r.Roles()) {
		return nil, fmt.Errorf("infoset: no role %d", view.Role)
	}
	s0, err := r.Initial(ctx)
	if err != nil {
		return nil, err
	}
	b := &Belief{r: r, p: p, opts: opts.withDefaults(), view: View{Role: view.Role}, states: []*reasoner.State{s0}, weights: []float64{1}}
	for i, st := range view.Steps {
		if err := b.Update(ctx, st); err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return b, nil
}

// View returns the view the belief follows.
func (b *Belief) View() View {
	v := b.view
	v.Steps = slices.Clone(v.Steps)
	return v
}

// Complete reports whether the belief holds every consistent state.
func (b *Belief) Complete() bool { return b.states != nil }

// States returns the states the belief holds: every consistent state,
// each once, when it is Complete; otherwise one state for each hypothesis,
// a state that several reach appearing as often. The caller must not
// modify the slice.
func (b *Belief) States() []*reasoner.State {
	if b.states != nil {
		return b.states
	}
	out := make([]*reasoner.State, len(b.hyps))
	for i, h := range b.hyps {
		out[i] = h.levels[len(h.levels)-1].state
	}
	return out
}

// Weights returns the probability of each state of States, in the same
// order, given the view, when nature and the other roles choose each of
// their legal moves with equal chance: the weight of a history is the
// product of the chances of its joint moves, and a state's is the sum over
// the histories that reach it, scaled so that the weights sum to 1. A
// sampled belief weighs its states equally. The caller must not modify the
// slice.
func (b *Belief) Weights() []float64 {
	if b.states != nil {
		return b.weights
	}
	w := make([]float64, len(b.hyps))
	for i := range w {
		w[i] = 1 / float64(len(w))
	}
	return w
}

// SureLegal returns the moves of the role that are legal in every state
// the belief holds, sorted: when it is Complete, the moves the role can be
// sure are legal; otherwise those legal in every state of the sample.
func (b *Belief) SureLegal(ctx context.Context) ([]reasoner.Move, error) {
	var sure []reasoner.Move
	for i, s := range b.States() {
		moves, err := b.r.Legal(ctx, s, b.view.Role)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			sure = moves
			continue
		}
		sure = slices.DeleteFunc(sure, func(m reasoner.Move) bool {
			_, found := slices.BinarySearch(moves, m)
			return !found
		})
	}
	return sure, nil
}

// Update follows the role's next step: the states it holds possible
// become those that step leads to. A search that runs out of work is
// tried again, up to Options.Tries times: other random choices may find
// the states. On an error the belief is left as it was.
func (b *Belief) Update(ctx context.Context, st Step) error {
	var err error
	for range b.opts.Tries {
		if err = b.update(ctx, st); !errors.Is(err, ErrLimit) || ctx.Err() != nil {
			break
		}
	}
	return err
}

// update is one try of Update.
func (b *Belief) update(ctx context.Context, st Step) error {
	st.Percepts = slices.Compact(slices.Sorted(slices.Values(st.Percepts)))
	steps := append(slices.Clip(b.view.Steps), st)
	s := &search{b: b, memo: map[memoKey][]succ{}}
	if b.states != nil {
		s.enumerateBy, _ = clock.FromContext(ctx).Share(0.5).Deadline()
		s.exhaustive = true
		next, weights, complete, err := s.enumerate(ctx, b.states, b.weights, st)
		s.exhaustive, s.enumerateBy = false, time.Time{}
		if err != nil {
			return err
		}
		if complete {
			if len(next) == 0 {
				return ErrInconsistent
			}
			b.states, b.weights, b.view.Steps = next, weights, steps
			return nil
		}
		// Too many states, or too much work: sample from the last
		// step whose states are all known.
		s.work = 0
		hyps, err := s.sample(ctx, b.states, steps[len(b.view.Steps):])
		if err != nil {
			return err
		}
		b.root, b.since, b.hyps, b.states, b.weights = b.states, len(b.view.Steps), hyps, nil, nil
		b.view.Steps = steps
		return nil
	}
	hyps, err := s.extend(ctx, b.hyps, steps[b.since:])
	if err != nil {
		return err
	}
	b.hyps, b.view.Steps = hyps, steps
	return nil
}

// A search is the work of one update.
type search struct {
	b    *Belief
	work int // joint moves examined
	// memo holds the consistent successors found in this update, so
	// that hypotheses sharing a state share the work.
	memo map[memoKey][]succ
	// exhaustive is set while the update enumerates every consistent
	// state: successors then examines every joint move it can. Otherwise
	// the update samples, and a state's successors are a sample too
	// (Options.SampleJoints).
	exhaustive bool
	// enumerateBy, when set, is when enumerating gives up for sampling.
	enumerateBy time.Time
}

type memoKey struct {
	step int // index of the step since the root (the states enumerated from are a root)
	hash uint64
}

// succ is the result of successors for one state.
type succ struct {
	from    *reasoner.State
	states  []*reasoner.State
	chances []float64
	partial bool
}

// enumerate returns every state consistent with st that follows one of
// states, each once, with its weight (see Weights) given the weights of
// states, and whether it is the whole of them: false when they are more
// than MaxStates, when a state had more joint moves than MaxJoints, or
// when the work ran out.
func (s *search) enumerate(ctx context.Context, states []*reasoner.State, weights []float64, st Step) ([]*reasoner.State, []float64, bool, error) {
	var next []*reasoner.State
	var nextWeights []float64
	index := map[uint64][]int{} // positions in next, by hash
	total := 0.0
	for k, from := range states {
		found, chances, partial, err := s.successors(ctx, from, st, 0)
		if errors.Is(err, ErrLimit) {
			return nil, nil, false, nil
		}
		if err != nil {
			return nil, nil, false, err
		}
		if partial {
			return nil, nil, false, nil
		}
		for j, n := range found {
			w := weights[k] * chances[j]
			total += w
			if i := position(next, index, n); i >= 0 {
				nextWeights[i] += w
				continue
			}
			index[n.Hash()] = append(index[n.Hash()], len(next))
			next = append(next, n)
			nextWeights = append(nextWeights, w)
		}
		if len(next) > s.b.opts.MaxStates {
			return nil, nil, false, nil
		}
	}
	for i := range nextWeights {
		nextWeights[i] /= total
	}
	return next, nextWeights, true, nil
}

// sample returns Samples hypotheses through steps from root states.
func (s *search) sample(ctx context.Context, root []*reasoner.State, steps []Step) ([]hypothesis, error) {
	hyps := make([]hypothesis, s.b.opts.Samples)
	for i := range hyps {
		order := slices.Clone(root)
		s.shuffle(order)
		hyps[i].levels = []level{{state: order[0], rest: order[1:]}}
	}
	return s.extend(ctx, hyps, steps)
}

// extend returns the hypotheses, each advanced through steps (the steps
// since the root), leaving the hypotheses given as they are. Hypotheses
// the work left unfinished are dropped; none finished is an error.
func (s *search) extend(ctx context.Context, hyps []hypothesis, steps []Step) ([]hypothesis, error) {
	out := make([]hypothesis, 0, len(hyps))
	var limited error
	for _, h := range hyps {
		h.levels = slices.Clone(h.levels)
		err := s.advance(ctx, &h, steps)
		switch {
		case err == nil:
			out = append(out, h)
		case errors.Is(err, ErrLimit):
			limited = err
		default:
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, limited
	}
	return out, nil
}

// advance extends h through steps, backtracking on dead ends. It returns
// ErrInconsistent when every history from the root was tried, and
// ErrLimit when the work ran out or a dead end came from a selection of
// joint moves.
func (s *search) advance(ctx context.Context, h *hypothesis, steps []Step) error {
	partial := false
	deadEnds := 0
	for len(h.levels) < len(steps)+1 {
		k := len(h.levels) - 1 // steps[k] comes next
		found, _, part, err := s.successors(ctx, h.levels[k].state, steps[k], k)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			order := slices.Clone(found)
			s.shuffle(order)
			h.levels = append(h.levels, level{state: order[0], rest: order[1:], partial: part})
			continue
		}
		partial = partial || part
		if deadEnds++; deadEnds > chronological && len(h.levels) > 2 {
			// A dead end often comes from an early choice (in
			// Kriegspiel, a square the opponent took long before the
			// role's move there succeeded), which going back one
			// choice at a time reaches only after trying every
			// combination of the later ones: jump back to a choice
			// drawn at random. The alternatives left behind the jump
			// are given up, so that failing to find a state no longer
			// proves there is none.
			h.levels = h.levels[:1+s.b.opts.Rand.IntN(len(h.levels)-1)]
			partial = true
		}
		// Back to the latest choice with an alternative left.
		for {
			if len(h.levels) == 0 {
				if partial {
					return fmt.Errorf("%w: the joint moves examined from some states were a selection", ErrLimit)
				}
				return ErrInconsistent
			}
			l := &h.levels[len(h.levels)-1]
			if len(l.rest) > 0 {
				l.state, l.rest = l.rest[0], l.rest[1:]
				break
			}
			partial = partial || l.partial
			h.levels = h.levels[:len(h.levels)-1]
		}
	}
	return nil
}

// chronological is the number of dead ends a hypothesis backs out of one
// choice at a time before it jumps back to a choice drawn at random.
const chronological = 4

// successors returns the distinct states consistent with st that follow
// from: those reached by a joint move legal in from, holding the role's
// move st.Move, that gives the role exactly st.Percepts. chances holds,
// for each state found, the share of the joint moves examined that lead
// to it. partial reports that only a selection of the joint moves was
// examined: more than MaxJoints, or, while the update samples, a search
// ended early (SampleJoints). step keys the memo.
func (s *search) successors(ctx context.Context, from *reasoner.State, st Step, step int) (found []*reasoner.State, chances []float64, partial bool, err error) {
	key := memoKey{step, from.Hash()}
	for _, m := range s.memo[key] {
		if m.from.Equal(from) {
			return m.states, m.chances, m.partial, nil
		}
	}
	defer func() {
		if err == nil {
			s.memo[key] = append(s.memo[key], succ{from, found, chances, partial})
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, nil, false, err
	}
	b := s.b
	if done, err := b.r.Terminal(ctx, from); err != nil || done {
		return nil, nil, false, err
	}
	roles := len(b.r.Roles())
	options := make([][]reasoner.Move, roles)
	for i := range options {
		moves, err := b.r.Legal(ctx, from, i)
		if err != nil {
			return nil, nil, false, err
		}
		if i == b.view.Role {
			if _, ok := slices.BinarySearch(moves, st.Move); !ok {
				return nil, nil, false, nil
			}
			moves = []reasoner.Move{st.Move}
		}
		if len(moves) == 0 {
			return nil, nil, false, nil
		}
		options[i] = moves
	}
	joints := 1
	for _, ms := range options {
		if joints > math.MaxInt/len(ms) {
			joints = math.MaxInt
			break
		}
		joints *= len(ms)
	}
	examine := func(yield func(int) bool) {
		for i := range joints {
			if !yield(i) {
				return
			}
		}
	}
	if joints > b.opts.MaxJoints || !s.exhaustive {
		partial = joints > b.opts.MaxJoints
		examine = s.selection(options, st.Percepts, joints)
	}
	at := map[uint64][]int{} // positions in found, by hash
	examined := 0
	joint := make([]reasoner.Move, roles)
	for index := range examine {
		if !s.exhaustive && (len(found) > 0 && examined >= b.opts.SampleJoints || examined >= 4*b.opts.SampleJoints) {
			partial = true
			break
		}
		examined++
		if s.work++; s.work > b.opts.MaxWork {
			return nil, nil, false, fmt.Errorf("%w: %d joint moves examined in one update", ErrLimit, b.opts.MaxWork)
		}
		if s.exhaustive && examined%64 == 0 && !s.enumerateBy.IsZero() && time.Now().After(s.enumerateBy) {
			return nil, nil, false, fmt.Errorf("%w: half of the update's time spent enumerating", ErrLimit)
		}
		for i := roles - 1; i >= 0; i-- {
			joint[i] = options[i][index%len(options[i])]
			index /= len(options[i])
		}
		percepts, err := b.p.Sees(ctx, from, joint, b.view.Role)
		if err != nil {
			return nil, nil, false, err
		}
		if !slices.Equal(percepts, st.Percepts) {
			continue
		}
		next, err := b.r.Next(ctx, from, joint)
		if err != nil {
			return nil, nil, false, err
		}
		if i := position(found, at, next); i >= 0 {
			chances[i]++
			continue
		}
		at[next.Hash()] = append(at[next.Hash()], len(found))
		found = append(found, next)
		chances = append(chances, 1)
	}
	for i := range chances {
		chances[i] /= float64(examined)
	}
	return found, chances, partial, nil
}

// selection returns an iterator over at most MaxJoints of the joints
// indexes of options (mixed radix, the last role's move varying fastest),
// each once: first those whose moves the percepts mention, when they are
// few, then others drawn at random.
//
// A percept often names the move behind it: the hand nature dealt, the
// square a hidden opponent tried. A random selection from many joint
// moves rarely holds the one move a percept names (one deal of thousands),
// and the belief would lose the match; trying first the joint moves made
// of mentioned moves finds it at once. A role none of whose moves is
// mentioned contributes all its moves. As the states of a selection are a
// sample and their chances unused, the order biases nothing that is
// weighed.
func (s *search) selection(options [][]reasoner.Move, percepts []reasoner.Percept, joints int) func(func(int) bool) {
	return func(yield func(int) bool) {
		limit := s.b.opts.MaxJoints
		first := map[int]bool{}
		if idx, n := mentionedJoints(options, percepts); n > 0 && n <= limit/4 {
			for index := range idx {
				first[index] = true
				if !yield(index) {
					return
				}
			}
		}
		// The first steps of a Fisher-Yates shuffle of 0..joints-1,
		// kept sparse.
		moved := map[int]int{} // the values of the positions swapped so far
		at := func(i int) int {
			if v, ok := moved[i]; ok {
				return v
			}
			return i
		}
		for i, yielded := 0, len(first); i < joints && yielded < limit; i++ {
			j := i + s.b.opts.Rand.IntN(joints-i)
			vi, vj := at(i), at(j)
			moved[j] = vi
			if first[vj] {
				continue
			}
			yielded++
			if !yield(vj) {
				return
			}
		}
	}
}

// mentionedJoints returns an iterator over the indexes of the joint moves
// of options made, for each role some of whose moves the percepts mention,
// of mentioned moves only, and how many they are; none when no move is
// mentioned.
func mentionedJoints(options [][]reasoner.Move, percepts []reasoner.Percept) (func(func(int) bool), int) {
	words := make([][]string, len(percepts))
	for i, p := range percepts {
		words[i] = atoms(string(p))
	}
	picks := make([][]int, len(options)) // option indexes of each role
	n, any := 1, false
	for r, ms := range options {
		for i, m := range ms {
			if mentions(words, atoms(string(m))) {
				picks[r] = append(picks[r], i)
			}
		}
		if len(picks[r]) == 0 || len(ms) == 1 {
			picks[r] = nil
			n *= len(ms)
			continue
		}
		any = true
		n *= len(picks[r])
	}
	if !any {
		return nil, 0
	}
	return func(yield func(int) bool) {
		at := make([]int, len(options)) // position in each role's picks
		for {
			index := 0
			for r, ms := range options {
				i := at[r]
				if picks[r] != nil {
					i = picks[r][i]
				}
				index = index*len(ms) + i
			}
			if !yield(index) {
				return
			}
			// The next combination, the last role fastest.
			r := len(options) - 1
			for ; r >= 0; r-- {
				size := len(options[r])
				if picks[r] != nil {
					size = len(picks[r])
				}
				if at[r]++; at[r] < size {
					break
				}
				at[r] = 0
			}
			if r < 0 {
				return
			}
		}
	}, n
}

// mentions reports whether a percept, as its atoms, mentions a move: holds
// the move's arguments in a row, or two of them in a row. A single atom in
// common, a number or a card's name, is too often chance.
func mentions(percepts [][]string, move []string) bool {
	args := move[min(1, len(move)):]
	if len(args) == 0 {
		return false
	}
	for _, p := range percepts {
		run := longestCommonRun(p, args)
		if run == len(args) || run >= 2 {
			return true
		}
	}
	return false
}

// longestCommonRun returns the length of the longest run of atoms a and b
// have in common.
func longestCommonRun(a, b []string) int {
	best := 0
	for i := range a {
		for j := range b {
			k := 0
			for i+k < len(a) && j+k < len(b) && a[i+k] == b[j+k] {
				k++
			}
			best = max(best, k)
		}
	}
	return best
}

// atoms returns the atoms of a term in compact KIF, in order: "(deal duke
// 4 3 2)" gives deal, duke, 4, 3, 2.
func atoms(kif string) []string {
	return strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(kif))
}

func (s *search) shuffle(states []*reasoner.State) {
	s.b.opts.Rand.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
}

// position returns the position of s in states, which at indexes by hash,
// or -1.
func position(states []*reasoner.State, at map[uint64][]int, s *reasoner.State) int {
	for _, i := range at[s.Hash()] {
		if states[i].Equal(s) {
			return i
		}
	}
	return -1
}
