package difftest_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	"github.com/ggp-go/ggp/reasoner/internal/difftest"
	"github.com/ggp-go/ggp/reasoner/internal/gamegen"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// backends are the evaluation paths compared: the first is the reference.
// A new backend is compared by adding it here.
var backends = []difftest.Backend{
	{Name: "prolog", New: prologWith(prolog.Options{})},
	{Name: "prolog-plain", New: prologWith(prolog.Options{Plain: true}), MayGiveUp: true},
	{Name: "propnet", New: func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		return propnet.New(ctx, d, propnet.Options{})
	}, Declines: propnet.ErrNotGrounded},
}

func prologWith(opts prolog.Options) reasoner.Factory {
	return func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		return prolog.NewWithOptions(ctx, d, opts)
	}
}

// generatedGames is how many generated games TestGenerated compares; -short
// compares shortGeneratedGames. DIFFTEST_GAMES and DIFFTEST_FIRST override
// both, for long runs: DIFFTEST_GAMES=10000 go test -run TestGenerated.
const (
	generatedGames      = 3000
	shortGeneratedGames = 500
)

// TestGenerated compares the backends on generated games; under the race
// detector, a sample of them (gamestest.Sample), each given raceScale
// times the time, since the detector makes the comparison 5 to 10 times
// slower and the test fails when too many games are not compared to the
// end.
func TestGenerated(t *testing.T) {
	n, first := generatedGames, uint64(0)
	if testing.Short() {
		n = shortGeneratedGames
	}
	if s := os.Getenv("DIFFTEST_GAMES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			t.Fatalf("DIFFTEST_GAMES=%q: %v", s, err)
		}
	}
	if s := os.Getenv("DIFFTEST_FIRST"); s != "" {
		if _, err := fmt.Sscan(s, &first); err != nil {
			t.Fatalf("DIFFTEST_FIRST=%q: %v", s, err)
		}
	}
	unfinished, compared := 0, 0
	for seed := first; seed < first+uint64(n); seed++ {
		if !gamestest.Sample(int(seed - first)) {
			continue
		}
		compared++
		if !compareGenerated(t, seed) {
			unfinished++
		}
	}
	t.Logf("%d generated games from seed %d: no disagreement (%d compared only up to the %v deadline or a give-up)", compared, first, unfinished, gameTime())
	if unfinished > compared/20 {
		t.Errorf("%d of %d games were not compared to the end: the generator makes games too costly to compare", unfinished, compared)
	}
}

// compareGenerated compares the backends on the game of seed, failing t
// on a disagreement. It reports false when the comparison ended early: the
// plain interpreter proves every call afresh, and on a few games it takes
// seconds a state, so each game is compared up to a deadline.
func compareGenerated(t *testing.T, seed uint64) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), gameTime())
	defer cancel()
	err := difftest.CheckSeed(ctx, seed, backends, difftest.Config{})
	var gaveUp *difftest.GaveUp
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &gaveUp) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}

// perGame bounds the time spent comparing one generated game; raceScale
// multiplies it under the race detector.
const (
	perGame   = 2 * time.Second
	raceScale = 5
)

// gameTime returns the time given to comparing one generated game.
func gameTime() time.Duration {
	if gamestest.Race {
		return raceScale * perGame
	}
	return perGame
}

// FuzzGenerated searches generator seeds for a game the backends disagree
// on: go test -fuzz FuzzGenerated ./reasoner/internal/difftest.
func FuzzGenerated(f *testing.F) {
	for seed := range uint64(4) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		compareGenerated(t, seed)
	})
}

