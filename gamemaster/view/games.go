package view

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
)

// gameInfo tells the match page how to draw the boards of a game.
type gameInfo struct {
	Key        string `json:"key"`
	Name       string `json:"name,omitempty"`
	Folder     string `json:"folder,omitempty"` // where the game was found
	Stylesheet bool   `json:"stylesheet"`       // served by /api/stylesheet
	Error      string `json:"error,omitempty"`  // why its stylesheet cannot be used
	SameRules  bool   `json:"sameRules"`        // the folder's rules are the record's
	Note       string `json:"note,omitempty"`   // why no stylesheet
}

// gameFinder finds the game of a record: by its key, among the game
// folders of Options.GameDirs and then the bundled games, preferring one
// whose rules have the record's hash.
type gameFinder struct {
	dirs []string

	mu    sync.Mutex
	found map[string]*games.Game // by key and hash; nil: none
}

func newGameFinder(dirs []string) *gameFinder {
	return &gameFinder{dirs: dirs, found: map[string]*games.Game{}}
}

// validKey reports whether a game key from a record can name a folder.
func validKey(key string) bool {
	return key != "" && key != "." && key != ".." && !strings.ContainsAny(key, `/\`) && len(key) <= 200
}

func (gf *gameFinder) find(key, hash string) *games.Game {
	if !validKey(key) {
		return nil
	}
	gf.mu.Lock()
	defer gf.mu.Unlock()
	if g, ok := gf.found[key+"\x00"+hash]; ok {
		return g
	}
	var candidates []*games.Game
	for _, d := range gf.dirs {
		dir := filepath.Join(d, key)
		if _, err := os.Stat(filepath.Join(dir, "METADATA")); err != nil {
			continue
		}
		if g, err := games.LoadFolder(dir); err == nil {
			candidates = append(candidates, g)
		}
	}
	if g, err := games.Lookup(key); err == nil && g.Key == key {
		candidates = append(candidates, g)
	}
	// Best: the record's rules with a stylesheet; then a stylesheet for
	// other rules of the same name; then the record's rules without one.
	var best *games.Game
	bestScore := -1
	for _, g := range candidates {
		score := 0
		if g.Stylesheet != nil || g.StylesheetErr != nil {
			score += 2
		}
		if record.RulesheetHash(g.Rules) == hash {
			score++
		}
		if score > bestScore {
			best, bestScore = g, score
		}
	}
	gf.found[key+"\x00"+hash] = best
	return best
}

func (gf *gameFinder) info(key, hash string) *gameInfo {
	gi := &gameInfo{Key: key}
	g := gf.find(key, hash)
	switch {
	case g == nil:
		gi.Note = fmt.Sprintf("no game folder for %q: boards drawn by the generic renderer", key)
		return gi
	case g.StylesheetErr != nil:
		gi.Error = g.StylesheetErr.Error()
	case g.Stylesheet == nil:
		gi.Note = "the game has no stylesheet: boards drawn by the generic renderer"
	default:
		gi.Stylesheet = true
	}
	gi.Name, gi.Folder = g.Name, filepath.Dir(g.Filename)
	gi.SameRules = record.RulesheetHash(g.Rules) == hash
	return gi
}

// stylesheet returns the stylesheet of a record's game, prepared to be
// parsed by a browser.
func (gf *gameFinder) stylesheet(key, hash string) ([]byte, error) {
	g := gf.find(key, hash)
	switch {
	case g == nil:
		return nil, fmt.Errorf("game %q: %w", key, errNotFound)
	case g.StylesheetErr != nil:
		return nil, g.StylesheetErr
	case g.Stylesheet == nil:
		return nil, fmt.Errorf("game %q has no stylesheet: %w", key, errNotFound)
	}
	return prepareStylesheet(g.Stylesheet), nil
}

// imagePrefix is where the images of ggp-base's stylesheets are served.
// Those stylesheets name images as "&ROOT;/resources/images/...", an
// entity ggp-base replaced with the address of its game repository. The
// viewer fetches nothing from the network: it draws a stand-in for each
// image itself (servePlaceholder).
const imagePrefix = "/ggp-base/"

// prepareStylesheet makes a ggp-base stylesheet parseable as XML on its
// own: the &ROOT; entity points to the stand-in images, and the HTML
// entity &nbsp;, which some stylesheets use undeclared, becomes a
// character reference.
func prepareStylesheet(xsl []byte) []byte {
	xsl = bytes.ReplaceAll(xsl, []byte("&ROOT;"), []byte(strings.TrimSuffix(imagePrefix, "/")))
	xsl = bytes.ReplaceAll(xsl, []byte("&nbsp;"), []byte("&#160;"))
	return bytes.TrimSpace(xsl)
}

// placeholderColors are the colours a stand-in image is drawn in when its
// name says one, such as discs/red.png.
var placeholderColors = []string{"red", "black", "white", "blue", "green", "yellow", "orange", "purple", "gray", "grey", "brown", "pink"}

// servePlaceholder draws a stand-in for an image of a ggp-base stylesheet:
// a disc in the colour its name says, or a tile with its name.
func servePlaceholder(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(path.Base(r.URL.Path), path.Ext(r.URL.Path))
	if len(name) > 24 {
		name = name[:24]
	}
	lower := strings.ToLower(name)
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=3600")
	for _, c := range placeholderColors {
		if strings.Contains(lower, c) {
			fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="44" fill="%s" stroke="#333" stroke-width="4"/></svg>`, c)
			return
		}
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="4" y="4" width="92" height="92" rx="12" fill="#f4f0e6" stroke="#555" stroke-width="3"/><text x="50" y="60" font-size="28" font-family="sans-serif" text-anchor="middle">%s</text></svg>`, html.EscapeString(name))
}
