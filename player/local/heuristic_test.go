package local

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player/mcts"
)

// TestHeuristicLearned checks what learning from the rules finds in two
// kinds of game: in breakthrough, where material decides, a heuristic over
// the pieces of the board; in connect four, where counting discs says
// nothing of who wins, none, so the game is played as without it.
func TestHeuristicLearned(t *testing.T) {
	if testing.Short() {
		t.Skip("plays random games for seconds")
	}
	for _, tt := range []struct {
		game string
		want string // part of the summary
	}{
		{"breakthrough", "held-out correlation"},
		{"connectFour", ""},
		{"checkers", ""},
		{"reversi", ""},
		{"knightThrough", ""},
		{"pentago", ""},
		{"hex", ""},
	} {
		d := loadGame(t, "shared/"+tt.game)
		ctx := context.Background()
		r, err := testFactory(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := mcts.New(ctx, r, mcts.Config{Workers: 1, Heuristic: mcts.On, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithTimeout(ctx, 4*time.Second)
		s.Run(rctx)
		cancel()
		st := s.Stats()
		s.Close()
		t.Logf("%s: %s (%d iterations)", tt.game, st.Heuristic, st.Iterations)
		if tt.want != "" && !strings.Contains(st.Heuristic, tt.want) {
			t.Errorf("%s: %q, want a heuristic", tt.game, st.Heuristic)
		}
	}
}
