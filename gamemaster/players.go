package gamemaster

import (
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/remote"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/local"
	"github.com/ggp-go/ggp/reasoner"
)

// NewPlayer returns a new player for spec: the kind of an in-process
// player (mcts, random or legal, with optional settings such as
// mcts:base, as local.New makes them), which reasons
// with the reasoners newReasoner builds; human, a *human.Player whose moves
// a person chooses (the caller gives it a seat in a user interface); or the
// address of a remote player as host:port or an http or https URL.
func NewPlayer(spec string, newReasoner reasoner.Factory) (player.Player, error) {
	if spec == human.Kind {
		return human.New("", newReasoner), nil
	}
	if local.IsSpec(spec) {
		return local.New(spec, local.Options{NewReasoner: newReasoner})
	}
	if strings.Contains(spec, ":") {
		return remote.New(spec)
	}
	return nil, fmt.Errorf("unknown player %q: want %s, %s, host:port or an http URL", spec, strings.Join(local.Kinds(), ", "), human.Kind)
}
