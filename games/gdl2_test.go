package games_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// gdl2Games lists the bundled GDL-II games and their roles as the rules
// declare them; nature's role, random, is among them where the game has
// one. Every other bundled game is GDL.
var gdl2Games = []struct {
	key      string
	roles    []string
	playouts int // random matches checked step by step against each role's view
	// histories is the number of different matches, counted by hand, for
	// a game small enough to play every one; 0 for the others.
	histories int
}{
	// 2 own banks x 5 splits x 2 banks robbed.
	{key: "bankerThief", roles: []string{"banker", "thief", "random"}, playouts: 40, histories: 20},
	// 6 ships, each then, by the captain's moves (S a scout, M a miss, H
	// the hit, which ends): H; SH or MH (1 + 5); two of S and M then H (1 +
	// 5 + 5 + 5 x 4 = 31); or three of S and M (SS 6, SM 25, MS 25, MM 80):
	// 174 a ship.
	{key: "battleshipsFog", roles: []string{"captain", "random"}, playouts: 40, histories: 6 * 174},
	{key: "kriegTicTacToe", roles: []string{"xplayer", "oplayer"}, playouts: 20},
	// 6 deals, each then bet-fold, bet-call, check-check, check-bet-fold
	// or check-bet-call.
	{key: "kuhnPoker", roles: []string{"first", "second", "random"}, playouts: 40, histories: 30},
	{key: "liarsDie", roles: []string{"first", "second", "random"}, playouts: 40},
	// 3 cars x 3 choices, one door to open after a wrong choice and two
	// after a right one (6 + 3 x 2 = 12), each stayed or switched.
	{key: "montyhall", roles: []string{"candidate", "random"}, playouts: 40, histories: 24},
	// 8 secrets x 400 ways to ask and guess: too many to play them all.
	{key: "numberGuess", roles: []string{"guesser", "random"}, playouts: 40},
}

// TestBundledGDLII checks which bundled games are GDL-II, that those load
// through the automatic backend choice as reasoners that give percepts,
// and that the dialect reads their rules exactly as written.
func TestBundledGDLII(t *testing.T) {
	want := map[string][]string{}
	for _, g := range gdl2Games {
		want[g.key] = g.roles
	}
	factory, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games.Bundled() {
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		roles, isII := want[g.Key]
		if got := gdl.DecideMode(d, gdl.NatureSeated) == gdl.GDLII; got != isII {
			t.Errorf("%s: may be played as GDL-II = %v, want %v", g.Key, got, isII)
		}
		if !isII {
			continue
		}
		if repaired, _ := gdl.Repair(d); repaired != d {
			t.Errorf("%s: the GDL-II dialect reads the rules otherwise than written", g.Key)
		}
		r, err := factory(t.Context(), d)
		if err != nil {
			t.Errorf("%s: %v", g.Key, err)
			continue
		}
		if _, ok := r.(reasoner.Perceiver); !ok {
			t.Errorf("%s: the automatic backend gave %T, which gives no percepts", g.Key, r)
		}
		if !slices.Equal(r.Roles(), roles) {
			t.Errorf("%s: roles %v, want %v", g.Key, r.Roles(), roles)
		}
	}
}

