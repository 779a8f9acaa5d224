package games

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// The bundled games, one folder each in the repository layout, so that ggp
// has games to play without the public corpus.
//
//go:embed bundled
var bundledFS embed.FS

// bundledRoot is the folder of the bundled games, as it appears in the
// source tree; it prefixes their file names so that errors point there.
const bundledRoot = "games/bundled"

// ErrUnknownGame is returned, wrapped, by Lookup and Open for a name that
// is not a bundled game.
var ErrUnknownGame = errors.New("unknown game")

// Bundled returns the games built into ggp, sorted by key. Each call
// returns new values, which the caller may modify.
func Bundled() []*Game {
	keys := bundledKeys()
	gs := make([]*Game, 0, len(keys))
	for _, key := range keys {
		gs = append(gs, mustLoadBundled(key))
	}
	return gs
}

// bundledKeys returns the keys of the bundled games, sorted.
func bundledKeys() []string {
	entries, err := fs.ReadDir(bundledFS, "bundled")
	if err != nil {
		panic("games: reading the embedded games: " + err.Error())
	}
	var keys []string
	for _, e := range entries {
		if e.IsDir() {
			keys = append(keys, e.Name())
		}
	}
	sort.Strings(keys)
	return keys
}

// mustLoadBundled loads the bundled game key, which must exist. The
// embedded files are fixed at build time and checked by the tests, so a
// failure here is a bug in ggp, not in its input.
func mustLoadBundled(key string) *Game {
	sub, err := fs.Sub(bundledFS, path.Join("bundled", key))
	if err != nil {
		panic("games: " + err.Error())
	}
	g, err := loadFolder(sub, path.Join(bundledRoot, key))
	if err != nil {
		panic("games: bundled game " + key + ": " + err.Error())
	}
	g.Filename = filepath.ToSlash(g.Filename)
	return g
}

// Lookup returns the bundled game with the given key. An exact match is
// preferred; otherwise the key is matched ignoring case, so "tictactoe"
// finds ticTacToe. The error for an unknown key wraps ErrUnknownGame and
// lists the bundled games.
func Lookup(key string) (*Game, error) {
	keys := bundledKeys()
	for _, k := range keys {
		if k == key {
			return mustLoadBundled(k), nil
		}
	}
	for _, k := range keys {
		if strings.EqualFold(k, key) {
			return mustLoadBundled(k), nil
		}
	}
	return nil, fmt.Errorf("%w %q: bundled games are %s", ErrUnknownGame, key, strings.Join(keys, ", "))
}

// Open resolves a GAME argument of a ggp command to its rules. The
// argument is one of:
//
//   - the key of a bundled game, such as ticTacToe (matched as Lookup
//     does);
//   - a path to a rules file, such as games/nim.kif;
//   - a path to a game folder in the GGP repository layout, with a
//     METADATA file, such as ../shared/games/chess.
//
// A bare name (one without a path separator and not ending in .kif) is
// looked up among the bundled games first, so that a command means the
// same game whatever the current directory holds; write ./name for a file
// or folder that has the name of a bundled game.
func Open(arg string) (*Game, error) {
	if arg == "" {
		return nil, fmt.Errorf("%w: empty game name", ErrUnknownGame)
	}
	if !looksLikePath(arg) {
		if g, err := Lookup(arg); err == nil {
			return g, nil
		}
	}
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return LoadFolder(arg)
	case err == nil:
		return LoadFile(arg)
	case looksLikePath(arg) || !errors.Is(err, fs.ErrNotExist):
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the path already
		}
		return nil, fmt.Errorf("game %s: %w", arg, err)
	}
	return nil, fmt.Errorf("%w %q: not a bundled game, a .kif file or a game folder (bundled games: %s)",
		ErrUnknownGame, arg, strings.Join(bundledKeys(), ", "))
}

// looksLikePath reports whether arg can only be meant as a path: it has a
// directory part or a .kif extension.
func looksLikePath(arg string) bool {
	return strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, filepath.Separator) ||
		strings.EqualFold(filepath.Ext(arg), ".kif") || arg == "." || arg == ".."
}
