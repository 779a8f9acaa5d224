package infoset_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

func load(t *testing.T, file string, src []byte) reasoner.Reasoner {
	t.Helper()
	return infoset.LoadProlog(t, file, src)
}

// loadGameII loads a public GDL-II game, or skips the test without them.
func loadGameII(t *testing.T, key string) reasoner.Reasoner {
	t.Helper()
	file, src := gamestest.ReadGameII(t, key)
	return load(t, file, src)
}

// keys returns the states as sorted "fact fact ..." strings.
func keys(states []*reasoner.State) []string {
	out := make([]string, len(states))
	for i, s := range states {
		out[i] = s.Key()
	}
	slices.Sort(out)
	return out
}

func step(move string, percepts ...string) infoset.Step {
	st := infoset.Step{Move: reasoner.Move(move)}
	for _, p := range percepts {
		st.Percepts = append(st.Percepts, reasoner.Percept(p))
	}
	return st
}

func moves(ms ...string) []reasoner.Move {
	out := make([]reasoner.Move, len(ms))
	for i, m := range ms {
		out[i] = reasoner.Move(m)
	}
	return out
}

// The Monty Hall game as the candidate knows it. The rules: nature hides
// the car behind one of the three closed doors at step 1, while the
// candidate chooses a door; at step 2 nature opens a closed door that is
// neither the car's nor the chosen one; at step 3 the candidate may
// switch. The candidate perceives its own moves, the door opened, and at
// step 3 the car if it is behind the door it ends up with.
var montyHallViews = []struct {
	name  string
	steps []infoset.Step
	// states: every consistent state, derived from the rules above.
	states []string
	sure   []reasoner.Move
	// weights: the chance of each of states, derived by hand from a
	// uniformly random nature (the car, then a door the rules allow).
	weights []float64
}{
	{"start", nil,
		[]string{"(closed 1) (closed 2) (closed 3) (step 1)"},
		moves("(choose 1)", "(choose 2)", "(choose 3)"), []float64{1}},
	// The car may be anywhere: nature's move is unseen.
	{"door 1 chosen",
		[]infoset.Step{step("(choose 1)", "(does candidate (choose 1))")},
		[]string{
			"(car 1) (chosen 1) (closed 1) (closed 2) (closed 3) (step 2)",
			"(car 2) (chosen 1) (closed 1) (closed 2) (closed 3) (step 2)",
			"(car 3) (chosen 1) (closed 1) (closed 2) (closed 3) (step 2)",
		},
		moves("noop"), []float64{1. / 3, 1. / 3, 1. / 3}},
	// Door 3 opened: the car is not behind it.
	{"door 3 opened",
		[]infoset.Step{step("(choose 1)", "(does candidate (choose 1))"), step("noop", "(does candidate noop)", "(open_door 3)")},
		[]string{
			"(car 1) (chosen 1) (closed 1) (closed 2) (step 3)",
			"(car 2) (chosen 1) (closed 1) (closed 2) (step 3)",
		},
		// The host had two doors to open with the car behind door 1,
		// one with it behind door 2.
		moves("noop", "switch"), []float64{1. / 3, 2. / 3}},
	// Switched to door 2 and saw the car there.
	{"switched and won",
		[]infoset.Step{step("(choose 1)", "(does candidate (choose 1))"), step("noop", "(does candidate noop)", "(open_door 3)"),
			step("switch", "(does candidate switch)", "(car 2)")},
		[]string{"(car 2) (chosen 2) (closed 1) (closed 2) (step 4)"},
		nil, []float64{1}},
	// Switched to door 2 and saw no car: it is behind door 1.
	{"switched and lost",
		[]infoset.Step{step("(choose 1)", "(does candidate (choose 1))"), step("noop", "(does candidate noop)", "(open_door 3)"),
			step("switch", "(does candidate switch)")},
		[]string{"(car 1) (chosen 2) (closed 1) (closed 2) (step 4)"},
		nil, []float64{1}},
	// Door 2 chosen, door 1 opened: the car is behind 2 or 3.
	{"door 2 chosen, door 1 opened",
		[]infoset.Step{step("(choose 2)", "(does candidate (choose 2))"), step("noop", "(open_door 1)", "(does candidate noop)")},
		[]string{
			"(car 2) (chosen 2) (closed 2) (closed 3) (step 3)",
			"(car 3) (chosen 2) (closed 2) (closed 3) (step 3)",
		},
		moves("noop", "switch"), []float64{1. / 3, 2. / 3}},
}

