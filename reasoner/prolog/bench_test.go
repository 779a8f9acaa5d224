package prolog_test

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

var sharedGames = gamestest.Games()

// benchmarkPlayouts measures random playouts from the initial state; each
// b.N is one playout, and states/s is reported alongside.
func benchmarkPlayouts(b *testing.B, g *games.Game) {
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		b.Fatal(err)
	}
	r, err := prolog.New(d)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []reasoner.Move
	steps := 0
	b.ResetTimer()
	for b.Loop() {
		_, n, err := reasoner.Playout(ctx, r, s0, rng, 10000, moves)
		if err != nil {
			b.Fatal(err)
		}
		steps += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rollouts/s")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkBundled measures every game bundled with ggp.
func BenchmarkBundled(b *testing.B) {
	for _, g := range games.Bundled() {
		b.Run(g.Key, func(b *testing.B) { benchmarkPlayouts(b, g) })
	}
}

// BenchmarkCorpus measures the games the speed targets are set on, from the
// shared corpus.
func BenchmarkCorpus(b *testing.B) {
	for _, key := range []string{"ticTacToe", "connectFour", "breakthrough", "hanoi", "eightPuzzle", "chess", "dotsAndBoxes", "reversi"} {
		b.Run(key, func(b *testing.B) {
			g, err := games.LoadFolder(filepath.Join(sharedGames, key))
			if errors.Is(err, fs.ErrNotExist) {
				b.Skip("no shared game corpus")
			}
			if err != nil {
				b.Fatal(err)
			}
			benchmarkPlayouts(b, g)
		})
	}
}
