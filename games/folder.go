// Package games finds game rules: the games bundled with ggp, .kif files, and
// game folders in the layout of the GGP game repository.
package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Game is the rules of one game and what is known about it.
type Game struct {
	Key         string // short name: the folder or file name without .kif
	Name        string // display name from METADATA, or Key
	Description string // one line, may be empty
	Filename    string // where the rules were read from, for error positions
	Rules       []byte // the rulesheet text (GDL in KIF syntax)

	// Stylesheet is the XSL stylesheet that METADATA names, if any: it
	// draws a state, given as ggp-base's state XML, as HTML. StylesheetErr
	// says why a stylesheet named could not be read; the rules are usable
	// all the same.
	Stylesheet    []byte
	StylesheetErr error

	// Moves and Percepts say in words what the moves and the percepts of
	// the game mean, as METADATA's "moves" and "percepts" give them, in
	// its order: a user interface tells a person "choose door 2" rather
	// than (choose 2), and "the host opened door 3" rather than
	// (opened 3).
	Moves, Percepts []Phrase
}

// A Phrase says what the moves or percepts of one pattern mean. Pattern
// is a term in KIF in which a variable (?d) stands for one word, such as
// "(opened ?d)"; Text is the sentence, in which the pattern's variables
// are replaced by the words they matched: "The host opened door ?d."
type Phrase struct {
	Pattern string `json:"term"`
	Text    string `json:"says"`
}

// MaxRulesSize bounds the size of a rulesheet read from disk. The largest
// public games are a few hundred kilobytes.
const MaxRulesSize = 16 << 20

// metadata is the METADATA file of a game folder in the repository layout.
type metadata struct {
	GameName    string `json:"gameName"`
	Rulesheet   string `json:"rulesheet"`
	Description string `json:"description"`
	Stylesheet  string `json:"stylesheet"`
	// Moves and Percepts are not ggp-base's: they say what the game's
	// moves and percepts mean (Game.Moves, Game.Percepts).
	Moves    []Phrase `json:"moves"`
	Percepts []Phrase `json:"percepts"`
}

// LoadFolder reads a game folder in the GGP repository layout: a METADATA
// JSON file naming the rulesheet, with the current rules in the highest vN/
// subfolder when there is one and at the top level otherwise.
func LoadFolder(dir string) (*Game, error) {
	return loadFolder(os.DirFS(dir), dir)
}

func loadFolder(fsys fs.FS, dir string) (*Game, error) {
	raw, err := fs.ReadFile(fsys, "METADATA")
	if err != nil {
		return nil, fmt.Errorf("game folder %s: %w", dir, err)
	}
	var md metadata
	if err := json.Unmarshal(raw, &md); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "METADATA"), err)
	}
	if md.Rulesheet == "" || strings.ContainsAny(md.Rulesheet, `/\`) {
		return nil, fmt.Errorf("%s: rulesheet %q is not a file name", filepath.Join(dir, "METADATA"), md.Rulesheet)
	}
	rulesDir := "."
	if v := newestVersion(fsys); v != "" {
		rulesDir = v
	}
	path := filepath.Join(rulesDir, md.Rulesheet)
	rules, err := readLimited(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("game folder %s: %w", dir, err)
	}
	key := filepath.Base(filepath.Clean(dir))
	g := &Game{Key: key, Name: md.GameName, Filename: filepath.Join(dir, path), Rules: rules, Moves: md.Moves, Percepts: md.Percepts}
	if g.Name == "" {
		g.Name = key
	}
	if md.Stylesheet != "" {
		if strings.ContainsAny(md.Stylesheet, `/\`) {
			g.StylesheetErr = fmt.Errorf("%s: stylesheet %q is not a file name", filepath.Join(dir, "METADATA"), md.Stylesheet)
		} else if g.Stylesheet, err = readLimited(fsys, md.Stylesheet); err != nil {
			g.Stylesheet, g.StylesheetErr = nil, fmt.Errorf("game folder %s: %w", dir, err)
		}
	}
	if md.Description != "" && !strings.ContainsAny(md.Description, `/\`) {
		if text, err := readLimited(fsys, md.Description); err == nil {
			g.Description = firstLine(string(text))
		}
	}
	return g, nil
}

// newestVersion returns the name of the highest vN subfolder, or "".
func newestVersion(fsys fs.FS) string {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return ""
	}
	best, bestN := "", -1
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || len(name) < 2 || name[0] != 'v' {
			continue
		}
		n, err := strconv.Atoi(name[1:])
		if err == nil && n > bestN {
			best, bestN = name, n
		}
	}
	return best
}

// LoadFile reads a .kif file.
func LoadFile(path string) (*Game, error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	rules, err := readLimited(os.DirFS(dir), name)
	if err != nil {
		return nil, err
	}
	key := strings.TrimSuffix(name, filepath.Ext(name))
	return &Game{Key: key, Name: key, Filename: path, Rules: rules}, nil
}

func readLimited(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(filepath.ToSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxRulesSize {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d allowed for rules", name, st.Size(), MaxRulesSize)
	}
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > MaxRulesSize {
			return nil, fmt.Errorf("%s: more than the %d bytes allowed for rules", name, MaxRulesSize)
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Corpus lists the game folders below root (such as ../shared/games), sorted
// by key. It returns an error wrapping fs.ErrNotExist when root is absent.
func Corpus(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}
