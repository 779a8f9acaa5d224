// Package gamestest holds what the tests across the tree share. It finds
// the shared test data: the public game corpus and the reference traces
// in the folder shared beside the checkout (../shared/games and
// ../shared/conformance from the module root). Tests call it instead of
// spelling out a path relative to their own package, and skip when the
// folder is absent, as in a user's fresh clone. It also says whether the
// race detector is on (Race), scales the wall-clock budgets tests give
// the code under test for a slow run (Scale), and checks that the code under test left
// no goroutine behind (NoGoroutines).
package gamestest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// Games returns the folder of the public game corpus, one folder per game
// in the layout of the GGP game repository. It may not exist.
func Games() string { return dir("games") }

// Conformance returns the folder of the reference traces recorded with
// ggp-base's prover, one JSON file per game. It may not exist.
func Conformance() string { return dir("conformance") }

// GamesII returns the folder of the public GDL-II games, one folder per
// game holding its rulesheet <key>.kif. It may not exist.
func GamesII() string { return dir("games-ii") }

// GamesIIFiles returns the rulesheet of every public GDL-II game, sorted by
// key: none when the folder is absent.
func GamesIIFiles() []string {
	files, _ := filepath.Glob(filepath.Join(GamesII(), "*", "*.kif"))
	sort.Strings(files)
	return files
}

// ReadGameII returns the rulesheet of the public GDL-II game key and its
// path, and skips the test when the GDL-II games are absent.
func ReadGameII(t testing.TB, key string) (file string, src []byte) {
	t.Helper()
	file = filepath.Join(GamesII(), key, key+".kif")
	src, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("no GDL-II game at %s", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	return file, src
}

// dir returns ../shared/name beside the module root, relative to the
// working directory, which for a test is its package's directory.
func dir(name string) string {
	root := moduleRoot()
	if root == "" {
		return filepath.Join("..", "shared", name)
	}
	return filepath.Join(root, "..", "shared", name)
}

// moduleRoot returns the nearest directory at or above the working
// directory that holds go.mod, relative to the working directory, or "".
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	rel := "."
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return rel
		}
		if filepath.Dir(d) == d {
			return ""
		}
		rel = filepath.Join(rel, "..")
	}
}

// RaceStride is the share of the corpus a sweeping test checks under the
// race detector: every RaceStride-th game. See Sample.
const RaceStride = 8

// Sample reports whether a test that sweeps the corpus (or many generated
// games) checks its i-th game in this run: always, but under the race
// detector only every RaceStride-th one. The race detector looks for
// concurrency bugs, which a sample of games shows as well as the whole
// corpus, while it makes each game 5 to 10 times slower, so that the
// sweeps alone would take hours on two cores. The whole corpus is checked
// by the run without -race, and the race run stays within about 25
// minutes (docs/conformance.md).
func Sample(i int) bool {
	return !Race || i%RaceStride == 0
}

// JointMoves returns every joint move made of one move of each role's
// legal moves, in order; none when legal is empty (a terminal state). It
// is generic in the move type so that this package, which the gdl
// package's tests import, does not import the reasoner.
func JointMoves[Move any](legal [][]Move) [][]Move {
	if len(legal) == 0 {
		return nil
	}
	out := [][]Move{nil}
	for _, moves := range legal {
		var grown [][]Move
		for _, j := range out {
			for _, m := range moves {
				grown = append(grown, append(slices.Clip(j), m))
			}
		}
		out = grown
	}
	return out
}
