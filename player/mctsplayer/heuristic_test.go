package mctsplayer

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// TestHeuristicLearned checks what learning from the rules finds, with the
// default settings, in two kinds of game: in checkers, where material
// decides, a heuristic over the pieces (held-out correlation 0.35 to
// 0.55), and in skirmish over the captures; in connect four, where
// counting discs says nothing of who wins, none, so the game is played as
// without it. The other games of the suite are logged.
//
// The learning samples random games for a share of the search's time, and
// the fit needs enough of them: the time to search, to learn and to ground
// is scaled for a slow run (gamestest.Scale), and under the race detector
// the games only logged are left out. Skirmish is left out too under the
// race detector, where its held-out correlation fell either side of the
// bar (0.25 to 0.45 from about 400 states, when learning was capped at 3
// seconds whatever the detector, against 0.53 from the 1,500 states it
// draws without it).
func TestHeuristicLearned(t *testing.T) {
	if testing.Short() {
		t.Skip("plays random games for seconds")
	}
	budget := gamestest.Scale(t, 4*time.Second)
	learnMax := gamestest.Scale(t, mcts.DefaultLearnMax)
	factory, err := backend.New(backend.Propnet, backend.Options{GroundTime: gamestest.Scale(t, backend.DefaultGroundTime)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		game string   // as loadGame names it: shared/ for the corpus
		want string   // part of the summary
		none bool     // no heuristic may be kept
		kept []string // one of these is part of the heuristic, when one is kept
	}{
		{"shared/breakthrough", "", false, nil}, // about 0.15 to 0.22, either side of the bar
		{"shared/connectFour", "", true, nil},
		{"shared/checkers", "held-out correlation", false, []string{"piece_count"}},
		// Captures decide: each side's capture count or, what is the
		// same measure, its pieces on the board (0.5); which of the two
		// forward selection takes first depends on the samples.
		{"shared/skirmishZeroSum", "held-out correlation", false, []string{"captureCount", "cell/3=white", "cell/3=black"}},
		{"shared/reversi", "", false, nil},
		{"shared/knightThrough", "", false, nil},
		{"shared/pentago", "", false, nil},
		{"shared/minichess", "", false, nil},
		{"threePlayerTicTacToe", "", false, nil},
		{"shared/connectFourSimultaneous", "", false, nil},
		{"shared/hex", "", false, nil}, // last: under load it may not ground in time, which fails the test
	} {
		if gamestest.Race && (tt.want == "" && !tt.none || tt.game == "shared/skirmishZeroSum") {
			continue
		}
		d := loadGame(t, tt.game)
		ctx := context.Background()
		r, err := factory(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := mcts.New(ctx, r, mcts.Config{Workers: 1, Seed: 1, LearnMax: learnMax})
		if err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithTimeout(ctx, budget)
		s.Run(rctx)
		cancel()
		st := s.Stats()
		s.Close()
		t.Logf("%s: %s (%d iterations)", tt.game, st.Heuristic, st.Iterations)
		if tt.want != "" && !strings.Contains(st.Heuristic, tt.want) {
			t.Errorf("%s: %q, want a heuristic", tt.game, st.Heuristic)
		}
		kept := strings.Contains(st.Heuristic, "held-out correlation")
		if tt.none && kept {
			t.Errorf("%s: %q, want no heuristic", tt.game, st.Heuristic)
		}
		if kept && tt.kept != nil && !slices.ContainsFunc(tt.kept, func(f string) bool { return strings.Contains(st.Heuristic, f) }) {
			t.Errorf("%s: %q, want one of %q among its features", tt.game, st.Heuristic, tt.kept)
		}
	}
}
