// Package human is a player whose moves a person chooses. The player
// follows the match with its own reasoner, as every player does, and
// publishes at each turn the state, the legal moves of its role and the
// deadline; a user interface (the viewer's seat page, package
// gamemaster/view) shows them and passes the person's choice to Choose.
// A move not chosen before the play clock runs out is not sent at all, so
// the game master records a timeout and plays a move for the person, as
// for any other late player; the seat then shows the move played in the
// person's place.
//
// A person cannot answer at once: a user interface gives the player a seat
// (Seat) and says when the person's page is open (Attach), and the game
// master waits for Ready before it starts the clocks.
//
// In a GDL-II match the player, and so the person, knows only its role's
// moves and percepts: it publishes those, the facts true in every state
// the role holds possible in place of the state, and the moves legal in
// every such state (package reasoner/infoset), never the state itself nor
// another role's moves or percepts.
package human

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/player/seat"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// Kind is the name of the human player in player specifications.
const Kind = "human"

// The seat's view of a match, shared with the user interfaces through
// package player/seat.
type (
	Status     = seat.Status
	Turn       = seat.Turn
	Effect     = seat.Effect
	StepRecord = seat.StepRecord
)

// What a seat waits for.
const (
	Waiting = seat.Waiting
	ToMove  = seat.ToMove
	Others  = seat.Others
	Over    = seat.Over
)

var _ seat.Player = (*Player)(nil)

// Player is a human player. Its methods may be called from any goroutine.
type Player struct {
	name        string
	newReasoner reasoner.Factory

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	turn    Turn
	// g follows the match, nil when none is under way; its state changes
	// only in the calls of the game master, which come one at a time. In
	// a GDL-II match g.State stays the initial state, and rv holds what
	// the role knows; rv is nil in a GDL match.
	g      *follow.Game
	rv     *infoset.Follower
	choice chan reasoner.Move // buffered; set while the person is to move
	// asked is set while the outcome of a turn where the person was asked
	// waits for the next joint move: the step, the choice, the timeout.
	asked *StepRecord
	// guess is the seat's message that the board of the step shown is
	// drawn from approximate states, "" when it is not: asking for a move
	// keeps it, for the person chooses from that board.
	guess string

	seat     string        // where a person can play, once given
	attached int           // pages open on the seat
	opened   chan struct{} // closed while attached > 0
}

// New returns a human player called name (default "human") that follows
// matches with the reasoners newReasoner builds.
func New(name string, newReasoner reasoner.Factory) *Player {
	if name == "" {
		name = Kind
	}
	return &Player{name: name, newReasoner: newReasoner, changed: make(chan struct{}), turn: Turn{Status: Waiting}, opened: make(chan struct{})}
}

// Seat tells the player where a person can play it, such as the address
// of a page. A player that has no seat is never ready.
func (p *Player) Seat(where string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seat = where
}

// Attach says that a page of the seat is open, until the function it
// returns is called.
func (p *Player) Attach() (detach func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.attached++
	if p.attached == 1 {
		close(p.opened)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.attached--
			if p.attached == 0 {
				p.opened = make(chan struct{})
			}
		})
	}
}

// ErrNoSeat is the error of Ready for a player no user interface shows.
var ErrNoSeat = errors.New("no seat: a person plays through a seat page of the viewer (ggp match or ggp tournament with --view)")

// Ready waits until a page of the seat is open, or ctx is done. It fails
// at once if the player has no seat. The game master calls it before it
// starts the clocks, so that they do not run while nobody can play.
func (p *Player) Ready(ctx context.Context) error {
	p.mu.Lock()
	seat, opened := p.seat, p.opened
	p.mu.Unlock()
	if seat == "" {
		return ErrNoSeat
	}
	select {
	case <-opened:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("nobody opened the seat page %s: %w", seat, context.Cause(ctx))
	}
}

// Name returns the player's name.
func (p *Player) Name() string { return p.name }

// Turn returns what the seat shows now, and a channel closed at the next
// change.
func (p *Player) Turn() (Turn, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.turn
	t.Roles = slices.Clone(t.Roles)
	t.State = slices.Clone(t.State)
	t.Legal = slices.Clone(t.Legal)
	t.Last = slices.Clone(t.Last)
	t.Effects = slices.Clone(t.Effects)
	t.History = slices.Clone(t.History)
	t.Goals = slices.Clone(t.Goals)
	t.Side = slices.Clone(t.Side)
	t.Decisive = slices.Clone(t.Decisive)
	return t, p.changed
}

