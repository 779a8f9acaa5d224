package mctsplayer

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
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
)

// mctsPlayer plays with a Monte Carlo tree search. It searches during
// Start, to prepare its first move, and during each Play until shortly
// before the deadline, keeping its tree from one turn to the next.
//
// Each match has two sides. The calls of the game master (Start, Play)
// follow the game with the player's own reasoner (package follow) and
// always know the legal moves; one goroutine per match, its owner, holds
// the search and is the only one to use it, taking its commands over a
// channel: catch up with the joint moves played and decide a move, search
// on between turns (ponder), stop. The search is only an adviser: when it
// fails, panics, stalls or proposes a move that is not legal, the call
// answers without it, with a random legal move.
//
// The owner owns every goroutine of its match: the search's, which Run
// waits for, and the one that ponders, which it waits for before it uses
// the search again. Stop and Abort end the match and wait for the owner
// to close the search (endWait).
type mctsPlayer struct {
	opts    Options
	matches follow.Matches[*mctsMatch]
	hidden  follow.Matches[*hiddenMatch] // its GDL-II matches (hidden.go)
}

// An mctsMatch is one match of an mctsPlayer: what its calls share with
// the owner of its search.
type mctsMatch struct {
	id     string
	ctx    context.Context    // done when the match ends
	cancel context.CancelFunc // ends the match: the owner stops and closes the search
	done   chan struct{}      // closed when the owner has closed the search and returned
	clock  time.Duration      // play clock, used when a call has no deadline

	// loaded is closed once the owner has loaded the rules and made the
	// search, and ready once it has searched through the start clock; g,
	// err and search are set before loaded. Start waits for ready, Play
	// only for loaded: a search held past the start clock by a slow
	// reasoner call makes the first Play answer without it, as a search
	// busy from an earlier turn does.
	loaded chan struct{}
	ready  chan struct{}
	g      *follow.Game // the game as the calls follow it; nil when the rules could not be loaded
	err    error        // why the rules could not be loaded
	search searcher     // nil when there is none; only the owner calls it, but for Stats, TryLegal and TryBest

	// decide takes the owner's commands; the owner receives one only when
	// it can act on it, so a send that waits past a deadline means the
	// search is busy.
	decide chan decision
	// broken is set by the owner once the search has failed for good:
	// later calls do not ask it.
	broken atomic.Bool

	mu sync.Mutex // held by a call (Play) while it uses g and the fields below
	// unplayed holds the joint moves of turns answered while the rules
	// were loading, which g has not played yet.
	unplayed [][]reasoner.Move
	// sent is the number of the joint moves g has played that the owner
	// has been sent.
	sent int
	rng  *rand.Rand
}

// A decision is the owner's command for a turn: catch up with joints,
// the joint moves played since the last command it received, check that
// the search is then in state, decide the move of role within ctx and
// send it on answer (buffered, so the owner never waits for a call that
// has given up). legal is the legal moves as the call knows them.
type decision struct {
	ctx    context.Context
	joints [][]reasoner.Move
	state  *reasoner.State
	role   int
	legal  []reasoner.Move
	answer chan answer
}

// An answer is the move a search chose, or why it could not.
type answer struct {
	move reasoner.Move
	err  error
}

func (p *mctsPlayer) Name() string { return p.opts.Name }

func (p *mctsPlayer) logf(format string, args ...any) { p.opts.logf(format, args...) }

// budget returns the time of a call (package clock): until the deadline
// of ctx, or c from now when ctx has none, less the player's margin, kept
// once here for every part of the call.
func (o Options) budget(ctx context.Context, c time.Duration) clock.Budget {
	return clock.New(ctx, c, o.Margin)
}

