package propnet_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// winText writes role's wins on facts as "move: +fact -fact", sorted.
func winText(r *propnet.Reasoner, role int) []string {
	var out []string
	for _, c := range r.WinConditions()[role] {
		s := string(r.Moves(role)[c.Move]) + ":"
		for _, f := range c.Pos {
			s += " +" + string(f)
		}
		for _, f := range c.Neg {
			s += " -" + string(f)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// pairs is a game of two players taking turns to stand on places 1 to 4:
// a player who stands on both 1 and 2, or on both 3 and 4, wins. No move
// wins wherever it is played; each wins where the player stands on the
// other place of its pair.
const pairs = `
(role a) (role b)
(place 1) (place 2) (place 3) (place 4)
(init (control a))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (at ?r ?i)) (true (at ?r ?i)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 1)) (true (at ?r 2)))
(<= (won ?r) (true (at ?r 3)) (true (at ?r 4)))
(<= terminal (won ?r))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// TestWinConditions checks the wins on facts read from small games: each
// with the fact it needs, and none without it, nor for a move that wins
// wherever it is played (a decisive move) or that wins only with another
// role's move.
func TestWinConditions(t *testing.T) {
	for _, tt := range []struct {
		name, rules string
		role        int
		want        []string
	}{
		// step 3 is decisive; step 2 wins on 1 and step 1 on 2.
		{"steps", steps, 0, []string{"(step 1): +(at a 2)", "(step 2): +(at a 1)"}},
		{"steps", steps, 1, []string{"(step 1): +(at b 2)", "(step 2): +(at b 1)"}},
		{"pairs", pairs, 0, []string{"(step 1): +(at a 2)", "(step 2): +(at a 1)", "(step 3): +(at a 4)", "(step 4): +(at a 3)"}},
		// 9 is open only by the other's step onto 5; the count ending
		// the game is no win.
		{"guard", guard, 0, nil},
		// A win onto 4 where the other player does not stand on 1 is
		// not found: as far as the rules say without legality, the
		// other may step onto 1 in the same step.
		{"contested", pairs + "(<= (won ?r) (true (at ?r 4)) (opponent ?r ?o) (not (true (at ?o 1)))) (opponent a b) (opponent b a)", 0,
			[]string{"(step 1): +(at a 2)", "(step 2): +(at a 1)", "(step 3): +(at a 4)", "(step 4): +(at a 3)"}},
	} {
		t.Run(fmt.Sprintf("%s/%d", tt.name, tt.role), func(t *testing.T) {
			r, _ := newBoth(t, tt.rules)
			if got := winText(r, tt.role); !slices.Equal(got, tt.want) {
				t.Errorf("wins on facts %q, want %q", got, tt.want)
			}
			for _, c := range r.WinConditions()[tt.role] {
				if len(c.Pos)+len(c.Neg) == 0 || slices.Contains(r.DecisiveMoves()[tt.role], c.Move) {
					t.Errorf("%s listed with facts %v %v, a decisive move", r.Moves(tt.role)[c.Move], c.Pos, c.Neg)
				}
			}
			checkWinsSound(t, r, 50)
		})
	}
}

// TestWinConditionsCorpus checks the wins on facts of corpus games: every
// one met holding in random games, played, ends the game with its role's
// best goal (by the network's own Next, Terminal and Goals), and a
// connection game has about one per line and landing square.
func TestWinConditionsCorpus(t *testing.T) {
	for _, tt := range []struct {
		key      string
		min, max int // wins on facts per role
	}{
		// 84 lines of four on the corpus's 8 by 6 board, each
		// completed by any of its four squares where the square below
		// is taken, by either colour: 84*4*2 less the bottom row's,
		// which need nothing below, and less the lines' own squares
		// below (672 less some), and a few more of states no game
		// reaches (a gap in a column).
		{"connectFour", 500, 750},
		// 8 lines, each completed by any of its 3 squares: 24.
		{"ticTacToe", 24, 24},
		// A line of one's own and none of the other's: the other's
		// lines do not reduce to a few facts. None found.
		{"pentago", 0, 0},
		// Reaching the far row wins wherever it is played: decisive
		// moves, none on facts.
		{"breakthrough", 0, 0},
	} {
		t.Run(tt.key, func(t *testing.T) {
			r, err := propnet.New(context.Background(), sharedGame(t, tt.key), propnet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			r.WinConditions()
			t.Logf("found in %v", time.Since(start))
			for role := range r.Roles() {
				n := len(r.WinConditions()[role])
				t.Logf("%s: %d wins on facts, %d moves", r.Roles()[role], n, len(r.Moves(role)))
				if n < tt.min || n > tt.max {
					t.Errorf("%s: %d wins on facts, want %d to %d", r.Roles()[role], n, tt.min, tt.max)
				}
			}
			games := 100
			if testing.Short() {
				games = 20
			}
			checkWinsSound(t, r, games)
		})
	}
}

// checkWinsSound plays n random games of r and checks every win on facts
// whose facts hold and whose move is legal on the way: played, with the
// other roles' random moves, it ends the game with its role's highest
// goal.
func checkWinsSound(t *testing.T, r *propnet.Reasoner, n int) {
	t.Helper()
	conds := make([][]reasoner.WinCondition, len(r.Roles()))
	for role := range conds {
		conds[role] = r.WinConditions()[role]
	}
	var moves []int32
	checked := checkWinning(t, r, n, 13, "winning on facts", func(role int, s *reasoner.State) []int32 {
		moves = moves[:0]
		for _, c := range conds[role] {
			if holds([]reasoner.Condition{c.Condition}, s) {
				moves = append(moves, c.Move)
			}
		}
		return moves
	})
	t.Logf("%d wins on facts checked", checked)
}

// holds reports whether one of cs holds in s.
func holds(cs []reasoner.Condition, s *reasoner.State) bool {
	facts := s.Facts()
	for _, c := range cs {
		ok := true
		for _, f := range c.Pos {
			_, in := slices.BinarySearch(facts, f)
			ok = ok && in
		}
		for _, f := range c.Neg {
			_, in := slices.BinarySearch(facts, f)
			ok = ok && !in
		}
		if ok {
			return true
		}
	}
	return false
}

// first is a policy that chooses the first move offered, and the first
// win, and counts the wins chosen and the moves taken back.
type first struct {
	r                *propnet.Reasoner
	wins, retracted  int
	winMoves, chosen []string
}

func (p *first) Choose(role int, legal []int32) int {
	p.chosen = append(p.chosen, string(p.r.Moves(role)[legal[0]]))
	return 0
}

func (p *first) ChooseWin(role int, wins []int32) int {
	p.wins++
	for _, id := range wins {
		p.winMoves = append(p.winMoves, string(p.r.Moves(role)[id]))
	}
	return 0
}

func (p *first) Retract(role int) { p.retracted++ }

// claim is pairs where a place one player stands on is closed to the
// other, and the pairs are 1 and 3, 2 and 4: a win can be blocked.
const claim = `
(role a) (role b)
(place 1) (place 2) (place 3) (place 4)
(init (control a))
(<= (taken ?i) (true (at ?r ?i)))
(<= open (place ?i) (not (taken ?i)))
(<= (legal ?r (step ?i)) (true (control ?r)) (place ?i) (not (taken ?i)))
(<= (legal a noop) (true (control b)))
(<= (legal b noop) (true (control a)))
(<= (next (at ?r ?i)) (does ?r (step ?i)))
(<= (next (at ?r ?i)) (true (at ?r ?i)))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (won ?r) (true (at ?r 1)) (true (at ?r 3)))
(<= (won ?r) (true (at ?r 2)) (true (at ?r 4)))
(<= terminal (won ?r))
(<= terminal (not open))
(<= (goal ?r 100) (won ?r))
(<= (goal ?r 0) (role ?r) (not (won ?r)))
`

// TestWinSeekingPlayout checks playouts playing wins on facts (WinPlayout)
// whose policy chooses the first move offered. In pairs, a steps onto 1; b's
// step onto 1 leaves a its win onto 2, but no move of b's writes what
// that win reads (a on 1, a's turn), so none would close it: b keeps it,
// and a plays its win. In claim, b's step onto 2 leaves a its win onto 3
// and is taken back; of b's other moves only the step onto 3 writes what
// that win reads (3 closed to a), and b plays it; the game ends drawn.
// Without seeking, both stand on 1 to the end in pairs, and a wins
// claim.
func TestWinSeekingPlayout(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name, rules      string
		seek             bool
		goals            []int
		steps            int
		facts            string
		wins, retracted  int
		winMoves, chosen []string
	}{
		{"pairs", pairs, true, []int{100, 0}, 3, "(at a 1) (at a 2) (at b 1) (control b)", 1, 0, []string{"(step 2)"},
			[]string{"(step 1)", "(step 1)"}},
		{"pairs", pairs, false, []int{0, 0}, 20, "(at a 1) (at b 1) (control a)", 0, 0, nil,
			slices.Repeat([]string{"(step 1)"}, 20)},
		{"claim", claim, true, []int{0, 0}, 4, "(at a 1) (at a 2) (at b 3) (at b 4) (control a)", 0, 1, nil,
			[]string{"(step 1)", "(step 2)", "(step 2)"}},
		{"claim", claim, false, []int{100, 0}, 3, "(at a 1) (at a 3) (at b 2) (control b)", 0, 0, nil,
			[]string{"(step 1)", "(step 2)", "(step 3)"}},
	} {
		r, _ := newBoth(t, tt.rules)
		p := &first{r: r}
		s, _ := r.Initial(ctx)
		var end *reasoner.State
		var steps int
		var err error
		if tt.seek {
			end, steps, err = r.WinPlayout(ctx, s, p, reasoner.Wins{OnFacts: r.WinConditions()}, 20)
		} else {
			end, steps, err = r.PolicyPlayout(ctx, s, p, 20)
		}
		if err != nil {
			t.Fatal(err)
		}
		goals, _ := r.Goals(ctx, end)
		facts := strings.Trim(fmt.Sprint(end.Facts()), "[]")
		if !slices.Equal(goals, tt.goals) || steps != tt.steps || facts != tt.facts || p.wins != tt.wins || p.retracted != tt.retracted ||
			!slices.Equal(p.winMoves, tt.winMoves) || !slices.Equal(p.chosen, tt.chosen) {
			t.Errorf("%s, seek %v: goals %v after %d steps in %s, %d wins chosen %q, %d taken back, chosen %q; want %v after %d in %s, %d %q, %d, %q",
				tt.name, tt.seek, goals, steps, facts, p.wins, p.winMoves, p.retracted, p.chosen, tt.goals, tt.steps, tt.facts, tt.wins, tt.winMoves, tt.retracted, tt.chosen)
		}
	}
}

// BenchmarkWinConditions measures finding the wins on facts of corpus
// games, from a network that has not looked yet, in time and in CPU time
// (the machine is shared), and reports how many each role has;
// GGP_PROPNET_ALL=1 measures every game that grounds:
//
//	go test -run XXX -bench WinConditions -benchtime 1x ./reasoner/propnet/
func BenchmarkWinConditions(b *testing.B) {
	keys := []string{"connectFour", "pentago", "hex", "reversi", "checkers", "breakthrough", "knightThrough", "minichess", "ticTacToe", "connect5", "connectFourLarge", "gomoku_11x11", "nineBoardTicTacToe", "3pConnectFour", "dualConnect4"}
	if os.Getenv("GGP_PROPNET_ALL") != "" {
		dirs, err := games.Corpus(sharedGames)
		if errors.Is(err, fs.ErrNotExist) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
		keys = keys[:0]
		for _, dir := range dirs {
			keys = append(keys, filepath.Base(dir))
		}
	}
	for _, key := range keys {
		b.Run(key, func(b *testing.B) {
			d := sharedGame(b, key)
			var counts []int
			var cpu time.Duration
			for range b.N {
				b.StopTimer()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				r, err := propnet.New(ctx, d, propnet.Options{})
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC() // the grounding's garbage
				c0 := cpuTime()
				b.StartTimer()
				r.WinConditions()
				b.StopTimer()
				cpu += cpuTime() - c0
				counts = counts[:0]
				for role := range r.Roles() {
					counts = append(counts, len(r.WinConditions()[role]))
				}
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			for role, n := range counts {
				b.ReportMetric(float64(n), fmt.Sprintf("wins/role%d", role))
			}
		})
	}
}

// uniform is a policy that chooses uniformly, and counts the moves taken
// back.
type uniform struct {
	rng       *rand.Rand
	retracted int
}

func (p *uniform) Choose(role int, legal []int32) int   { return p.rng.IntN(len(legal)) }
func (p *uniform) ChooseWin(role int, wins []int32) int { return p.rng.IntN(len(wins)) }
func (p *uniform) Retract(role int)                     { p.retracted++ }

// BenchmarkWinSeekingPlayout measures connect four's policy playouts from
// the initial state with a uniform policy, seeking wins on facts and not,
// and seeking them reading every pattern one by one (plain):
//
//	go test -run XXX -bench WinSeekingPlayout ./reasoner/propnet/
func BenchmarkWinSeekingPlayout(b *testing.B) {
	r, err := propnet.New(context.Background(), sharedGame(b, "connectFour"), propnet.Options{})
	if err != nil {
		b.Fatal(err)
	}
	wins := reasoner.Wins{OnFacts: r.WinConditions()}
	ctx := context.Background()
	s, _ := r.Initial(ctx)
	for _, v := range []struct {
		name        string
		seek, plain bool
	}{{"seek=false", false, false}, {"seek=true", true, false}, {"seek=true,plain", true, true}} {
		seek := v.seek
		b.Run(v.name, func(b *testing.B) {
			propnet.SetPlainWins(r, v.plain)
			defer propnet.SetPlainWins(r, false)
			p := &uniform{rng: rand.New(rand.NewPCG(1, 2))}
			steps := 0
			cpu0 := cpuTime()
			for b.Loop() {
				var n int
				var err error
				if seek {
					_, n, err = r.WinPlayout(ctx, s, p, wins, 1000)
				} else {
					_, n, err = r.PolicyPlayout(ctx, s, p, 1000)
				}
				if err != nil {
					b.Fatal(err)
				}
				steps += n
			}
			// The machine is shared: CPU time is steadier than time.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(steps)/float64(b.N), "steps/playout")
			b.ReportMetric(float64(p.retracted)/float64(steps), "retracted/step")
		})
	}
}
