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
	// Description says in a few lines what the game is, how it is played
	// and won, from its folder (METADATA's description).
	Description string `json:"description,omitempty"`
}

// gameFinder finds the game of a record: by its key, among the game
// folders of Options.GameDirs and then the bundled games, preferring one
// whose rules have the record's hash.
type gameFinder struct {
	dirs  []string
	known []*games.Game

	mu    sync.Mutex
	found map[string]*games.Game // by key and hash; nil: none
}

func newGameFinder(dirs []string, known []*games.Game) *gameFinder {
	return &gameFinder{dirs: dirs, known: known, found: map[string]*games.Game{}}
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
	for _, g := range gf.known {
		if g.Key == key {
			candidates = append(candidates, g)
		}
	}
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
		gi.Note = fmt.Sprintf("no game folder for %q: boards drawn by the generic renderer (name a folder of game folders with ggp view --games, or --view-games)", key)
		return gi
	case g.StylesheetErr != nil:
		gi.Error = g.StylesheetErr.Error()
	case g.Stylesheet == nil:
		gi.Note = "the game has no stylesheet: boards drawn by the generic renderer"
	default:
		gi.Stylesheet = true
	}
	gi.Name, gi.Folder, gi.Description = g.Name, filepath.Dir(g.Filename), g.Description
	gi.SameRules = record.RulesheetHash(g.Rules) == hash
	return gi
}

// phrases returns what the moves and the percepts of a record's game
// mean, if its folder says.
func (gf *gameFinder) phrases(key, hash string) (moves, percepts []games.Phrase) {
	if g := gf.find(key, hash); g != nil {
		return g.Moves, g.Percepts
	}
	return nil, nil
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

// pieceShapes are our own drawings of the chess pieces, in a 100×100 box,
// drawn in the piece's colour; details, drawn in the other colour, are
// marked with class d.
var pieceShapes = map[string]string{
	"pawn": `<circle cx="50" cy="30" r="13"/><path d="M38 44h24l6 30H32z"/><rect x="26" y="74" width="48" height="12" rx="3"/>`,
	"rook": `<path d="M28 20h10v8h7v-8h10v8h7v-8h10v18l-6 6v28l6 6v8H28v-8l6-6V44l-6-6z"/>`,
	"knight": `<path d="M30 86h44v-8h-4c0-20-2-40-14-52l-4-10-6 10c-10 4-18 14-22 26l8 6 10-8c2 6-4 16-10 28h-6z"/>` +
		`<circle class="d" cx="46" cy="34" r="3.5"/>`,
	"bishop": `<circle cx="50" cy="17" r="6"/><path d="M50 25c-14 10-17 28-8 40h16c9-12 6-30-8-40z"/><path d="M36 67h28l4 9H32z"/><rect x="26" y="76" width="48" height="10" rx="3"/>` +
		`<path class="d" d="M46 38l10 10" stroke-width="4"/>`,
	"queen": `<path d="M22 34l10 34h36l10-34-14 16-14-26-14 26z"/><circle cx="22" cy="32" r="5"/><circle cx="50" cy="22" r="5"/><circle cx="78" cy="32" r="5"/><rect x="26" y="70" width="48" height="14" rx="3"/>`,
	"king":  `<rect x="46" y="8" width="8" height="22"/><rect x="39" y="14" width="22" height="7"/><path d="M26 42c0-14 48-14 48 0l-8 28H34z"/><rect x="26" y="70" width="48" height="14" rx="3"/>`,
}

// piece returns our own drawing of the piece an image of a ggp-base
// stylesheet stands for, if its path names one: the chess pieces
// (images/chess/White_King.png) and the checkers kings
// (images/checkers/red_king.png). The stylesheets' images are not ours to
// copy; every kind and colour of piece must be told apart all the same.
func piece(urlPath string) (string, bool) {
	lower := strings.ToLower(urlPath)
	name := strings.TrimSuffix(path.Base(lower), path.Ext(lower))
	dir := path.Base(path.Dir(lower))
	color := ""
	for _, c := range placeholderColors {
		if strings.HasPrefix(name, c) {
			color = c
			break
		}
	}
	if color == "" {
		return "", false
	}
	fill, detail := "#f7f3ea", "#222"
	if color != "white" {
		fill, detail = color, "#f7f3ea"
		if color == "black" {
			fill = "#222"
		}
	}
	svg := func(body string) string {
		return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g fill="%s" stroke="#111" stroke-width="3" stroke-linejoin="round">%s</g><style>.d{fill:%s;stroke:%s}</style></svg>`, fill, body, detail, detail)
	}
	if dir == "checkers" && strings.Contains(name, "king") {
		// A checkers king: the piece with a crown on it.
		return svg(`<circle cx="50" cy="50" r="42"/><path class="d" d="M24 68V32l13 13 13-20 13 20 13-13v36z" style="fill:#e8b923;stroke:#111;stroke-width:3"/>`), true
	}
	for kind, shape := range pieceShapes {
		if strings.Contains(name, kind) {
			return svg(shape), true
		}
	}
	return "", false
}

// servePlaceholder draws a stand-in for an image of a ggp-base stylesheet:
// a chess or checkers piece of our own drawing, a disc in the colour its
// name says, or a tile with its name.
func servePlaceholder(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=3600")
	if svg, ok := piece(r.URL.Path); ok {
		fmt.Fprint(w, svg)
		return
	}
	name := strings.TrimSuffix(path.Base(r.URL.Path), path.Ext(r.URL.Path))
	if len(name) > 24 {
		name = name[:24]
	}
	lower := strings.ToLower(name)
	for _, c := range placeholderColors {
		if strings.Contains(lower, c) {
			fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="44" fill="%s" stroke="#333" stroke-width="4"/></svg>`, c)
			return
		}
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="4" y="4" width="92" height="92" rx="12" fill="#f4f0e6" stroke="#555" stroke-width="3"/><text x="50" y="60" font-size="28" font-family="sans-serif" text-anchor="middle">%s</text></svg>`, html.EscapeString(name))
}
