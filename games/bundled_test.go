package games

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// bundledKeysWant lists the bundled games; adding one means adding it here
// and to the play tests.
var bundledKeysWant = []string{
	"bankerThief",
	"battleshipsFog",
	"breakthrough",
	"connectFour",
	"eightPuzzle",
	"hanoi",
	"kriegTicTacToe",
	"kuhnPoker",
	"liarsDie",
	"maze",
	"montyhall",
	"nim",
	"numberGuess",
	"rockPaperScissors",
	"threePlayerTicTacToe",
	"ticTacToe",
}

func TestBundled(t *testing.T) {
	gs := Bundled()
	var keys []string
	for _, g := range gs {
		keys = append(keys, g.Key)
		if want := "games/bundled/" + g.Key + "/" + g.Key + ".kif"; g.Filename != want {
			t.Errorf("%s: Filename %q, want %q", g.Key, g.Filename, want)
		}
		if g.Name == "" || g.Name == g.Key {
			t.Errorf("%s: Name %q, want the display name from METADATA", g.Key, g.Name)
		}
		if len(g.Description) < 40 || strings.Contains(g.Description, "\n") {
			t.Errorf("%s: Description %q, want one line describing the game", g.Key, g.Description)
		}
		if !strings.Contains(string(g.Rules), "(role ") {
			t.Errorf("%s: rules name no role", g.Key)
		}
	}
	if !slices.Equal(keys, bundledKeysWant) {
		t.Errorf("Bundled keys = %v, want %v", keys, bundledKeysWant)
	}
	// Each call returns new values.
	gs[0].Rules[0] = 'X'
	if Bundled()[0].Rules[0] == 'X' {
		t.Error("Bundled returns shared rules that a caller can change")
	}
}

// TestBundledValid parses every bundled game and checks that Validate has
// nothing to say about it, not even a warning.
func TestBundledValid(t *testing.T) {
	for _, g := range Bundled() {
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Errorf("%s: %v", g.Key, err)
			continue
		}
		for _, p := range gdl.Validate(d) {
			t.Errorf("%s: %v", g.Key, p)
		}
		if len(d.Rules) == 0 || d.Rules[0].Pos().Filename != g.Filename {
			t.Errorf("%s: positions do not name %s", g.Key, g.Filename)
		}
	}
}

// TestBundledFolderLayout checks that each bundled folder is a game folder
// in the repository layout that LoadFolder reads as Bundled does.
func TestBundledFolderLayout(t *testing.T) {
	for _, want := range Bundled() {
		g, err := LoadFolder(filepath.Join("bundled", want.Key))
		if err != nil {
			t.Errorf("%s: %v", want.Key, err)
			continue
		}
		if g.Key != want.Key || g.Name != want.Name || g.Description != want.Description || string(g.Rules) != string(want.Rules) {
			t.Errorf("%s: LoadFolder reads %q %q, Bundled %q %q", want.Key, g.Key, g.Name, want.Key, want.Name)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		key, want string // want "" for an error
	}{
		{"ticTacToe", "ticTacToe"},
		{"tictactoe", "ticTacToe"},
		{"HANOI", "hanoi"},
		{"connectFour", "connectFour"},
		{"chess", ""},
		{"", ""},
		{"ticTacToe.kif", ""},
		{"bundled/nim", ""},
	}
	for _, tt := range tests {
		g, err := Lookup(tt.key)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Lookup(%q) = %s, want an error", tt.key, g.Key)
		case tt.want == "" && !errors.Is(err, ErrUnknownGame):
			t.Errorf("Lookup(%q) error %v, want ErrUnknownGame", tt.key, err)
		case tt.want == "" && !strings.Contains(err.Error(), "ticTacToe"):
			t.Errorf("Lookup(%q) error %q lists no bundled game", tt.key, err)
		case tt.want != "" && err != nil:
			t.Errorf("Lookup(%q): %v", tt.key, err)
		case tt.want != "" && g.Key != tt.want:
			t.Errorf("Lookup(%q) = %s, want %s", tt.key, g.Key, tt.want)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	kif := write("mine.kif", "(role me)\n")
	write("folder/METADATA", `{"gameName": "Folder Game", "rulesheet": "folder.kif", "description": "folder.txt"}`)
	write("folder/folder.kif", "(role folder)\n")
	write("folder/folder.txt", "A test game.\n")
	folder := filepath.Join(dir, "folder")
	// A folder named like a bundled game: a bare name means the bundled
	// game, a path the folder.
	write("nim/METADATA", `{"gameName": "Local Nim", "rulesheet": "nim.kif"}`)
	write("nim/nim.kif", "(role local)\n")
	t.Chdir(dir)

	tests := []struct {
		arg      string
		key      string // "" for an error
		filename string
		rules    string // a substring of the rules
		err      string // a substring of the error
		unknown  bool   // the error wraps ErrUnknownGame
	}{
		{arg: "ticTacToe", key: "ticTacToe", filename: "games/bundled/ticTacToe/ticTacToe.kif", rules: "(role xplayer)"},
		{arg: "ConnectFour", key: "connectFour", filename: "games/bundled/connectFour/connectFour.kif", rules: "(role red)"},
		{arg: "nim", key: "nim", filename: "games/bundled/nim/nim.kif", rules: "(role first)"},
		{arg: "./nim", key: "nim", filename: filepath.Join("nim", "nim.kif"), rules: "(role local)"},
		{arg: kif, key: "mine", filename: kif, rules: "(role me)"},
		{arg: "mine.kif", key: "mine", filename: "mine.kif", rules: "(role me)"},
		{arg: folder, key: "folder", filename: filepath.Join(folder, "folder.kif"), rules: "(role folder)"},
		{arg: "folder", key: "folder", filename: filepath.Join("folder", "folder.kif"), rules: "(role folder)"},
		{arg: "chess", err: `unknown game "chess": not a bundled game, a .kif file or a game folder (bundled games: bankerThief, battleshipsFog, breakthrough,`, unknown: true},
		{arg: "", err: "empty game name", unknown: true},
		{arg: "missing.kif", err: "game missing.kif: no such file or directory"},
		{arg: "no/such/folder", err: "game no/such/folder: no such file or directory"},
		{arg: "mine.kif/", err: "game mine.kif/: not a directory"},
		{arg: dir, err: "METADATA"},
	}
	for _, tt := range tests {
		g, err := Open(tt.arg)
		if tt.key == "" {
			if err == nil {
				t.Errorf("Open(%q) = %s, want an error", tt.arg, g.Filename)
				continue
			}
			if !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Open(%q) error %q, want it to contain %q", tt.arg, err, tt.err)
			}
			if errors.Is(err, ErrUnknownGame) != tt.unknown {
				t.Errorf("Open(%q) error %q: errors.Is(ErrUnknownGame) = %v", tt.arg, err, !tt.unknown)
			}
			continue
		}
		if err != nil {
			t.Errorf("Open(%q): %v", tt.arg, err)
			continue
		}
		if g.Key != tt.key || g.Filename != tt.filename || !strings.Contains(string(g.Rules), tt.rules) {
			t.Errorf("Open(%q) = key %q, file %q, rules %.30q; want %q, %q, %q",
				tt.arg, g.Key, g.Filename, g.Rules, tt.key, tt.filename, tt.rules)
		}
	}
}

// TestBundledStylesheets checks that every bundled game names a stylesheet
// and that it is well-formed XML whose root is an XSLT stylesheet, so that
// the viewer's boards draw (the browser test draws two of them).
func TestBundledStylesheets(t *testing.T) {
	for _, g := range Bundled() {
		if g.StylesheetErr != nil || g.Stylesheet == nil {
			t.Errorf("%s: no stylesheet (%v)", g.Key, g.StylesheetErr)
			continue
		}
		dec := xml.NewDecoder(bytes.NewReader(g.Stylesheet))
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: stylesheet: %v", g.Key, err)
				break
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Space + " " + se.Name.Local
			}
		}
		if root != "http://www.w3.org/1999/XSL/Transform stylesheet" {
			t.Errorf("%s: stylesheet root is %q", g.Key, root)
		}
	}
}

func TestFolderStylesheetErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "METADATA"), []byte(`{"rulesheet": "r.kif", "stylesheet": "missing.xsl"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "r.kif"), []byte("(role a)"), 0o644)
	g, err := LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Stylesheet != nil || g.StylesheetErr == nil || !strings.Contains(g.StylesheetErr.Error(), "missing.xsl") {
		t.Errorf("missing stylesheet: %q, %v", g.Stylesheet, g.StylesheetErr)
	}
}

// stylesheetRelation finds the relations a stylesheet selects facts by,
// as in /state/fact[relation='cell'].
var stylesheetRelation = regexp.MustCompile(`relation\s*=\s*'([^']*)'`)

// TestBundledStylesheetRelations checks that every relation a bundled
// stylesheet draws is one the game's states hold, made by init or next: a
// stylesheet that names another draws nothing, silently.
func TestBundledStylesheetRelations(t *testing.T) {
	for _, g := range Bundled() {
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		state := map[string]bool{}
		for _, r := range d.Rules {
			if r.Head.Name.Name != "init" && r.Head.Name.Name != "next" || len(r.Head.Args) != 1 {
				continue
			}
			switch f := r.Head.Args[0].(type) {
			case *gdl.Const:
				state[f.Name] = true
			case *gdl.Func:
				state[f.Name.Name] = true
			}
		}
		matches := stylesheetRelation.FindAllSubmatch(g.Stylesheet, -1)
		if len(matches) == 0 {
			t.Errorf("%s: the stylesheet selects no relation", g.Key)
		}
		for _, m := range matches {
			if !state[string(m[1])] {
				t.Errorf("%s: the stylesheet draws %s, which no state holds", g.Key, m[1])
			}
		}
	}
}

func TestBundledPhrases(t *testing.T) {
	// Every phrase of a bundled game says something, with the words of
	// its pattern's variables alone; the GDL-II games say what each of
	// their percepts means.
	variable := regexp.MustCompile(`\?[A-Za-z0-9_]+`)
	for _, g := range Bundled() {
		for _, p := range slices.Concat(g.Moves, g.Percepts) {
			if p.Pattern == "" || p.Text == "" {
				t.Errorf("%s: phrase %+v is empty", g.Key, p)
			}
			for _, v := range variable.FindAllString(p.Text, -1) {
				if !slices.Contains(variable.FindAllString(p.Pattern, -1), v) {
					t.Errorf("%s: phrase %+v says %s, not a variable of its pattern", g.Key, p, v)
				}
			}
		}
	}
	for _, key := range []string{"kriegTicTacToe", "montyhall", "kuhnPoker", "liarsDie", "numberGuess", "bankerThief", "battleshipsFog"} {
		g, err := Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Percepts) == 0 {
			t.Errorf("%s: no phrase says what its percepts mean", key)
		}
	}
}
