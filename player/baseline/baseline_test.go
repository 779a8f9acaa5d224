package baseline

import (
	"testing"

	"github.com/ggp-go/ggp/player"
)

// TestNames checks the name each player gives itself: its kind, unless
// Options.Name says otherwise. Their play is tested against the mcts
// player's with the harness of package player/mctsplayer.
func TestNames(t *testing.T) {
	tests := []struct {
		new  func(Options) player.Player
		name string
		want string
	}{
		{Random, "", RandomKind},
		{Legal, "", LegalKind},
		{Random, "dice", "dice"},
		{Legal, "first", "first"},
	}
	for _, tt := range tests {
		if got := tt.new(Options{Name: tt.name}).Name(); got != tt.want {
			t.Errorf("Name() = %q with Options.Name %q, want %q", got, tt.name, tt.want)
		}
	}
}
