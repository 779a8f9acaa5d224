package infoset

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
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
	return LoadProlog(t, name, []byte(text))
}

// LoadProlog returns the Prolog reasoner of the rules src of file, for the
// tests of this package and of package infoset_test.
func LoadProlog(t testing.TB, file string, src []byte) reasoner.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile(file, src)
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

// TestApproximateWithinDeadline checks that the follower's work past a deadline
// gives what it has done by then rather than an error: an error there
// costs the player its move.
func TestApproximateWithinDeadline(t *testing.T) {
	ctx := context.Background()
	slow := slowReasoner{prologOf(t, "counter.kif", counter), 50 * time.Millisecond}
	states := []*reasoner.State{
		reasoner.NewState([]reasoner.Fact{"(at 0)"}),
		reasoner.NewState([]reasoner.Fact{"(at 1)"}),
		reasoner.NewState([]reasoner.Fact{"(at 2)"}),
		reasoner.NewState([]reasoner.Fact{"(at 3)"}),
	}
	step := Step{Move: "step", Percepts: []reasoner.Percept{"tick"}}

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

// TestFollowerTurnOrder checks which turns the follower takes a step from.
func TestFollowerTurnOrder(t *testing.T) {
	ctx := context.Background()
	f, err := NewFollower(ctx, prologOf(t, "counter.kif", counter+"(init (at 0))"), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tick := Step{Move: "step", Percepts: []reasoner.Percept{"tick"}}
	tests := []struct {
		name    string
		number  int
		taken   bool
		wantErr bool
		turns   int // steps followed after it
	}{
		{"the first turn tells no step", 0, false, false, 0},
		{"a step", 1, true, false, 1},
		{"a repeated turn", 1, false, false, 1},
		{"the next step", 2, true, false, 2},
		{"a skipped step", 4, false, true, 2},
		{"a negative turn", -1, false, true, 2},
	}
	for _, tt := range tests {
		taken, err := f.Follow(ctx, tt.number, tick)
		if taken != tt.taken || (err != nil) != tt.wantErr || f.Turns() != tt.turns {
			t.Errorf("%s: turn %d: taken %v, error %v, %d steps followed; want %v, error %v, %d",
				tt.name, tt.number, taken, err, f.Turns(), tt.taken, tt.wantErr, tt.turns)
		}
	}
}

// TestFollowerReturnsToExact checks that a follower that had no time to
// follow a step exactly follows it approximately, and follows exactly
// again at the next step its budget allows, holding then the states a
// belief of the whole view holds.
func TestFollowerReturnsToExact(t *testing.T) {
	r := prologOf(t, "counter.kif", counter+"(init (at 0))")
	f, err := NewFollower(context.Background(), r, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tick := Step{Move: "step", Percepts: []reasoner.Percept{"tick"}}

	// A budget already spent: no time to follow exactly.
	spent, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	cancel()
	if _, err := f.Follow(spent, 1, tick); err != nil {
		t.Fatalf("turn 1 without time: %v", err)
	}
	if f.Exact() || f.Lost() == nil {
		t.Fatalf("turn 1 without time: exact %v, lost %v; want approximate following and why", f.Exact(), f.Lost())
	}
	if states, _ := f.States(); len(states) == 0 {
		t.Fatal("approximate following holds no state")
	}

	// Time enough: exact again.
	if _, err := f.Follow(context.Background(), 2, tick); err != nil {
		t.Fatalf("turn 2: %v", err)
	}
	if !f.Exact() || f.Lost() != nil {
		t.Fatalf("turn 2 with time: exact %v, lost %v; want exact following", f.Exact(), f.Lost())
	}
	b, err := New(context.Background(), r, View{Role: 0, Steps: []Step{tick, tick}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := f.States()
	if want := b.States(); len(got) != len(want) || !got[0].Equal(want[0]) {
		t.Errorf("exact again: states %v, want %v", got, want)
	}
	moves, err := f.Moves(context.Background())
	if err != nil || !slices.Equal(moves, []reasoner.Move{"step"}) {
		t.Errorf("moves %v, %v; want [step]", moves, err)
	}
}