// update changes the turn under p.mu and wakes the watchers.
func (p *Player) update(f func(t *Turn)) {
	f(&p.turn)
	p.turn.Version++
	close(p.changed)
	p.changed = make(chan struct{})
}

// Errors of Choose.
var (
	ErrNotYourTurn = errors.New("not this seat's turn")
	ErrIllegal     = errors.New("not a legal move")
)

// Choose plays move for the turn of step. It fails when the seat is not to
// move at that step, or when move is not one of the legal moves shown.
func (p *Player) Choose(step int, move string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn.Status != ToMove || p.turn.Step != step || p.choice == nil {
		return fmt.Errorf("step %d: %w", step, ErrNotYourTurn)
	}
	if !slices.Contains(p.turn.Legal, move) {
		return fmt.Errorf("step %d: %q: %w", step, move, ErrIllegal)
	}
	p.choice <- reasoner.Move(move)
	p.choice = nil
	if p.asked != nil {
		p.asked.Chosen = move
	}
	p.update(func(t *Turn) {
		t.Status, t.Chosen, t.Legal, t.Effects = Others, move, nil, nil
	})
	return nil
}

// Start builds the reasoner for the match and its initial state; in a
// GDL-II match, the belief of its role as well (startGDLII).
func (p *Player) Start(ctx context.Context, m *player.Match) error {
	g, err := follow.Start(ctx, m, p.newReasoner)
	if err != nil {
		return fmt.Errorf("human player: %w", err)
	}
	if m.GDLII {
		if err := p.startGDLII(ctx, m, g); err != nil {
			return err
		}
		p.starting(ctx, m.ID)
		return nil
	}
	defer p.starting(ctx, m.ID)
	side := p.side(ctx, g.R, g.State, g.Role)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.g, p.rv, p.choice, p.asked, p.guess = g, nil, nil, nil, ""
	p.update(func(t *Turn) {
		*t = Turn{Version: t.Version, MatchID: m.ID, Role: g.Roles[g.Role], Roles: g.Roles, Status: Others, State: factStrings(g.State), Side: side}
	})
	return nil
}

// starting says on the seat of match id that the match is starting until
// the start clock, ctx's deadline, runs out: the other players may use
// all of it before the first move is asked for.
func (p *Player) starting(ctx context.Context, id string) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn.MatchID == id && p.turn.Step == 0 && p.turn.Status == Others {
		p.update(func(t *Turn) { t.StartsBy = deadline })
	}
}

// sideSteps bounds the steps side looks ahead for a state where the role
// has a choice.
const sideSteps = 8

// side returns what the moves of role change in the first state where it
// has more than one legal move, along the first legal moves of every role
// from s, within sideSteps steps and effectsTime: the facts they add or
// remove. In a game whose roles have sides, these are the cells of the
// role's pieces and where they go, on the role's side of the board.
func (p *Player) side(ctx context.Context, r reasoner.Reasoner, s *reasoner.State, role int) []string {
	ctx, cancel := context.WithTimeout(ctx, effectsTime)
	defer cancel()
	joint := make([]reasoner.Move, len(r.Roles()))
	for range sideSteps {
		if end, err := r.Terminal(ctx, s); err != nil || end {
			return nil
		}
		var mine []reasoner.Move
		for i := range joint {
			ms, err := r.Legal(ctx, s, i)
			if err != nil || len(ms) == 0 {
				return nil
			}
			joint[i] = ms[0]
			if i == role {
				mine = ms
			}
		}
		if len(mine) > 1 {
			var out []string
			for _, e := range p.effects(ctx, r, s, role, mine) {
				for _, f := range slices.Concat(e.Added, e.Removed) {
					if !slices.Contains(out, f) {
						out = append(out, f)
					}
				}
			}
			return out
		}
		next, err := r.Next(ctx, s, joint)
		if err != nil {
			return nil
		}
		s = next
	}
	return nil
}

func factStrings(s *reasoner.State) []string {
	facts := s.Facts()
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = string(f)
	}
	return out
}