func TestMontyHall(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "montyhall")
	for _, tt := range montyHallViews {
		t.Run(tt.name, func(t *testing.T) {
			b, err := infoset.New(ctx, r, infoset.View{Role: 0, Steps: tt.steps}, infoset.Options{Rand: rand.New(rand.NewPCG(1, 2))})
			if err != nil {
				t.Fatal(err)
			}
			if !b.Complete() {
				t.Error("not complete")
			}
			if got := keys(b.States()); !slices.Equal(got, tt.states) {
				t.Errorf("states:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.states, "\n"))
			}
			weights := map[string]float64{}
			for i, s := range b.States() {
				weights[s.Key()] = b.Weights()[i]
			}
			for i, key := range tt.states {
				if got := weights[key]; math.Abs(got-tt.weights[i]) > 1e-9 {
					t.Errorf("weight of %s: %v, want %v", key, got, tt.weights[i])
				}
			}
			sure, err := b.SureLegal(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sure, tt.sure) {
				t.Errorf("sure legal %v, want %v", sure, tt.sure)
			}
		})
	}
}

// TestInconsistent checks views the rules rule out, on a complete belief
// and on a sampled one, and that the belief stays as it was.
func TestInconsistent(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "montyhall")
	chosen := step("(choose 1)", "(does candidate (choose 1))")
	tests := []struct {
		name string
		next infoset.Step
	}{
		{"a percept never given", step("noop", "(does candidate noop)", "(open_door 1)")},
		{"no percept of its own move", step("noop", "(open_door 3)")},
		{"a move never legal", step("switch", "(does candidate switch)", "(open_door 3)")},
	}
	for _, tt := range tests {
		for _, maxStates := range []int{0, 1} {
			t.Run(fmt.Sprintf("%s, at most %d states", tt.name, maxStates), func(t *testing.T) {
				b, err := infoset.New(ctx, r, infoset.View{Steps: []infoset.Step{chosen}}, infoset.Options{MaxStates: maxStates, Samples: 4})
				if err != nil {
					t.Fatal(err)
				}
				if b.Complete() != (maxStates == 0) {
					t.Fatalf("complete: %v", b.Complete())
				}
				before := keys(b.States())
				if err := b.Update(ctx, tt.next); !errors.Is(err, infoset.ErrInconsistent) {
					t.Errorf("Update: %v, want ErrInconsistent", err)
				}
				if got := keys(b.States()); !slices.Equal(got, before) || len(b.View().Steps) != 1 {
					t.Errorf("belief changed by a failed update: %v", got)
				}
			})
		}
	}
}

// chiSquare returns the chi-square statistic of counts against equal
// expectations.
func chiSquare(counts map[string]int, cells int) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	want := float64(n) / float64(cells)
	x := float64(cells-len(counts)) * want // the cells never drawn
	for _, c := range counts {
		d := float64(c) - want
		x += d * d / want
	}
	return x
}

