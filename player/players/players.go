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
	"log"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/player/mctsplayer"
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

// The kinds of player. The in-process ones are InProcessKinds.
const (
	MCTS   Kind = mctsplayer.Kind     // the Monte Carlo tree search, in process
	Random Kind = baseline.RandomKind // a uniformly random legal move, in process
	Legal  Kind = baseline.LegalKind  // the first legal move, in process
	Person Kind = Human               // a person, on a seat page
	Remote Kind = "remote"            // a player served over HTTP
)

// InProcessKinds returns the names of the kinds of player that play in
// the process: the mcts player (package player/mctsplayer) and the
// baselines (package player/baseline). It is the one list of them.
func InProcessKinds() []string { return []string{string(MCTS), string(Random), string(Legal)} }

// InProcess reports whether the kind is a player that plays in the
// process (InProcessKinds).
func (k Kind) InProcess() bool { return slices.Contains(InProcessKinds(), string(k)) }

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
	// player its GDL-II search does without (mctsplayer.GDLIIWarning): a
	// command shows it when the player plays a GDL-II match.
	GDLIIWarning string
}

// Parse reads the name of a player, as the package documentation says,
// and checks it as New would: the settings of an in-process player and
// the address of a remote one. The error names what is wrong.
func Parse(name string) (Spec, error) {
	word, rest, hasRest := strings.Cut(name, ":")
	kind := Kind(word)
	var err error
	switch {
	case kind == MCTS:
		err = mctsplayer.CheckSpec(name)
	case (kind.InProcess() || kind == Person) && hasRest:
		err = fmt.Errorf("player %q: %s takes no settings", name, kind)
	case kind.InProcess() || kind == Person:
		// a kind that takes no settings, named alone: nothing to check
	case hasRest:
		u, err := remote.ParseAddress(name)
		if err != nil {
			return Spec{}, err
		}
		return Spec{Name: name, Kind: Remote, URL: u}, nil
	default:
		return Spec{}, fmt.Errorf("unknown player %q: want %s, %s, HOST:PORT or an http or https URL", name, Human, strings.Join(InProcessKinds(), ", "))
	}
	if err != nil {
		if _, aerr := strconv.Atoi(rest); aerr == nil && kind.InProcess() {
			return Spec{}, fmt.Errorf("%w (a remote player on a host named %s is written http://%s)", err, word, name)
		}
		return Spec{}, err
	}
	s := Spec{Name: name, Kind: kind}
	if kind == MCTS {
		s.GDLIIWarning = mctsplayer.GDLIIWarning(name)
	}
	return s, nil
}

// New returns a new player of spec, whose in-process players reason with
// the reasoners newReasoner builds and draw their random choices from
// seed (InProcess.Seed). A Person is a *human.Player, which a user
// interface gives a seat (NewPerson).
func (s Spec) New(newReasoner reasoner.Factory, seed uint64) (player.Player, error) {
	switch {
	case s.Kind == Person:
		return NewPerson(newReasoner), nil
	case s.Kind == Remote:
		return remote.New(s.Name)
	case s.Kind.InProcess():
		return s.NewInProcess(InProcess{NewReasoner: newReasoner, Seed: seed})
	}
	return nil, fmt.Errorf("player %q: no kind: a Spec comes from Parse", s.Name)
}

// InProcess configures the in-process player Spec.NewInProcess makes,
// beyond what its name says.
type InProcess struct {
	// Name is the player's own name, in match records and answers to
	// INFO. Default: the Spec's.
	Name string
	// NewReasoner builds the reasoner for the rules of each match.
	NewReasoner reasoner.Factory
	// Seed seeds the player's random choices; 0 picks one: the same seed
	// gives the random and legal players the same choices in the same
	// match.
	Seed uint64
	// MaxNodes bounds the states the mcts player keeps
	// (mcts.Config.MaxNodes); 0 is its default.
	MaxNodes int
	// Log receives a line for each failure the player recovers from;
	// nil discards them.
	Log *log.Logger
}

// NewInProcess returns a new in-process player of spec (Kind.InProcess),
// made by the package of its kind with the options o.
func (s Spec) NewInProcess(o InProcess) (player.Player, error) {
	if o.Name == "" {
		o.Name = s.Name
	}
	b := baseline.Options{Name: o.Name, NewReasoner: o.NewReasoner, Seed: o.Seed, Log: o.Log}
	switch s.Kind {
	case MCTS:
		return mctsplayer.New(s.Name, mctsplayer.Options{Name: o.Name, NewReasoner: o.NewReasoner, Search: mcts.Config{MaxNodes: o.MaxNodes}, Seed: o.Seed, Log: o.Log})
	case Random:
		return baseline.Random(b), nil
	case Legal:
		return baseline.Legal(b), nil
	}
	return nil, fmt.Errorf("player %q: not an in-process player", s.Name)
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
