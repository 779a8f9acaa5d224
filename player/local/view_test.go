package local

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// cups is a game where a role may lift only the cups that hide
// a token, and knock in the states of knocking; the states of the test
// differ in the cups that do.
const cups = `
(role a)
(cup 1) (cup 2) (cup 3)
(<= (legal a (lift ?c)) (true (token ?c)))
(<= (legal a knock) (true knocking))
(<= terminal (true done))
(goal a 100)
`

// prologOf returns the Prolog reasoner of the rules text, named name.
func prologOf(t *testing.T, name, text string) reasoner.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.NewWithOptions(context.Background(), d, prolog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLikeliestLegal(t *testing.T) {
	ctx := context.Background()
	r := prologOf(t, "cups.kif", cups)
	state := func(facts ...reasoner.Fact) *reasoner.State { return reasoner.NewState(facts) }
	one, two := state("(token 1)"), state("(token 2)")
	oneTwo, twoThree := state("(token 1)", "(token 2)"), state("(token 2)", "(token 3)")
	knockOne, knockTwo := state("knocking", "(token 1)"), state("knocking", "(token 2)")
	tests := []struct {
		name    string
		states  []*reasoner.State
		weights []float64
		want    []string
	}{
		{"one state", []*reasoner.State{oneTwo}, []float64{1}, []string{"(lift 1)", "(lift 2)"}},
		{"legal in all", []*reasoner.State{oneTwo, twoThree}, []float64{0.5, 0.5}, []string{"(lift 2)"}},
		{"sure among others", []*reasoner.State{knockOne, knockTwo, state("knocking", "(token 1)", "(token 3)")}, []float64{0.1, 0.1, 0.8}, []string{"knock"}},
		// No move legal in all: the chances decide, not the count.
		{"by weight", []*reasoner.State{one, one, two}, []float64{0.1, 0.1, 0.8}, []string{"(lift 2)"}},
		{"by count when equal", []*reasoner.State{one, one, two}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []string{"(lift 1)"}},
		{"a tie", []*reasoner.State{one, two}, []float64{0.5, 0.5}, []string{"(lift 1)", "(lift 2)"}},
	}
	for _, tt := range tests {
		got, err := likeliestLegal(ctx, r, 0, tt.states, tt.weights)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := make([]reasoner.Move, len(tt.want))
		for i, m := range tt.want {
			want[i] = reasoner.Move(m)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tt.name, got, want)
		}
	}
	if _, err := likeliestLegal(ctx, r, 0, []*reasoner.State{state("done")}, []float64{1}); err == nil {
		t.Error("no move legal anywhere: no error")
	}
}

// slowReasoner is a reasoner each of whose Legal, Next and Sees calls
// takes delay, or until its context is done, as a slow backend's do.
type slowReasoner struct {
	reasoner.Reasoner
	delay time.Duration
}

func (r slowReasoner) wait(ctx context.Context) error {
	t := time.NewTimer(r.delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r slowReasoner) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if err := r.wait(ctx); err != nil {
		return nil, err
	}
	return r.Reasoner.Legal(ctx, s, role)
}

func (r slowReasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if err := r.wait(ctx); err != nil {
		return nil, err
	}
	return r.Reasoner.Next(ctx, s, joint)
}

func (r slowReasoner) Sees(ctx context.Context, s *reasoner.State, joint []reasoner.Move, role int) ([]reasoner.Percept, error) {
	if err := r.wait(ctx); err != nil {
		return nil, err
	}
	return r.Reasoner.(reasoner.Perceiver).Sees(ctx, s, joint, role)
}

// counter is a GDL-II game of one role that steps a counter and is told
// that it did.
const counter = `
(role a)
(<= (legal a step) (true (at ?x)))
(<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))
(<= (sees a tick) (does a step))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= terminal (true (at 4)))
(goal a 100)
`

// TestViewWithinDeadline checks that the view's work past a deadline
// gives what it has done by then rather than an error: an error there
// costs the player its move.
func TestViewWithinDeadline(t *testing.T) {
	ctx := context.Background()
	slow := slowReasoner{prologOf(t, "counter.kif", counter), 50 * time.Millisecond}
	states := []*reasoner.State{
		reasoner.NewState([]reasoner.Fact{"(at 0)"}),
		reasoner.NewState([]reasoner.Fact{"(at 1)"}),
		reasoner.NewState([]reasoner.Fact{"(at 2)"}),
		reasoner.NewState([]reasoner.Fact{"(at 3)"}),
	}
	step := infoset.Step{Move: "step", Percepts: []reasoner.Percept{"tick"}}

	// In time, every state is followed.
	next, err := approximate(ctx, slow, 0, states, step, rand.New(rand.NewPCG(1, 2)))
	if err != nil || len(next) != len(states) {
		t.Fatalf("approximate without a deadline: %d states, %v; want %d", len(next), err, len(states))
	}
	// Each state takes three slow calls (Legal, Sees, Next): a deadline
	// of four calls leaves it time for one state, not for all.
	dctx, cancel := context.WithTimeout(ctx, 4*slow.delay)
	next, err = approximate(dctx, slow, 0, states, step, rand.New(rand.NewPCG(1, 2)))
	cancel()
	if err != nil {
		t.Errorf("approximate past its deadline: %v, want the states followed by then", err)
	}
	if len(next) >= len(states) {
		t.Errorf("approximate past its deadline followed all %d states", len(next))
	}

	weights := []float64{0.25, 0.25, 0.25, 0.25}
	dctx, cancel = context.WithTimeout(ctx, 2*slow.delay+slow.delay/2)
	moves, err := likeliestLegal(dctx, slow, 0, states, weights)
	cancel()
	if err != nil || !slices.Equal(moves, []reasoner.Move{"step"}) {
		t.Errorf("likeliestLegal past its deadline: %v, %v; want [step] from the states read by then", moves, err)
	}
	dctx, cancel = context.WithCancel(ctx)
	cancel()
	if _, err := likeliestLegal(dctx, slow, 0, states, weights); err == nil {
		t.Error("likeliestLegal with no time to read a state: no error")
	}
}