// TestSampleUniform checks that a sampled belief draws the consistent
// states uniformly where the rules make every one as reachable: the chi-
// square statistic of the draws, each hypothesis drawn independently,
// stays under its 0.001 quantile. At Monty Hall's step 2 the sampler must
// also back out of the histories where the car is behind the door opened.
func TestSampleUniform(t *testing.T) {
	ctx := context.Background()
	monty := loadGameII(t, "montyhall")
	krieg := loadGameII(t, "kriegTTT_4x4")
	chosen := step("(choose 1)", "(does candidate (choose 1))")
	opened := step("noop", "(does candidate noop)", "(open_door 3)")
	tests := []struct {
		name  string
		r     reasoner.Reasoner
		view  infoset.View
		cells int
		limit float64 // the chi-square 0.001 quantile for cells-1 degrees of freedom
	}{
		{"montyhall, door chosen", monty, infoset.View{Steps: []infoset.Step{chosen}}, 3, 13.82},
		{"montyhall, door opened", monty, infoset.View{Steps: []infoset.Step{chosen, opened}}, 2, 10.83},
		{"kriegTTT_4x4, first mark", krieg, infoset.View{Steps: []infoset.Step{step("(mark 1 1)", "(yougotit 1 1)")}}, 15, 36.12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := infoset.New(ctx, tt.r, tt.view, infoset.Options{MaxStates: 1, Samples: 100 * tt.cells, Rand: rand.New(rand.NewPCG(3, 4))})
			if err != nil {
				t.Fatal(err)
			}
			if b.Complete() {
				t.Fatal("complete with at most 1 state")
			}
			exact, err := infoset.New(ctx, tt.r, tt.view, infoset.Options{})
			if err != nil {
				t.Fatal(err)
			}
			all := keys(exact.States())
			if len(all) != tt.cells {
				t.Fatalf("%d consistent states, want %d", len(all), tt.cells)
			}
			counts := map[string]int{}
			for _, s := range b.States() {
				if _, ok := slices.BinarySearch(all, s.Key()); !ok {
					t.Fatalf("sampled an inconsistent state %s", s)
				}
				counts[s.Key()]++
			}
			if x := chiSquare(counts, tt.cells); x > tt.limit {
				t.Errorf("chi-square %.1f > %.2f: counts %v", x, tt.limit, counts)
			}
		})
	}
}

// kriegStates returns the states of Kriegspiel tic-tac-toe on 4x4 that x
// holds possible after marking (1 1) and perceiving it got it, then
// trying (2 2) and perceiving it did not. A try fails when the cell is
// taken or both roles try it at once. So o took a cell other than (1 1) at
// step 1 (trying (1 1) too would have foiled x); at step 2 either o held
// (2 2) already and tried any other cell, taking it or, at (1 1), failing;
// or both tried (2 2) at once.
func kriegStates() []string {
	var cells [][2]int
	for m := 1; m <= 4; m++ {
		for n := 1; n <= 4; n++ {
			cells = append(cells, [2]int{m, n})
		}
	}
	state := func(owner map[[2]int]string, tried ...string) string {
		var facts []string
		for _, c := range cells {
			who := owner[c]
			if who == "" {
				who = "b"
			}
			facts = append(facts, fmt.Sprintf("(cell %d %d %s)", c[0], c[1], who))
		}
		facts = append(facts, "(step 3)")
		facts = append(facts, tried...)
		slices.Sort(facts)
		return strings.Join(facts, " ")
	}
	x, o := "xplayer", "oplayer"
	var out []string
	for _, c2 := range cells {
		switch c2 {
		case [2]int{2, 2}:
		case [2]int{1, 1}:
			out = append(out, state(map[[2]int]string{{1, 1}: x, {2, 2}: o}, "(tried xplayer 2 2)", "(tried oplayer 1 1)"))
		default:
			out = append(out, state(map[[2]int]string{{1, 1}: x, {2, 2}: o, c2: o}, "(tried xplayer 2 2)"))
		}
	}
	for _, c1 := range cells {
		if c1 != [2]int{1, 1} && c1 != [2]int{2, 2} {
			out = append(out, state(map[[2]int]string{{1, 1}: x, c1: o}, "(tried xplayer 2 2)", "(tried oplayer 2 2)"))
		}
	}
	slices.Sort(out)
	return out
}

