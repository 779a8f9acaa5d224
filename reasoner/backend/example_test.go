package backend_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// A two-role game in which the role in control says "stop" and wins.
const stopGame = `
(role left) (role right)
(init (control left))
(<= (legal ?r stop) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (winner ?r)) (does ?r stop))
(<= terminal (true (winner ?r)))
(<= (goal ?r 100) (true (winner ?r)))
(<= (goal ?r 0) (role ?r) (not (true (winner ?r))))
`

// New turns a backend's name into a reasoner.Factory, which builds the
// game-state machine of a game's rules. Both backends answer alike.
func ExampleNew() {
	ctx := context.Background()
	d, err := gdl.ParseFile("stop.kif", []byte(stopGame))
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{backend.Propnet, backend.Prolog} {
		newReasoner, err := backend.New(name, backend.Options{})
		if err != nil {
			log.Fatal(err)
		}
		r, err := newReasoner(ctx, d)
		if err != nil {
			log.Fatal(err)
		}
		s, err := r.Initial(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: roles %v, initial state %v\n", name, r.Roles(), s)
		var joint []reasoner.Move
		for role := range r.Roles() {
			moves, err := r.Legal(ctx, s, role)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("  %s may play %v\n", r.Roles()[role], moves)
			joint = append(joint, moves[0])
		}
		if s, err = r.Next(ctx, s, joint); err != nil {
			log.Fatal(err)
		}
		terminal, err := r.Terminal(ctx, s)
		if err != nil {
			log.Fatal(err)
		}
		goals, err := r.Goals(ctx, s)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("  after %v: %v, terminal %v, goals %v\n", joint, s, terminal, goals)
	}
	// Output:
	// propnet: roles [left right], initial state (control left)
	//   left may play [stop]
	//   right may play [noop]
	//   after [stop noop]: (winner left), terminal true, goals [100 0]
	// prolog: roles [left right], initial state (control left)
	//   left may play [stop]
	//   right may play [noop]
	//   after [stop noop]: (winner left), terminal true, goals [100 0]
}
