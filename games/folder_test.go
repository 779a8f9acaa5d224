package games

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games/gamestest"
)

// sharedGames is the public game corpus beside the checkout. Tests that use
// it skip when it is absent, as in a user's fresh clone.
var sharedGames = gamestest.Games()

func TestLoadFolderCorpus(t *testing.T) {
	dirs, err := Corpus(sharedGames)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared game corpus")
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 314 {
		t.Errorf("corpus has %d games, want 314", len(dirs))
	}
	for _, dir := range dirs {
		g, err := LoadFolder(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if !strings.Contains(strings.ToLower(string(g.Rules)), "role") {
			t.Errorf("%s: rules read from %s name no role", dir, g.Filename)
		}
	}
}

func TestLoadFolderNewestVersion(t *testing.T) {
	dir := filepath.Join(sharedGames, "3pttc")
	g, err := LoadFolder(dir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared game corpus")
	}
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "v1", "3pttc.kif"); g.Filename != want {
		t.Errorf("rules read from %s, want %s", g.Filename, want)
	}
}
