package prolog_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// sees returns role's percepts as strings, failing the test on an error.
func sees(t *testing.T, r *prolog.Reasoner, s *reasoner.State, joint []reasoner.Move, role int) []string {
	t.Helper()
	ps, err := r.Sees(context.Background(), s, joint, role)
	if err != nil {
		t.Fatalf("sees %v: %v", joint, err)
	}
	out := []string{}
	for _, p := range ps {
		out = append(out, string(p))
	}
	return out
}

func loadGameII(t *testing.T, key string) *prolog.Reasoner {
	t.Helper()
	file, src := gamestest.ReadGameII(t, key)
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

// TestSeesMontyHall plays the Monty Hall game through, the car behind door
// 2, the candidate choosing door 1 and switching, and checks what each
// role perceives against the sees rules: the candidate its own moves, the
// door opened, and at the end the car behind the door it switched to;
// nature every move.
func TestSeesMontyHall(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "montyhall")
	if got := r.Roles(); !slices.Equal(got, []string{"candidate", "random"}) {
		t.Fatalf("roles %v", got)
	}
	steps := []struct {
		joint           []reasoner.Move
		candidate, host []string
	}{
		{[]reasoner.Move{"(choose 1)", "(hide_car 2)"},
			[]string{"(does candidate (choose 1))"},
			[]string{"(does candidate (choose 1))", "(hide_car 2)"}},
		{[]reasoner.Move{"noop", "(open_door 3)"},
			[]string{"(does candidate noop)", "(open_door 3)"},
			[]string{"(does candidate noop)", "(open_door 3)"}},
		{[]reasoner.Move{"switch", "noop"},
			[]string{"(car 2)", "(does candidate switch)"},
			[]string{"(does candidate switch)"}},
	}
	s, _ := r.Initial(ctx)
	for i, st := range steps {
		if got := sees(t, r, s, st.joint, 0); !slices.Equal(got, st.candidate) {
			t.Errorf("step %d: candidate sees %v, want %v", i+1, got, st.candidate)
		}
		if got := sees(t, r, s, st.joint, 1); !slices.Equal(got, st.host) {
			t.Errorf("step %d: random sees %v, want %v", i+1, got, st.host)
		}
		var err error
		if s, err = r.Next(ctx, s, st.joint); err != nil {
			t.Fatal(err)
		}
	}
	goals, err := r.Goals(ctx, s)
	if err != nil || goals[0] != 100 {
		t.Errorf("goals %v, %v; want the candidate to win by switching", goals, err)
	}
}

// seesGame is a small GDL-II game in the Dresden dialect: nature jumps,
// a perceives where it lands from the next state, every role sees a's
// move as a does term, and both see the light through a rule whose role
// argument nothing binds.
const seesGame = `
(role a)
(role random)
(init (pos 0))
(init on)
(num 1) (num 2)
(<= (legal random (jump ?n)) (num ?n))
(legal a wait)
(legal a (wave 1))
(<= (next (pos ?n)) (does random (jump ?n)))
(<= (next on) (true on) (not (does a (wave ?x))))
(<= (sees a (at ?n)) (next (pos ?n)))
(<= (sees ?r (does a ?m)) (does a ?m))
(<= (sees ?r light) (true on))
(<= terminal (true (pos 2)))
(<= (goal a 100) (true (pos 2)))
(<= (goal a 0) (not (true (pos 2))))
`

func TestSeesDialect(t *testing.T) {
	ctx := context.Background()
	r := mustLoad(t, seesGame)
	s, _ := r.Initial(ctx)
	tests := []struct {
		joint     []reasoner.Move
		a, nature []string
	}{
		{[]reasoner.Move{"wait", "(jump 1)"},
			[]string{"(at 1)", "(does a wait)", "light"},
			[]string{"(does a wait)", "light"}},
		{[]reasoner.Move{"(wave 1)", "(jump 2)"},
			[]string{"(at 2)", "(does a (wave 1))", "light"},
			[]string{"(does a (wave 1))", "light"}},
	}
	for _, tt := range tests {
		if got := sees(t, r, s, tt.joint, 0); !slices.Equal(got, tt.a) {
			t.Errorf("%v: a sees %v, want %v", tt.joint, got, tt.a)
		}
		if got := sees(t, r, s, tt.joint, 1); !slices.Equal(got, tt.nature) {
			t.Errorf("%v: random sees %v, want %v", tt.joint, got, tt.nature)
		}
	}
	// The existential negation: on stays unless a waves, whatever with.
	for _, tt := range []struct {
		move reasoner.Move
		on   bool
	}{{"wait", true}, {"(wave 1)", false}} {
		next, err := r.Next(ctx, s, []reasoner.Move{tt.move, "(jump 1)"})
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(next.Facts(), "on"); got != tt.on {
			t.Errorf("after %s: on is %v, want %v", tt.move, got, tt.on)
		}
	}
	// Asking again with another joint move must not answer from the
	// percepts kept for the last one.
	if got := sees(t, r, s, []reasoner.Move{"wait", "(jump 2)"}, 0); !slices.Equal(got, []string{"(at 2)", "(does a wait)", "light"}) {
		t.Errorf("a sees %v after (jump 2)", got)
	}
}

func TestSeesBadArguments(t *testing.T) {
	ctx := context.Background()
	r := mustLoad(t, seesGame)
	s, _ := r.Initial(ctx)
	tests := []struct {
		joint []reasoner.Move
		role  int
		want  string
	}{
		{[]reasoner.Move{"wait", "(jump 1)"}, 2, "no role 2"},
		{[]reasoner.Move{"wait", "(jump 1)"}, -1, "no role -1"},
		{[]reasoner.Move{"wait"}, 0, "1 moves for 2 roles"},
		{[]reasoner.Move{"wait", "(jump"}, 0, "move"},
	}
	for _, tt := range tests {
		_, err := r.Sees(ctx, s, tt.joint, tt.role)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Sees(%v, %d) = %v, want an error with %q", tt.joint, tt.role, err, tt.want)
		}
	}
}

