package local

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ggp-go/ggp/player"

	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
)

// mctsPlayer plays with a Monte Carlo tree search. It searches during
// Start, to prepare its first move, and during each Play until shortly
// before the deadline, keeping its tree from one turn to the next.
//
// The search is only an adviser: the player follows the game with its own
// reasoner instance, and when the search fails, panics, stalls or proposes
// a move that is not legal, it plays a random legal move instead.
type mctsPlayer struct {
	opts    Options
	matches matchTable[*mctsMatch]
}

type mctsMatch struct {
	ctx    context.Context
	cancel context.CancelFunc // ends the match's searches, on Stop or Abort
	clock  time.Duration      // play clock, used when a call has no deadline
	ready  chan struct{}      // closed when the fields below are set by Start

	mu     sync.Mutex   // held while a call uses the fields below
	g      *game        // nil when the rules could not be loaded
	err    error        // why the rules could not be loaded
	search *mcts.Search // nil when the search failed
	// idle is closed when no goroutine uses search; pending holds the
	// joint moves played since the search last advanced.
	idle    chan struct{}
	qmu     sync.Mutex // guards pending, which a late search goroutine reads, and unplayed
	pending [][]reasoner.Move
	// unplayed holds the joint moves of turns answered while the rules
	// were loading, which the game has not played yet.
	unplayed [][]reasoner.Move
	broken   atomic.Bool // the search failed in a goroutine that answered late
	// stopPonder stops the search that goes on after an answer; nil
	// when none does. calls counts the calls to Play, so that an answer
	// that comes after the next call has begun does not ponder. Both
	// guarded by qmu.
	stopPonder context.CancelFunc
	calls      int
	rng        *rand.Rand
}

func (p *mctsPlayer) Name() string { return p.opts.Name }

// deadline returns when a call must return: the deadline of ctx, or clock
// from now when ctx has none, less the margin and the margin share of the
// time left.
func (p *mctsPlayer) deadline(ctx context.Context, clock time.Duration) time.Time {
	d, ok := ctx.Deadline()
	if !ok {
		if clock <= 0 {
			clock = time.Second
		}
		d = time.Now().Add(clock)
	}
	left := time.Until(d)
	return d.Add(-p.opts.Margin - time.Duration(float64(left)*p.opts.MarginShare))
}

// Start loads the rules and searches until shortly before the deadline.
// Rules that load slowly go on loading after Start has returned, and the
// first Play waits for them.
func (p *mctsPlayer) Start(ctx context.Context, m *player.Match) error {
	deadline := p.deadline(ctx, m.StartClock)
	defer p.holdToDeadline(ctx, deadline)
	mctx, cancel := context.WithCancel(context.Background())
	mm := &mctsMatch{
		ctx:    mctx,
		cancel: cancel,
		clock:  m.PlayClock,
		ready:  make(chan struct{}),
		idle:   closed(),
		rng:    rand.New(rand.NewPCG(p.opts.Seed, uint64(time.Now().UnixNano()))),
	}
	if err := p.matches.add(m.ID, mm); err != nil {
		cancel()
		return err
	}

	// The rules load under the match's context alone, so that they may
	// take longer than the start clock; the search stops at the deadline.
	sctx, scancel := searchContext(ctx, mctx, deadline)
	go func() {
		defer scancel()
		g, s, err := p.setup(mctx, sctx, m)
		mm.mu.Lock()
		mm.g, mm.search, mm.err = g, s, err
		if mctx.Err() != nil && s != nil {
			s.Close() // the match ended while it started
			mm.search = nil
		}
		mm.mu.Unlock()
		close(mm.ready)
	}()
	select {
	case <-mm.ready:
		if mm.err != nil {
			p.end(m.ID)
			return mm.err
		}
	case <-time.After(time.Until(deadline) + p.opts.Margin/2):
		p.logf("match %s: still loading the rules at the end of the start clock", m.ID)
	}
	return nil
}

