package games_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// What every bundled game promises: a bound on the length of a match and,
// for the games small enough to search exhaustively, the number of
// reachable states and of terminal states among them.
var playFacts = []struct {
	key       string
	maxSteps  int // the longest match possible, as the description says
	states    int // reachable states; 0 for a game too large to search
	terminals int
}{
	// bankerThief: 1 start, 2 own banks, 5 splits of each, 2 banks robbed
	// after each split (all over).
	{key: "bankerThief", maxSteps: 3, states: 33, terminals: 20},
	// battleshipsFog: 1 start and 6 ships; for each ship, the cells shot
	// and missed (m of the 5 others) before move n: 1 + 5 before move 2,
	// 1 + 5 + 10 before move 3, 1 + 5 + 10 + 10 after move 3 (over); and,
	// sunk, the misses before the hit: 1 after move 1, 1 + 5 after move 2,
	// 1 + 5 + 10 after move 3. 1 + 6 + 6 x (6 + 16 + 26) + 6 x (1 + 6 +
	// 16), of which 6 x 26 + 6 x 23 are over.
	{key: "battleshipsFog", maxSteps: 4, states: 433, terminals: 294},
	{key: "breakthrough", maxSteps: 85},
	{key: "connectFour", maxSteps: 42},
	{key: "eightPuzzle", maxSteps: 30},
	{key: "hanoi", maxSteps: 40, states: 4940, terminals: 252},
	// kriegTicTacToe: 9 marks, and each player fails at most on the
	// opponent's 4 marks.
	{key: "kriegTicTacToe", maxSteps: 17},
	// kuhnPoker: 1 start, 6 deals, 12 after first acts, 24 after second
	// (18 of them over), 12 after first answers a bet (all over).
	{key: "kuhnPoker", maxSteps: 4, states: 55, terminals: 30},
	// liarsDie: a round starts from one of 10 (roller, last announcement)
	// pairs (first with 0 or 2 to 5, second with 1 to 5), goes on with one
	// of 6 rolls (60 states), then holds one of 11 pairs (first with 1 to
	// 6, second with 2 to 6) and a roll (66), each of which a doubt ends
	// (66): 10 + 60 + 66 + 66. Six rounds of three steps at most.
	{key: "liarsDie", maxSteps: 18, states: 202, terminals: 66},
	{key: "maze", maxSteps: 16, states: 101, terminals: 13},
	// montyhall: 1 start, 3 cars x 3 choices, 12 with a door opened (two
	// for each right choice, one for each wrong), each stayed or switched.
	{key: "montyhall", maxSteps: 3, states: 46, terminals: 24},
	{key: "nim", maxSteps: 12, states: 232, terminals: 2},
	// numberGuess: 1 start; 8 secrets x 0 to 3 questions asked while it
	// goes on (the questions themselves are not kept), and x 8 guesses at
	// the end.
	{key: "numberGuess", maxSteps: 5, states: 1 + 8*4 + 8*4*8, terminals: 8 * 4 * 8},
	{key: "rockPaperScissors", maxSteps: 3, states: 20, terminals: 10},
	{key: "threePlayerTicTacToe", maxSteps: 16},
	// 5478 and 958 are the well-known counts of tic-tac-toe positions.
	{key: "ticTacToe", maxSteps: 9, states: 5478, terminals: 958},
}

func newReasoner(t *testing.T, key string) reasoner.Reasoner {
	t.Helper()
	g, err := games.Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.New(d)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return r
}

func TestPlayFactsCoverBundled(t *testing.T) {
	var keys []string
	for _, f := range playFacts {
		keys = append(keys, f.key)
	}
	var bundled []string
	for _, g := range games.Bundled() {
		bundled = append(bundled, g.Key)
	}
	if !slices.Equal(keys, bundled) {
		t.Errorf("play tests cover %v, bundled games are %v", keys, bundled)
	}
}

// checker checks the promises of a game in each state it is shown.
type checker struct {
	t *testing.T
	r reasoner.Reasoner
}

