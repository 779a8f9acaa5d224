package gamemaster_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// A match of the bundled tic-tac-toe between two in-process players that
// each play their first legal move in sorted order: xplayer fills the top
// row's free cells first and completes the anti-diagonal on its fourth
// move.
func ExampleReferee_Run() {
	game, err := games.Lookup("ticTacToe")
	if err != nil {
		log.Fatal(err)
	}
	newReasoner, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var players []player.Player
	for range 2 {
		p := baseline.Legal(baseline.Options{NewReasoner: newReasoner})
		players = append(players, p)
	}
	ref := &gamemaster.Referee{NewReasoner: newReasoner}
	rec, err := ref.Run(context.Background(), &gamemaster.Match{
		ID:         "example",
		Game:       game,
		Players:    players,
		StartClock: 5 * time.Second,
		PlayClock:  time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	for i, joint := range rec.Moves {
		fmt.Println(i+1, joint)
	}
	fmt.Println("roles", rec.Roles, "goals", rec.GoalValues)
	// Output:
	// 1 [(mark 1 1) noop]
	// 2 [noop (mark 1 2)]
	// 3 [(mark 1 3) noop]
	// 4 [noop (mark 2 1)]
	// 5 [(mark 2 2) noop]
	// 6 [noop (mark 2 3)]
	// 7 [(mark 3 1) noop]
	// roles [xplayer oplayer] goals [100 0]
}
