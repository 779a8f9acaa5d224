package propnet_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
// ones. The traces of games that do not ground within the budget are
// left out, and counted: more than tracesNotGroundedBound fails the test
// (the Prolog backend plays those games).
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
	var left notGrounded
	t.Cleanup(func() { left.check(t, "traces", tracesNotGroundedBound()) })
	for i, path := range paths {
		game := strings.TrimSuffix(filepath.Base(path), ".json")
		if (testing.Short() && i%3 != 0 || !gamestest.Sample(i)) && !slices.Contains(benchmarked, game) {
			continue
		}
		left.checked++
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
				left.add(game, err)
				return
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// Bounds on the traces TestConformance leaves out, their games not
// grounded (see notGrounded): with every trace at groundBudget, 3 of the
// 240 (laikLee_hex, merrills and sudoku, past the size limits at any
// load), and chess, alexChess and slaughter, 7 to 8 s to ground, go on a
// loaded machine; with -short, every third trace and the benchmarked ones
// at shortBudget, 2 of the 84 on a quiet machine (alexChess, slaughter),
// 5 on a busy one (chess_200, gt_two_thirds_4p and hex as well).
const (
	maxTracesNotGrounded      = 10
	maxTracesNotGroundedShort = 12
)

// tracesNotGroundedBound returns the bound on the traces left out for
// this run.
func tracesNotGroundedBound() int {
	if testing.Short() {
		return maxTracesNotGroundedShort
	}
	return maxTracesNotGrounded
}

// notGrounded lists the games a corpus test left out because the network
// did not ground them within their budget (load), for the test to bound.
// A game near the budget grounds or not with how busy the machine is
// (go test ./... runs packages side by side, and these tests run games in
// parallel), so each bound is what its run leaves out on a quiet machine
// and room for the games near the budget that a busy one leaves out as
// well. A regression that keeps many games from grounding, or slows
// grounding across the corpus, goes past it; a game or two lost show in
// the list logged and in the coverage figures (TestCoverage).
type notGrounded struct {
	checked int // games (or traces) the test checks; set before they run
	mu      sync.Mutex
	games   []string // "game: error"
}

// add records that the network did not ground game, with err.
func (n *notGrounded) add(game string, err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.games = append(n.games, game+": "+err.Error())
}

// check logs the games left out of the n.checked ones (what names them),
// and fails t when they are more than bound. Under the race detector,
// which makes grounding 5 to 10 times slower, the budget measures the
// detector rather than the network: the games are listed, not bounded.
func (n *notGrounded) check(t *testing.T, what string, bound int) {
	t.Helper()
	n.mu.Lock()
	defer n.mu.Unlock()
	slices.Sort(n.games)
	t.Logf("%d of the %d %s checked left out, the network not grounding their game within the budget (at most %d allowed):\n%s",
		len(n.games), n.checked, what, bound, strings.Join(n.games, "\n"))
	if !gamestest.Race && len(n.games) > bound {
		t.Errorf("%d %s left out, the network not grounding their game: more than the %d allowed", len(n.games), what, bound)
	}
}