// examine checks state s: a terminal state must give every role exactly
// one goal value from 0 to 100, a non-terminal one at least one legal move
// to every role. It returns whether s is terminal and the legal moves.
func (c checker) examine(s *reasoner.State) (terminal bool, legal [][]reasoner.Move) {
	c.t.Helper()
	ctx := c.t.Context()
	terminal, err := c.r.Terminal(ctx, s)
	if err != nil {
		c.t.Fatalf("Terminal(%v): %v", s, err)
	}
	if terminal {
		goals, err := c.r.Goals(ctx, s)
		if err != nil {
			c.t.Fatalf("Goals(%v): %v", s, err)
		}
		for i, v := range goals {
			if v < 0 || v > 100 {
				c.t.Fatalf("goal of %s is %d in %v", c.r.Roles()[i], v, s)
			}
		}
		return true, nil
	}
	for i, role := range c.r.Roles() {
		moves, err := c.r.Legal(ctx, s, i)
		if err != nil {
			c.t.Fatalf("Legal(%v, %s): %v", s, role, err)
		}
		if len(moves) == 0 {
			c.t.Fatalf("%s has no legal move in non-terminal state %v", role, s)
		}
		legal = append(legal, moves)
	}
	return false, legal
}

func (c checker) next(s *reasoner.State, joint []reasoner.Move) *reasoner.State {
	c.t.Helper()
	n, err := c.r.Next(c.t.Context(), s, joint)
	if err != nil {
		c.t.Fatalf("Next(%v, %v): %v", s, joint, err)
	}
	return n
}

