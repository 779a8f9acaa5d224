package propnet_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// steps is a game of two players taking turns to stand on places 1 to 3:
// standing on 3 wins at once, standing on 2 wins only for a player who
// already stands on 1.
const steps = `
(role a) (role b)
(place 1) (place 2) (place 3)
(init (control a))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (at ?r ?i)) (true (at ?r ?i)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 3)))
(<= (won ?r) (true (at ?r 1)) (true (at ?r 2)))
(<= terminal (won ?r))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

func decisiveText(r *propnet.Reasoner, role int) []string {
	var out []string
	for _, i := range r.DecisiveMoves()[role] {
		out = append(out, string(r.Moves(role)[i]))
	}
	return out
}

// TestDecisiveMoves checks the moves read as winning at once: in steps,
// the step onto 3 and not the step onto 2, which wins in some states only;
// in breakthrough, exactly the moves onto the far row, told from the
// moves' text; and in each game, that every decisive move met in random
// games ends the game with its role's best goal.
func TestDecisiveMoves(t *testing.T) {
	pn, _ := newBoth(t, steps)
	for role := range 2 {
		if got, want := decisiveText(pn, role), []string{"(step 3)"}; !slices.Equal(got, want) {
			t.Errorf("steps, role %d: decisive %q, want %q", role, got, want)
		}
	}
	checkDecisiveSound(t, pn, 200)

	for _, key := range []string{"breakthrough", "knightThrough", "connectFour", "ticTacToe", "checkers"} {
		t.Run(key, func(t *testing.T) {
			r, err := propnet.New(context.Background(), sharedGame(t, key), propnet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for role := range r.Roles() {
				t.Logf("%s: %d decisive moves of %d", r.Roles()[role], len(r.DecisiveMoves()[role]), len(r.Moves(role)))
			}
			if key == "breakthrough" {
				// (move x1 y1 x2 y2): white wins on row 8, black on row 1.
				for role, row := range map[int]string{0: "8", 1: "1"} {
					var want []string
					for _, m := range r.Moves(role) {
						if f := strings.Fields(strings.Trim(string(m), "()")); f[0] == "move" && f[4] == row {
							want = append(want, string(m))
						}
					}
					if got := decisiveText(r, role); len(want) == 0 || !slices.Equal(got, want) {
						t.Errorf("%s: decisive %q, want %q", r.Roles()[role], got, want)
					}
				}
			}
			games := 100
			if testing.Short() {
				games = 20
			}
			checkDecisiveSound(t, r, games)
		})
	}
}

// checkDecisiveSound plays random games of r and checks every decisive
// move legal on the way: played, it ends the game with its role's
// highest goal.
func checkDecisiveSound(t *testing.T, r *propnet.Reasoner, n int) {
	t.Helper()
	for role := range r.Roles() {
		if len(r.DecisiveMoves()[role]) > 0 && propnet.BestGoal(r, role) < 0 {
			t.Fatalf("role %d has decisive moves but no best goal", role)
		}
	}
	checked := checkWinning(t, r, n, 11, "decisive", func(role int, _ *reasoner.State) []int32 { return r.DecisiveMoves()[role] })
	t.Logf("%d decisive moves checked", checked)
}

// checkWinning plays n random games of r, from generators of the given
// stream, and checks every move wins names for a role in a state on the
// way that is legal there: played, with the other roles' random moves, it
// ends the game with its role's highest goal. what names such moves in
// failures. It returns the number of moves checked.
func checkWinning(t *testing.T, r *propnet.Reasoner, n int, stream uint64, what string, wins func(role int, s *reasoner.State) []int32) int {
	t.Helper()
	ctx := context.Background()
	roles := len(r.Roles())
	best := make([]int, roles)
	for role := range roles {
		best[role] = propnet.BestGoal(r, role)
	}
	checked := 0
	for g := range n {
		rng := rand.New(rand.NewPCG(uint64(g), stream))
		s, err := r.Initial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 500; step++ {
			if term, _ := r.Terminal(ctx, s); term {
				break
			}
			joint := make([]reasoner.Move, roles)
			legal := make([][]reasoner.Move, roles)
			for role := range roles {
				legal[role], err = r.Legal(ctx, s, role)
				if err != nil || len(legal[role]) == 0 {
					t.Fatalf("legal: %v %v", legal[role], err)
				}
				joint[role] = legal[role][rng.IntN(len(legal[role]))]
			}
			for role := range roles {
				for _, i := range wins(role, s) {
					m := r.Moves(role)[i]
					if !slices.Contains(legal[role], m) {
						continue
					}
					try := slices.Clone(joint)
					try[role] = m
					next, err := r.Next(ctx, s, try)
					if err != nil {
						t.Fatal(err)
					}
					term, _ := r.Terminal(ctx, next)
					goals, err := r.Goals(ctx, next)
					if !term || err != nil || goals[role] != best[role] {
						t.Fatalf("game %d step %d: %s plays %s, said %s in %v: terminal %v, goals %v (%v), want %d", g, step, r.Roles()[role], m, what, s.Facts(), term, goals, err, best[role])
					}
					checked++
				}
			}
			if s, err = r.Next(ctx, s, joint); err != nil {
				t.Fatal(err)
			}
		}
	}
	return checked
}

// guard is a game of two players taking turns to stand on places: a
// player who stands on 5 opens 9 to the other, one who stands on a closer
// (none here) closes it, and standing on 9 wins at once. After ten moves
// the game ends drawn.
const guard = `
(role a) (role b)
(place 1) (place 2) (place 3) (place 4) (place 5)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8) (succ 8 9) (succ 9 10)
(init (control a))
(init (count 0))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i))
(<= (legal ?r (step 9)) (true (control ?r)) (true (open ?r)))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(opponent a b) (opponent b a)
(<= (next (open ?o)) (does ?r (step 5)) (opponent ?r ?o))
(<= (next (open ?o)) (true (open ?o)) (opponent ?r ?o) (not (closing ?r)))
(<= (closing ?r) (does ?r (step ?i)) (closer ?i))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (count ?m)) (true (count ?n)) (succ ?n ?m))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 9)))
(<= terminal (won ?r))
(<= terminal (true (count 10)))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// reckless chooses (step 9) when it can, else (step 5), else the first
// move, and counts the moves taken back.
type reckless struct {
	r         *propnet.Reasoner
	retracted int
}