// holdToDeadline waits, when the player is set to take its full clock,
// until deadline or until ctx is done.
func (p *mctsPlayer) holdToDeadline(ctx context.Context, deadline time.Time) {
	if p.opts.FullClock != mcts.On {
		return
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// setup loads the rules of m and searches until sctx is done. It returns
// an error only when the rules cannot be played; a search that cannot
// start is logged and left nil.
func (p *mctsPlayer) setup(mctx, sctx context.Context, m *player.Match) (g *game, s *mcts.Search, err error) {
	g, err = newGame(mctx, m, p.opts.NewReasoner)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if v := recover(); v != nil {
			p.logf("match %s: search panicked: %v", m.ID, v)
			s = nil
		}
	}()
	fork, err := g.r.Fork()
	if err != nil {
		p.logf("match %s: forking the reasoner: %v", m.ID, err)
		return g, nil, nil
	}
	cfg := p.opts.Search
	cfg.Rules = m.Rules
	if s, err = mcts.New(mctx, fork, cfg); err != nil {
		p.logf("match %s: %v", m.ID, err)
		return g, nil, nil
	}
	s.Run(sctx)
	if h := s.Stats().Heuristic; h != "" {
		p.logf("match %s: %s", m.ID, h)
	}
	return g, s, nil
}

// closed returns a closed channel.
func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// searchContext returns a context done at deadline or when ctx or the
// match's context mctx is done.
func searchContext(ctx, mctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	sctx, cancel := context.WithDeadline(ctx, deadline)
	stop := context.AfterFunc(mctx, cancel)
	return sctx, func() { stop(); cancel() }
}

func (p *mctsPlayer) logf(format string, args ...any) { p.opts.logf(format, args...) }

// Play follows the game with the player's own reasoner, hands the joint
// move to the search and searches until shortly before the deadline. A
// search still busy from an earlier turn (held up by a slow reasoner call
// or a loaded machine) is not waited for: the player answers without it,
// with its best move if it can get one at once and a random legal move
// otherwise, and gives it the joint moves it missed when it is back.
func (p *mctsPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	mm, err := p.matches.get(id)
	if err != nil {
		return "", err
	}
	call := mm.ponderStop()
	deadline := p.deadline(ctx, mm.clock)
	defer p.holdToDeadline(ctx, deadline)
	select {
	case <-mm.ready:
	case <-time.After(time.Until(deadline)):
		// The game master plays a move for us; the joint move is kept,
		// to be played once the rules are loaded, or the player would
		// lose track of the game.
		mm.qmu.Lock()
		if last != nil {
			mm.unplayed = append(mm.unplayed, last)
		}
		mm.qmu.Unlock()
		return "", fmt.Errorf("match %s: the rules are still loading", id)
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if mm.g == nil {
		return "", fmt.Errorf("match %s: no rules: %v", id, mm.err)
	}
	sctx, cancel := searchContext(ctx, mm.ctx, deadline)
	defer cancel()
	mm.qmu.Lock()
	joints := append(mm.unplayed, last)
	mm.unplayed = nil
	mm.qmu.Unlock()
	for i, joint := range joints {
		if err := mm.g.advance(sctx, joint); err != nil {
			// Kept for the next turn, which tries again.
			mm.qmu.Lock()
			mm.unplayed = append(slices.Clone(joints[i:]), mm.unplayed...)
			mm.qmu.Unlock()
			return "", fmt.Errorf("match %s: %w", id, err)
		}
		if i < len(joints)-1 && mm.search != nil {
			mm.qmu.Lock()
			mm.pending = append(mm.pending, joint)
			mm.qmu.Unlock()
		}
	}
	legal, err := mm.g.legal(sctx, p.logf)
	if err != nil && mm.search != nil {
		// The search may have listed the moves of this state in its tree.
		if moves, ok := mm.search.TryLegal(mm.g.role, mm.g.state); ok {
			p.logf("match %s: %v; choosing among the moves the search listed", id, err)
			legal, err = moves, nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("match %s: %w", id, err)
	}
	if mm.search == nil {
		return legal[mm.rng.IntN(len(legal))], nil
	}
	mm.qmu.Lock()
	if last != nil {
		mm.pending = append(mm.pending, last)
	}
	behind := len(mm.pending)
	mm.qmu.Unlock()
	s, state := mm.search, mm.g.state
	if mm.broken.Load() {
		p.logf("match %s: the search failed; playing a random legal move", id)
		mm.search = nil
		go s.Close()
		return legal[mm.rng.IntN(len(legal))], nil
	}
	select {
	case <-mm.idle:
	case <-time.After(time.Until(deadline)):
		p.logf("match %s: the search is still busy from an earlier turn", id)
		return p.fallback(mm, s, state, legal), nil
	}
	done := make(chan answer, 1)
	idle := make(chan struct{})
	mm.idle = idle
	role := mm.g.role
	go func() {
		defer close(idle)
		a := p.decide(mm, s, sctx, id, role, behind, state)
		if a.err != nil || p.opts.Ponder == mcts.Off {
			done <- a
			return
		}
		// The search goes on until the next call: its context is made
		// before the answer is sent, so that the next call can stop it,
		// and not at all when the next call has come already (this
		// answer being late).
		pctx, stop := context.WithTimeout(mm.ctx, 2*mm.clock)
		defer stop()
		mm.qmu.Lock()
		if mm.calls != call {
			stop()
		}
		mm.stopPonder = stop
		mm.qmu.Unlock()
		done <- a
		if err := s.Commit(role, a.move); err != nil {
			p.logf("match %s: %v", id, err)
		}
		p.ponder(pctx, mm, s, id)
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(time.Until(deadline) + p.opts.Margin/2):
		p.logf("match %s: the search did not answer in time", id)
		go func() {
			// A failed search is dropped by the next turn (broken).
			if a := <-done; a.err != nil {
				p.logf("match %s: %v", id, a.err)
			}
		}()
		return p.fallback(mm, s, state, legal), nil
	}
	if a.err == nil && !slices.Contains(legal, a.move) {
		a.err = fmt.Errorf("the search proposed %q, which is not legal", a.move)
	}
	switch {
	case a.err != nil && cutShort(a.err):
		// The search fell behind, in a slow reasoner call: it catches up
		// next turn.
		p.logf("match %s: %v; playing a random legal move", id, a.err)
		return legal[mm.rng.IntN(len(legal))], nil
	case a.err != nil:
		// The search has lost track of the game: later turns are played
		// with random moves.
		p.logf("match %s: %v; playing a random legal move", id, a.err)
		mm.search = nil
		go s.Close()
		return legal[mm.rng.IntN(len(legal))], nil
	}
	return a.move, nil
}

// decide catches the search up with the joint moves played since it last
// advanced (behind of mm.pending), checks that it is in state, searches
// until the decision of role is settled or sctx is done and returns its
// move. An error other than a cut short one marks the search broken.
func (p *mctsPlayer) decide(mm *mctsMatch, s *mcts.Search, sctx context.Context, id string, role, behind int, state *reasoner.State) (a answer) {
	defer func() {
		if v := recover(); v != nil {
			a.err = fmt.Errorf("search panicked: %v", v)
		}
		if a.err != nil && !cutShort(a.err) {
			mm.broken.Store(true)
		}
	}()
	// Catch up with the joint moves played since the search last
	// advanced. One cut short by the deadline stays queued.
	for range behind {
		mm.qmu.Lock()
		joint := mm.pending[0]
		mm.qmu.Unlock()
		if a.err = s.Advance(sctx, joint); a.err != nil {
			return a
		}
		mm.qmu.Lock()
		mm.pending = mm.pending[1:]
		mm.qmu.Unlock()
	}
	if !s.State().Equal(state) {
		a.err = fmt.Errorf("the search is in state %v, the game in %v", s.State(), state)
		return a
	}
	if settled, _ := s.Decide(sctx, role); settled {
		if dl, ok := sctx.Deadline(); ok {
			p.logf("match %s: move settled with %v of the clock left", id, time.Until(dl).Round(time.Millisecond))
		}
	}
	a.move, a.err = s.Best(role)
	return a
}

// ponder searches on after an answer until ctx is done. A panic marks the
// search broken, for the next turn to drop.
func (p *mctsPlayer) ponder(ctx context.Context, mm *mctsMatch, s *mcts.Search, id string) {
	defer func() {
		if v := recover(); v != nil {
			p.logf("match %s: search panicked between turns: %v", id, v)
			mm.broken.Store(true)
		}
	}()
	s.Run(ctx)
}

// ponderStop stops the search that went on after the last answer, if
// any, at the start of a call, and returns the number of the call.
func (mm *mctsMatch) ponderStop() int {
	mm.qmu.Lock()
	defer mm.qmu.Unlock()
	mm.calls++
	if mm.stopPonder != nil {
		mm.stopPonder()
		mm.stopPonder = nil
	}
	return mm.calls
}

// An answer is the move a search chose, or why it could not.
type answer struct {
	move reasoner.Move
	err  error
}

// cutShort reports whether err only says that a deadline passed or the
// match ended.
func cutShort(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// fallback returns the search's best move in state if the search can give
// it at once, and otherwise a random legal move.
func (p *mctsPlayer) fallback(mm *mctsMatch, s *mcts.Search, state *reasoner.State, legal []reasoner.Move) reasoner.Move {
	if m, ok := s.TryBest(mm.g.role, state); ok && slices.Contains(legal, m) {
		return m
	}
	return legal[mm.rng.IntN(len(legal))]
}

func (p *mctsPlayer) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	return p.end(id)
}

func (p *mctsPlayer) Abort(ctx context.Context, id string) error {
	return p.end(id)
}

// end forgets a match, stops its searches at once and frees the search
// once no call uses it.
func (p *mctsPlayer) end(id string) error {
	mm, err := p.matches.remove(id)
	if err != nil {
		return err
	}
	mm.cancel()
	go p.closeSearch(mm)
	return nil
}

func (p *mctsPlayer) closeSearch(mm *mctsMatch) {
	<-mm.ready
	mm.mu.Lock()
	defer mm.mu.Unlock()
	<-mm.idle
	if mm.search != nil {
		mm.search.Close()
		mm.search = nil
	}
	mm.g = nil
}
