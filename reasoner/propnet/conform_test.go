package propnet_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/conform"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// conformanceDir holds the reference traces recorded with ggp-base's
// prover; it is absent in a user's fresh clone.
var conformanceDir = gamestest.Conformance()

// groundBudget is the time a game gets to ground, as in the coverage
// figures; shortBudget, with -short, which leaves out the largest games.
const (
	groundBudget = 10 * time.Second
	shortBudget  = 3 * time.Second
)

func load(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	budget := groundBudget
	if testing.Short() {
		budget = shortBudget
	}
	// On a loaded machine the games near the budget skip; a longer one
	// checks them too.
	if b, err := time.ParseDuration(os.Getenv("GGP_PROPNET_BUDGET")); err == nil {
		budget = b
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	return propnet.New(ctx, d, propnet.Options{})
}

// benchmarked are the games the speed targets are set on: -short always
// checks them.
var benchmarked = []string{"ticTacToe", "connectFour", "breakthrough", "hanoi", "eightPuzzle"}

// TestConformance replays every trace of a game that grounds. With -short
// it replays the first playout of every third trace and of the benchmarked
// games, and gives grounding less time; under the race detector, every
// trace of a sample of the games (gamestest.Sample) and of the benchmarked
// ones. Games that do not ground within the budget are listed, not
// failed: the Prolog backend plays them.
func TestConformance(t *testing.T) {
	if _, err := os.Stat(conformanceDir); errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared conformance traces")
	}
	paths, err := filepath.Glob(filepath.Join(conformanceDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no traces in", conformanceDir)
	}
	var mu sync.Mutex
	var skipped []string
	t.Cleanup(func() {
		sort.Strings(skipped)
		t.Logf("%d of %d traces skipped, their games not grounded:\n%s", len(skipped), len(paths), strings.Join(skipped, "\n"))
	})
	for i, path := range paths {
		game := strings.TrimSuffix(filepath.Base(path), ".json")
		if (testing.Short() && i%3 != 0 || !gamestest.Sample(i)) && !slices.Contains(benchmarked, game) {
			continue
		}
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			tr, err := conform.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if testing.Short() && len(tr.Playouts) > 1 {
				tr.Playouts = tr.Playouts[:1]
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			err = conform.Check(ctx, path, tr, load)
			var m *conform.Mismatch
			if err != nil && !errors.As(err, &m) && errors.Is(err, propnet.ErrNotGrounded) {
				mu.Lock()
				skipped = append(skipped, game+": "+err.Error())
				mu.Unlock()
				return
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}
