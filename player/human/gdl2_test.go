package human_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/human"
)

// playII runs a GDL-II match of g with h in the role of index role and the
// random player (seeded with seed) in the others but nature, while decide, called at every
// turn where h is to move, chooses the move. It returns the record and
// every turn h showed, in order.
func playII(t *testing.T, g *games.Game, h *human.Player, role, players int, seed uint64, decide func(human.Turn) string) (*record.Record, []human.Turn) {
	t.Helper()
	f := factory(t)
	ps := make([]player.Player, players)
	for i := range ps {
		if i == role {
			ps[i] = h
			continue
		}
		opp := baseline.Random(baseline.Options{NewReasoner: f, Seed: seed})
		ps[i] = opp
	}
	ctx, cancel := context.WithTimeout(context.Background(), gamestest.Scale(t, 2*time.Minute))
	defer cancel()
	var shown []human.Turn
	h.Seat("test")
	defer h.Attach()()
	done := make(chan struct{})
	go func() {
		defer close(done)
		seen := -1
		for {
			turn, changed := h.Turn()
			if turn.Version != seen {
				seen = turn.Version
				shown = append(shown, turn)
				if turn.Status == human.ToMove {
					if err := h.Choose(turn.Step, decide(turn)); err != nil {
						t.Errorf("Choose: %v", err)
					}
				}
			}
			if turn.Status == human.Over {
				return
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return
			}
		}
	}()
	// The end of a long match can take the person's belief a few
	// seconds.
	ref := &gamemaster.Referee{NewReasoner: f, Grace: 50 * time.Millisecond, StopTimeout: time.Minute}
	rec, err := ref.Run(ctx, &gamemaster.Match{ID: "ii.1", Game: g, Players: ps, StartClock: gamestest.Scale(t, 10*time.Second), PlayClock: gamestest.Scale(t, 20*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	<-done
	return rec, shown
}

// TestGDLIIMontyHall plays montyhall as the candidate: the seat shows the
// three doors to choose from, then the door the host opened, never where
// the car is until the candidate is told so at the end, and never
// nature's moves.
func TestGDLIIMontyHall(t *testing.T) {
	g, err := games.Lookup("montyhall")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		h := human.New("", factory(t))
		var asked [][]string
		rec, shown := playII(t, g, h, 0, 1, 0, func(turn human.Turn) string {
			asked = append(asked, turn.Legal)
			return turn.Legal[len(turn.Legal)-1]
		})
		if !rec.IsCompleted || rec.Steps() != 3 {
			t.Fatalf("match not completed in 3 steps: %+v", rec)
		}
		want := [][]string{{"(choose 1)", "(choose 2)", "(choose 3)"}, {"stay", "switch"}}
		if !slices.EqualFunc(asked, want, slices.Equal) {
			t.Errorf("moves offered %v, want %v", asked, want)
		}
		for _, turn := range shown[1:] { // the first, before the match, is empty
			if !turn.GDLII || turn.Last != nil {
				t.Errorf("step %d: gdlII %v, last %v; want a GDL-II turn without the joint move", turn.Step, turn.GDLII, turn.Last)
			}
			text := fmt.Sprintf("%+v", turn)
			if turn.Step < 3 && strings.Contains(text, "(car ") {
				t.Errorf("step %d: the seat shows where the car is before the candidate is told: %s", turn.Step, text)
			}
			for _, m := range []string{"(hide ", "(open "} {
				if strings.Contains(text, m) {
					t.Errorf("step %d: the seat shows nature's move %s...: %s", turn.Step, m, text)
				}
			}
		}
		last := shown[len(shown)-1]
		if last.Status != human.Over || len(last.History) != 3 {
			t.Fatalf("the last turn shown: %+v", last)
		}
		for i, st := range last.History {
			if st.Moves != nil || st.Move != rec.Moves[i][0] || !slices.Equal(st.Percepts, rec.Percepts[i][0]) {
				t.Errorf("step %d in the history: %+v; recorded own move %s and percepts %v", i+1, st, rec.Moves[i][0], rec.Percepts[i][0])
			}
		}
		// At the end the candidate knows where the car was, which door
		// it chose and which the host opened: every state it holds
		// possible has them.
		car := rec.Percepts[2][0][0] // (car D)
		for _, f := range []string{car, strings.Replace(rec.Moves[0][0], "choose", "chosen", 1), rec.Percepts[1][0][0]} {
			if !slices.Contains(last.State, f) {
				t.Errorf("the final board %v lacks %s", last.State, f)
			}
		}
	}
}

// TestGDLIIKriegTTT plays the public Kriegspiel tic-tac-toe as xplayer,
// choosing at random: the person's moves are all legal (in this game a
// role's legal moves follow from what it was told), the board holds the
// person's marks and the cells where it tried in vain unless the seat
// says, also while the person is to move, that the board is a guess, and
// a move changes no cell of the board but its own. The clocks are scaled
// for a slow run (gamestest.Scale); GGP_TEST_SLOWDOWN=0.02 makes the
// belief give way to guesses.
func TestGDLIIKriegTTT(t *testing.T) {
	file, _ := gamestest.ReadGameII(t, "kriegTTT_4x4")
	g, err := games.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(3) {
		h := human.New("", factory(t))
		rng := rand.New(rand.NewPCG(seed, 2))
		rec, shown := playII(t, g, h, 0, 2, seed+1, func(turn human.Turn) string {
			return turn.Legal[rng.IntN(len(turn.Legal))]
		})
		checkKriegTTT(t, rec, shown)
	}
}

func checkKriegTTT(t *testing.T, rec *record.Record, shown []human.Turn) {
	var sampled bool
	guesses := 0
	for _, turn := range shown {
		sampled = sampled || turn.Sampled
		// A step the belief could not follow in its time is followed
		// approximately: the board is then a guess, and the seat says so
		// (docs/gdl2.md), also while the person chooses from it; it
		// promises nothing of what the person knows.
		guess := strings.Contains(turn.Message, "the board is a guess")
		if guess {
			guesses++
		}
		// xplayer knows its marks, and the cells where it tried in vain
		// since its last mark.
		var know []string
		for k := range turn.Step {
			var m, n int
			fmt.Sscanf(rec.Moves[k][0], "(mark %d %d)", &m, &n)
			if strings.HasPrefix(rec.Percepts[k][0][0], "(yougotit") {
				know = slices.DeleteFunc(know, func(f string) bool { return strings.HasPrefix(f, "(tried ") })
				know = append(know, fmt.Sprintf("(cell %d %d xplayer)", m, n))
			} else {
				know = append(know, fmt.Sprintf("(tried xplayer %d %d)", m, n))
			}
		}
		for _, f := range know {
			if !guess && !slices.Contains(turn.State, f) {
				t.Errorf("step %d: the board %v lacks %s", turn.Step, turn.State, f)
			}
		}
		if turn.Status != human.ToMove {
			continue
		}
		if len(turn.Effects) != len(turn.Legal) {
			t.Errorf("step %d: effects of %d moves, %d legal", turn.Step, len(turn.Effects), len(turn.Legal))
		}
		for _, e := range turn.Effects {
			// (mark M N) marks the cell, or is tried in vain: the
			// cell may be taken; when both are as likely, neither is
			// told.
			var m, n int
			fmt.Sscanf(e.Move, "(mark %d %d)", &m, &n)
			if len(e.Added) > 0 && !slices.Contains(e.Added, fmt.Sprintf("(cell %d %d xplayer)", m, n)) && !slices.Contains(e.Added, fmt.Sprintf("(tried xplayer %d %d)", m, n)) {
				t.Errorf("step %d: %s adds %v", turn.Step, e.Move, e.Added)
			}
			for _, f := range slices.Concat(e.Added, e.Removed) {
				if strings.HasPrefix(f, "(cell ") && !strings.HasPrefix(f, fmt.Sprintf("(cell %d %d ", m, n)) {
					t.Errorf("step %d: %s changes %s", turn.Step, e.Move, f)
				}
			}
		}
	}
	for i, errs := range rec.Errors[1:] {
		if errs[0] != "" {
			t.Errorf("step %d: xplayer's move %s: %s", i+1, rec.Moves[i][0], errs[0])
		}
	}
	t.Logf("%d steps; the belief a sample: %v; %d turns shown a guess", rec.Steps(), sampled, guesses)
}