// TestKriegTTT follows x in Kriegspiel tic-tac-toe. A role may try any
// cell that is not its own and that it has not tried in vain, and it knows
// both, so its sure legal moves are exactly those cells in every state.
func TestKriegTTT(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "kriegTTT_4x4")
	var all []reasoner.Move
	for m := 1; m <= 4; m++ {
		for n := 1; n <= 4; n++ {
			all = append(all, reasoner.Move(fmt.Sprintf("(mark %d %d)", m, n)))
		}
	}
	without := func(ms ...reasoner.Move) []reasoner.Move {
		return slices.DeleteFunc(slices.Clone(all), func(m reasoner.Move) bool { return slices.Contains(ms, m) })
	}
	b, err := infoset.New(ctx, r, infoset.View{Role: 0}, infoset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	views := []struct {
		step   infoset.Step
		states int
		sure   []reasoner.Move
	}{
		{step("(mark 1 1)", "(yougotit 1 1)"), 15, without("(mark 1 1)")},
		{step("(mark 2 2)", "(mark 2 2)"), 29, without("(mark 1 1)", "(mark 2 2)")},
	}
	for i, v := range views {
		if err := b.Update(ctx, v.step); err != nil {
			t.Fatal(err)
		}
		if n := len(b.States()); n != v.states || !b.Complete() {
			t.Errorf("step %d: %d states, complete %v; want %d, complete", i+1, n, b.Complete(), v.states)
		}
		sure, err := b.SureLegal(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sure, v.sure) {
			t.Errorf("step %d: sure legal %v, want %v", i+1, sure, v.sure)
		}
	}
	if got, want := keys(b.States()), kriegStates(); !slices.Equal(got, want) {
		t.Errorf("states after step 2:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// hidden is a game where a's legal moves depend on what it cannot see:
// nature hides a token under cup 1 or 2, and a may lift only the cup the
// token is under, but may peek under either, and then sees what is there.
const hidden = `
(role a)
(role random)
(init start)
(cup 1) (cup 2)
(<= (legal random (hide ?c)) (true start) (cup ?c))
(<= (legal random wait) (not (true start)))
(<= (legal a wait) (true start))
(<= (legal a (peek ?c)) (cup ?c) (not (true start)) (not (true done)))
(<= (legal a (lift ?c)) (true (token ?c)) (not (true done)))
(<= (next (token ?c)) (does random (hide ?c)))
(<= (next (token ?c)) (true (token ?c)))
(<= (next done) (does a (lift ?c)))
(<= (sees a (found ?c)) (does a (peek ?c)) (true (token ?c)))
(<= terminal (true done))
(goal a 100)
(goal random 0)
`

// TestSureLegal checks the moves a belief holds sure to be legal when they
// hang on what the role saw: in hidden, the cup it peeked under; in
// dealt, the hand it was shown, one of 8,000 deals, more joint moves than
// Options.MaxJoints. There the selection examines first the joint moves
// the percept mentions, where a random selection of 1,024 would miss the
// deal seven times in eight.
func TestSureLegal(t *testing.T) {
	ctx := context.Background()
	hiddenR := load(t, "hidden.kif", []byte(hidden))
	dealtR := load(t, "dealt.kif", []byte(dealt))
	tests := []struct {
		r     reasoner.Reasoner
		steps []infoset.Step
		seed  uint64
		sure  []reasoner.Move
	}{
		{hiddenR, []infoset.Step{step("wait")}, 0, moves("(peek 1)", "(peek 2)")},
		{hiddenR, []infoset.Step{step("wait"), step("(peek 1)", "(found 1)")}, 0, moves("(lift 1)", "(peek 1)", "(peek 2)")},
		{hiddenR, []infoset.Step{step("wait"), step("(peek 1)")}, 0, moves("(lift 2)", "(peek 1)", "(peek 2)")},
		{dealtR, []infoset.Step{step("wait", "(hand 0 0 0)")}, 0, moves("(say 0 0 0)")},
		{dealtR, []infoset.Step{step("wait", "(hand 7 3 19)")}, 3, moves("(say 7 3 19)")},
		{dealtR, []infoset.Step{step("wait", "(hand 19 18 17)")}, 18, moves("(say 19 18 17)")},
		{dealtR, []infoset.Step{step("wait", "(hand 4 12 4)")}, 12, moves("(say 4 12 4)")},
	}
	for _, tt := range tests {
		b, err := infoset.New(ctx, tt.r, infoset.View{Steps: tt.steps}, infoset.Options{Rand: rand.New(rand.NewPCG(1, tt.seed))})
		if err != nil {
			t.Fatalf("after %v: %v", tt.steps, err)
		}
		sure, err := b.SureLegal(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sure, tt.sure) {
			t.Errorf("after %v: sure legal %v, want %v", tt.steps, sure, tt.sure)
		}
	}
}

// TestLimits checks that the limits stop the work with ErrLimit, and that
// a selection of joint moves makes a belief a sample.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "montyhall")
	chosen := []infoset.Step{step("(choose 1)", "(does candidate (choose 1))")}
	if _, err := infoset.New(ctx, r, infoset.View{Steps: chosen}, infoset.Options{MaxWork: 2}); !errors.Is(err, infoset.ErrLimit) {
		t.Errorf("at most 2 joint moves: %v, want ErrLimit", err)
	}
	// Nature has 3 moves: with 2 examined, the states found are a
	// sample, drawn from the consistent ones.
	b, err := infoset.New(ctx, r, infoset.View{Steps: chosen}, infoset.Options{MaxJoints: 2, Samples: 8})
	if err != nil {
		t.Fatal(err)
	}
	if b.Complete() || len(b.States()) != 8 {
		t.Errorf("complete %v with %d states, want a sample of 8", b.Complete(), len(b.States()))
	}
	for _, s := range b.States() {
		if !slices.Contains(s.Facts(), "(chosen 1)") {
			t.Errorf("inconsistent state %s", s)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := infoset.New(cancelled, r, infoset.View{Steps: chosen}, infoset.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// notPerceiver hides the Sees method of a reasoner.
type notPerceiver struct{ reasoner.Reasoner }

func TestBadArguments(t *testing.T) {
	ctx := context.Background()
	r := load(t, "hidden.kif", []byte(hidden))
	if _, err := infoset.New(ctx, notPerceiver{r}, infoset.View{}, infoset.Options{}); err == nil || !strings.Contains(err.Error(), "gives no percepts") {
		t.Errorf("a reasoner without percepts: %v", err)
	}
	if _, err := infoset.New(ctx, r, infoset.View{Role: 2}, infoset.Options{}); err == nil || !strings.Contains(err.Error(), "no role 2") {
		t.Errorf("role 2 of 2: %v", err)
	}
}

// TestGamesII follows random matches of the public GDL-II games from the
// side of each role but nature, with the moves and percepts the game
// master would report. The true history is consistent with every view,
// so no update may find the view inconsistent; a complete belief must
// hold the true state, and its sure legal moves must be legal in it; a
// sampled belief may hold only states that are consistent.
func TestGamesII(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	maxSteps := 8
	if testing.Short() {
		maxSteps = 4
	}
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		t.Run(key, func(t *testing.T) {
			ctx := context.Background()
			r := loadGameII(t, key)
			p := r.(reasoner.Perceiver)
			rng := rand.New(rand.NewPCG(5, uint64(len(key))))
			roles := r.Roles()
			beliefs := make([]*infoset.Belief, len(roles))
			for i := range roles {
				if i == reasoner.NatureIndex(roles) {
					continue
				}
				b, err := infoset.New(ctx, r, infoset.View{Role: i}, infoset.Options{MaxStates: 64, Samples: 4, MaxWork: 4096, Rand: rand.New(rand.NewPCG(6, uint64(i)))})
				if err != nil {
					t.Fatal(err)
				}
				beliefs[i] = b
			}
			s, _ := r.Initial(ctx)
			for n := 0; n < maxSteps; n++ {
				if done, err := r.Terminal(ctx, s); err != nil || done {
					break
				}
				joint := make([]reasoner.Move, len(roles))
				for i := range joint {
					ms, err := r.Legal(ctx, s, i)
					if err != nil {
						t.Fatal(err)
					}
					joint[i] = ms[rng.IntN(len(ms))]
				}
				for i, b := range beliefs {
					if b == nil {
						continue
					}
					if b.Complete() {
						if !slices.ContainsFunc(b.States(), s.Equal) {
							t.Fatalf("step %d: %s's belief lacks the true state", n, roles[i])
						}
						sure, err := b.SureLegal(ctx)
						if err != nil {
							t.Fatal(err)
						}
						legal, _ := r.Legal(ctx, s, i)
						for _, m := range sure {
							if !slices.Contains(legal, m) {
								t.Fatalf("step %d: %s is sure %s is legal, but it is not", n, roles[i], m)
							}
						}
					}
					percepts, err := p.Sees(ctx, s, joint, i)
					if err != nil {
						t.Fatal(err)
					}
					err = b.Update(ctx, infoset.Step{Move: joint[i], Percepts: percepts})
					if errors.Is(err, infoset.ErrLimit) {
						t.Logf("step %d: %s: %v", n+1, roles[i], err)
						beliefs[i] = nil
						continue
					}
					if err != nil {
						t.Fatalf("step %d: %s: %v", n+1, roles[i], err)
					}
				}
				var err error
				if s, err = r.Next(ctx, s, joint); err != nil {
					t.Fatal(err)
				}
			}
			for i, b := range beliefs {
				if b != nil {
					t.Logf("%s after %d steps: %d states, complete %v", roles[i], len(b.View().Steps), len(b.States()), b.Complete())
				}
			}
		})
	}
}

// dealt is a game where nature deals a hand of three cards of twenty, each
// of 8,000 deals a joint move, and the player is shown its hand; its next
// move must name it.
const dealt = `
(role player)
(role random)
(init dealing)
(<= (card ?c) (succ ?c ?d))
(card 19)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
(succ 7 8) (succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12) (succ 12 13)
(succ 13 14) (succ 14 15) (succ 15 16) (succ 16 17) (succ 17 18) (succ 18 19)
(<= (legal random (deal ?a ?b ?c)) (true dealing) (card ?a) (card ?b) (card ?c))
(<= (legal random wait) (not (true dealing)))
(<= (legal player wait) (true dealing))
(<= (legal player (say ?a ?b ?c)) (true (hand ?a ?b ?c)))
(<= (sees player (hand ?a ?b ?c)) (does random (deal ?a ?b ?c)))
(<= (next (hand ?a ?b ?c)) (does random (deal ?a ?b ?c)))
(<= (next said) (does player (say ?a ?b ?c)))
(<= terminal (true said))
(goal player 100)
(goal random 0)
`

// TestFollowsWithinClock follows random matches of small_dominion on the
// Prolog backend, whose rules the network backend declines to ground, with
// the options of the players' beliefs (player/internal/follow), each
// update given the half of a 1 s play clock a player gives it (scaled for
// a slow run, such as under the race detector: gamestest.Scale). Nature
// deals each hand from thousands of joint moves, and the deal shown names
// one: the belief must follow every step in time, its states drawn by a
// sample once enumerating them would not fit, and never hold a move sure
// that is illegal.
func TestFollowsWithinClock(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole matches of small_dominion on the Prolog backend")
	}
	ctx := context.Background()
	r := loadGameII(t, "small_dominion")
	p := r.(reasoner.Perceiver)
	roles := r.Roles()
	for role := range roles {
		if role == reasoner.NatureIndex(roles) {
			continue
		}
		t.Run(roles[role], func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(role)))
			b, err := infoset.New(ctx, r, infoset.View{Role: role}, infoset.Options{MaxJoints: 1 << 14, Samples: 64, Rand: rand.New(rand.NewPCG(8, uint64(role)))})
			if err != nil {
				t.Fatal(err)
			}
			s, _ := r.Initial(ctx)
			n := 0
			for ; ; n++ {
				if done, err := r.Terminal(ctx, s); err != nil || done {
					break
				}
				joint := make([]reasoner.Move, len(roles))
				for i := range joint {
					ms, err := r.Legal(ctx, s, i)
					if err != nil {
						t.Fatal(err)
					}
					joint[i] = ms[rng.IntN(len(ms))]
				}
				percepts, err := p.Sees(ctx, s, joint, role)
				if err != nil {
					t.Fatal(err)
				}
				if s, err = r.Next(ctx, s, joint); err != nil {
					t.Fatal(err)
				}
				uctx, cancel := context.WithTimeout(ctx, gamestest.Scale(t, 500*time.Millisecond))
				err = b.Update(uctx, infoset.Step{Move: joint[role], Percepts: percepts})
				cancel()
				if err != nil {
					t.Fatalf("step %d: %v", n+1, err)
				}
				if done, _ := r.Terminal(ctx, s); done {
					continue
				}
				sure, err := b.SureLegal(ctx)
				if err != nil {
					t.Fatal(err)
				}
				legal, _ := r.Legal(ctx, s, role)
				for _, m := range sure {
					if !slices.Contains(legal, m) {
						t.Fatalf("step %d: sure %s is legal, but it is not", n+1, m)
					}
				}
			}
			t.Logf("%d steps followed; complete %v at the end, %d states", n, b.Complete(), len(b.States()))
		})
	}
}
