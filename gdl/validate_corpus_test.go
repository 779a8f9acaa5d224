package gdl_test

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
)

// validateCorpus is the public game corpus beside the checkout.
var validateCorpus = gamestest.Games()

// TestValidateCorpus validates the newest version of every public game and
// compares each problem with the verdicts recorded, after checking each one
// against the game text, in testdata/validate/corpus.txt. A change in any
// verdict fails the test and lists the lines that differ.
func TestValidateCorpus(t *testing.T) {
	dirs, err := games.Corpus(validateCorpus)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no game corpus at %s", validateCorpus)
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := readVerdicts(filepath.Join("testdata", "validate", "corpus.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	withErrors, withWarnings := 0, 0
	for _, dir := range dirs {
		g, err := games.LoadFolder(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Errorf("%s: %v", g.Key, err)
			continue
		}
		hasError, hasWarning := false, false
		for _, p := range gdl.Validate(d) {
			if p.Pos.Filename != g.Filename {
				t.Errorf("%s: problem names file %q, want %q", g.Key, p.Pos.Filename, g.Filename)
			}
			hasError = hasError || p.Severity == gdl.SeverityError
			hasWarning = hasWarning || p.Severity == gdl.SeverityWarning
			got = append(got, fmt.Sprintf("%s %d:%d %s %s: %s", g.Key, p.Pos.Line, p.Pos.Column, p.Severity, p.Code, p.Msg))
		}
		if hasError {
			withErrors++
		}
		if hasWarning {
			withWarnings++
		}
	}
	t.Logf("%d games: %d with errors, %d with warnings", len(dirs), withErrors, withWarnings)
	for _, line := range got {
		if !slices.Contains(want, line) {
			t.Errorf("new verdict: %s", line)
		}
	}
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("verdict gone: %s", line)
		}
	}
}

// readVerdicts returns the lines of a verdict file, without comments and
// blank lines.
func readVerdicts(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return lines, sc.Err()
}