func (p *reckless) Choose(role int, legal []int32) int {
	for _, want := range []reasoner.Move{"(step 9)", "(step 5)"} {
		for i, id := range legal {
			if p.r.Moves(role)[id] == want {
				return i
			}
		}
	}
	return 0
}

func (p *reckless) ChooseWin(role int, wins []int32) int { return 0 }

func (p *reckless) Retract(role int) { p.retracted++ }

// TestCarefulPlayout checks playouts playing decisive moves (WinPlayout):
// a move that lets the other player win at once is taken back and another
// played, and kept in a policy playout, which plays no wins.
func TestCarefulPlayout(t *testing.T) {
	pn, _ := newBoth(t, guard)
	if got := decisiveText(pn, 0); !slices.Equal(got, []string{"(step 9)"}) {
		t.Fatalf("decisive %q, want (step 9)", got)
	}
	ctx := context.Background()
	for _, careful := range []bool{true, false} {
		p := &reckless{r: pn}
		s, _ := pn.Initial(ctx)
		var end *reasoner.State
		var steps int
		var err error
		if careful {
			end, steps, err = pn.WinPlayout(ctx, s, p, reasoner.Wins{Decisive: pn.DecisiveMoves()}, 100)
		} else {
			end, steps, err = pn.PolicyPlayout(ctx, s, p, 100)
		}
		if err != nil {
			t.Fatal(err)
		}
		goals, err := pn.Goals(ctx, end)
		if err != nil {
			t.Fatal(err)
		}
		want, wantSteps := []int{0, 0}, 10 // nobody opens 9
		if !careful {
			want, wantSteps = []int{0, 100}, 2 // a opens 9, b steps onto it
		}
		if !slices.Equal(goals, want) || steps != wantSteps {
			t.Errorf("careful %v: goals %v after %d steps, want %v after %d (%v)", careful, goals, steps, want, wantSteps, end.Facts())
		}
		if careful && p.retracted != 9 {
			t.Errorf("careful: %d moves taken back, want 9 (each move onto 5 but the last, which ends the game)", p.retracted)
		}
	}

	// With 9 open to b from the start, a's (step 5), which writes b's
	// opening itself, is taken back as a move that may have opened it;
	// then its next choice, (step 1), is seen to leave open a win it did
	// not touch, which only a move that closes it can help: a plays one,
	// (step 4), where there is one, and else keeps (step 1). Each later
	// (step 5) is taken back as before.
	for _, tt := range []struct {
		rules     string
		goals     []int
		steps     int
		retracted int
	}{
		{guard + "(init (open b))", []int{0, 100}, 2, 1},
		{guard + "(init (open b)) (closer 4)", []int{0, 0}, 10, 10},
	} {
		open, _ := newBoth(t, tt.rules)
		p := &reckless{r: open}
		s, _ := open.Initial(ctx)
		end, steps, err := open.WinPlayout(ctx, s, p, reasoner.Wins{Decisive: open.DecisiveMoves()}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if goals, _ := open.Goals(ctx, end); !slices.Equal(goals, tt.goals) || steps != tt.steps || p.retracted != tt.retracted {
			t.Errorf("%s: goals %v after %d steps, %d moves taken back; want %v after %d, %d taken back (%v)", tt.rules[len(guard):], goals, steps, p.retracted, tt.goals, tt.steps, tt.retracted, end.Facts())
		}
	}
}

// TestReadingChangesNothing checks that reading the wins leaves policy
// playouts as they were: only a WinPlayout given them plays them. In
// guard, a reckless first player opens 9 and the second steps onto it,
// before the wins are read and after, even with a policy that could take
// moves back.
func TestReadingChangesNothing(t *testing.T) {
	pn, _ := newBoth(t, guard)
	ctx := context.Background()
	s, _ := pn.Initial(ctx)
	play := func() ([]int, int) {
		t.Helper()
		p := &reckless{r: pn}
		end, steps, err := pn.PolicyPlayout(ctx, s, p, 100)
		if err != nil {
			t.Fatal(err)
		}
		if p.retracted != 0 {
			t.Errorf("a policy playout took back %d moves", p.retracted)
		}
		goals, _ := pn.Goals(ctx, end)
		return goals, steps
	}
	goals, steps := play()
	if len(pn.DecisiveMoves()[1]) == 0 {
		t.Fatal("no decisive move read for b")
	}
	pn.WinConditions()
	if again, againSteps := play(); !slices.Equal(again, goals) || againSteps != steps || !slices.Equal(goals, []int{0, 100}) {
		t.Errorf("goals %v after %d steps, then %v after %d once the wins were read; want [0 100] after 2 both times", goals, steps, again, againSteps)
	}
}