// TestRegressions compares the backends on the games kept in testdata,
// each a game on which they once disagreed, or the shape of a bug found
// otherwise.
func TestRegressions(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.kif")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no regression games in testdata")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gdl.ParseFile(path, src)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(5) {
				if err := difftest.Compare(context.Background(), d, backends, difftest.Config{Seed: seed}); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// sharedGames is the corpus of public games; absent in a user's clone.
var sharedGames = gamestest.Games()

// TestCorpus compares the backends on every public game. The plain
// interpreter is slow on the large games, so -short leaves it out; under
// the race detector it compares a sample of the games (gamestest.Sample).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain interpreter takes minutes on the corpus")
	}
	dirs, err := os.ReadDir(sharedGames)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared games")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, dir := range dirs {
		if !dir.IsDir() || !gamestest.Sample(i) {
			continue
		}
		t.Run(dir.Name(), func(t *testing.T) {
			// Every corpus game loads and parses (gdl's TestCorpus): a
			// failure here is a regression, not a game to leave out.
			g, err := games.LoadFolder(filepath.Join(sharedGames, dir.Name()))
			if err != nil {
				t.Fatal("not loaded:", err)
			}
			d, err := gdl.ParseFile(g.Filename, g.Rules)
			if err != nil {
				t.Fatal("not parsed:", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), perCorpusGame)
			defer cancel()
			err = difftest.Compare(ctx, d, backends, difftest.Config{Playouts: 1})
			var gaveUp *difftest.GaveUp
			if errors.As(err, &gaveUp) || errors.Is(err, context.DeadlineExceeded) {
				// Compared up to there; the plain interpreter recurses
				// around cycles to its depth limit, and is slow.
				t.Logf("compared until: %v", err)
				return
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// perCorpusGame bounds the time spent comparing one public game: the
// plain interpreter takes minutes a state on the large ones.
const perCorpusGame = 10 * time.Second

// brokenLegal is a backend that loses the last legal move of every role
// that has several: a bug the comparison must catch.
type brokenLegal struct{ reasoner.Reasoner }

func (b brokenLegal) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	ms, err := b.Reasoner.Legal(ctx, s, role)
	if len(ms) > 1 {
		ms = ms[:len(ms)-1]
	}
	return ms, err
}

// TestCatchesBrokenBackend checks that a wrong backend is caught on
// generated games, reported with the seed and the game, and shrunk.
func TestCatchesBrokenBackend(t *testing.T) {
	broken := []difftest.Backend{backends[0], {Name: "broken", New: func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
		return brokenLegal{r}, err
	}}}
	ctx := context.Background()
	for seed := range uint64(50) {
		err := difftest.CheckSeed(ctx, seed, broken, difftest.Config{})
		if err == nil {
			continue
		}
		var d *difftest.Disagreement
		if !errors.As(err, &d) || !strings.HasPrefix(d.Question, "legal moves of") {
			t.Fatalf("seed %d: %v, want a disagreement on legal moves", seed, err)
		}
		g, _ := gamegen.Generate(seed)
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("seed %d", seed)) || !strings.Contains(msg, g.Text) {
			t.Errorf("the report does not hold the seed and the game:\n%s", msg)
		}
		if !strings.Contains(msg, "--- shrunk to ") {
			t.Errorf("no shrunk game in the report:\n%s", msg)
		}
		t.Logf("caught at seed %d:\n%s", seed, msg[strings.Index(msg, "--- shrunk"):])
		return
	}
	t.Fatal("a backend losing legal moves agreed with the reference on 50 games")
}

// TestDeclines checks that a backend refusing a game with its Declines
// error is left out, the others still compared, while any other load
// failure of it is a disagreement.
func TestDeclines(t *testing.T) {
	d, err := gdl.ParseFile("tiny.kif", []byte(`(role p) (init (s 0)) (<= (legal p go) (true (s 0)))
(<= (next (s 1)) (does p go)) (<= terminal (true (s 1))) (goal p 100)`))
	if err != nil {
		t.Fatal(err)
	}
	errTooBig := errors.New("too big")
	refuse := func(err error) reasoner.Factory {
		return func(context.Context, *gdl.Description) (reasoner.Reasoner, error) {
			return nil, fmt.Errorf("tiny.kif: %w", err)
		}
	}
	for _, tt := range []struct {
		name     string
		loadErr  error
		disagree bool
	}{
		{"declines", errTooBig, false},
		{"fails otherwise", errors.New("broken"), true},
	} {
		bs := append(slices.Clone(backends[:2]), difftest.Backend{Name: "refuses", New: refuse(tt.loadErr), Declines: errTooBig})
		err := difftest.Compare(context.Background(), d, bs, difftest.Config{Playouts: 1})
		var dis *difftest.Disagreement
		if got := errors.As(err, &dis); got != tt.disagree {
			t.Errorf("%s: Compare = %v, want a disagreement: %v", tt.name, err, tt.disagree)
		}
	}
}