// deadline returns the deadline of the budget of a call.
func (p *mctsPlayer) deadline(ctx context.Context, c time.Duration) time.Time {
	d, _ := p.opts.budget(ctx, c).Deadline()
	return d
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

// Start starts the owner of the match, which loads the rules and searches
// until shortly before the deadline. Rules that load slowly go on loading
// after Start has returned, and the first Play waits for them.
func (p *mctsPlayer) Start(ctx context.Context, m *player.Match) error {
	if m.GDLII {
		return p.startHidden(ctx, m)
	}
	deadline := p.deadline(ctx, m.StartClock)
	defer p.holdToDeadline(ctx, deadline)
	mctx, cancel := context.WithCancel(context.Background())
	mm := &mctsMatch{
		id:     m.ID,
		ctx:    mctx,
		cancel: cancel,
		done:   make(chan struct{}),
		clock:  m.PlayClock,
		loaded: make(chan struct{}),
		ready:  make(chan struct{}),
		decide: make(chan decision),
		rng:    rand.New(rand.NewPCG(p.opts.Seed, uint64(time.Now().UnixNano()))),
	}
	if err := p.matches.Add(m.ID, mm); err != nil {
		cancel()
		return err
	}
	// The rules load under the match's context alone, so that they may
	// take longer than the start clock; the search stops at the deadline.
	sctx, scancel := context.WithDeadline(mctx, deadline)
	stop := context.AfterFunc(ctx, scancel)
	go func() {
		defer close(mm.done)
		defer stop()
		defer scancel()
		p.own(mm, m, sctx)
	}()
	t := time.NewTimer(time.Until(deadline) + p.opts.Margin.Fixed/2)
	defer t.Stop()
	select {
	case <-mm.ready:
		if mm.err != nil {
			p.end(context.WithoutCancel(ctx), m.ID)
			return mm.err
		}
	case <-t.C:
		p.logf("match %s: still loading the rules at the end of the start clock", m.ID)
	case <-ctx.Done():
		// The caller gave up before the deadline (a server shutting
		// down): the match is not started.
		p.end(context.WithoutCancel(ctx), m.ID)
		return fmt.Errorf("match %s: %w", m.ID, ctx.Err())
	}
	return nil
}

// own is the owner of the search of mm: it loads the rules of m, searches
// until sctx is done, then serves the commands of the match until it ends,
// and closes the search. A panic of the search, the one place where a
// fault in the rules' reasoner or the search itself can reach the
// player's goroutines, is recovered here: the match goes on without the
// search.
func (p *mctsPlayer) own(mm *mctsMatch, m *player.Match, sctx context.Context) {
	var s searcher
	defer func() {
		if s != nil {
			if err := s.Close(); err != nil {
				p.logf("match %s: %v", mm.id, err)
			}
		}
	}()
	ok := p.guard(mm, "loading the rules", func() { s = p.setup(mm, m) })
	if !ok && mm.g == nil {
		mm.err = fmt.Errorf("match %s: loading the rules: panic", m.ID)
	}
	if mm.g != nil && s == nil {
		mm.broken.Store(true)
	}
	mm.search = s
	close(mm.loaded)
	if s != nil {
		p.guard(mm, "searching in the start clock", func() {
			s.Run(sctx)
			st := s.Stats()
			if st.Heuristic != "" {
				p.logf("match %s: %s", m.ID, st.Heuristic)
			}
			if st.GRAVE {
				p.logf("match %s: GRAVE on", m.ID)
			}
		})
	}
	close(mm.ready)
	if mm.g == nil {
		return
	}
	// behind holds the joint moves the search has not caught up with:
	// one cut short by a deadline waits for the next command.
	var behind [][]reasoner.Move
	ponder := false
	var played reasoner.Move // the last answer's move, and the role it was for
	var role int
	for {
		var d decision
		var ok bool
		if ponder && !mm.broken.Load() {
			d, ok = p.ponder(mm, s, role, played)
		} else {
			select {
			case d, ok = <-mm.decide:
			case <-mm.ctx.Done():
			}
		}
		if !ok {
			return
		}
		var a answer
		if !p.guard(mm, "deciding", func() { a = p.decideMove(mm, s, d, &behind) }) {
			a.err = errors.New("the search panicked")
		}
		d.answer <- a
		ponder = a.err == nil && p.opts.Ponder != mcts.Off
		played, role = a.move, d.role
	}
}

// guard runs f, which uses the search, and reports whether it returned.
// A panic in f marks the search broken and is logged.
func (p *mctsPlayer) guard(mm *mctsMatch, what string, f func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			p.logf("match %s: %s: search panicked: %v", mm.id, what, v)
			mm.broken.Store(true)
			ok = false
		}
	}()
	f()
	return true
}

