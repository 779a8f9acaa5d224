// Package mctsplayer is the mcts player: a player.Player that chooses its
// moves with the Monte Carlo tree search of package player/mcts in a GDL
// match, and with the information-set search of package player/ismcts in a
// GDL-II one (hidden.go). New builds it from a specification such as
// "mcts:base:workers=1" (spec.go), so that the game master can run it in
// the same process or package player/server can serve it over HTTP;
// package player/players builds it by name.
package mctsplayer

import (
	"log"
	"math/rand/v2"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/ismcts"

	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
)

// Options configures the players that New returns. The zero value selects
// the defaults; those of the settings a player specification sets, the
// search's and Ponder and FullClock, are in their table (spec.go).
type Options struct {
	// Name is what the player's Name method returns, in match records and
	// in answers to INFO. Default: the specification New is given.
	Name string

	// NewReasoner builds the reasoner for the rules of a match; the
	// command chooses the backend (package reasoner/backend). Required:
	// Start fails without it.
	NewReasoner reasoner.Factory

	// Search configures the player's search in a GDL match.
	Search mcts.Config

	// GDLIISearch configures the player's search in a GDL-II match
	// (hidden.go).
	GDLIISearch ismcts.Config

	// Ponder switches the player's search between its answer and
	// the next call of the match: the time it gives back when its
	// decision settles early, its margin and the other players' thinking
	// go to the turns to come. It stops when the next call arrives, or
	// after two play clocks without one.
	Ponder mcts.Switch

	// PonderPlayed, with Ponder, keeps the search between an answer and
	// the next call below the move answered (mcts.Search.Focus): the
	// game goes on from there, and the other moves' subtrees are
	// dropped at the next call.
	PonderPlayed mcts.Switch

	// FullClock, when on, makes the player answer START and PLAY
	// only at the end of their clocks (less its margins), even when its
	// move is settled or proven sooner: a player that takes the whole of
	// every clock, to check a game master, a network or a host at long
	// clocks, as ggp-base's game server can force with
	// setForceUsingEntireClock.
	FullClock mcts.Switch

	// Margin is the time the player keeps free before the deadline of
	// each call to Start and Play, for the answer to get back on a busy
	// machine. The HTTP server adds its own margin for the network.
	// Default clock.Margin.OrDefault's.
	Margin clock.Margin

	// Seed seeds the random choices of the fallback moves and of what the
	// player holds possible in a GDL-II match; 0 picks a random seed.
	Seed uint64

	// Log receives a line for each failure a player recovers from, such as
	// a search that panicked. Nil discards them.
	Log *log.Logger
}

func (o Options) withDefaults(kind string) Options {
	for _, s := range o.playerSettings() {
		s.SetDefault()
	}
	if o.Name == "" {
		o.Name = kind
	}
	o.Margin = o.Margin.OrDefault()
	if o.Seed == 0 {
		o.Seed = rand.Uint64()
	}
	if o.Search.Log == nil {
		o.Search.Log = o.Log
	}
	return o
}

// Kind is the kind of player of this package, the word its
// specifications start with.
const Kind = "mcts"

// New returns a new mcts player of the specification spec: Kind, which
// may be followed by settings, as in "mcts:base:workers=1" (see spec.go
// and SettingsHelp); they override opts.Search. The player's name
// defaults to spec.
//
// It also plays GDL-II (player.GDLIIPlayer), from its view alone,
// searching over the states it holds possible (hidden.go).
//
// Each player can play several matches at once, one role in each.
func New(spec string, opts Options) (player.Player, error) {
	if err := parseSpec(spec, &opts); err != nil {
		return nil, err
	}
	return &mctsPlayer{opts: opts.withDefaults(spec)}, nil
}

// logf writes a line to Log, if set.
func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log.Printf(format, args...)
	}
}
