package gamemaster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/remote"
	"github.com/ggp-go/ggp/player"
)

// NewPlayer returns a new player for spec: the kind of an in-process
// player (mcts, random or legal, as player.New makes them), or the address
// of a remote player as host:port or an http or https URL.
func NewPlayer(spec string) (player.Player, error) {
	if slices.Contains(player.Kinds(), spec) {
		return player.New(spec, player.Options{})
	}
	if strings.Contains(spec, ":") {
		return remote.New(spec)
	}
	return nil, fmt.Errorf("unknown player %q: want %s, host:port or an http URL", spec, strings.Join(player.Kinds(), ", "))
}
