// Package player holds the Player interface and the match types it is
// called with, and nothing heavier, so that every side of the GGP protocol
// can import it.
//
// A Player is the one interface on both sides of the protocol: the HTTP
// server (package player/server) wraps a Player, the HTTP client the game
// master uses (package player/remote) implements one, and the in-process
// players (package player/mctsplayer: mcts; package player/baseline:
// random, legal) implement it directly so that a match can run without
// any network.
//
// In a GDL-II match (Match.GDLII) a role is told of each step only its own
// move and its percepts, never the joint move nor the state: the game
// master calls PlayTurn and StopTurn of a GDLIIPlayer instead of Play and
// Stop. A player that is not a GDLIIPlayer cannot play GDL-II.
package player

import (
	"context"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Match is what a player is told when a match starts.
type Match struct {
	ID         string
	Role       string // one of the roles of Rules, as written there
	Rules      *gdl.Description
	StartClock time.Duration // time allowed for Start
	PlayClock  time.Duration // time allowed for each Play

	// GDLII is set for a match played as GDL-II, as gdl.DecideMode
	// decides from the rules and the seating: the player is told its
	// turns with PlayTurn and StopTurn (GDLIIPlayer), not the joint
	// moves. It is the one word on the mode a player needs.
	GDLII bool
}

// Mode returns the mode m is played in.
func (m *Match) Mode() gdl.Mode {
	if m.GDLII {
		return gdl.GDLII
	}
	return gdl.GDL
}

// Player is a game-playing agent as the game master sees it. The game
// master bounds every call with ctx; a player should return before the
// deadline of ctx, and must not keep using resources of a match after Stop
// or Abort.
type Player interface {
	// Name identifies the player in match records.
	Name() string

	// Start prepares for a match and returns when ready.
	Start(ctx context.Context, m *Match) error

	// Play returns the move for the next turn. last holds the joint move
	// just played, in role order, or is nil on the first turn.
	Play(ctx context.Context, matchID string, last []reasoner.Move) (reasoner.Move, error)

	// Stop ends a match normally; last is the final joint move.
	Stop(ctx context.Context, matchID string, last []reasoner.Move) error

	// Abort ends a match early.
	Abort(ctx context.Context, matchID string) error
}

// A Turn is what a player of a GDL-II match is told of the step just
// played: the move the game master played for it (which replaces a late
// or illegal one) and its percepts, the second arguments of its sees
// facts, in the spelling of the match's rules. On the first turn Number is
// 0, Move empty and Percepts nil.
type Turn struct {
	Number   int // steps played so far
	Move     reasoner.Move
	Percepts []reasoner.Percept
}

// A GDLIIPlayer is a Player that can play GDL-II matches. In such a match
// the game master calls PlayTurn and StopTurn, never Play and Stop, so
// that the player is never given another role's move or percepts.
type GDLIIPlayer interface {
	Player

	// PlayTurn returns the move for the next turn, given what the
	// player is told of the step before it.
	PlayTurn(ctx context.Context, matchID string, t Turn) (reasoner.Move, error)

	// StopTurn ends a match normally; t tells the last step.
	StopTurn(ctx context.Context, matchID string, t Turn) error
}
