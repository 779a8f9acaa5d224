// Package seat is what a user interface needs of a player a person plays,
// and nothing heavier: the turn it shows (the state, the legal moves, the
// clock, what happened) and the person's choice. Package player/human
// implements Player; the viewer (package gamemaster/view) shows any
// Player without depending on how it follows the match.
//
// In a GDL-II match a Turn holds only what the person's role is told and
// what follows from it: its own moves and percepts, the facts true in
// every state it holds possible, and the moves legal in all of them;
// never the state, nor another role's moves or percepts.
package seat

import (
	"fmt"
	"strings"
	"time"
)

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
	Version int      `json:"version"` // grows with every change
	MatchID string   `json:"matchId,omitempty"`
	Role    string   `json:"role,omitempty"`
	Roles   []string `json:"roles,omitempty"`
	Status  Status   `json:"status"`
	Step    int      `json:"step"`
	// State is the state's facts, in compact KIF; in a GDL-II match, the
	// facts true in every state the role holds possible (Possible).
	State    []string  `json:"state,omitempty"`
	Legal    []string  `json:"legal,omitempty"` // when Status is ToMove
	Deadline time.Time `json:"deadline"`        // when Status is ToMove
	// Last is the joint move that led to State; never set in a GDL-II
	// match, where the role is told its own move alone (History).
	Last    []string `json:"last,omitempty"`
	Chosen  string   `json:"chosen,omitempty"`
	Message string   `json:"message,omitempty"` // why the match ended, an error
	// StartsBy is set while the match starts (Status Others, before the
	// first step): the other players read the rules and prepare until
	// then, their start clock, before anyone is asked to move.
	StartsBy time.Time `json:"startsBy,omitzero"`
	// Aborted is set, with Status Over, when the match was stopped before
	// its end: interrupted, or aborted by the game master.
	Aborted bool `json:"aborted,omitempty"`

	// GDLII is set in a GDL-II match. Nature names its role of chance,
	// if the game has one. Possible is the number of states the role
	// holds possible, from which State is drawn; Sampled says they are a
	// sample of those consistent with what it was told, not all of them,
	// so that a fact of State may be false in a state not sampled.
	GDLII    bool   `json:"gdlII,omitempty"`
	Nature   string `json:"nature,omitempty"`
	Possible int    `json:"possible,omitempty"`
	Sampled  bool   `json:"sampled,omitempty"`

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
	// A GDL-II role is not told them: a user interface gives them from
	// the game master's record once the match has ended.
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
// In a GDL-II match it is what the move changes in most of the states the
// role holds possible, the others playing various moves, and it removes
// facts of State alone.
type Effect struct {
	Move    string   `json:"move"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// A StepRecord is one step of the match as the person saw it.
type StepRecord struct {
	Step int `json:"step"` // 1 for the first joint move
	// Moves is the joint move played, in role order. In a GDL-II match
	// it is not known: Move is the role's own move, as the game master
	// played it, and Percepts what the role was told of the step.
	Moves    []string `json:"moves,omitempty"`
	Move     string   `json:"move,omitempty"`
	Percepts []string `json:"percepts,omitempty"`
	// Asked is set when the person had a choice at this step; Chosen is
	// then the move the person chose, if any, and TimedOut says the clock
	// ran out first, so that the game master played Moves[role] (Move)
	// instead.
	Asked    bool   `json:"asked,omitempty"`
	Chosen   string `json:"chosen,omitempty"`
	TimedOut bool   `json:"timedOut,omitempty"`
	// Forced is set when the role had one legal move, which the player
	// played for the person without asking.
	Forced bool `json:"forced,omitempty"`
}

// Outcome says in words how role did with goals: "you won 100–0", "you
// lost 0–100", "a draw 50–50"; with more than two roles, the goals of the
// others follow by name: "you won 100 (b 50, c 0)". The role named nature,
// if not empty, plays to no end and is left out.
func Outcome(goals []int, roles []string, role int, nature string) string {
	if role < 0 || role >= len(goals) {
		return ""
	}
	type other struct {
		name string
		goal int
	}
	var others []other
	for i, g := range goals {
		if i == role {
			continue
		}
		name := ""
		if i < len(roles) {
			name = roles[i]
		}
		if nature != "" && name == nature {
			continue
		}
		others = append(others, other{name, g})
	}
	mine, best := goals[role], -1
	for _, o := range others {
		best = max(best, o.goal)
	}
	var words string
	switch {
	case len(others) == 0:
		words = "you scored"
	case mine > best:
		words = "you won"
	case mine < best:
		words = "you lost"
	default:
		words = "a draw"
	}
	if len(others) == 1 {
		return fmt.Sprintf("%s %d–%d", words, mine, best)
	}
	var parts []string
	for _, o := range others {
		if o.name != "" {
			parts = append(parts, fmt.Sprintf("%s %d", o.name, o.goal))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s %d", words, mine)
	}
	return fmt.Sprintf("%s %d (%s)", words, mine, strings.Join(parts, ", "))
}