// setup loads the rules of m into mm.g (or mm.err) and returns a new
// search, or nil when none could start, which is logged.
func (p *mctsPlayer) setup(mm *mctsMatch, m *player.Match) searcher {
	g, err := follow.Start(mm.ctx, m, p.opts.NewReasoner)
	if err != nil {
		mm.err = err
		return nil
	}
	mm.g = g
	fork, err := g.R.Fork()
	if err != nil {
		p.logf("match %s: forking the reasoner: %v", m.ID, err)
		return nil
	}
	cfg := p.opts.Search
	cfg.Rules = m.Rules
	if cfg.Factor != mcts.Off {
		fz, err := mcts.NewFactored(mm.ctx, fork, cfg, g.Role)
		if err == nil {
			p.logf("match %s: %d factors searched apart", m.ID, fz.Factors())
			return fz
		}
		if !errors.Is(err, mcts.ErrNoFactors) {
			p.logf("match %s: %v", m.ID, err)
			return nil
		}
	}
	s, err := mcts.New(mm.ctx, fork, cfg)
	if err != nil {
		p.logf("match %s: %v", m.ID, err)
		return nil
	}
	return s
}

// searcher is what the player asks of its search: a Search of the whole
// game, or a Factored one of a game that falls into factors.
type searcher interface {
	Run(ctx context.Context) error
	Decide(ctx context.Context, role int) (settled bool, err error)
	Best(role int) (reasoner.Move, error)
	Advance(ctx context.Context, joint []reasoner.Move) error
	Focus(role int, move reasoner.Move) bool
	State() *reasoner.State
	RootMove(role int, m reasoner.Move) (mcts.MoveStat, bool)
	Stats() mcts.Stats
	TryBest(role int, st *reasoner.State) (reasoner.Move, bool)
	TryLegal(role int, st *reasoner.State) ([]reasoner.Move, bool)
	Close() error
}

// ponder searches on after role answered move until the next command, for
// two play clocks at most, or until the match ends, and returns the
// command. With Options.PonderPlayed it searches below move only
// (mcts.Search.Focus): the others' time goes to the states the game can
// reach, not to the moves the player did not play. The search runs in a goroutine of its own while
// the owner waits for the command; the owner stops it and waits for it to
// return before it uses the search again or closes it.
func (p *mctsPlayer) ponder(mm *mctsMatch, s searcher, role int, move reasoner.Move) (decision, bool) {
	if p.opts.PonderPlayed != mcts.Off {
		s.Focus(role, move)
	}
	pctx, stop := context.WithTimeout(mm.ctx, 2*mm.clock)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.guard(mm, "between turns", func() { s.Run(pctx) })
	}()
	select {
	case d := <-mm.decide:
		stop()
		<-done
		return d, true
	case <-done:
	case <-mm.ctx.Done():
		<-done
		return decision{}, false
	}
	select {
	case d := <-mm.decide:
		return d, true
	case <-mm.ctx.Done():
		return decision{}, false
	}
}

