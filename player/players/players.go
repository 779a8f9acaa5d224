// Package players is the one place that reads the name of a player and
// builds the player it names, as package reasoner/backend does for the
// backends: the commands turn a --players or --player flag into Specs
// here, switch on their Kind, and hand player.Player values to the game
// master, the tournament and the viewer, which never name a kind of
// player.
//
// A player's name is written as Help says. The word before the first
// colon decides its kind: a kind of player names that player, and
// anything else with a colon is an address (remote.ParseAddress).
package players

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/local"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/reasoner"
)

// Human is the name of a player whose moves a person chooses.
const Human = human.Kind

// Help describes the names of players, for the help of the commands that
// take them.
const Help = `A player is named as one of
  human                     a person, on a seat page of the viewer
  mcts[:SETTING...]         the Monte Carlo tree search; each SETTING a preset or KEY=VALUE (below)
  random                    a uniformly random legal move
  legal                     the first legal move in sorted order
  HOST:PORT                 a remote player at http://HOST:PORT/
  http://HOST[:PORT][/PATH] a remote player at that URL (or https://)
A remote player on a host named like a kind of player is written as a URL: http://mcts:9147.`

// A Kind is the kind of player a name names: the word that names it, or
// Remote.
type Kind string

// The kinds of player. The in-process ones are local.Kinds.
const (
	MCTS   Kind = "mcts"   // the Monte Carlo tree search, in process
	Random Kind = "random" // a uniformly random legal move, in process
	Legal  Kind = "legal"  // the first legal move, in process
	Person Kind = Human    // a person, on a seat page
	Remote Kind = "remote" // a player served over HTTP
)

// InProcess reports whether the kind is a player that plays in the
// process, as package player/local makes it.
func (k Kind) InProcess() bool { return slices.Contains(local.Kinds(), string(k)) }

// A Spec is a player's name, read.
type Spec struct {
	// Name is the name as given. It is the name of the player New makes,
	// in match records and tournament tables.
	Name string
	Kind Kind
	// URL is where a remote player's messages are posted; empty for the
	// other kinds.
	URL string
	// GDLIIWarning, when not empty, says which settings of an mcts
	// player its GDL-II search does without (local.GDLIIWarning): a
	// command shows it when the player plays a GDL-II match.
	GDLIIWarning string
}

// Parse reads the name of a player, as the package documentation says,
// and checks it as New would: the settings of an in-process player and
// the address of a remote one. The error names what is wrong.
func Parse(name string) (Spec, error) {
	word, rest, hasRest := strings.Cut(name, ":")
	if kind := Kind(word); kind.InProcess() {
		if err := local.CheckSpec(name); err != nil {
			if _, err := strconv.Atoi(rest); err == nil {
				return Spec{}, fmt.Errorf("%w (a remote player on a host named %s is written http://%s)", err, word, name)
			}
			return Spec{}, err
		}
		return Spec{Name: name, Kind: kind, GDLIIWarning: local.GDLIIWarning(name)}, nil
	}
	switch {
	case word == Human && hasRest:
		return Spec{}, fmt.Errorf("player %q: %s takes no settings", name, Human)
	case word == Human:
		return Spec{Name: name, Kind: Person}, nil
	case hasRest:
		u, err := remote.ParseAddress(name)
		if err != nil {
			return Spec{}, err
		}
		return Spec{Name: name, Kind: Remote, URL: u}, nil
	}
	return Spec{}, fmt.Errorf("unknown player %q: want %s, %s, HOST:PORT or an http or https URL", name, Human, strings.Join(local.Kinds(), ", "))
}

// New returns a new player of spec, whose in-process players reason with
// the reasoners newReasoner builds and draw their random choices from
// seed (local.Options.Seed; 0 picks one: the same seed gives the random
// and legal players the same choices in the same match). A Person is a
// *human.Player, which a user interface gives a seat (NewPerson).
func (s Spec) New(newReasoner reasoner.Factory, seed uint64) (player.Player, error) {
	switch {
	case s.Kind == Person:
		return NewPerson(newReasoner), nil
	case s.Kind == Remote:
		return remote.New(s.Name)
	case s.Kind.InProcess():
		return local.New(s.Name, local.Options{NewReasoner: newReasoner, Seed: seed})
	}
	return nil, fmt.Errorf("player %q: no kind: a Spec comes from Parse", s.Name)
}

// NewPerson returns a player whose moves a person chooses, on the seat
// a user interface gives it (it is a seat.Player).
func NewPerson(newReasoner reasoner.Factory) *human.Player {
	return human.New("", newReasoner)
}

// New returns a new player of the name, as Parse reads it and Spec.New
// makes it, with a random seed.
func New(name string, newReasoner reasoner.Factory) (player.Player, error) {
	s, err := Parse(name)
	if err != nil {
		return nil, err
	}
	return s.New(newReasoner, 0)
}
