package prolog_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/conform"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// conformanceDir holds the reference traces recorded with ggp-base's
// prover; it is absent in a user's fresh clone.
var conformanceDir = gamestest.Conformance()

func load(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	return prolog.NewWithOptions(ctx, d, prolog.Options{})
}

// TestConformance replays every trace. With -short it replays the first
// playout of each, so that every game is still checked, in about a third
// of the time of the whole set (three minutes on two idle cores); under
// the race detector, the traces of a sample of the games
// (gamestest.Sample).
func TestConformance(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(conformanceDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(conformanceDir); errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared conformance traces")
	}
	if len(paths) == 0 {
		t.Fatal("no traces in", conformanceDir)
	}
	for i, path := range paths {
		if !gamestest.Sample(i) {
			continue
		}
		game := strings.TrimSuffix(filepath.Base(path), ".json")
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
			if err := conform.Check(ctx, path, tr, load); err != nil {
				t.Error(err)
			}
		})
	}
}