// TestGDLIIPlayouts plays random matches of each GDL-II game, nature
// choosing among its legal moves like the players, and follows the view of
// every player: its own moves and its percepts. At every step of every
// match it checks that the player's information set holds the true state
// and that the moves the player can be sure are legal, knowing only its
// view, are exactly its legal moves: a player never has to guess whether
// a move is legal, which is what makes the game playable from percepts.
// Every match must end within the bound of the game with a goal for every
// role.
func TestGDLIIPlayouts(t *testing.T) {
	for _, g := range gdl2Games {
		t.Run(g.key, func(t *testing.T) {
			maxSteps := 0
			for _, f := range playFacts {
				if f.key == g.key {
					maxSteps = f.maxSteps
				}
			}
			if maxSteps == 0 {
				t.Fatalf("no play facts for %s", g.key)
			}
			r := newReasoner(t, g.key)
			p := r.(reasoner.Perceiver)
			c := checker{t, r}
			ctx := t.Context()
			nature := reasoner.NatureIndex(r.Roles())
			rng := rand.New(rand.NewPCG(3, 4))
			n := g.playouts
			if testing.Short() {
				n = max(1, n/2)
			}
			outcomes := map[string]int{}
			for range n {
				s, err := r.Initial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				beliefs := make([]*infoset.Belief, len(r.Roles()))
				for i := range beliefs {
					if i == nature {
						continue
					}
					beliefs[i], err = infoset.New(ctx, r, infoset.View{Role: i},
						infoset.Options{MaxStates: 4096, Rand: rand.New(rand.NewPCG(uint64(i), 5))})
					if err != nil {
						t.Fatal(err)
					}
				}
				var history []string
				for steps := 0; ; steps++ {
					terminal, legal := c.examine(s)
					for i, b := range beliefs {
						if b != nil {
							checkBelief(ctx, t, r, b, s, terminal, legal, i, history)
						}
					}
					if terminal {
						break
					}
					if steps == maxSteps {
						t.Fatalf("not over after %d steps: %v", steps, s)
					}
					joint := make([]reasoner.Move, len(legal))
					for i, moves := range legal {
						joint[i] = moves[rng.IntN(len(moves))]
					}
					history = append(history, fmt.Sprint(joint))
					for i, b := range beliefs {
						percepts, err := p.Sees(ctx, s, joint, i)
						if err != nil {
							t.Fatalf("Sees(%v, %v, %s): %v", s, joint, r.Roles()[i], err)
						}
						if b == nil {
							continue
						}
						if err := b.Update(ctx, infoset.Step{Move: joint[i], Percepts: percepts}); err != nil {
							t.Fatalf("%s after %v: %v", r.Roles()[i], history, err)
						}
					}
					s = c.next(s, joint)
				}
				goals, err := r.Goals(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				outcomes[fmt.Sprint(goals)]++
			}
			t.Logf("%d random matches, outcomes %v", n, outcomes)
		})
	}
}

// TestGDLIIViewsDecideLegal plays every match of the small GDL-II games
// and checks that whenever two matches give a player the same view (its
// own moves and its percepts, step by step), they leave it the same legal
// moves: its legal moves are a function of what it knows.
func TestGDLIIViewsDecideLegal(t *testing.T) {
	for _, g := range gdl2Games {
		if g.histories == 0 {
			continue
		}
		t.Run(g.key, func(t *testing.T) {
			r := newReasoner(t, g.key)
			p := r.(reasoner.Perceiver)
			c := checker{t, r}
			ctx := t.Context()
			nature := reasoner.NatureIndex(r.Roles())
			legalByView := make([]map[string]string, len(r.Roles()))
			for i := range legalByView {
				legalByView[i] = map[string]string{}
			}
			histories := 0
			var visit func(s *reasoner.State, views []string)
			visit = func(s *reasoner.State, views []string) {
				terminal, legal := c.examine(s)
				if terminal {
					histories++
					return
				}
				for i, moves := range legal {
					if i == nature {
						continue
					}
					got := fmt.Sprint(moves)
					if want, ok := legalByView[i][views[i]]; ok && want != got {
						t.Fatalf("%s, with view %q, has legal moves %s in one match and %s in another",
							r.Roles()[i], views[i], want, got)
					}
					legalByView[i][views[i]] = got
				}
				for _, joint := range gamestest.JointMoves(legal) {
					next := make([]string, len(views))
					for i := range views {
						percepts, err := p.Sees(ctx, s, joint, i)
						if err != nil {
							t.Fatal(err)
						}
						next[i] = fmt.Sprintf("%s %s %v;", views[i], joint[i], percepts)
					}
					visit(c.next(s, joint), next)
				}
			}
			s, err := r.Initial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			visit(s, make([]string, len(r.Roles())))
			if histories != g.histories {
				t.Errorf("%d matches, want %d", histories, g.histories)
			}
			for i, m := range legalByView {
				if i != nature {
					t.Logf("%s: %d views", r.Roles()[i], len(m))
				}
			}
		})
	}
}

// checkBelief fails the test when beliefProblem finds one.
func checkBelief(ctx context.Context, t *testing.T, r reasoner.Reasoner, b *infoset.Belief, s *reasoner.State,
	terminal bool, legal [][]reasoner.Move, i int, history []string) {
	t.Helper()
	if err := beliefProblem(ctx, r, b, s, terminal, legal, i); err != nil {
		t.Fatalf("after %v: %v", history, err)
	}
}

// beliefProblem says what is wrong with the belief b of role i in the true
// state s, or returns nil: the belief must be complete and hold s, and,
// unless s is terminal, the moves legal in every state of it must be the
// role's legal moves in s, legal[i].
func beliefProblem(ctx context.Context, r reasoner.Reasoner, b *infoset.Belief, s *reasoner.State,
	terminal bool, legal [][]reasoner.Move, i int) error {
	role := r.Roles()[i]
	if !b.Complete() {
		return fmt.Errorf("%s: the information set is too large to hold in full", role)
	}
	if !slices.ContainsFunc(b.States(), s.Equal) {
		return fmt.Errorf("%s: the information set lacks the true state %v", role, s)
	}
	if terminal {
		return nil
	}
	sure, err := b.SureLegal(ctx)
	if err != nil {
		return err
	}
	if !slices.Equal(sure, legal[i]) {
		return fmt.Errorf("%s: legal moves %v, but only %v are legal in every state it holds possible (%d states)",
			role, legal[i], sure, len(b.States()))
	}
	return nil
}

// TestBeliefProblemUnfairGame checks that the check of the playouts finds
// a game whose legal moves depend on what a player cannot see: here the
// player may claim a prize only when nature's hidden coin shows heads.
func TestBeliefProblemUnfairGame(t *testing.T) {
	d, err := gdl.ParseFile("unfair.kif", []byte(`
(role player)
(role random)
(init start)
(side heads) (side tails)
(<= (legal random (toss ?s)) (true start) (side ?s))
(<= (legal random noop) (not (true start)))
(<= (legal player wait) (true start))
(<= (legal player pass) (not (true start)))
(<= (legal player claim) (true (coin heads)))
(<= (next (coin ?s)) (does random (toss ?s)))
(<= (next over) (not (true start)))
(<= terminal (true over))
(goal player 100)
(goal random 0)
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	s0, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Next(ctx, s0, []reasoner.Move{"wait", "(toss heads)"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := infoset.New(ctx, r, infoset.View{Role: 0, Steps: []infoset.Step{{Move: "wait"}}}, infoset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	legal, err := r.Legal(ctx, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = beliefProblem(ctx, r, b, s, false, [][]reasoner.Move{legal}, 0)
	if err == nil || !strings.Contains(err.Error(), "legal moves [claim pass], but only [pass]") {
		t.Errorf("beliefProblem = %v, want the claim it cannot be sure of", err)
	}
}

// seeing plays one joint move, given as in play, after checking what each
// role perceives of it: want holds, for each role in order, its percepts
// separated by spaces in sorted order ("" for none).
func (m *match) seeing(joint string, want ...string) {
	m.t.Helper()
	var moves []reasoner.Move
	for _, mv := range strings.Split(joint, ",") {
		moves = append(moves, reasoner.Move(strings.TrimSpace(mv)))
	}
	if len(want) != len(m.r.Roles()) {
		m.t.Fatalf("%s: percepts of %d roles given for %d", joint, len(want), len(m.r.Roles()))
	}
	for i, w := range want {
		percepts, err := m.r.(reasoner.Perceiver).Sees(m.t.Context(), m.s, moves, i)
		if err != nil {
			m.t.Fatal(err)
		}
		var got []string
		for _, p := range percepts {
			got = append(got, string(p))
		}
		if g := strings.Join(got, " "); g != w {
			m.t.Errorf("%s: %s sees %q, want %q", joint, m.r.Roles()[i], g, w)
		}
	}
	m.play(joint)
}

func TestMontyHallRules(t *testing.T) {
	// Roles: candidate, random.
	m := startMatch(t, "montyhall")
	m.legal(0, "(choose 1) (choose 2) (choose 3)")
	m.legal(1, "(hide 1) (hide 2) (hide 3)")
	// The candidate chooses door 1 and learns nothing of the car behind 2.
	m.seeing("(choose 1), (hide 2)", "", "")
	// The host may open neither the chosen door nor the car's: only 3.
	m.legal(0, "noop")
	m.legal(1, "(open 3)")
	m.seeing("noop, (open 3)", "(opened 3)", "")
	m.legal(0, "stay switch")
	m.legal(1, "noop")
	m.ends(false)

	t.Run("switching wins", func(t *testing.T) {
		m := startMatch(t, "montyhall")
		m.play("(choose 1), (hide 2)", "noop, (open 3)")
		m.seeing("switch, noop", "(car 2)", "")
		m.ends(true, 100, 0)
	})
	t.Run("staying loses", func(t *testing.T) {
		m := startMatch(t, "montyhall")
		m.play("(choose 1), (hide 2)", "noop, (open 3)")
		m.seeing("stay, noop", "(car 2)", "")
		m.ends(true, 0, 0)
	})
	t.Run("right first choice", func(t *testing.T) {
		// With the car behind the chosen door the host has two doors to
		// open, and switching loses.
		m := startMatch(t, "montyhall")
		m.play("(choose 3), (hide 3)")
		m.legal(1, "(open 1) (open 2)")
		m.seeing("noop, (open 1)", "(opened 1)", "")
		m.play("switch, noop")
		m.has("(chosen 3)", "(opened 1)", "switched")
		m.ends(true, 0, 0)

		m = startMatch(t, "montyhall")
		m.play("(choose 3), (hide 3)", "noop, (open 2)", "stay, noop")
		m.ends(true, 100, 0)
	})
}

func TestKriegTicTacToeRules(t *testing.T) {
	// Roles: xplayer, oplayer.
	m := startMatch(t, "kriegTicTacToe")
	m.countLegal(0, 9)
	m.legal(1, "noop")
	m.seeing("(try 2 2), noop", "(placed 2 2)", "yourturn")
	// oplayer does not know where the x went: every cell is a try.
	m.legal(0, "noop")
	m.countLegal(1, 9)
	m.seeing("noop, (try 2 2)", "", "(taken 2 2)")
	m.has("(cell 2 2 x)", "(cell 2 2 x)", "(blocked oplayer 2 2)", "(control oplayer)")
	// oplayer tries again, without the cell it found taken.
	m.countLegal(1, 8)
	m.seeing("noop, (try 1 1)", "yourturn", "(placed 1 1)")
	// xplayer knows its own mark, not the o on (1 1).
	m.countLegal(0, 8)
	m.seeing("(try 1 1), noop", "(taken 1 1)", "")
	m.countLegal(0, 7)
	m.legal(1, "noop")
	m.seeing("(try 1 3), noop", "(placed 1 3)", "yourturn")
	m.ends(false)
	// oplayer knows (1 1) its own and (2 2) taken: seven cells to try.
	m.countLegal(1, 7)
	m.seeing("noop, (try 2 1)", "yourturn", "(placed 2 1)")
	m.ends(false)
	// (1 3), (2 2), (3 1): a diagonal for x.
	m.seeing("(try 3 1), noop", "(placed 3 1)", "yourturn")
	m.has("(cell 1 3 x)", "(cell 2 2 x)", "(cell 3 1 x)", "(cell 1 1 o)", "(cell 2 1 o)")
	m.ends(true, 100, 0)

	t.Run("draw", func(t *testing.T) {
		// x o x / x o o / o x x, no line, filled without a failed try.
		m := startMatch(t, "kriegTicTacToe")
		m.turns("(try 1 1)", "(try 1 2)", "(try 1 3)", "(try 2 2)", "(try 2 1)", "(try 2 3)",
			"(try 3 2)", "(try 3 1)")
		m.ends(false)
		m.turns("(try 3 3)")
		m.ends(true, 50, 50)
	})
	t.Run("longest", func(t *testing.T) {
		// The same board, but oplayer tries every x before its last o,
		// and xplayer every o before its last x: 9 + 4 + 4 steps.
		m := startMatch(t, "kriegTicTacToe")
		m.turns("(try 1 1)", "(try 1 2)", "(try 1 3)", "(try 2 2)", "(try 2 1)", "(try 2 3)",
			"(try 3 2)", "(try 1 1)", "(try 1 3)", "(try 2 1)", "(try 3 2)")
		m.has("(blocked oplayer 1 1)", "(blocked oplayer 3 2)", "(control oplayer)")
		m.legal(1, "(try 3 1) (try 3 3)")
		m.turns("(try 3 1)", "(try 1 2)", "(try 2 2)", "(try 2 3)")
		m.seeing("(try 3 1), noop", "(taken 3 1)", "")
		m.legal(0, "(try 3 3)")
		m.ends(false)
		m.turns("(try 3 3)")
		m.ends(true, 50, 50)
	})
}

func TestLiarsDieRules(t *testing.T) {
	// Roles: first, second, random.
	m := startMatch(t, "liarsDie")
	m.legal(0, "noop")
	m.legal(1, "noop")
	m.legal(2, "(roll 1) (roll 2) (roll 3) (roll 4) (roll 5) (roll 6)")
	// Only the roller sees the die.
	m.seeing("noop, noop, (roll 3)", "(rolled 3)", "", "")
	m.legal(0, "(announce 1) (announce 2) (announce 3) (announce 4) (announce 5) (announce 6)")
	m.legal(1, "noop")
	m.legal(2, "noop")
	// A bluff: 5 announced on a 3.
	m.seeing("(announce 5), noop, noop", "", "(announced 5)", "")
	m.legal(0, "noop")
	m.legal(1, "believe doubt")
	m.ends(false)

	t.Run("bluff doubted", func(t *testing.T) {
		m := startMatch(t, "liarsDie")
		m.play("noop, noop, (roll 3)", "(announce 5), noop, noop")
		// Both see the die; the roller also sees the doubt. 3 < 5: the
		// roller loses.
		m.seeing("noop, doubt, noop", "(die 3) doubt", "(die 3)", "")
		m.ends(true, 0, 100, 0)
	})
	t.Run("bluff believed", func(t *testing.T) {
		m := startMatch(t, "liarsDie")
		m.play("noop, noop, (roll 3)", "(announce 5), noop, noop")
		m.seeing("noop, believe, noop", "believe", "", "")
		m.has("(roller second)", "(claim 5)", "(phase roll)")
		m.lacks("(die 3)")
		// second rolls now and must beat 5, whatever it rolls.
		m.seeing("noop, noop, (roll 1)", "", "(rolled 1)", "")
		m.legal(1, "(announce 6)")
		m.seeing("noop, (announce 6), noop", "(announced 6)", "", "")
		// Nothing beats 6: first must doubt, and wins, as 1 < 6.
		m.legal(0, "doubt")
		m.seeing("doubt, noop, noop", "(die 1)", "(die 1) doubt", "")
		m.ends(true, 100, 0, 0)
	})
	t.Run("truth doubted", func(t *testing.T) {
		// A die equal to the announcement makes it true: the doubter loses.
		m := startMatch(t, "liarsDie")
		m.play("noop, noop, (roll 4)", "(announce 4), noop, noop", "noop, doubt, noop")
		m.ends(true, 100, 0, 0)
	})
	t.Run("six rounds", func(t *testing.T) {
		// Announcements 1 to 6, each believed but the last: 18 steps.
		m := startMatch(t, "liarsDie")
		for v := 1; v <= 6; v++ {
			roller := "noop, noop"
			announce := fmt.Sprintf("(announce %d), noop, noop", v)
			respond := "noop, believe, noop"
			if v%2 == 0 {
				announce = fmt.Sprintf("noop, (announce %d), noop", v)
				respond = "believe, noop, noop"
			}
			m.play(roller + ", (roll 2)")
			m.play(announce)
			if v < 6 {
				m.play(respond)
			}
		}
		m.ends(false)
		// The die shows 2, not 6: second, the roller, loses.
		m.play("doubt, noop, noop")
		m.ends(true, 100, 0, 0)
	})
}

func TestKuhnPokerRules(t *testing.T) {
	// Roles: first, second, random.
	m := startMatch(t, "kuhnPoker")
	m.legal(0, "noop")
	m.legal(1, "noop")
	m.countLegal(2, 6) // two different cards of three, in order
	m.seeing("noop, noop, (deal king jack)", "(dealt king)", "(dealt jack)", "")
	m.legal(0, "bet check")
	m.legal(1, "noop")
	m.legal(2, "noop")

	t.Run("bet called", func(t *testing.T) {
		m := startMatch(t, "kuhnPoker")
		m.play("noop, noop, (deal king jack)")
		m.seeing("bet, noop, noop", "", "(acts first bet)", "")
		m.legal(1, "call fold")
		m.seeing("noop, call, noop", "(acts second call) (shows second jack)", "(shows first king)", "")
		// The king wins the antes and the bets: two chips.
		m.ends(true, 100, 0, 0)
	})
	t.Run("bet folded", func(t *testing.T) {
		m := startMatch(t, "kuhnPoker")
		m.play("noop, noop, (deal jack king)", "bet, noop, noop")
		// No showdown: the cards stay hidden.
		m.seeing("noop, fold, noop", "(acts second fold)", "", "")
		m.ends(true, 75, 25, 0)
	})
	t.Run("check, bet, fold", func(t *testing.T) {
		m := startMatch(t, "kuhnPoker")
		m.play("noop, noop, (deal queen jack)")
		m.seeing("check, noop, noop", "", "(acts first check)", "")
		m.legal(1, "bet check")
		m.seeing("noop, bet, noop", "(acts second bet)", "", "")
		m.legal(0, "call fold")
		m.legal(1, "noop")
		m.play("fold, noop, noop")
		m.ends(true, 25, 75, 0)
	})
	t.Run("check, bet, call", func(t *testing.T) {
		m := startMatch(t, "kuhnPoker")
		m.play("noop, noop, (deal queen jack)", "check, noop, noop", "noop, bet, noop")
		m.seeing("call, noop, noop", "(shows second jack)", "(acts first call) (shows first queen)", "")
		m.ends(true, 100, 0, 0)
	})
	t.Run("checked down", func(t *testing.T) {
		m := startMatch(t, "kuhnPoker")
		m.play("noop, noop, (deal queen king)", "check, noop, noop")
		m.seeing("noop, check, noop", "(acts second check) (shows second king)", "(shows first queen)", "")
		// The king wins the antes only: one chip.
		m.ends(true, 25, 75, 0)
	})
}

func TestNumberGuessRules(t *testing.T) {
	// Roles: guesser, random.
	m := startMatch(t, "numberGuess")
	m.legal(0, "noop")
	m.countLegal(1, 8)
	// The guesser does not see the secret.
	m.seeing("noop, (pick 6)", "", "")
	m.legal(0, "(ask 2) (ask 3) (ask 4) (ask 5) (ask 6) (ask 7) (ask 8) (guess 1) (guess 2) (guess 3) (guess 4) (guess 5) (guess 6) (guess 7) (guess 8)")
	m.legal(1, "noop")
	// 6 is not below 5, and is below 7: the answers.
	m.seeing("(ask 5), noop", "(atleast 5)", "")
	m.seeing("(ask 7), noop", "(below 7)", "")
	m.has("(secret 6)", "(asked 2)", "asking")
	m.ends(false)

	t.Run("right after two questions", func(t *testing.T) {
		m := startMatch(t, "numberGuess")
		m.play("noop, (pick 6)", "(ask 5), noop", "(ask 7), noop")
		m.seeing("(guess 6), noop", "(secret 6)", "")
		m.ends(true, 80, 0)
	})
	t.Run("wrong", func(t *testing.T) {
		m := startMatch(t, "numberGuess")
		m.play("noop, (pick 6)", "(ask 5), noop", "(ask 7), noop")
		m.seeing("(guess 5), noop", "(secret 6)", "")
		m.ends(true, 0, 0)
	})
	t.Run("right at once", func(t *testing.T) {
		m := startMatch(t, "numberGuess")
		m.play("noop, (pick 1)", "(guess 1), noop")
		m.ends(true, 100, 0)
	})
	t.Run("three questions, then only a guess", func(t *testing.T) {
		// The threshold equal to the secret: 3 is not below 3.
		m := startMatch(t, "numberGuess")
		m.play("noop, (pick 3)")
		m.seeing("(ask 3), noop", "(atleast 3)", "")
		m.seeing("(ask 4), noop", "(below 4)", "")
		m.seeing("(ask 2), noop", "(atleast 2)", "")
		m.legal(0, "(guess 1) (guess 2) (guess 3) (guess 4) (guess 5) (guess 6) (guess 7) (guess 8)")
		m.play("(guess 3), noop")
		m.ends(true, 30, 0)
	})
}

func TestBankerThiefRules(t *testing.T) {
	// Roles: banker, thief, random.
	m := startMatch(t, "bankerThief")
	m.legal(0, "noop")
	m.legal(1, "noop")
	m.legal(2, "(own left) (own right)")
	// Only the banker sees which bank is its own.
	m.seeing("noop, noop, (own right)", "(yours right)", "", "")
	m.legal(0, "(split 0 4) (split 1 3) (split 2 2) (split 3 1) (split 4 0)")
	m.legal(1, "noop")
	m.legal(2, "noop")
	// The thief sees the bags go; the banker sees nothing more.
	m.seeing("(split 1 3), noop, noop", "", "(bags 1 3)", "")
	m.legal(0, "noop")
	m.legal(1, "(rob left) (rob right)")
	m.ends(false)

	t.Run("own bank robbed", func(t *testing.T) {
		m := startMatch(t, "bankerThief")
		m.play("noop, noop, (own right)", "(split 1 3), noop, noop", "noop, (rob right), noop")
		m.ends(true, 0, 100, 0)
	})
	t.Run("the other bank robbed", func(t *testing.T) {
		// The three bags in the right bank, the banker's, are kept.
		m := startMatch(t, "bankerThief")
		m.play("noop, noop, (own right)", "(split 1 3), noop, noop", "noop, (rob left), noop")
		m.has("(own right)", "(bags 1 3)", "(robbed left)")
		m.ends(true, 75, 25, 0)
	})
	t.Run("an even split", func(t *testing.T) {
		m := startMatch(t, "bankerThief")
		m.play("noop, noop, (own left)", "(split 2 2), noop, noop", "noop, (rob right), noop")
		m.ends(true, 50, 50, 0)
	})
	t.Run("everything in the other bank", func(t *testing.T) {
		m := startMatch(t, "bankerThief")
		m.play("noop, noop, (own left)", "(split 0 4), noop, noop", "noop, (rob right), noop")
		m.ends(true, 0, 100, 0)
	})
}

func TestBattleshipsFogRules(t *testing.T) {
	// Roles: captain, random.
	m := startMatch(t, "battleshipsFog")
	m.legal(0, "noop")
	m.countLegal(1, 6)
	// The ship is hidden in the fog.
	m.seeing("noop, (hide 2 1)", "", "")
	m.legal(1, "noop")
	m.countLegal(0, 7) // a scout or a shot at each of 6 cells
	m.seeing("(fire 1 1), noop", "(splash 1 1)", "")
	// A cell shot at is not shot at again.
	m.legal(0, "(fire 1 2) (fire 2 1) (fire 2 2) (fire 3 1) (fire 3 2) scout")
	m.seeing("scout, noop", "(ship 2 1)", "")
	m.has("(ship 2 1)", "(shot 1 1)", "(move 3)")
	m.ends(false)
	m.seeing("(fire 2 1), noop", "(hit 2 1)", "")
	m.ends(true, 50, 0)

	t.Run("scout, then fire", func(t *testing.T) {
		m := startMatch(t, "battleshipsFog")
		m.play("noop, (hide 3 2)")
		m.seeing("scout, noop", "(ship 3 2)", "")
		m.play("(fire 3 2), noop")
		m.has("sunk", "(move 3)")
		m.ends(true, 75, 0)
	})
	t.Run("a blind hit", func(t *testing.T) {
		m := startMatch(t, "battleshipsFog")
		m.play("noop, (hide 3 2)", "(fire 3 2), noop")
		m.ends(true, 100, 0)
	})
	t.Run("three misses", func(t *testing.T) {
		m := startMatch(t, "battleshipsFog")
		m.play("noop, (hide 3 2)", "(fire 1 1), noop", "(fire 1 2), noop")
		m.ends(false)
		m.play("(fire 2 2), noop")
		m.lacks("sunk")
		m.ends(true, 0, 0)
	})
}
