package server

import (
	"context"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/reasoner"
)

// TestServerOutOfOrderPlay plays tic-tac-toe over HTTP as a game master
// does that gave up waiting for the player's move on the second step (its
// PLAY held up on the network) and sent the third: the third PLAY reaches
// the player first, and the second after it, either while the third waits
// or once it has given up. The player must answer the second at once with
// a legal move, answer the third with a legal move of its state when the
// second arrives in time, and go on playing legal moves.
func TestServerOutOfOrderPlay(t *testing.T) {
	tests := []struct {
		name string
		// clock is the play clock; the second PLAY is sent once the third
		// has been answered when waitThird, else once the third has
		// reached the player.
		clock     string
		waitThird bool
	}{
		{"overtaken", "2", false},
		{"after the later one gave up", "1", true},
	}
	d := playertest.LoadGame(t, "ticTacToe")
	rules := rulesText(t, d)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// FullClock: a PLAY that thinks answers at its deadline, so
			// that one answered at once stands out.
			p := watchPlays(newPlayer(t, "mcts", mctsplayer.Options{Search: mcts.Config{Workers: 1}, FullClock: mcts.On}))
			_, base := testServer(t, p)
			ctx := context.Background()
			ref := playertest.Reference(t, d)
			legal := func(st *reasoner.State, role int) []reasoner.Move {
				t.Helper()
				moves, err := ref.Legal(ctx, st, role)
				if err != nil {
					t.Fatal(err)
				}
				return moves
			}
			format := func(j []reasoner.Move) string { return "(" + string(j[0]) + " " + string(j[1]) + ")" }
			expect(t, "START", post(t, base, "(START m1 xplayer ("+rules+") 1 "+tt.clock+")"), "ready")

			s0, _ := ref.Initial(ctx)
			first := reasoner.Move(post(t, base, "(PLAY m1 NIL)"))
			<-p.entered // the first PLAY's
			if !slices.Contains(legal(s0, 0), first) {
				t.Fatalf("first PLAY: %q is not legal", first)
			}
			j1 := []reasoner.Move{first, "noop"}
			s1, _ := ref.Next(ctx, s0, j1)
			// The game master gave up on the second step and played
			// oplayer's first move.
			j2 := []reasoner.Move{"noop", legal(s1, 1)[0]}
			s2, _ := ref.Next(ctx, s0, j1)
			s2, _ = ref.Next(ctx, s2, j2)

			type reply struct {
				which, move string
			}
			replies := make(chan reply, 2)
			send := func(which, msg string) {
				m, err := tryPost(t, base, msg)
				if err != nil {
					t.Errorf("%s PLAY: %v", which, err)
				}
				replies <- reply{which, m}
			}
			go send("third", "(PLAY m1 "+format(j2)+")")
			var got []reply
			<-p.entered // the third PLAY has reached the player
			if tt.waitThird {
				got = append(got, <-replies)
			}
			go send("second", "(PLAY m1 "+format(j1)+")")
			for len(got) < 2 {
				got = append(got, <-replies)
			}
			answers := map[string]reasoner.Move{}
			for _, r := range got {
				answers[r.which] = reasoner.Move(r.move)
			}
			// The second PLAY is stale: it is answered first, at once, with
			// a move legal in its state or in the one after.
			if sec := answers["second"]; !slices.Contains(legal(s1, 0), sec) && !slices.Contains(legal(s2, 0), sec) {
				t.Errorf("second PLAY, arriving after the third: %q is not legal", sec)
			}
			if !tt.waitThird && got[0].which != "second" {
				t.Errorf("PLAYs answered in the order %v, want the stale second one first", got)
			}
			// The game master plays the third answer if it is legal,
			// and xplayer's first move otherwise.
			third := answers["third"]
			if tt.waitThird {
				if third != "nil" {
					t.Errorf("third PLAY, with no second one by its deadline: %q, want nil", third)
				}
				third = legal(s2, 0)[0]
			} else if !slices.Contains(legal(s2, 0), third) {
				t.Fatalf("third PLAY: %q is not legal in %v", third, s2)
			}
			// The match goes on in order: the answers of the next two
			// steps, oplayer's and xplayer's, are legal.
			st, _ := ref.Next(ctx, s2, []reasoner.Move{third, "noop"})
			last := format([]reasoner.Move{third, "noop"})
			for turn := 4; turn <= 5; turn++ {
				move := reasoner.Move(post(t, base, "(PLAY m1 "+last+")"))
				if !slices.Contains(legal(st, 0), move) {
					t.Fatalf("PLAY %d: %q is not legal in %v", turn, move, st)
				}
				joint := []reasoner.Move{move, legal(st, 1)[0]}
				st, _ = ref.Next(ctx, st, joint)
				last = format(joint)
			}
			expect(t, "ABORT", post(t, base, "(ABORT m1)"), "aborted")
		})
	}
}