func moveStrings(ms []reasoner.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

// advance applies the joint move last to the player's state.
func (p *Player) advance(ctx context.Context, matchID string, last []reasoner.Move) error {
	p.mu.Lock()
	g, rv, cur := p.g, p.rv, p.turn.MatchID
	p.mu.Unlock()
	if g == nil || cur != matchID {
		return fmt.Errorf("human player: match %s was not started", matchID)
	}
	if rv != nil {
		return fmt.Errorf("human player: match %s: a GDL turn in a GDL-II match", matchID)
	}
	if last == nil {
		return nil
	}
	if err := g.Advance(ctx, last); err != nil {
		return err
	}
	next := g.State
	p.mu.Lock()
	defer p.mu.Unlock()
	rec := StepRecord{Moves: moveStrings(last)}
	if p.asked != nil {
		rec = *p.asked
		rec.Moves = moveStrings(last)
		p.asked = nil
	}
	p.update(func(t *Turn) {
		t.Step++
		rec.Step = t.Step
		t.State, t.Last, t.Chosen = factStrings(next), moveStrings(last), ""
		t.History = append(t.History, rec)
	})
	return nil
}

// Play shows the legal moves of the player's role and waits for the
// person's choice until ctx is done. When the role has only one legal move
// (a noop while another role moves) it is played at once.
func (p *Player) Play(ctx context.Context, matchID string, last []reasoner.Move) (reasoner.Move, error) {
	if err := p.advance(ctx, matchID, last); err != nil {
		return "", err
	}
	p.mu.Lock()
	g := p.g
	p.mu.Unlock()
	r, s, role := g.R, g.State, g.Role
	legal, err := g.AllLegal(ctx)
	if err != nil {
		return "", err
	}
	return p.ask(ctx, legal, func() []Effect { return p.effects(ctx, r, s, role, legal) })
}

// ask shows the legal moves and waits for the person's choice until ctx
// is done; effects tells what each move changes. A single legal move (a
// noop while another role moves) is played at once.
func (p *Player) ask(ctx context.Context, legal []reasoner.Move, effects func() []Effect) (reasoner.Move, error) {
	if len(legal) == 1 {
		p.mu.Lock()
		p.asked = &StepRecord{Forced: true}
		if !p.turn.StartsBy.IsZero() {
			p.update(func(t *Turn) { t.StartsBy = time.Time{} })
		}
		p.mu.Unlock()
		return legal[0], nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return "", errors.New("human player: no deadline for the move")
	}
	eff := effects()
	choice := make(chan reasoner.Move, 1)
	p.mu.Lock()
	p.choice = choice
	p.asked = &StepRecord{Asked: true}
	p.update(func(t *Turn) {
		t.Status, t.Legal, t.Deadline, t.Message, t.StartsBy = ToMove, moveStrings(legal), deadline, p.guess, time.Time{}
		t.Effects = eff
	})
	p.mu.Unlock()
	select {
	case m := <-choice:
		return m, nil
	case <-ctx.Done():
		p.mu.Lock()
		defer p.mu.Unlock()
		// A choice made as the clock ran out may be in the channel; it is
		// too late all the same.
		p.choice = nil
		// The clock ran out, or else the game master stopped waiting
		// before it did: it is stopping the match.
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
		if p.asked != nil {
			p.asked.TimedOut = timedOut
		}
		p.update(func(t *Turn) {
			t.Legal, t.Effects = nil, nil
			if timedOut {
				t.Status = Others
				t.Message = fmt.Sprintf("step %d: no move chosen in time; the game master plays a move in your place", t.Step+1)
			} else {
				t.Status, t.Aborted = Over, true
				t.Message = "the match was interrupted before you moved"
			}
		})
		return "", ctx.Err()
	}
}

// maxEffects bounds the number of legal moves whose effects are computed;
// effectsTime bounds the time spent on them, out of the person's clock.
const (
	maxEffects  = 1000
	effectsTime = time.Second
)

// effects returns what each legal move of role changes in s, the other
// roles playing their first legal move. It gives up, returning what it
// has, after maxEffects moves or effectsTime: the page then offers the
// other moves as buttons only.
func (p *Player) effects(ctx context.Context, r reasoner.Reasoner, s *reasoner.State, role int, legal []reasoner.Move) []Effect {
	ctx, cancel := context.WithTimeout(ctx, effectsTime)
	defer cancel()
	joint := make([]reasoner.Move, len(r.Roles()))
	for i := range joint {
		if i == role {
			continue
		}
		ms, err := r.Legal(ctx, s, i)
		if err != nil || len(ms) == 0 {
			return nil
		}
		joint[i] = ms[0]
	}
	cur := s.Facts()
	var out []Effect
	for _, m := range legal[:min(len(legal), maxEffects)] {
		joint[role] = m
		next, err := r.Next(ctx, s, joint)
		if err != nil {
			break
		}
		e := Effect{Move: string(m), Added: []string{}, Removed: []string{}}
		nf := next.Facts()
		for _, f := range nf {
			if !slices.Contains(cur, f) {
				e.Added = append(e.Added, string(f))
			}
		}
		for _, f := range cur {
			if !slices.Contains(nf, f) {
				e.Removed = append(e.Removed, string(f))
			}
		}
		out = append(out, e)
	}
	return out
}

// Stop ends the match; the seat shows the final state, every role's goal
// and the outcome.
func (p *Player) Stop(ctx context.Context, matchID string, last []reasoner.Move) error {
	err := p.advance(ctx, matchID, last)
	p.mu.Lock()
	g, roles := p.g, p.turn.Roles
	p.mu.Unlock()
	var goals []int
	var decisive []string
	role := -1
	if err == nil && g != nil {
		role = g.Role
		goals, err = g.R.Goals(ctx, g.State)
		if err == nil {
			decisive = DecisiveFacts(ctx, g.R, g.State, goals)
		}
	}
	p.mu.Lock()
	if p.turn.MatchID == matchID && err == nil {
		p.update(func(t *Turn) { t.Goals, t.Outcome, t.Decisive = goals, Outcome(goals, roles, role), decisive })
	}
	p.mu.Unlock()
	p.end(matchID, "")
	return err
}

// Outcome says in words how role did with goals: "you won 100–0", "you
// lost 0–100", "a draw 50–50"; with more than two roles, the goals of the
// others follow by name: "you won 100 (b 50, c 0)". It is seat.Outcome of
// a game without nature.
func Outcome(goals []int, roles []string, role int) string {
	return seat.Outcome(goals, roles, role, "")
}

// DecisiveFacts returns facts of s that decide its goals by themselves,
// within effectsTime: a state of these facts alone has the same goals,
// and none of them can be left out as well. They are found by leaving out every
// fact in turn, for good when the goals stay the same. In a game of lines
// they are a line that won (one of them, if there are several); in a draw
// with no line, none. Nil when no fact can be left out: the goals of a
// state of fewer facts are not defined, and nothing is shown that was not
// seen to decide the result.
func DecisiveFacts(ctx context.Context, r reasoner.Reasoner, s *reasoner.State, goals []int) []string {
	ctx, cancel := context.WithTimeout(ctx, effectsTime)
	defer cancel()
	facts := s.Facts()
	if len(facts) > maxEffects {
		return nil
	}
	keep := slices.Clone(facts)
	for i := 0; i < len(keep); {
		rest := slices.Concat(keep[:i], keep[i+1:])
		others, err := r.Goals(ctx, reasoner.NewState(rest))
		if ctx.Err() != nil {
			return nil
		}
		if err == nil && slices.Equal(others, goals) {
			keep = rest
			continue
		}
		i++
	}
	if len(keep) == len(facts) {
		return nil
	}
	out := make([]string, len(keep))
	for i, f := range keep {
		out[i] = string(f)
	}
	return out
}

// Abort ends the match early.
func (p *Player) Abort(ctx context.Context, matchID string) error {
	p.end(matchID, "the match was aborted by the game master")
	return nil
}

// end ends the match; why, if not empty, says why it ended early, unless
// the seat already says so.
func (p *Player) end(matchID, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn.MatchID != matchID {
		return
	}
	p.g, p.rv, p.choice, p.asked, p.guess = nil, nil, nil, nil, ""
	p.update(func(t *Turn) {
		t.Status, t.Legal, t.Effects, t.StartsBy = Over, nil, nil, time.Time{}
		if why != "" && !t.Aborted {
			t.Message, t.Aborted = why, true
		}
	})
}
