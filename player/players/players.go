// Package players is the one place that names the kinds of player and
// builds them from a specification, as package reasoner/backend does for
// the backends: the commands turn a --players or --player flag into
// player.Player values here, and the game master, the tournament and the
// viewer take those values without naming a kind of player.
package players

import (
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/local"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/reasoner"
)

// Human is the specification of a player whose moves a person chooses.
const Human = human.Kind

// New returns a new player for spec: the kind of an in-process player
// (mcts, random or legal, with optional settings such as mcts:base, as
// local.New makes them), which reasons with the reasoners newReasoner
// builds; Human, a player whose moves a person chooses, which is a
// seat.Player (the caller gives it a seat in a user interface); or the address of a remote player
// as host:port or an http or https URL.
func New(spec string, newReasoner reasoner.Factory) (player.Player, error) {
	return NewSeeded(spec, newReasoner, 0)
}

// NewSeeded is New with the seed of an in-process player's random
// choices (local.Options.Seed; 0 picks one): the same seed gives the
// random and legal players the same choices in the same match.
func NewSeeded(spec string, newReasoner reasoner.Factory, seed uint64) (player.Player, error) {
	if spec == Human {
		return human.New("", newReasoner), nil
	}
	if local.IsSpec(spec) {
		return local.New(spec, local.Options{NewReasoner: newReasoner, Seed: seed})
	}
	if strings.Contains(spec, ":") {
		return remote.New(spec)
	}
	return nil, fmt.Errorf("unknown player %q: want %s, %s, host:port or an http URL", spec, strings.Join(local.Kinds(), ", "), Human)
}

// Validate reports whether spec names a player New can make, and if not,
// why: the settings of an in-process player, or the address of a remote
// one, are checked as New checks them.
func Validate(spec string) error {
	_, err := New(spec, nil)
	return err
}
