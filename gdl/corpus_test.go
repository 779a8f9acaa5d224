package gdl

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/ggp-go/ggp/games"
)

// corpusRoot holds the public games, shared test data outside the repository.
const corpusRoot = "../../shared/games"

// loadCorpus returns the games of the shared corpus, or skips the test when
// the corpus is absent.
func loadCorpus(tb testing.TB) []*games.Game {
	tb.Helper()
	dirs, err := games.Corpus(corpusRoot)
	if errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("no game corpus at %s", corpusRoot)
	}
	if err != nil {
		tb.Fatal(err)
	}
	var gs []*games.Game
	for _, dir := range dirs {
		g, err := games.LoadFolder(dir)
		if err != nil {
			tb.Fatalf("%s: %v", filepath.Base(dir), err)
		}
		gs = append(gs, g)
	}
	return gs
}

// TestCorpusParses parses every public game.
func TestCorpusParses(t *testing.T) {
	gs := loadCorpus(t)
	if len(gs) < 300 {
		t.Errorf("corpus has %d games, want the 314 public games", len(gs))
	}
	for _, g := range gs {
		d, err := ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Errorf("%s: %v", g.Key, err)
			continue
		}
		if len(d.Rules) == 0 {
			t.Errorf("%s: no rules", g.Key)
		}
	}
}

// BenchmarkParseChess parses the largest classic game of the corpus.
func BenchmarkParseChess(b *testing.B) {
	g, err := games.LoadFolder(filepath.Join(corpusRoot, "chess"))
	if errors.Is(err, fs.ErrNotExist) {
		b.Skipf("no chess in the game corpus at %s", corpusRoot)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(g.Rules)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFile(g.Filename, g.Rules); err != nil {
			b.Fatal(err)
		}
	}
}
