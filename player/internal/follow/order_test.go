package follow

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// counted is a turn-taking game whose state counts the steps, so that the
// states of a match are all different.
const counted = `
(role a) (role b)
(init (control a)) (init (step 0))
(<= (legal ?r (mark ?c)) (true (control ?r)) (cell ?c))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(cell 1) (cell 2)
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= terminal (true (step 5)))
(<= (goal ?r 50) (role ?r))
`

// The joint moves of the first three steps.
var (
	j1 = []reasoner.Move{"(mark 1)", "noop"}
	j2 = []reasoner.Move{"noop", "(mark 2)"}
	j3 = []reasoner.Move{"(mark 2)", "noop"}
)

func startCounted(t *testing.T) *Game {
	t.Helper()
	d, err := gdl.ParseFile("counted.kif", []byte(counted))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Start(context.Background(), &player.Match{ID: "m", Role: "a", Rules: d}, factory(t))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// stateAfter returns the state reached by joints from the initial state.
func stateAfter(t *testing.T, g *Game, joints ...[]reasoner.Move) *reasoner.State {
	t.Helper()
	ctx := context.Background()
	st, err := g.R.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range joints {
		if st, err = g.R.Next(ctx, st, j); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestPlayInOrder checks that PLAYs in order are played as they come,
// none of them stale, and that a first PLAY after others is stale.
func TestPlayInOrder(t *testing.T) {
	g := startCounted(t)
	var mu sync.Mutex
	mu.Lock()
	defer mu.Unlock()
	ctx := context.Background()
	for i, j := range [][]reasoner.Move{nil, j1, j2, j3} {
		if stale, err := g.Play(ctx, &mu, j); err != nil || stale {
			t.Fatalf("PLAY %d: stale %v, %v", i+1, stale, err)
		}
	}
	if want := stateAfter(t, g, j1, j2, j3); !g.State.Equal(want) {
		t.Errorf("state %v, want %v", g.State, want)
	}
	if len(g.Played()) != 3 {
		t.Errorf("played %v", g.Played())
	}
	if stale, err := g.Play(ctx, &mu, nil); err != nil || !stale {
		t.Errorf("the first PLAY after three others: stale %v, %v", stale, err)
	}
}

// TestPlayOutOfOrder checks the PLAYs of a game master that gave up on a
// step: the PLAY after it arrives first and waits, without holding the
// lock, for the one before, which is answered as stale; or it gives up at
// its deadline, and its joint move is played once the earlier one
// arrives.
func TestPlayOutOfOrder(t *testing.T) {
	// In a bubble, so that the test knows when the later PLAY waits.
	t.Run("waiting", func(t *testing.T) { synctest.Test(t, testPlayWaiting) })
	t.Run("gave up", func(t *testing.T) {
		g := startCounted(t)
		var mu sync.Mutex
		mu.Lock()
		defer mu.Unlock()
		short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if _, err := g.Play(short, &mu, j2); !errors.Is(err, ErrEarly) {
			t.Fatalf("the later PLAY with no earlier one: %v, want ErrEarly", err)
		}
		if want := stateAfter(t, g); !g.State.Equal(want) {
			t.Errorf("state %v after a PLAY that gave up, want the initial state", g.State)
		}
		ctx := context.Background()
		if stale, err := g.Play(ctx, &mu, j1); err != nil || !stale {
			t.Errorf("the earlier PLAY, arriving last: stale %v, %v; want stale", stale, err)
		}
		if want := stateAfter(t, g, j1, j2); !g.State.Equal(want) {
			t.Errorf("state %v, want the later PLAY's joint move played too: %v", g.State, want)
		}
		if stale, err := g.Play(ctx, &mu, j3); err != nil || stale {
			t.Errorf("the next PLAY: stale %v, %v", stale, err)
		}
	})
}

func testPlayWaiting(t *testing.T) {
	g := startCounted(t)
	var mu sync.Mutex
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	later := make(chan error, 1)
	go func() {
		mu.Lock()
		defer mu.Unlock()
		stale, err := g.Play(ctx, &mu, j2)
		if err == nil && stale {
			err = errors.New("the later PLAY is stale")
		}
		later <- err
	}()
	synctest.Wait() // the later PLAY waits
	mu.Lock()
	if len(g.early) != 1 {
		t.Fatalf("%d PLAYs waiting, want the later one", len(g.early))
	}
	mu.Unlock()
	mu.Lock()
	stale, err := g.Play(ctx, &mu, j1)
	if err != nil || !stale {
		t.Errorf("the earlier PLAY, arriving second: stale %v, %v; want stale", stale, err)
	}
	if want := stateAfter(t, g, j1); !g.State.Equal(want) {
		t.Errorf("state after the earlier PLAY %v, want %v", g.State, want)
	}
	mu.Unlock()
	if err := <-later; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := stateAfter(t, g, j1, j2); !g.State.Equal(want) {
		t.Errorf("state after the later PLAY %v, want %v", g.State, want)
	}
	if stale, err := g.Play(ctx, &mu, j3); err != nil || stale {
		t.Errorf("the next PLAY: stale %v, %v", stale, err)
	}
}
