package gdl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
)

// The public games and the reference traces: shared test data outside the
// repository.
var (
	corpusRoot      = gamestest.Games()
	conformanceRoot = gamestest.Conformance()
)

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

// TestCorpus parses every public game, prints it and parses the print
// again, which must give the same description but for positions.
func TestCorpus(t *testing.T) {
	gs := loadCorpus(t)
	if len(gs) != 314 {
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
			continue
		}
		text := Format(d)
		again, err := ParseFile(g.Filename, []byte(text))
		if err != nil {
			t.Errorf("%s: printed description does not parse: %v", g.Key, err)
			continue
		}
		if n := strings.Count(text, "\n"); n != len(d.Rules) {
			t.Errorf("%s: printed %d lines for %d rules", g.Key, n, len(d.Rules))
		}
		stripPositions(d)
		stripPositions(again)
		if !reflect.DeepEqual(d, again) {
			for i := range min(len(d.Rules), len(again.Rules)) {
				if !reflect.DeepEqual(d.Rules[i], again.Rules[i]) {
					t.Errorf("%s: rule %d changed in print:\n got %s\nwant %s", g.Key, i, dump(again.Rules[i:i+1]), dump(d.Rules[i:i+1]))
					break
				}
			}
			t.Errorf("%s: %d rules read back as %d", g.Key, len(d.Rules), len(again.Rules))
		}
	}
}

// TestCorpusPositions checks that the position of every node of every game
// points at the text of the node: a '(' or the node's name.
func TestCorpusPositions(t *testing.T) {
	for _, g := range loadCorpus(t) {
		d, err := ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Fatalf("%s: %v", g.Key, err)
		}
		lines := bytes.Split(g.Rules, []byte("\n"))
		bad := 0
		// check checks that n is at text, in any case for a constant, whose
		// keywords are lower-cased.
		check := func(n Node, text string) {
			p := n.Pos()
			ok := p.Filename == g.Filename && p.Line >= 1 && p.Line <= len(lines) && p.Column >= 1
			if ok {
				// The line and column agree with the offset.
				line := lines[p.Line-1]
				start := p.Offset - (p.Column - 1)
				ok = start >= 0 && start+len(line) <= len(g.Rules) && bytes.Equal(g.Rules[start:start+len(line)], line)
			}
			if ok {
				at := string(g.Rules[p.Offset:min(len(g.Rules), p.Offset+len(text))])
				_, isConst := n.(*Const)
				ok = at == text || isConst && strings.EqualFold(at, text)
			}
			if !ok && bad < 5 {
				bad++
				t.Errorf("%s: %T %q at %v, offset %d", g.Key, n, text, p, p.Offset)
			}
		}
		var term func(Term)
		term = func(x Term) {
			switch x := x.(type) {
			case *Const:
				check(x, x.Name)
			case *Var:
				check(x, "?"+x.Name)
			case *Func:
				check(x, "(")
				term(x.Name)
				for _, a := range x.Args {
					term(a)
				}
			}
		}
		var literal func(Literal)
		literal = func(l Literal) {
			switch l := l.(type) {
			case *Sentence:
				if len(l.Args) > 0 {
					check(l, "(")
				}
				term(l.Name)
				for _, a := range l.Args {
					term(a)
				}
			case *Not:
				check(l, "(")
				literal(l.Arg)
			case *Distinct:
				check(l, "(")
				term(l.X)
				term(l.Y)
			case *Or:
				check(l, "(")
				for _, x := range l.Disjuncts {
					literal(x)
				}
			}
		}
		for _, r := range d.Rules {
			if len(r.Body) > 0 {
				check(r, "(")
			}
			literal(r.Head)
			for _, l := range r.Body {
				literal(l)
			}
		}
	}
}

// TestConformanceTerms reads every state fact, legal move and played move
// of the reference traces, which ggp-base wrote, and checks that the
// printer writes each exactly as the reference did.
func TestConformanceTerms(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(conformanceRoot, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skipf("no reference traces in %s", conformanceRoot)
	}
	type trace struct {
		Rules    string
		Playouts []struct {
			Steps []struct {
				State []string
				Legal [][]string
				Move  []string
			}
			Terminal []string
		}
	}
	seen := make(map[string]bool)
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var tr trace
		if err := json.Unmarshal(raw, &tr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, err := ParseFile(path, []byte(tr.Rules)); err != nil {
			t.Errorf("%s: rules: %v", filepath.Base(path), err)
		}
		var terms []string
		for _, p := range tr.Playouts {
			for _, s := range p.Steps {
				terms = append(terms, s.State...)
				terms = append(terms, s.Move...)
				for _, l := range s.Legal {
					terms = append(terms, l...)
				}
			}
			terms = append(terms, p.Terminal...)
		}
		for _, s := range terms {
			if seen[s] {
				continue
			}
			seen[s] = true
			x, err := ParseTerm(s)
			if err != nil {
				t.Errorf("%s: ParseTerm(%q): %v", filepath.Base(path), s, err)
				continue
			}
			if got := Format(x); got != s {
				t.Errorf("%s: Format(ParseTerm(%q)) = %q", filepath.Base(path), s, got)
			}
		}
	}
	t.Logf("%d distinct terms in %d traces", len(seen), len(paths))
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
