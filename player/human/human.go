// Package human is a player whose moves a person chooses. The player
// follows the match with its own reasoner, as every player does, and
// publishes at each turn the state, the legal moves of its role and the
// deadline; a user interface (the viewer's seat page, package
// gamemaster/view) shows them and passes the person's choice to Choose.
// A move not chosen before the play clock runs out is not sent at all, so
// the game master records a timeout and plays a move for the person, as
// for any other late player.
package human

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// Kind is the name of the human player in player specifications.
const Kind = "human"

// Status says what the seat is waiting for.
type Status string

const (
	Waiting Status = "waiting" // for a match to start
	ToMove  Status = "to-move" // for the person's move
	Others  Status = "others"  // for the other players, or the game master
	Over    Status = "over"    // the match has ended
)

// A Turn is what a seat shows at one moment. Step counts the joint moves
// played before State; a move chosen must name the step it is for, so that
// a click on a page that is one step behind is refused, not played.
type Turn struct {
	Version  int       `json:"version"` // grows with every change
	MatchID  string    `json:"matchId,omitempty"`
	Role     string    `json:"role,omitempty"`
	Roles    []string  `json:"roles,omitempty"`
	Status   Status    `json:"status"`
	Step     int       `json:"step"`
	State    []string  `json:"state,omitempty"` // facts, in compact KIF
	Legal    []string  `json:"legal,omitempty"` // when Status is ToMove
	Deadline time.Time `json:"deadline"`        // when Status is ToMove
	Last     []string  `json:"last,omitempty"`  // the joint move that led to State
	Chosen   string    `json:"chosen,omitempty"`
	Message  string    `json:"message,omitempty"` // why the match ended, an error
}

// Player is a human player. Its methods may be called from any goroutine.
type Player struct {
	name        string
	newReasoner reasoner.Factory

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	turn    Turn
	r       reasoner.Reasoner
	role    int
	state   *reasoner.State
	choice  chan reasoner.Move // buffered; set while the person is to move
}

// New returns a human player called name (default "human") that follows
// matches with the reasoners newReasoner builds.
func New(name string, newReasoner reasoner.Factory) *Player {
	if name == "" {
		name = Kind
	}
	return &Player{name: name, newReasoner: newReasoner, changed: make(chan struct{}), turn: Turn{Status: Waiting}}
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
	p.update(func(t *Turn) {
		t.Status, t.Chosen, t.Legal = Others, move, nil
	})
	return nil
}

// Start builds the reasoner for the match and its initial state.
func (p *Player) Start(ctx context.Context, m *player.Match) error {
	if p.newReasoner == nil {
		return errors.New("human player: no reasoner factory")
	}
	r, err := p.newReasoner(ctx, m.Rules)
	if err != nil {
		return err
	}
	roles := r.Roles()
	role := slices.Index(roles, m.Role)
	if role < 0 {
		return fmt.Errorf("human player: role %q is not one of %v", m.Role, roles)
	}
	s, err := r.Initial(ctx)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.r, p.role, p.state, p.choice = r, role, s, nil
	p.update(func(t *Turn) {
		*t = Turn{Version: t.Version, MatchID: m.ID, Role: m.Role, Roles: roles, Status: Others, State: factStrings(s)}
	})
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
	r, s, cur := p.r, p.state, p.turn.MatchID
	p.mu.Unlock()
	if r == nil || cur != matchID {
		return fmt.Errorf("human player: match %s was not started", matchID)
	}
	if last == nil {
		return nil
	}
	next, err := r.Next(ctx, s, last)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state = next
	p.update(func(t *Turn) {
		t.Step++
		t.State, t.Last, t.Chosen = factStrings(next), moveStrings(last), ""
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
	r, s, role := p.r, p.state, p.role
	p.mu.Unlock()
	legal, err := r.Legal(ctx, s, role)
	if err != nil {
		return "", err
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return "", errors.New("human player: no deadline for the move")
	}
	choice := make(chan reasoner.Move, 1)
	p.mu.Lock()
	p.choice = choice
	p.update(func(t *Turn) {
		t.Status, t.Legal, t.Deadline, t.Message = ToMove, moveStrings(legal), deadline, ""
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
		p.update(func(t *Turn) {
			t.Status, t.Legal = Others, nil
			t.Message = fmt.Sprintf("step %d: no move chosen in time", t.Step+1)
		})
		return "", ctx.Err()
	}
}

// Stop ends the match; the seat shows the final state.
func (p *Player) Stop(ctx context.Context, matchID string, last []reasoner.Move) error {
	err := p.advance(ctx, matchID, last)
	p.end(matchID, "")
	return err
}

// Abort ends the match early.
func (p *Player) Abort(ctx context.Context, matchID string) error {
	p.end(matchID, "the match was aborted")
	return nil
}

func (p *Player) end(matchID, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn.MatchID != matchID {
		return
	}
	p.r, p.choice = nil, nil
	p.update(func(t *Turn) {
		t.Status, t.Legal = Over, nil
		if why != "" {
			t.Message = why
		}
	})
}
