// Package seat is what a user interface needs of a player a person plays,
// and nothing heavier: the turn it shows (the state, the legal moves, the
// clock, what happened) and the person's choice. Package player/human
// implements Player; the viewer (package gamemaster/view) shows any
// Player without depending on how it follows the match.
package seat

import "time"

// A Player is a player whose moves a person chooses through a seat of a
// user interface. Its methods may be called from any goroutine.
type Player interface {
	// Name identifies the player.
	Name() string
	// Seat tells the player where a person can play it, such as the
	// address of a page.
	Seat(where string)
	// Attach says that a page of the seat is open, until the function
	// it returns is called.
	Attach() (detach func())
	// Turn returns what the seat shows now, and a channel closed at the
	// next change.
	Turn() (Turn, <-chan struct{})
	// Choose plays move for the turn of step.
	Choose(step int, move string) error
}

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
	// Aborted is set, with Status Over, when the match was stopped before
	// its end: interrupted, or aborted by the game master.
	Aborted bool `json:"aborted,omitempty"`

	// Side is what the role's moves change early in the match: the facts
	// its legal moves add or remove in the first state where it has a
	// choice. A page draws the board with these cells on the person's
	// side, at the bottom, in a game where the roles have sides.
	Side []string `json:"side,omitempty"`

	// Effects says, for each legal move (when Status is ToMove), how the
	// state changes when it is played, so that a page can tell which
	// cells of the board a move changes.
	Effects []Effect `json:"effects,omitempty"`

	// History is what happened at every step played so far, oldest first.
	History []StepRecord `json:"history,omitempty"`

	// Goals are every role's goal values, in role order, once the match
	// is over; Outcome says in words how the person did: "you won 100–0".
	Goals   []int  `json:"goals,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// Decisive are facts of the final state that decide the goals by
	// themselves, none of which can be left out (a winning line of a game
	// of lines), or none when they cannot be told.
	Decisive []string `json:"decisive,omitempty"`
}

// An Effect is what one legal move changes: the facts the next state adds
// to the current one and those it removes. In a game where several roles
// move at once, the other roles are taken to play their first legal move.
type Effect struct {
	Move    string   `json:"move"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// A StepRecord is one step of the match as the person saw it.
type StepRecord struct {
	Step  int      `json:"step"`  // 1 for the first joint move
	Moves []string `json:"moves"` // the joint move played, in role order
	// Asked is set when the person had a choice at this step; Chosen is
	// then the move the person chose, if any, and TimedOut says the clock
	// ran out first, so that the game master played Moves[role] instead.
	Asked    bool   `json:"asked,omitempty"`
	Chosen   string `json:"chosen,omitempty"`
	TimedOut bool   `json:"timedOut,omitempty"`
	// Forced is set when the role had one legal move, which the player
	// played for the person without asking.
	Forced bool `json:"forced,omitempty"`
}
