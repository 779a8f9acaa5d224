package infoset_test

import (
	"context"
	"fmt"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// The player of a shell game follows what it can know: nature hides a pea
// under one of two shells, unseen; the player then lifts shell 1 and sees
// whether the pea is there.
func Example() {
	d, err := gdl.ParseFile("shells.kif", []byte(`
(role player)
(role random)
(init start)
(shell 1) (shell 2)
(<= (legal random (hide ?s)) (true start) (shell ?s))
(<= (legal random wait) (not (true start)))
(<= (legal player wait) (true start))
(<= (legal player (lift ?s)) (shell ?s) (not (true start)))
(<= (legal player (take ?s)) (true (pea ?s)) (not (true start)))
(<= (next (pea ?s)) (does random (hide ?s)))
(<= (next (pea ?s)) (true (pea ?s)))
(<= (next over) (does player (take ?s)))
(<= (sees player (pea ?s)) (does player (lift ?s)) (true (pea ?s)))
(<= terminal (true over))
(goal player 100)
`))
	if err != nil {
		panic(err)
	}
	r, err := prolog.NewWithOptions(context.Background(), d, prolog.Options{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	b, err := infoset.New(ctx, r, infoset.View{Role: 0, Steps: []infoset.Step{{Move: "wait"}}}, infoset.Options{})
	if err != nil {
		panic(err)
	}
	sure, _ := b.SureLegal(ctx)
	fmt.Println(len(b.States()), "states; sure legal:", sure)

	// Lifting shell 1 shows nothing: the pea is under shell 2.
	if err := b.Update(ctx, infoset.Step{Move: "(lift 1)", Percepts: []reasoner.Percept{}}); err != nil {
		panic(err)
	}
	sure, _ = b.SureLegal(ctx)
	fmt.Println(b.States()[0], "; sure legal:", sure)
	// Output:
	// 2 states; sure legal: [(lift 1) (lift 2)]
	// (pea 2) ; sure legal: [(lift 1) (lift 2) (take 2)]
}
