package mcts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// TestPlacementGame checks which games the probe finds to be placement
// games, where GRAVE is on by default: those whose moves are open until
// claimed and never after (tic-tac-toe's marks, hex's stones), not those
// whose moves come back (connect four's columns, breakthrough's,
// knightThrough's, checkers' and minichess's steps, nim's takes) or open
// with the position (reversi's flanks, pentago's rotations). Both ways of
// playing, through the network's policy playouts and through Legal and
// Next, must agree.
func TestPlacementGame(t *testing.T) {
	for _, tt := range []struct {
		game      string
		placement bool
	}{
		{"ticTacToe", true},
		{"threePlayerTicTacToe", true},
		{"connectFour", false},
		{"breakthrough", false},
		{"nim", false},
		{"shared/hex", true},
		{"shared/reversi", false},
		{"shared/pentago", false},
		{"shared/checkers", false},
		{"shared/knightThrough", false},
		{"shared/minichess", false},
		{"shared/connectFourSimultaneous", false},
	} {
		t.Run(tt.game, func(t *testing.T) {
			if testing.Short() && tt.game == "shared/hex" {
				t.Skip("hex takes seconds to ground; tic-tac-toe stands for placement games with -short")
			}
			d := playertest.LoadGame(t, tt.game)
			backends := []string{backend.Propnet, backend.Prolog}
			if strings.HasPrefix(tt.game, "shared/") {
				// Prolog's playouts of the corpus's bigger games do
				// not give enough choices within the probe's time.
				backends = backends[:1]
			}
			for _, name := range backends {
				ctx := context.Background()
				// Hex grounds in seconds; a loaded machine, or the race
				// detector, must not fail the test.
				f, err := backend.New(name, backend.Options{GroundTime: gamestest.Scale(t, time.Minute)})
				if err != nil {
					t.Fatal(err)
				}
				r, err := f(ctx, d)
				if err != nil {
					t.Fatal(err)
				}
				// The probe's own budget is time; here the playouts
				// bound it, so that a loaded machine decides the same.
				ctx, cancel := context.WithTimeout(ctx, gamestest.Scale(t, time.Minute))
				defer cancel()
				init, err := r.Initial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if got := placementGame(ctx, r, init, 1); got != tt.placement {
					t.Errorf("%s: placementGame = %v, want %v", name, got, tt.placement)
				}
			}
		})
	}
}

// TestGRAVEDefault checks that New switches GRAVE on by default in a
// placement game only, and that the switch overrides the probe.
func TestGRAVEDefault(t *testing.T) {
	for _, tt := range []struct {
		game  string
		sw    Switch
		grave bool
	}{
		{"ticTacToe", Default, true},
		{"ticTacToe", Off, false},
		{"connectFour", Default, false},
		{"connectFour", On, true},
	} {
		d := playertest.LoadGame(t, tt.game)
		r, err := playertest.Factory(t, backend.Propnet)(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearch(t, r, Config{Workers: 1, GRAVE: tt.sw})
		if s.grave != tt.grave {
			t.Errorf("%s, grave=%v: GRAVE on = %v, want %v", tt.game, tt.sw, s.grave, tt.grave)
		}
	}
}

// TestPlacementProbePanics checks that a reasoner panicking in the probe
// leaves GRAVE off and is counted, without failing New.
func TestPlacementProbePanics(t *testing.T) {
	g := nim(30)
	g.panicAt = 1 // every Next panics
	s := newSearch(t, g, Config{Workers: 1})
	if s.grave {
		t.Error("GRAVE on after the probe panicked")
	}
	if n := s.panics.Load(); n != 1 {
		t.Errorf("%d panics counted, want the probe's 1", n)
	}
}
