package mctsplayer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/determinizer"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/reasoner"
)

// A gdl2Seat is a player of a GDL-II match as playGDLII runs it.
type gdl2Seat interface {
	Start(ctx context.Context, m *player.Match) error
	PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error)
	StopTurn(ctx context.Context, id string, t player.Turn) error
}

// A truthSeat is told the true state before each turn: a cheat
// (determinizer.Options.Cheat).
type truthSeat interface {
	ShowTruth(id string, s *reasoner.State) error
}

// gdl2Result is the outcome of a match playGDLII ran.
type gdl2Result struct {
	goals []int
	// faults lists each answer that was an error, illegal or later than
	// the play clock and grace, by step and role; the move played then is
	// a random legal one.
	faults []string
}

// playGDLII plays a match of d as a GDL-II game master does: nature moves
// at random, every other role's seat chooses from its turn, told only its
// own move and percepts, and all of them think at once, as they do on a
// server. A seat's answer must be legal in the true state and in time.
func playGDLII(t testing.TB, d *gdl.Description, seats []gdl2Seat, start, play time.Duration, seed uint64) gdl2Result {
	t.Helper()
	ctx := context.Background()
	r, err := testFactory(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	seer := r.(reasoner.Perceiver)
	roles := r.Roles()
	rng := rand.New(rand.NewPCG(seed, 0x6d61746368))
	id := fmt.Sprintf("m%d", seed)
	var res gdl2Result
	fault := func(step, i int, format string, args ...any) {
		res.faults = append(res.faults, fmt.Sprintf("step %d: %s: %s", step, roles[i], fmt.Sprintf(format, args...)))
	}
	each := func(f func(i int, s gdl2Seat)) {
		var wg sync.WaitGroup
		for i, s := range seats {
			if s != nil {
				wg.Go(func() { f(i, s) })
			}
		}
		wg.Wait()
	}
	each(func(i int, s gdl2Seat) {
		sctx, cancel := context.WithTimeout(ctx, start)
		defer cancel()
		if err := s.Start(sctx, &player.Match{ID: id, Role: roles[i], Rules: d, StartClock: start, PlayClock: play, GDLII: true}); err != nil {
			t.Errorf("start: %s: %v", roles[i], err)
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	turns := make([]player.Turn, len(roles))
	s, err := r.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; ; step++ {
		if done, err := r.Terminal(ctx, s); err != nil || done {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if step > 500 {
			t.Fatal("no end after 500 steps")
		}
		legal := make([][]reasoner.Move, len(roles))
		for i := range roles {
			if legal[i], err = r.Legal(ctx, s, i); err != nil {
				t.Fatal(err)
			}
		}
		joint := make([]reasoner.Move, len(roles))
		var mu sync.Mutex
		each(func(i int, seat gdl2Seat) {
			if c, ok := seat.(truthSeat); ok {
				if err := c.ShowTruth(id, s); err != nil {
					t.Error(err)
				}
			}
			pctx, cancel := context.WithTimeout(ctx, play)
			defer cancel()
			began := time.Now()
			mv, err := seat.PlayTurn(pctx, id, turns[i])
			took := time.Since(began)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				fault(step, i, "%v", err)
			case took > play+grace:
				fault(step, i, "answered after %v", took)
			case !slices.Contains(legal[i], mv):
				fault(step, i, "played %s, not legal", mv)
			default:
				joint[i] = mv
			}
		})
		for i := range roles {
			if joint[i] == "" {
				joint[i] = legal[i][rng.IntN(len(legal[i]))]
			}
		}
		for i := range roles {
			ps, err := seer.Sees(ctx, s, joint, i)
			if err != nil {
				t.Fatal(err)
			}
			turns[i] = player.Turn{Number: step + 1, Move: joint[i], Percepts: ps}
		}
		if os.Getenv("GGP_GDL2_TRACE") != "" {
			t.Logf("step %d: %v %v", step+1, joint, turns)
		}
		if s, err = r.Next(ctx, s, joint); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("GGP_GDL2_TRACE") != "" {
		t.Logf("end: %v", s)
	}
	each(func(i int, seat gdl2Seat) {
		if err := seat.StopTurn(ctx, id, turns[i]); err != nil {
			t.Errorf("stop: %s: %v", roles[i], err)
		}
	})
	// Nature has no goal in some games (pennies), and kriegTTT gives
	// several where both players complete a line: the game master settles
	// them.
	goals, err := r.Goals(ctx, s)
	if goals == nil {
		t.Fatalf("goals: %v", err)
	}
	if ge := (*reasoner.GoalError)(nil); errors.As(err, &ge) {
		goals, _, err = gamemaster.FirstGoals(ctx, d, s, roles, goals, ge)
	}
	for i, g := range goals {
		if g < 0 && roles[i] != reasoner.Nature {
			t.Fatalf("goals: %v", err)
		}
	}
	res.goals = goals
	return res
}

// newDeterminizer returns the determinizing baseline (package
// determinizer) on the players' backend, shown the true state with cheat,
// searching so many iterations a move when iterations is positive.
func newDeterminizer(cheat bool, iterations int) *determinizer.Player {
	return determinizer.New(determinizer.Options{NewReasoner: testFactory, Cheat: cheat,
		Search: ismcts.Config{Iterations: iterations}})
}

// BenchmarkStrengthGDLII measures mcts against an opponent in GDL-II
// games, both roles: every iteration plays one match of every game in
// every role, and the benchmark reports mcts's mean goal in each game
// with the half-width of its 95% interval. The opponent and the games
// come from the environment; -benchtime sets the matches per role:
//
//	GGP_GDL2_OPPONENT=sample GGP_GDL2_GAMES=kriegTTT_4x4,blind_breakthrough_5x5 \
//	go test -run '^$' -bench StrengthGDLII -benchtime 30x -timeout 5h ./player/mctsplayer/
//
// The opponent is random, sample (a determinizer: one state drawn from its
// view, searched as if it were the true one) or cheat (a determinizer
// shown the true state). GGP_GDL2_OURS=sample or cheat seats that
// determinizer in mcts's place, to see what the game gives a role between
// equal players; GGP_GDL2_PLAYER=mcts:SETTINGS sets mcts's settings;
// GGP_GDL2_ITERATIONS=N makes every searching player search N iterations
// a move, whatever the machine's load (ismcts.Config.Iterations), the
// clocks then only bounding a player that hangs; GGP_GDL2_TRACE=1 logs
// every step. The clocks are 5 s and 1 s, or a minute each with
// GGP_GDL2_ITERATIONS. It fails on any fault of mcts: an error, an
// illegal move or an answer after the clock.
func BenchmarkStrengthGDLII(b *testing.B) {
	opponent := cmp.Or(os.Getenv("GGP_GDL2_OPPONENT"), "sample")
	keys := strings.Split(cmp.Or(os.Getenv("GGP_GDL2_GAMES"), "kriegTTT_4x4,blind_breakthrough_5x5"), ",")
	start, play := 5*time.Second, time.Second
	iterations := 0
	if v := os.Getenv("GGP_GDL2_ITERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("GGP_GDL2_ITERATIONS=%q: want a positive number", v)
		}
		iterations, start, play = n, time.Minute, time.Minute
	}
	type game struct {
		key     string
		d       *gdl.Description
		players []int   // the roles a player takes, not nature's
		goals   [][]int // of mcts, per role
	}
	var games []*game
	for _, key := range keys {
		g := &game{key: key, d: loadGameII(b, key)}
		for i, r := range g.d.Roles() {
			if r != reasoner.Nature {
				g.players = append(g.players, i)
			}
		}
		g.goals = make([][]int, len(g.d.Roles()))
		games = append(games, g)
	}
	for k := 0; b.Loop(); k++ {
		for _, g := range games {
			roles := g.d.Roles()
			for _, ours := range g.players {
				seats := make([]gdl2Seat, len(roles))
				for _, i := range g.players {
					switch {
					case i == ours && os.Getenv("GGP_GDL2_OURS") != "":
						seats[i] = newDeterminizer(os.Getenv("GGP_GDL2_OURS") == "cheat", iterations)
					case i == ours:
						seats[i] = newPlayer(b, cmp.Or(os.Getenv("GGP_GDL2_PLAYER"), "mcts"), Options{Log: testLog(b), GDLIISearch: ismcts.Config{Iterations: iterations}}).(gdl2Seat)
					case opponent == "random":
						seats[i] = newPlayer(b, "random", Options{}).(gdl2Seat)
					default:
						seats[i] = newDeterminizer(opponent == "cheat", iterations)
					}
				}
				res := playGDLII(b, g.d, seats, start, play, uint64(k+1))
				for _, f := range res.faults {
					if strings.Contains(f, ": "+roles[ours]+": ") {
						b.Errorf("%s: mcts as %s: %s", g.key, roles[ours], f)
					} else {
						b.Logf("%s: opponent fault: %s", g.key, f)
					}
				}
				g.goals[ours] = append(g.goals[ours], res.goals[ours])
				b.Logf("%s %d: mcts as %s against %s: goals %v", g.key, k+1, roles[ours], opponent, res.goals)
			}
		}
	}
	for _, g := range games {
		var all []int
		for _, ours := range g.players {
			mean, half := meanCI95(g.goals[ours])
			b.Logf("RESULT %s: mcts as %s against %s: %d matches, mean goal %.1f ± %.1f", g.key, g.d.Roles()[ours], opponent, len(g.goals[ours]), mean, half)
			all = append(all, g.goals[ours]...)
		}
		mean, half := meanCI95(all)
		b.Logf("RESULT %s: mcts against %s, all roles: %d matches, mean goal %.1f ± %.1f", g.key, opponent, len(all), mean, half)
		b.ReportMetric(mean, "goal/"+g.key)
		b.ReportMetric(half, "goal-ci95/"+g.key)
	}
}