// decideMove carries out d: it catches the search up with the joint moves
// played since it last advanced (behind, then d.joints), checks that it
// is in d.state, searches
// until the decision of d.role is settled or d.ctx is done and returns its
// move. A joint move cut short by the deadline stays queued, for the next
// command; any other failure marks the search broken.
func (p *mctsPlayer) decideMove(mm *mctsMatch, s searcher, d decision, behind *[][]reasoner.Move) (a answer) {
	if mm.broken.Load() {
		return answer{err: errors.New("no search")}
	}
	defer func() {
		if a.err != nil && !cutShort(a.err) {
			p.logf("match %s: %v; the search is dropped", mm.id, a.err)
			mm.broken.Store(true)
		}
	}()
	*behind = append(*behind, d.joints...)
	for len(*behind) > 0 {
		if err := s.Advance(d.ctx, (*behind)[0]); err != nil {
			return answer{err: err}
		}
		*behind = (*behind)[1:]
	}
	if !s.State().Equal(d.state) {
		return answer{err: fmt.Errorf("the search is in state %v, the game in %v", s.State(), d.state)}
	}
	if settled, _ := s.Decide(d.ctx, d.role); settled {
		if dl, ok := d.ctx.Deadline(); ok {
			p.logf("match %s: move settled with %v of the clock left", mm.id, time.Until(dl).Round(time.Millisecond))
		}
	}
	move, err := s.Best(d.role)
	if err == nil && !slices.Contains(d.legal, move) {
		err = fmt.Errorf("the search proposed %q, which is not legal", move)
	}
	if err == nil && len(d.legal) > 1 {
		p.logChoice(mm.id, s, d.role, move)
	}
	return answer{move: move, err: err}
}

// logChoice logs the move chosen and what the search thought of it, so
// that a match can be read back turn by turn beside its record.
func (p *mctsPlayer) logChoice(id string, s searcher, role int, move reasoner.Move) {
	ms, ok := s.RootMove(role, move)
	if !ok {
		return
	}
	st := s.Stats()
	proven := ""
	if ms.Proven {
		proven = ", proven"
	}
	p.logf("match %s: chose %s: %.1f over %.0f of %d iterations%s; %d states", id, move, 100*ms.Mean, ms.Visits, st.RootVisits, proven, st.Nodes)
}

// Play follows the game with the player's own reasoner and asks the owner
// of the search for its move, waiting until shortly before the deadline.
// A search still busy from an earlier turn (held up by a slow reasoner
// call or a loaded machine) is not waited for: the player answers without
// it, with the best move the search last published if it is in the same
// state and a random legal move otherwise, and sends it the joint moves it missed with the next command.
func (p *mctsPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	if _, err := p.hidden.Get(id); err == nil {
		return "", fmt.Errorf("match %s: a PLAY of GDL in a match started as GDL-II", id)
	}
	mm, err := p.matches.Get(id)
	if err != nil {
		return "", err
	}
	deadline := p.deadline(ctx, mm.clock)
	stale := false
	defer func() {
		if !stale {
			p.holdToDeadline(ctx, deadline)
		}
	}()
	mm.mu.Lock()
	defer mm.mu.Unlock()
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	// ctx is done before wait fires only when the caller gives up early,
	// as a server shutting down does: the call returns at once.
	loaded := false
	select {
	case <-mm.loaded:
		loaded = true
	case <-wait.C:
	case <-ctx.Done():
	}
	if !loaded {
		// The game master plays a move for us; the joint move is kept,
		// to be played once the rules are loaded, or the player would
		// lose track of the game.
		if last != nil {
			mm.unplayed = append(mm.unplayed, last)
		}
		return "", fmt.Errorf("match %s: the rules are still loading", id)
	}
	if mm.g == nil {
		return "", fmt.Errorf("match %s: no rules: %v", id, mm.err)
	}
	sctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	stop := context.AfterFunc(mm.ctx, cancel)
	defer stop()
	joints := append(mm.unplayed, last)
	mm.unplayed = nil
	for i, joint := range joints {
		// Play puts PLAYs that arrive out of order back in order, and
		// releases mm.mu while this one waits for an earlier one.
		if stale, err = mm.g.Play(sctx, &mm.mu, joint); err != nil {
			if !errors.Is(err, follow.ErrEarly) {
				// Kept for the next turn, which tries again.
				mm.unplayed = append(slices.Clone(joints[i:]), mm.unplayed...)
			}
			return "", fmt.Errorf("match %s: %w", id, err)
		}
	}
	g := mm.g
	legal, err := g.Legal(sctx, p.logf)
	if err != nil && mm.search != nil {
		// The search may have listed the moves of this state.
		if moves, ok := mm.search.TryLegal(g.Role, g.State); ok {
			p.logf("match %s: %v; choosing among the moves the search listed", id, err)
			legal, err = moves, nil
		}
	}
	if err != nil {
		return "", fmt.Errorf("match %s: %w", id, err)
	}
	if stale {
		// A later PLAY has arrived: this one's answer no longer counts,
		// and the search is left to the later one.
		p.logf("match %s: a PLAY overtaken by a later one; answered at once", id)
		return mm.random(legal), nil
	}
	if mm.broken.Load() {
		return mm.random(legal), nil
	}
	played := g.Played()
	d := decision{ctx: sctx, joints: slices.Clone(played[mm.sent:]), state: g.State, role: g.Role, legal: legal, answer: make(chan answer, 1)}
	select {
	case mm.decide <- d:
		mm.sent = len(played)
	case <-wait.C:
		p.logf("match %s: the search is still busy from an earlier turn", id)
		return p.fallback(mm, legal), nil
	case <-ctx.Done():
		return p.fallback(mm, legal), nil
	case <-mm.ctx.Done():
		// The match has ended: its owner takes no more commands.
		return p.fallback(mm, legal), nil
	}
	late := time.NewTimer(time.Until(deadline) + p.opts.Margin.Fixed/2)
	defer late.Stop()
	select {
	case a := <-d.answer:
		if a.err != nil {
			p.logf("match %s: %v; playing a random legal move", id, a.err)
			return mm.random(legal), nil
		}
		return a.move, nil
	case <-late.C:
		p.logf("match %s: the search did not answer in time", id)
		return p.fallback(mm, legal), nil
	}
}

