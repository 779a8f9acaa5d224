package propnet_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// winGames are the games whose wins on facts the fast paths are checked
// on: the small ones of winfacts_test.go and decisive_test.go, and corpus
// games (skipped without the corpus) with many wins on facts, one with
// three roles and one with simultaneous moves.
var winGames = []struct {
	name, rules string // rules, or else the corpus key name
}{
	{"pairs", pairs}, {"claim", claim}, {"steps", steps}, {"guard", guard},
	{"connectFour", ""}, {"ticTacToe", ""}, {"3pConnectFour", ""}, {"connectFourSimultaneous", ""},
	{"breakthrough", ""},
}

func winGame(t *testing.T, name, rules string) *propnet.Reasoner {
	t.Helper()
	var d *gdl.Description
	if rules != "" {
		d = parse(t, rules)
	} else {
		d = sharedGame(t, name)
	}
	r, err := propnet.New(context.Background(), d, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.WinConditions()
	r.DecisiveMoves()
	return r
}

// TestWinHoldsFast checks, in the states of random games, that a win on
// facts of each move holds as playouts find it in the role's trie exactly
// when one of the move's conditions, read plainly from WinConditions,
// holds, and that the playouts' plain path (pattern by pattern) says the
// same.
func TestWinHoldsFast(t *testing.T) {
	ctx := context.Background()
	for _, g := range winGames {
		t.Run(g.name, func(t *testing.T) {
			r := winGame(t, g.name, g.rules)
			roles := len(r.Roles())
			conds := make([][][]reasoner.Condition, roles) // by role and move
			for role := range roles {
				conds[role] = make([][]reasoner.Condition, len(r.Moves(role)))
				for _, c := range r.WinConditions()[role] {
					conds[role][c.Move] = append(conds[role][c.Move], c.Condition)
				}
			}
			states, held := 0, 0
			for game := range 40 {
				rng := rand.New(rand.NewPCG(uint64(game), 23))
				s, _ := r.Initial(ctx)
				for step := 0; step < 200; step++ {
					states++
					for role := range roles {
						for id := range conds[role] {
							want := holds(conds[role][id], s)
							fast, plain := propnet.WinHolds(r, role, int32(id), s)
							if fast != want || plain != want {
								t.Fatalf("game %d step %d: %s %s holds %v (plain %v), want %v in %v", game, step, r.Roles()[role], r.Moves(role)[id], fast, plain, want, s.Facts())
							}
							if want {
								held++
							}
						}
					}
					if term, _ := r.Terminal(ctx, s); term {
						break
					}
					joint := make([]reasoner.Move, roles)
					for role := range roles {
						legal, err := r.Legal(ctx, s, role)
						if err != nil || len(legal) == 0 {
							t.Fatalf("legal: %v %v", legal, err)
						}
						joint[role] = legal[rng.IntN(len(legal))]
					}
					s, _ = r.Next(ctx, s, joint)
				}
			}
			t.Logf("%d states, %d wins on facts held", states, held)
			if len(r.WinConditions()[0]) > 0 && held == 0 {
				t.Errorf("no win on facts held in %d states: nothing compared", states)
			}
		})
	}
}

// recorder is a policy choosing at random that writes down every call
// and its answer.
type recorder struct {
	rng *rand.Rand
	log []string
}

func (p *recorder) Choose(role int, legal []int32) int {
	i := p.rng.IntN(len(legal))
	p.log = append(p.log, fmt.Sprintf("choose %d %v %d", role, legal, i))
	return i
}

func (p *recorder) ChooseWin(role int, wins []int32) int {
	i := p.rng.IntN(len(wins))
	p.log = append(p.log, fmt.Sprintf("win %d %v %d", role, wins, i))
	return i
}

func (p *recorder) Retract(role int) {
	p.log = append(p.log, fmt.Sprintf("retract %d", role))
}

// TestWinSeekingPlayoutSame checks that policy playouts seeking wins on
// facts make the same calls of the policy with the same arguments, and
// end in the same state after the same steps, finding the wins in the
// roles' tries as reading every pattern one by one (the plain path), from
// the initial state and from states on the way of random games.
func TestWinSeekingPlayoutSame(t *testing.T) {
	ctx := context.Background()
	for _, g := range winGames {
		t.Run(g.name, func(t *testing.T) {
			r := winGame(t, g.name, g.rules)
			plain := winGame(t, g.name, g.rules)
			propnet.SetPlainWins(plain, true)
			playouts, calls, wins, retracts := 200, 0, 0, 0
			if testing.Short() {
				playouts = 50
			}
			walk := rand.New(rand.NewPCG(5, 23))
			start, _ := r.Initial(ctx)
			for n := range playouts {
				fast := &recorder{rng: rand.New(rand.NewPCG(uint64(n), 1))}
				slow := &recorder{rng: rand.New(rand.NewPCG(uint64(n), 1))}
				// One playout in eight plays the decisive moves alone.
				play := reasoner.Wins{Decisive: r.DecisiveMoves(), OnFacts: r.WinConditions()}
				playPlain := reasoner.Wins{Decisive: plain.DecisiveMoves(), OnFacts: plain.WinConditions()}
				if n%8 == 7 {
					play.OnFacts, playPlain.OnFacts = nil, nil
				}
				end, steps, err := r.WinPlayout(ctx, start, fast, play, 300)
				if err != nil {
					t.Fatal(err)
				}
				wantEnd, wantSteps, err := plain.WinPlayout(ctx, start, slow, playPlain, 300)
				if err != nil {
					t.Fatal(err)
				}
				if i := firstDiff(fast.log, slow.log); i >= 0 || steps != wantSteps || !slices.Equal(end.Facts(), wantEnd.Facts()) {
					t.Fatalf("playout %d from %v: calls differ at %d: %q, want %q; %d steps to %v, want %d to %v",
						n, start.Facts(), i, at(fast.log, i), at(slow.log, i), steps, end.Facts(), wantSteps, wantEnd.Facts())
				}
				calls += len(fast.log)
				for _, c := range fast.log {
					switch c[:3] {
					case "win":
						wins++
					case "ret":
						retracts++
					}
				}
				// The next playout starts a random step further, or
				// again from the initial state past the end.
				if term, _ := r.Terminal(ctx, start); term || n%20 == 19 {
					start, _ = r.Initial(ctx)
					continue
				}
				joint := make([]reasoner.Move, len(r.Roles()))
				for role := range joint {
					legal, _ := r.Legal(ctx, start, role)
					joint[role] = legal[walk.IntN(len(legal))]
				}
				start, _ = r.Next(ctx, start, joint)
			}
			t.Logf("%d playouts, %d policy calls the same, %d wins chosen, %d retracts asked", playouts, calls, wins, retracts)
			if len(r.WinConditions()[0]) > 0 && wins+retracts == 0 {
				t.Errorf("%d wins chosen, %d retracts asked: the wins on facts were not exercised", wins, retracts)
			}
		})
	}
}

// firstDiff returns the first position where a and b differ, -1 if none.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(log []string, i int) string {
	if i < 0 || i >= len(log) {
		return ""
	}
	return log[i]
}
