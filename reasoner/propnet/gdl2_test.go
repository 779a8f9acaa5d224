package propnet_test

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// TestGDLIIRefused checks that the network refuses, with the reason, the
// GDL-II games the Prolog backend refuses too: those with rules the
// dialect gives no reading.
func TestGDLIIRefused(t *testing.T) {
	const game = "(role a) (role random) (init s) (legal random go) (<= terminal (true s)) (goal a 100)\n"
	tests := []struct {
		name, rules string
		want        string
	}{
		{"a rule with no reading", game + "(legal a go) (<= (next (c ?x)) (true s))", "test.kif:2:27: unsafe rule for next"},
		{"a percept with no reading", game + "(legal a go) (<= (sees a (c ?x)) (true s))", "test.kif:2:29: unsafe rule for sees"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := propnet.New(context.Background(), parse(t, tt.rules), propnet.Options{})
			if !errors.Is(err, propnet.ErrNotGrounded) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestGDLIIWithoutPercepts checks that a game with nature's role and no
// sees rules, such as guessSix, is played, and that no role perceives
// anything in it.
func TestGDLIIWithoutPercepts(t *testing.T) {
	ctx := context.Background()
	r, err := propnet.New(ctx, parse(t, `(role random) (role p) (init s)
(<= (legal random (roll ?n)) (num ?n)) (num 1) (num 2)
(<= (legal p (guess ?n)) (num ?n))
(<= (next won) (does random (roll ?n)) (does p (guess ?n)))
(<= terminal (true won)) (<= terminal (true s))
(goal random 100) (<= (goal p 100) (true won)) (<= (goal p 0) (not (true won)))`), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Initial(ctx)
	joint := []reasoner.Move{"(roll 1)", "(guess 1)"}
	for role := range 2 {
		ps, err := r.Sees(ctx, s, joint, role)
		if err != nil || len(ps) != 0 {
			t.Errorf("role %d sees %v, %v; want nothing", role, ps, err)
		}
	}
	if _, err := r.Sees(ctx, s, joint, 2); err == nil {
		t.Error("Sees of role 2 of 2: no error")
	}
	if _, err := r.Sees(ctx, s, joint[:1], 0); err == nil {
		t.Error("Sees of one move for two roles: no error")
	}
}

// TestBeatMania checks that the public GDL game that names a role random
// still grounds: it may be played as GDL-II, but it has no percepts and nothing
// the GDL-II dialect would read otherwise.
func TestBeatMania(t *testing.T) {
	g, err := games.LoadFolder(filepath.Join(gamestest.Games(), "beatMania"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no game corpus")
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
		t.Fatal("beatMania does not name a role random")
	}
	if _, err := propnet.New(context.Background(), d, propnet.Options{}); err != nil {
		t.Error(err)
	}
}

// TestGDLIIPercepts checks the percepts of a small game against what its
// rules say: a percept read from the state and the moves, one that reads
// the next state, keywords inside percepts, one relation name of two
// arities, and a sees rule the dialect repairs (its role unbound).
func TestGDLIIPercepts(t *testing.T) {
	ctx := context.Background()
	r, err := propnet.New(ctx, parse(t, `(role random) (role p) (init (at 0))
(<= (legal random (roll ?n)) (num ?n)) (num 1) (num 2)
(<= (legal p (guess ?n)) (num ?n))
(<= (next (at ?n)) (does random (roll ?n)))
(<= (next won) (does random (roll ?n)) (does p (guess ?n)))
(<= terminal (true won)) (<= terminal (true (at 2)))
(goal random 100) (<= (goal p 100) (true won)) (<= (goal p 0) (not (true won)))
(<= (sees ?r (does p ?m)) (does p ?m))
(<= (sees p (legal random (roll ?n))) (next (at ?n)))
(<= (sees p (tag ?n)) (tag ?n ?n) (true (at ?n)))
(<= (sees p (tag ?n ?n)) (tag ?n) (true (at ?n)))
(tag 0) (tag 1 1) (tag 0 0)
(<= (sees random hit) (next won))`), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Initial(ctx)
	tests := []struct {
		joint []reasoner.Move
		role  int
		want  []reasoner.Percept
	}{
		{[]reasoner.Move{"(roll 1)", "(guess 1)"}, 0, []reasoner.Percept{"(does p (guess 1))", "hit"}},
		{[]reasoner.Move{"(roll 1)", "(guess 2)"}, 0, []reasoner.Percept{"(does p (guess 2))"}},
		{[]reasoner.Move{"(roll 2)", "(guess 1)"}, 1, []reasoner.Percept{"(does p (guess 1))", "(legal random (roll 2))", "(tag 0 0)", "(tag 0)"}},
	}
	for _, tt := range tests {
		got, err := r.Sees(ctx, s, tt.joint, tt.role)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("role %d after %v sees %v, %v; want %v", tt.role, tt.joint, got, err, tt.want)
		}
	}
	if _, err := r.Sees(ctx, s, []reasoner.Move{"(roll 3)", "(guess 1)"}, 0); err == nil {
		t.Error("Sees of a move never legal: no error")
	}
	// The percepts are ready made: a call allocates their slice alone.
	// The race detector's instrumentation moves values to the heap, so
	// the count holds only without it.
	joint := tests[2].joint
	if n := testing.AllocsPerRun(100, func() { r.Sees(ctx, s, joint, 1) }); n > 1 && !gamestest.Race {
		t.Errorf("Sees allocates %v times a call, want at most once", n)
	}
}

// TestGamesIIAgainstProlog plays random matches of every public GDL-II
// game on the network and on the Prolog backend, nature's role played
// like any other, and compares at every step every role's legal moves and
// percepts, the next state, terminal and the goals (compare). A game of pastBudgetII may be
// past the network's grounding budget; it is compared when it grounds.
// With -short it plays fewer matches.
func TestGamesIIAgainstProlog(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	playouts, maxSteps := 4, 1000
	if testing.Short() {
		playouts = 2
	}
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gdl.ParseFile(file, src)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			pn, errn := propnet.New(ctx, d, propnet.Options{})
			pl, errl := prolog.NewWithOptions(ctx, d, prolog.Options{})
			if errors.Is(errn, propnet.ErrBudget) && errl == nil && slices.Contains(pastBudgetII, key) {
				t.Logf("not grounded, past the budget: %v", errn)
				return
			}
			if errn != nil || errl != nil {
				t.Fatalf("not loaded: network %v, prolog %v", errn, errl)
			}
			var total compared
			for p := range playouts {
				rng := rand.New(rand.NewPCG(uint64(p), uint64(len(key))))
				n, err := compare(ctx, pn, pl, rng, maxSteps)
				total.steps += n.steps
				total.percepts += n.percepts
				if err != nil {
					t.Fatalf("playout %d: %v", p+1, err)
				}
			}
			t.Logf("%s: %d playouts, %d steps, %d non-empty percept sets agreed", key, playouts, total.steps, total.percepts)
		})
	}
}

// pastBudgetII are the public GDL-II games the network does not ground
// within its default budget. small_dominion: nature deals a hand as
// (deal ?player ?a ?b ?c), any three distinct positions below the deck's
// size, which the relaxed fixpoint lets grow to 90 (the end of its ++
// table): over a million moves of nature, each joined by the rule of the
// hand's money with three cards of the deck, past the limit on the
// literals of rule instances.
var pastBudgetII = []string{"small_dominion"}