// TestBundledExhaustive searches every reachable state of the small games,
// checking each one, and proves that every path ends: the state graph has
// no cycle and its longest path is the bound the game promises.
func TestBundledExhaustive(t *testing.T) {
	for _, f := range playFacts {
		if f.states == 0 {
			continue
		}
		t.Run(f.key, func(t *testing.T) {
			if testing.Short() && f.states > 1000 {
				t.Skip("large state space; -short checks it by random playouts only")
			}
			c := checker{t, newReasoner(t, f.key)}
			init, err := c.r.Initial(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			longest := map[string]int{} // state key -> longest path to the end
			onPath := map[string]bool{}
			terminals := 0
			var visit func(s *reasoner.State, depth int) int
			visit = func(s *reasoner.State, depth int) int {
				key := s.Key()
				if onPath[key] {
					t.Fatalf("cycle through %v", s)
				}
				if n, ok := longest[key]; ok {
					return n
				}
				if depth > f.maxSteps {
					t.Fatalf("no end after %d steps, in %v", depth, s)
				}
				onPath[key] = true
				terminal, legal := c.examine(s)
				n := 0
				if terminal {
					terminals++
				}
				for _, j := range gamestest.JointMoves(legal) {
					n = max(n, 1+visit(c.next(s, j), depth+1))
				}
				delete(onPath, key)
				longest[key] = n
				return n
			}
			if n := visit(init, 0); n != f.maxSteps {
				t.Errorf("longest match %d steps, want %d", n, f.maxSteps)
			}
			if len(longest) != f.states || terminals != f.terminals {
				t.Errorf("%d reachable states, %d terminal; want %d, %d", len(longest), terminals, f.states, f.terminals)
			}
		})
	}
}

// TestBundledRandomPlayouts plays random matches of every game, checking
// every state on the way and the bound on the length of a match.
func TestBundledRandomPlayouts(t *testing.T) {
	for _, f := range playFacts {
		t.Run(f.key, func(t *testing.T) {
			n := 200
			switch {
			case f.states > 0:
				n = 20 // searched exhaustively above
			case testing.Short():
				n = 10
			}
			c := checker{t, newReasoner(t, f.key)}
			init, err := c.r.Initial(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			longest := 0
			outcomes := map[string]int{}
			for range n {
				s, steps := init, 0
				for {
					terminal, legal := c.examine(s)
					if terminal {
						break
					}
					if steps == f.maxSteps {
						t.Fatalf("not over after %d steps: %v", steps, s)
					}
					joint := make([]reasoner.Move, len(legal))
					for i, moves := range legal {
						joint[i] = moves[rng.IntN(len(moves))]
					}
					s = c.next(s, joint)
					steps++
				}
				longest = max(longest, steps)
				goals, _ := c.r.Goals(t.Context(), s)
				outcomes[fmt.Sprint(goals)]++
			}
			if f.key == "rockPaperScissors" && longest != 3 {
				t.Errorf("matches last up to %d steps, want exactly 3", longest)
			}
			t.Logf("%d random matches, longest %d steps, outcomes %v", n, longest, outcomes)
		})
	}
}

// A match replays moves from the initial state, checking each is legal.
type match struct {
	checker
	s *reasoner.State
}

func startMatch(t *testing.T, key string) *match {
	t.Helper()
	c := checker{t, newReasoner(t, key)}
	s, err := c.r.Initial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return &match{c, s}
}

// play makes the joint moves in turn; each is given as the moves of the
// roles, in role order, separated by commas.
func (m *match) play(joints ...string) {
	m.t.Helper()
	for _, j := range joints {
		terminal, legal := m.examine(m.s)
		if terminal {
			m.t.Fatalf("before %s: game over in %v", j, m.s)
		}
		var joint []reasoner.Move
		for i, mv := range strings.Split(j, ",") {
			mv := reasoner.Move(strings.TrimSpace(mv))
			if i >= len(legal) || !slices.Contains(legal[i], mv) {
				m.t.Fatalf("%s: move %d illegal in %v", j, i, m.s)
			}
			joint = append(joint, mv)
		}
		if len(joint) != len(legal) {
			m.t.Fatalf("%s: %d moves for %d roles", j, len(joint), len(legal))
		}
		m.s = m.next(m.s, joint)
	}
}

// turns plays moves of players who take turns: each move is made by the
// one role that has moves other than noop, the others playing noop.
func (m *match) turns(moves ...string) {
	m.t.Helper()
	for _, mv := range moves {
		joint := slices.Repeat([]string{"noop"}, len(m.r.Roles()))
		mover := -1
		for i := range joint {
			legal, err := m.r.Legal(m.t.Context(), m.s, i)
			if err != nil {
				m.t.Fatal(err)
			}
			if !slices.Equal(legal, []reasoner.Move{"noop"}) {
				if mover >= 0 {
					m.t.Fatalf("%s: both %s and %s may move", mv, m.r.Roles()[mover], m.r.Roles()[i])
				}
				mover = i
			}
		}
		if mover < 0 {
			m.t.Fatalf("%s: nobody may move", mv)
		}
		joint[mover] = mv
		m.play(strings.Join(joint, ","))
	}
}

func (m *match) has(facts ...string) {
	m.t.Helper()
	for _, f := range facts {
		if !slices.Contains(m.s.Facts(), reasoner.Fact(f)) {
			m.t.Errorf("state lacks %s: %v", f, m.s)
		}
	}
}

func (m *match) lacks(facts ...string) {
	m.t.Helper()
	for _, f := range facts {
		if slices.Contains(m.s.Facts(), reasoner.Fact(f)) {
			m.t.Errorf("state has %s: %v", f, m.s)
		}
	}
}

// legal checks the legal moves of role i, given as one string.
func (m *match) legal(i int, want string) {
	m.t.Helper()
	moves, err := m.r.Legal(m.t.Context(), m.s, i)
	if err != nil {
		m.t.Fatal(err)
	}
	var got []string
	for _, mv := range moves {
		got = append(got, string(mv))
	}
	if g := strings.Join(got, " "); g != want {
		m.t.Errorf("legal moves of %s: %s, want %s", m.r.Roles()[i], g, want)
	}
}

func (m *match) countLegal(i, want int) {
	m.t.Helper()
	moves, err := m.r.Legal(m.t.Context(), m.s, i)
	if err != nil {
		m.t.Fatal(err)
	}
	if len(moves) != want {
		m.t.Errorf("%s has %d legal moves, want %d: %v", m.r.Roles()[i], len(moves), want, moves)
	}
}

// ends checks whether the match is over and, when it is, the goals.
func (m *match) ends(over bool, goals ...int) {
	m.t.Helper()
	terminal, err := m.r.Terminal(m.t.Context(), m.s)
	if err != nil {
		m.t.Fatal(err)
	}
	if terminal != over {
		m.t.Fatalf("terminal = %v, want %v in %v", terminal, over, m.s)
	}
	if !over {
		return
	}
	got, err := m.r.Goals(m.t.Context(), m.s)
	if err != nil {
		m.t.Fatal(err)
	}
	if !slices.Equal(got, goals) {
		m.t.Errorf("goals %v, want %v", got, goals)
	}
}

func TestTicTacToeRules(t *testing.T) {
	m := startMatch(t, "ticTacToe")
	m.countLegal(0, 9)
	m.legal(1, "noop")
	m.turns("(mark 1 1)")
	m.has("(cell 1 1 x)", "(cell 2 2 b)", "(control oplayer)")
	m.lacks("(cell 1 1 b)", "(control xplayer)")
	m.legal(0, "noop")
	m.countLegal(1, 8)

	t.Run("x wins", func(t *testing.T) {
		m := startMatch(t, "ticTacToe")
		m.turns("(mark 1 1)", "(mark 1 2)", "(mark 2 2)", "(mark 1 3)")
		m.ends(false)
		m.turns("(mark 3 3)")
		m.ends(true, 100, 0)
	})
	t.Run("o wins", func(t *testing.T) {
		m := startMatch(t, "ticTacToe")
		m.turns("(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)", "(mark 3 3)", "(mark 2 3)")
		m.ends(true, 0, 100)
	})
	t.Run("draw", func(t *testing.T) {
		m := startMatch(t, "ticTacToe")
		m.turns("(mark 1 1)", "(mark 2 2)", "(mark 3 3)", "(mark 1 2)", "(mark 3 2)",
			"(mark 3 1)", "(mark 1 3)", "(mark 2 3)")
		m.ends(false)
		m.turns("(mark 2 1)")
		m.ends(true, 50, 50)
	})
}

func TestConnectFourRules(t *testing.T) {
	m := startMatch(t, "connectFour")
	m.legal(0, "(drop 1) (drop 2) (drop 3) (drop 4) (drop 5) (drop 6) (drop 7)")
	m.turns("(drop 4)", "(drop 4)")
	m.has("(cell 4 1 red)", "(cell 4 2 black)", "(control red)")

	t.Run("full column", func(t *testing.T) {
		m := startMatch(t, "connectFour")
		m.turns("(drop 1)", "(drop 1)", "(drop 1)", "(drop 1)", "(drop 1)", "(drop 1)")
		m.has("(cell 1 6 black)")
		m.legal(0, "(drop 2) (drop 3) (drop 4) (drop 5) (drop 6) (drop 7)")
		m.ends(false)
	})
	t.Run("vertical", func(t *testing.T) {
		m := startMatch(t, "connectFour")
		m.turns("(drop 1)", "(drop 2)", "(drop 1)", "(drop 2)", "(drop 1)", "(drop 2)")
		m.ends(false)
		m.turns("(drop 1)")
		m.ends(true, 100, 0)
	})
	t.Run("diagonal", func(t *testing.T) {
		m := startMatch(t, "connectFour")
		m.turns("(drop 1)", "(drop 2)", "(drop 2)", "(drop 3)", "(drop 3)", "(drop 4)",
			"(drop 3)", "(drop 4)", "(drop 4)", "(drop 7)")
		m.ends(false)
		m.turns("(drop 4)")
		m.has("(cell 1 1 red)", "(cell 2 2 red)", "(cell 3 3 red)", "(cell 4 4 red)")
		m.ends(true, 100, 0)
	})
	t.Run("black wins across", func(t *testing.T) {
		m := startMatch(t, "connectFour")
		m.turns("(drop 1)", "(drop 4)", "(drop 1)", "(drop 5)", "(drop 2)", "(drop 6)", "(drop 2)")
		m.ends(false)
		m.turns("(drop 7)")
		m.ends(true, 0, 100)
	})
}

func TestBreakthroughRules(t *testing.T) {
	m := startMatch(t, "breakthrough")
	// Six straight moves and ten diagonal ones from row 2.
	m.countLegal(0, 16)
	m.legal(1, "noop")
	m.turns("(move 2 2 2 3)", "(move 2 5 2 4)")
	m.has("(cell 2 3 white)", "(cell 2 4 black)")
	m.lacks("(cell 2 2 white)", "(cell 2 5 black)")
	// The pawn on (2 3) is blocked straight ahead but has two diagonals;
	// three pawns of row 1 can now reach (2 2).
	m.countLegal(0, 16)
	m.lacks("(cell 2 2 white)")

	t.Run("capture and breakthrough", func(t *testing.T) {
		m := startMatch(t, "breakthrough")
		m.turns("(move 1 2 1 3)", "(move 6 5 6 4)", "(move 1 3 1 4)", "(move 6 4 6 3)",
			"(move 1 4 2 5)") // takes the black pawn on (2 5)
		m.has("(cell 2 5 white)")
		m.lacks("(cell 2 5 black)", "(cell 1 4 white)")
		m.turns("(move 6 3 5 2)") // takes the white pawn on (5 2)
		m.has("(cell 5 2 black)")
		m.lacks("(cell 5 2 white)")
		m.ends(false)
		m.turns("(move 2 5 1 6)") // takes (1 6) and reaches the far row
		m.ends(true, 100, 0)
	})
}

func TestNimRules(t *testing.T) {
	m := startMatch(t, "nim")
	m.countLegal(0, 3+4+5)
	m.turns("(take c 5)")
	m.has("(heap a 3)", "(heap b 4)", "(heap c 0)", "(control second)")
	m.legal(1, "(take a 1) (take a 2) (take a 3) (take b 1) (take b 2) (take b 3) (take b 4)")

	t.Run("first takes the last", func(t *testing.T) {
		m := startMatch(t, "nim")
		m.turns("(take c 5)", "(take b 4)")
		m.ends(false)
		m.turns("(take a 3)")
		m.ends(true, 100, 0)
	})
	t.Run("second takes the last", func(t *testing.T) {
		m := startMatch(t, "nim")
		m.turns("(take a 3)", "(take b 4)", "(take c 1)", "(take c 4)")
		m.ends(true, 0, 100)
	})
}

func TestRockPaperScissorsRules(t *testing.T) {
	m := startMatch(t, "rockPaperScissors")
	m.legal(0, "paper rock scissors")
	m.legal(1, "paper rock scissors")
	m.play("rock, scissors")
	m.has("(round 1)", "(score left 1)", "(score right 0)")
	m.play("paper, paper")
	m.has("(round 2)", "(score left 1)", "(score right 0)")
	m.ends(false)
	m.play("scissors, rock")
	m.ends(true, 50, 50)

	t.Run("left wins", func(t *testing.T) {
		m := startMatch(t, "rockPaperScissors")
		m.play("paper, rock", "rock, paper", "scissors, paper")
		m.has("(score left 2)", "(score right 1)")
		m.ends(true, 100, 0)
	})
	t.Run("right wins", func(t *testing.T) {
		m := startMatch(t, "rockPaperScissors")
		m.play("rock, rock", "scissors, rock", "paper, paper")
		m.ends(true, 0, 100)
	})
}

func TestMazeRules(t *testing.T) {
	m := startMatch(t, "maze")
	m.legal(0, "(move east)")
	m.play("(move east)", "(move south)", "(move south)", "(move east)",
		"(move east)", "(move south)", "(move east)")
	m.has("(at 5 4)", "(step 7)")
	m.ends(false)
	m.play("(move south)")
	m.ends(true, 100)

	t.Run("time runs out", func(t *testing.T) {
		m := startMatch(t, "maze")
		for range 8 {
			m.play("(move east)", "(move west)")
		}
		m.has("(at 1 1)", "(step 16)")
		m.ends(true, 20)
	})
}

func TestHanoiRules(t *testing.T) {
	m := startMatch(t, "hanoi")
	m.legal(0, "(move a b) (move a c)")
	m.play("(move a c)")
	m.has("(on 1 c)", "(on 2 a)")
	// Disc 2 may not go onto disc 1.
	m.legal(0, "(move a b) (move c a) (move c b)")

	t.Run("optimal", func(t *testing.T) {
		moves := hanoiMoves(nil, 5, "a", "c", "b")
		if len(moves) != 31 {
			t.Fatalf("%d moves", len(moves))
		}
		m := startMatch(t, "hanoi")
		m.play(moves[:30]...)
		m.ends(false)
		m.play(moves[30])
		m.ends(true, 100)
	})
	t.Run("partial credit", func(t *testing.T) {
		m := startMatch(t, "hanoi")
		// Four discs to b in 15 moves, disc 5 to c, then back and forth.
		moves := hanoiMoves(nil, 4, "a", "b", "c")
		moves = append(moves, "(move a c)")
		for len(moves) < 40 {
			moves = append(moves, "(move b a)", "(move a b)")
		}
		m.play(moves[:40]...)
		m.has("(on 5 c)", "(step 40)")
		m.ends(true, 20)
	})
}

func TestEightPuzzleRules(t *testing.T) {
	m := startMatch(t, "eightPuzzle")
	m.legal(0, "(slide 2 3) (slide 3 2)")
	m.ends(false)
	goals, err := m.r.Goals(t.Context(), m.s)
	if err != nil || !slices.Equal(goals, []int{0}) {
		t.Errorf("goals at the start %v, %v; want [0], no tile at home", goals, err)
	}

	// Search the puzzle in Go from the start the rules give, for a
	// shortest solution, and play it.
	var start [9]byte
	for _, f := range m.s.Facts() {
		var r, c int
		var tile string
		if _, err := fmt.Sscanf(string(f), "(cell %d %d %1s)", &r, &c, &tile); err == nil {
			start[(r-1)*3+c-1] = tile[0]
		}
	}
	solution := solvePuzzle(start, [9]byte{'1', '2', '3', '4', '5', '6', '7', '8', 'b'})
	if len(solution) != 20 {
		t.Fatalf("shortest solution from %q takes %d steps, want 20 as the rules say", start[:], len(solution))
	}
	m.play(solution[:19]...)
	m.ends(false)
	m.play(solution[19])
	m.has("(cell 1 1 1)", "(cell 3 3 b)", "(step 20)")
	m.ends(true, 100)

	t.Run("out of steps", func(t *testing.T) {
		m := startMatch(t, "eightPuzzle")
		for range 15 {
			m.play("(slide 2 3)", "(slide 3 3)")
		}
		m.has("(step 30)", "(cell 3 3 b)")
		m.ends(true, 0)
	})
}

// solvePuzzle returns a shortest sequence of slide moves from start to goal,
// found by breadth-first search over boards with 'b' for the empty cell.
func solvePuzzle(start, goal [9]byte) []string {
	type step struct {
		prev [9]byte
		move string
	}
	seen := map[[9]byte]step{start: {}}
	queue := [][9]byte{start}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if b == goal {
			var moves []string
			for b != start {
				s := seen[b]
				moves = append(moves, s.move)
				b = s.prev
			}
			slices.Reverse(moves)
			return moves
		}
		e := slices.Index(b[:], 'b')
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			r, c := e/3+d[0], e%3+d[1]
			if r < 0 || r > 2 || c < 0 || c > 2 {
				continue
			}
			n := b
			n[e], n[r*3+c] = n[r*3+c], n[e]
			if _, ok := seen[n]; !ok {
				seen[n] = step{b, fmt.Sprintf("(slide %d %d)", r+1, c+1)}
				queue = append(queue, n)
			}
		}
	}
	return nil
}