// generatedGamesII is how many generated GDL-II games TestGeneratedII
// compares; -short compares shortGeneratedGamesII. The full count:
// go test -run TestGeneratedII ./reasoner/internal/difftest.
const (
	generatedGamesII      = 1000
	shortGeneratedGamesII = 100
)

// TestGeneratedII compares the backends on generated GDL-II games
// (gamegen.GenerateII): nature's role played like any other, and every
// role's percepts compared at every step besides the GDL questions.
func TestGeneratedII(t *testing.T) {
	n := generatedGamesII
	if testing.Short() {
		n = shortGeneratedGamesII
	}
	var counts difftest.Counts
	unfinished, compared := 0, 0
	for seed := range uint64(n) {
		if !gamestest.Sample(int(seed)) {
			continue
		}
		compared++
		ctx, cancel := context.WithTimeout(context.Background(), gameTime())
		err := difftest.CheckSeed(ctx, seed, backends, difftest.Config{GDLII: true, Counts: &counts})
		cancel()
		var gaveUp *difftest.GaveUp
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &gaveUp) {
			unfinished++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d generated GDL-II games: no disagreement in %d steps, %d percept sets (%d not empty); %d compared only up to the %v deadline or a give-up",
		compared, counts.Steps, counts.Percepts, counts.Seen, unfinished, gameTime())
	if unfinished > compared/20 {
		t.Errorf("%d of %d games were not compared to the end: the generator makes games too costly to compare", unfinished, compared)
	}
	if counts.Seen < counts.Percepts/10 {
		t.Errorf("only %d of %d percept sets compared were not empty: the generated sees rules hardly ever hold", counts.Seen, counts.Percepts)
	}
}

// TestGamesII compares the backends on the public GDL-II games, nature's
// role played like any other, percepts compared at every step; a game past
// the network's grounding budget is compared without it. The plain
// interpreter takes seconds a state on bigMoney and small_dominion: -short
// leaves it out.
func TestGamesII(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	playouts, compared := 3, backends
	if testing.Short() {
		playouts = 1
		compared = slices.DeleteFunc(slices.Clone(backends), func(b difftest.Backend) bool { return b.MayGiveUp })
	}
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		t.Run(key, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gdl.ParseFile(file, src)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), perGameII)
			defer cancel()
			var counts difftest.Counts
			err = difftest.Compare(ctx, d, compared, difftest.Config{Playouts: playouts, MaxSteps: 1000, Counts: &counts})
			var gaveUp *difftest.GaveUp
			if errors.As(err, &gaveUp) || errors.Is(err, context.DeadlineExceeded) {
				t.Logf("compared until: %v", err)
			} else if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d steps, %d percept sets (%d not empty) agreed", counts.Steps, counts.Percepts, counts.Seen)
		})
	}
}

// perGameII bounds the time spent comparing one public GDL-II game.
const perGameII = 30 * time.Second

// brokenSees is a backend that loses the last percept of every role that
// has several: a bug the comparison must catch.
type brokenSees struct{ *prolog.Reasoner }

func (b brokenSees) Sees(ctx context.Context, s *reasoner.State, joint []reasoner.Move, role int) ([]reasoner.Percept, error) {
	ps, err := b.Reasoner.Sees(ctx, s, joint, role)
	if len(ps) > 1 {
		ps = ps[:len(ps)-1]
	}
	return ps, err
}

// TestCatchesBrokenPercepts checks that a backend wrong on percepts alone
// is caught on generated GDL-II games.
func TestCatchesBrokenPercepts(t *testing.T) {
	broken := []difftest.Backend{backends[0], {Name: "broken", New: func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
		return brokenSees{r}, err
	}}}
	ctx := context.Background()
	for seed := range uint64(50) {
		err := difftest.CheckSeed(ctx, seed, broken, difftest.Config{GDLII: true})
		if err == nil {
			continue
		}
		var d *difftest.Disagreement
		if !errors.As(err, &d) || !strings.HasPrefix(d.Question, "percepts of") {
			t.Fatalf("seed %d: %v, want a disagreement on percepts", seed, err)
		}
		g, _ := gamegen.GenerateII(seed)
		if msg := err.Error(); !strings.Contains(msg, g.Text) {
			t.Errorf("the report does not hold the GDL-II game of the seed:\n%s", msg)
		}
		return
	}
	t.Fatal("a backend losing percepts agreed with the reference on 50 GDL-II games")
}