// TestGDLIIErrors checks that a GDL-II rule with no single reading is
// refused with its place, while the same rule in GDL loads as before.
func TestGDLIIErrors(t *testing.T) {
	const bad = "(<= (next (cell ?x)) (true on))\n"
	const game = `(role a)
(init on)
(legal a go)
(<= (next on) (true on))
(<= terminal (true off))
(goal a 50)
`
	_, err := loadRules(bad+game+"(role random)\n(legal random go)\n", prolog.Options{})
	var list gdl.ErrorList
	if !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "test.kif:1:17: unsafe rule for next: variable ?x") {
		t.Errorf("GDL-II load error %v, want the unsafe ?x at test.kif:1:17", err)
	}
	if _, err := loadRules(bad+game, prolog.Options{}); err != nil {
		t.Errorf("GDL load: %v", err)
	}
}

// TestOneCardGameLead checks how oneCardGame's deal is read: its
// (lead ?Player), which nothing binds, ranges over the facts of lead, so
// nature deals each lead with every ordered choice of four of the ten
// cards, and the lead it chose has control.
func TestOneCardGameLead(t *testing.T) {
	ctx := context.Background()
	r := loadGameII(t, "oneCardGame")
	s, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nature := reasoner.NatureIndex(r.Roles())
	ms, err := r.Legal(ctx, s, nature)
	if err != nil {
		t.Fatal(err)
	}
	leads := map[string]int{}
	for _, m := range ms {
		lead, _, ok := strings.Cut(strings.TrimPrefix(string(m), "(leadAndDeal (lead "), ")")
		if !ok {
			t.Fatalf("nature's move %s is not a deal", m)
		}
		leads[lead]++
	}
	if want := 10 * 9 * 8 * 7; leads["player1"] != want || leads["player2"] != want || len(leads) != 2 {
		t.Fatalf("deals by lead %v, want %d for each of player1 and player2", leads, want)
	}
	joint := make([]reasoner.Move, len(r.Roles()))
	for i := range joint {
		joint[i] = "noop"
	}
	joint[nature] = "(leadAndDeal (lead player2) (dealing 1 2 3 4))"
	next, err := r.Next(ctx, s, joint)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(next.Facts(), "(control player2)") {
		t.Errorf("after player2 is dealt the lead, the state is %v, want (control player2)", next.Facts())
	}
}

// TestGamesIIPlayouts plays random matches of every public GDL-II game,
// nature choosing uniformly as a game master does,
// asking every role's percepts at every step, and checks that nothing
// fails, that percepts are sorted ground terms without duplicates, and
// that every match ends with a goal for every role but nature, or with
// several values for a role, never none.
func TestGamesIIPlayouts(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	matches := 3
	if testing.Short() {
		matches = 1
	}
	const maxSteps = 1000
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		t.Run(key, func(t *testing.T) {
			ctx := context.Background()
			r := loadGameII(t, key)
			rng := rand.New(rand.NewPCG(1, uint64(len(key))))
			nature := reasoner.NatureIndex(r.Roles())
			for range matches {
				s, err := r.Initial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				steps := 0
				for ; steps < maxSteps; steps++ {
					done, err := r.Terminal(ctx, s)
					if err != nil {
						t.Fatalf("step %d: %v", steps, err)
					}
					if done {
						break
					}
					joint := make([]reasoner.Move, len(r.Roles()))
					for i := range joint {
						moves, err := r.Legal(ctx, s, i)
						if err != nil || len(moves) == 0 {
							t.Fatalf("step %d: %s has moves %v, %v in %s", steps, r.Roles()[i], moves, err, s)
						}
						joint[i] = moves[rng.IntN(len(moves))]
					}
					for i := range joint {
						ps := sees(t, r, s, joint, i)
						if !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) {
							t.Fatalf("step %d: %s's percepts %v not sorted or duplicated", steps, r.Roles()[i], ps)
						}
						for _, p := range ps {
							if strings.Contains(p, "?") {
								t.Fatalf("step %d: %s perceives %s, not ground", steps, r.Roles()[i], p)
							}
						}
					}
					if s, err = r.Next(ctx, s, joint); err != nil {
						t.Fatalf("step %d: %v", steps, err)
					}
				}
				if steps == maxSteps {
					t.Fatalf("no end after %d steps", maxSteps)
				}
				goals, err := r.Goals(ctx, s)
				var ge *reasoner.GoalError
				if errors.As(err, &ge) && slices.Equal(ge.Roles, []string{reasoner.Nature}) {
					err = nil // nature needs no goal (pennies gives it none)
				}
				if errors.As(err, &ge) && !slices.ContainsFunc(ge.Values, func(v []int) bool { return len(v) < 2 }) {
					// Several values, as kriegTTT's rules give when both
					// players complete a line at once: the referee settles
					// them (gamemaster.FirstGoals), the reasoner reports.
					err = nil
				}
				if err != nil {
					t.Fatalf("goals %v: %v", goals, err)
				}
				for i, g := range goals {
					if ge != nil && slices.Contains(ge.Roles, r.Roles()[i]) {
						continue
					}
					if i != nature && (g < 0 || g > 100) {
						t.Errorf("%s's goal %d", r.Roles()[i], g)
					}
				}
			}
		})
	}
}