// random returns a random move of legal. mm.mu must be held.
func (mm *mctsMatch) random(legal []reasoner.Move) reasoner.Move {
	return legal[mm.rng.IntN(len(legal))]
}

// cutShort reports whether err only says that a deadline passed or the
// match ended.
func cutShort(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// fallback returns the search's best move in the current state, as the
// search last published it (TryBest, which never waits for the search),
// and otherwise a random legal move. mm.mu must be held.
func (p *mctsPlayer) fallback(mm *mctsMatch, legal []reasoner.Move) reasoner.Move {
	if mm.search == nil {
		return mm.random(legal)
	}
	if m, ok := mm.search.TryBest(mm.g.Role, mm.g.State); ok && slices.Contains(legal, m) {
		return m
	}
	return mm.random(legal)
}

// Stop ends the match as end does.
func (p *mctsPlayer) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	return p.end(ctx, id)
}

// Abort ends the match as end does.
func (p *mctsPlayer) Abort(ctx context.Context, id string) error {
	return p.end(ctx, id)
}

// endWait bounds the time end waits for the owner of a match: the search
// stops within a reasoner call and Close waits for it at most
// mcts.CloseTimeout, so only a reasoner call that does not return holds
// the owner longer.
const endWait = mcts.CloseTimeout + time.Second

// end forgets a match and ends it: its owner stops the search at once and
// closes it, and end waits for the owner to return, until ctx is done or
// endWait at most. Past that it logs that the owner is still held in a
// reasoner call, which the caller could do nothing about, and returns;
// the owner closes the search and returns when the call does.
func (p *mctsPlayer) end(ctx context.Context, id string) error {
	if p.endHidden(id) {
		return nil
	}
	mm, err := p.matches.Remove(id)
	if err != nil {
		return err
	}
	mm.cancel()
	t := time.NewTimer(endWait)
	defer t.Stop()
	select {
	case <-mm.done:
		return nil
	case <-t.C:
	case <-ctx.Done():
	}
	p.logf("match %s: ended, but its search is still in a reasoner call; it closes when the call returns", id)
	return nil
}
