package gamemaster

import (
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/remote"
	"github.com/ggp-go/ggp/player"
)

// NewPlayer returns a new player for spec: the name of an in-process
// player (mcts, random or legal), or the address of a remote player as
// host:port or an http URL.
func NewPlayer(spec string) (player.Player, error) {
	if strings.Contains(spec, ":") {
		return remote.New(spec)
	}
	return nil, fmt.Errorf("unknown player %q: want mcts, random, legal, host:port or an http URL", spec)
}
