package determinizer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/determinizer"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// TestGuessesWhatItBelievesItKnows plays the guesser's first decision of
// numberGuess, nature's secret 6 picked: the determinizer takes a state
// it drew for the true one, knows the secret there and guesses at once,
// where asking would pay; shown the true state, it guesses 6.
func TestGuessesWhatItBelievesItKnows(t *testing.T) {
	for _, cheat := range []bool{false, true} {
		p := determinizer.New(determinizer.Options{
			NewReasoner: playertest.Factory(t, backend.Auto), Cheat: cheat, Seed: 7,
			Search: ismcts.Config{Iterations: 2000},
		})
		ctx := t.Context()
		d := playertest.LoadGame(t, "numberGuess")
		m := &player.Match{ID: "m1", Role: "guesser", Rules: d, StartClock: time.Minute, PlayClock: time.Minute, GDLII: true}
		if err := p.Start(ctx, m); err != nil {
			t.Fatal(err)
		}
		r, err := playertest.Factory(t, backend.Auto)(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Initial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = r.Next(ctx, s, []reasoner.Move{"noop", "(pick 6)"}); err != nil {
			t.Fatal(err)
		}
		if cheat {
			if err := p.ShowTruth("m1", s); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := p.PlayTurn(ctx, "m1", player.Turn{}); err != nil {
			t.Fatal(err)
		}
		mv, err := p.PlayTurn(ctx, "m1", player.Turn{Number: 1, Move: "noop"})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case cheat && mv != "(guess 6)":
			t.Errorf("the cheat plays %s, want (guess 6)", mv)
		case !strings.HasPrefix(string(mv), "(guess "):
			t.Errorf("cheat %v: plays %s, want a guess", cheat, mv)
		}
		if err := p.StopTurn(ctx, "m1", player.Turn{Number: 2, Move: mv}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRefusesGDL checks that the player says it plays GDL-II only.
func TestRefusesGDL(t *testing.T) {
	p := determinizer.New(determinizer.Options{NewReasoner: playertest.Factory(t, backend.Auto)})
	err := p.Start(context.Background(), &player.Match{ID: "m1", Role: "xplayer", Rules: playertest.LoadGame(t, "ticTacToe"), PlayClock: time.Second})
	if err == nil || !strings.Contains(err.Error(), "GDL-II matches only") {
		t.Errorf("Start of a GDL match: %v, want a refusal", err)
	}
}