func TestThreePlayerTicTacToeRules(t *testing.T) {
	m := startMatch(t, "threePlayerTicTacToe")
	m.countLegal(0, 16)
	m.legal(1, "noop")
	m.legal(2, "noop")
	m.turns("(mark 1 1)", "(mark 2 1)", "(mark 3 1)")
	m.has("(cell 1 1 red)", "(cell 2 1 green)", "(cell 3 1 blue)", "(control red)")
	m.turns("(mark 1 2)", "(mark 2 2)", "(mark 3 2)")
	m.ends(false)
	m.turns("(mark 1 3)")
	m.ends(true, 100, 0, 0)

	t.Run("blue wins", func(t *testing.T) {
		m := startMatch(t, "threePlayerTicTacToe")
		m.turns("(mark 4 4)", "(mark 4 1)", "(mark 1 4)", "(mark 4 3)", "(mark 1 1)", "(mark 2 3)",
			"(mark 3 3)", "(mark 1 3)")
		m.ends(false)
		m.turns("(mark 3 2)")
		m.ends(true, 0, 0, 100)
	})
}

// hanoiMoves appends to moves the optimal moves of n discs from one peg to
// another by way of the third.
func hanoiMoves(moves []string, n int, from, to, via string) []string {
	if n == 0 {
		return moves
	}
	moves = hanoiMoves(moves, n-1, from, via, to)
	moves = append(moves, "(move "+from+" "+to+")")
	return hanoiMoves(moves, n-1, via, to, from)
}
