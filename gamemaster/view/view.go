// Package view is a web viewer of matches: a local HTTP server over
// folders of match records and tournaments, as ggp match and ggp
// tournament write them with --out, that shows an index of the matches and
// tournaments, every match as a board that steps through its states, and
// matches still being played as they go. It also gives human players
// (package player/human) a seat: a page where a person sees the board and
// picks a move before the play clock runs out.
//
// A GDL-II match's page shows the true board and, beside it, what each
// role was told at each step: its own move and its percepts. Its seat
// shows a person only what their role was told and what follows from it,
// and while a person plays in it the match's own page and record are held
// back, until the match ends.
//
// Boards are drawn in the browser: with the game's XSL stylesheet, when the
// game's folder has one (ggp-base's convention: the stylesheet turns an XML
// document of the state's facts into HTML), and otherwise by a generic
// renderer that draws a grid from the facts that look like cells. The
// pages, scripts and styles are embedded in the binary; the pages fetch
// nothing from the network.
package view

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player/seat"
)

//go:embed assets
var assetsFS embed.FS

// Options configures a Server.
type Options struct {
	// Dirs are the folders of match records and tournaments shown. They
	// are read again at every request of the index, so that records
	// written while the server runs appear.
	Dirs []string

	// GameDirs are folders of game folders in the repository layout
	// (METADATA, rules, stylesheet), such as ../shared/games, searched for
	// the stylesheet of a record's game before the bundled games.
	GameDirs []string

	// Games are games known already, such as those a command was given
	// as game folders: their stylesheets are found first, by key.
	Games []*games.Game

	// Poll is how often a page watching a match checks its record file
	// for a change. Default 200ms.
	Poll time.Duration

	// Logf, if not nil, is told of the requests that failed.
	Logf func(format string, args ...any)
}

// Server serves the viewer. Create it with New; its methods may be called
// from any goroutine.
type Server struct {
	opts  Options
	roots []string // absolute paths of opts.Dirs
	index *indexCache
	games *gameFinder

	mu      sync.Mutex
	live    map[string]*liveMatch
	order   []string               // ids of live matches, in the order published
	changed chan struct{}          // closed and replaced when a live match changes
	seats   map[string]seat.Player // by id
	seatIDs []string               // in the order added
}

// liveMatch is a match published with Publish.
type liveMatch struct {
	rec     *record.Record
	version int
	// decisive holds, once looked for, the facts of the final state of
	// the completed GDL-II match that decide its goals (finalDecisive).
	decisive     []string
	decisiveDone bool
}

// New returns a server over the folders of opts.
func New(opts Options) (*Server, error) {
	if opts.Poll <= 0 {
		opts.Poll = 200 * time.Millisecond
	}
	s := &Server{opts: opts, live: map[string]*liveMatch{}, changed: make(chan struct{}), seats: map[string]seat.Player{}}
	for _, d := range opts.Dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("view: folder %s: %w", d, err)
		}
		// A folder given twice is shown once.
		if !slices.Contains(s.roots, abs) {
			s.roots = append(s.roots, abs)
		}
	}
	s.index = newIndexCache(s.roots)
	s.games = newGameFinder(opts.GameDirs, opts.Games)
	return s, nil
}

// Publish shows r as a live match, under its match id, and wakes the pages
// that watch it. It copies what it keeps of r, so it can be given as a
// Referee's OnStep.
func (s *Server) Publish(r *record.Record) {
	c := *r
	c.States = slices.Clone(r.States)
	c.Moves = slices.Clone(r.Moves)
	c.StateTimes = slices.Clone(r.StateTimes)
	c.Errors = slices.Clone(r.Errors)
	c.GoalValues = slices.Clone(r.GoalValues)
	c.Roles = slices.Clone(r.Roles)
	c.PlayerNamesFromHost = slices.Clone(r.PlayerNamesFromHost)
	s.mu.Lock()
	defer s.mu.Unlock()
	lm, ok := s.live[r.MatchID]
	if !ok {
		lm = &liveMatch{}
		s.live[r.MatchID] = lm
		s.order = append(s.order, r.MatchID)
	}
	lm.rec = &c
	lm.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// Unpublish stops showing the live match id, as when its record has been
// written to one of the folders, so that a server that publishes matches
// for days does not keep them all; pages that watch it are woken.
func (s *Server) Unpublish(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live[id]; !ok {
		return
	}
	delete(s.live, id)
	s.order = slices.DeleteFunc(s.order, func(o string) bool { return o == id })
	close(s.changed)
	s.changed = make(chan struct{})
}

// AddSeat gives a human player a seat page and returns its path on the
// server, such as "/seat?id=OQ4XH7RZ...". The player is ready to play
// while the page is open. The id is random: a seat's address belongs to
// this server alone, so that a page left open from an earlier match, of a
// viewer that served on the same port before, is told that its match is
// over instead of joining the next one.
func (s *Server) AddSeat(p seat.Player) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := rand.Text()
	s.seats[id] = p
	s.seatIDs = append(s.seatIDs, id)
	path := seatPath(id)
	p.Seat(path)
	return path
}

func seatPath(id string) string { return "/seat?id=" + url.QueryEscape(id) }

// LiveSource returns the source of the live match id, for links such as
// "/match?src=" + LiveSource(id).
func LiveSource(id string) string { return "live/" + id }

// Handler returns the HTTP handler of the viewer.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	page := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) { s.servePage(w, name) }
	}
	r.HandleFunc("/", page("index.html")).Methods(http.MethodGet)
	r.HandleFunc("/match", page("match.html")).Methods(http.MethodGet)
	r.HandleFunc("/seat", page("seat.html")).Methods(http.MethodGet)
	static, _ := fs.Sub(assetsFS, "assets")
	r.PathPrefix("/static/").Handler(http.StripPrefix("/static/", http.FileServer(http.FS(static)))).Methods(http.MethodGet)
	r.PathPrefix(imagePrefix).HandlerFunc(servePlaceholder).Methods(http.MethodGet)
	r.HandleFunc("/api/index", s.serveIndex).Methods(http.MethodGet)
	r.HandleFunc("/api/record", s.serveRecord).Methods(http.MethodGet)
	r.HandleFunc("/api/watch", s.serveWatch).Methods(http.MethodGet)
	r.HandleFunc("/api/stylesheet", s.serveStylesheet).Methods(http.MethodGet)
	r.HandleFunc("/api/plot", s.servePlot).Methods(http.MethodGet)
	r.HandleFunc("/api/seat", s.serveSeat).Methods(http.MethodGet)
	r.HandleFunc("/api/seat/watch", s.serveSeatWatch).Methods(http.MethodGet)
	r.HandleFunc("/api/seat/move", s.serveSeatMove).Methods(http.MethodPost)
	return secure(r)
}

// secure sets headers that keep what a stylesheet or a record holds from
// running scripts or reaching other sites: a page runs only the viewer's
// own scripts.
func secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) servePage(w http.ResponseWriter, name string) {
	data, err := assetsFS.ReadFile("assets/" + name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(data)
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// writeJSON writes v as the JSON answer.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// httpError answers with an error as JSON {"error": ...}, which the pages
// show.
func (s *Server) httpError(w http.ResponseWriter, r *http.Request, code int, err error) {
	s.logf("view: %s %s: %v", r.Method, r.URL, err)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// errNotFound marks a source or seat that does not exist.
var errNotFound = errors.New("not found")

func statusOf(err error) int {
	if errors.Is(err, errNotFound) || errors.Is(err, fs.ErrNotExist) {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// A source names a record: "live/ID" for a published match, or
// "ROOT/PATH" for the file PATH (slash-separated) below Dirs[ROOT].
type source struct {
	live string // match id, for a live match
	root int
	path string
}

func parseSource(src string) (source, error) {
	first, rest, ok := strings.Cut(src, "/")
	if !ok || rest == "" {
		return source{}, fmt.Errorf("source %q: want live/ID or ROOT/PATH", src)
	}
	if first == "live" {
		return source{live: rest}, nil
	}
	n, err := strconv.Atoi(first)
	if err != nil || n < 0 {
		return source{}, fmt.Errorf("source %q: want live/ID or ROOT/PATH", src)
	}
	if !fs.ValidPath(rest) {
		return source{}, fmt.Errorf("source %q: %q is not a path inside the folder", src, rest)
	}
	return source{root: n, path: rest}, nil
}

// file returns the file of a source that names one, checking that it lies
// inside its folder.
func (s *Server) file(src source) (string, error) {
	if src.root >= len(s.roots) {
		return "", fmt.Errorf("folder %d: %w", src.root, errNotFound)
	}
	// fs.ValidPath has ruled out "..", so the join stays inside the root.
	return filepath.Join(s.roots[src.root], filepath.FromSlash(src.path)), nil
}

// version identifies one version of a source's record: it changes when
// the record does.
type version struct {
	live     int
	mtime    int64
	size     int64
	notFound bool
}

// load returns the record of a source and its version.
func (s *Server) load(src source) (*record.Record, version, error) {
	if src.live != "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		lm, ok := s.live[src.live]
		if !ok {
			return nil, version{notFound: true}, fmt.Errorf("live match %s: %w", src.live, errNotFound)
		}
		return lm.rec, version{live: lm.version}, nil
	}
	name, err := s.file(src)
	if err != nil {
		return nil, version{notFound: true}, err
	}
	v, err := statVersion(name)
	if err != nil {
		return nil, v, err
	}
	rec, err := record.ReadFile(name)
	if err != nil {
		return nil, v, err
	}
	if err := rec.Check(); err != nil {
		return nil, v, fmt.Errorf("%s: %w", name, err)
	}
	return rec, v, nil
}

// current returns the version of a source without reading the record.
func (s *Server) current(src source) version {
	if src.live != "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		if lm, ok := s.live[src.live]; ok {
			return version{live: lm.version}
		}
		return version{notFound: true}
	}
	name, err := s.file(src)
	if err != nil {
		return version{notFound: true}
	}
	v, _ := statVersion(name)
	return v
}

// matchView is what the match page is sent: the record without its rules,
// which can be long, and how to draw its boards.
type matchView struct {
	Source string         `json:"source"`
	Record *record.Record `json:"record,omitempty"`
	Game   *gameInfo      `json:"game,omitempty"`
	Live   bool           `json:"live"`
	Error  string         `json:"error,omitempty"`
	// Hidden is set, with Error and no Record, while a person plays the
	// GDL-II match in a seat of this viewer (heldBack).
	Hidden bool `json:"hidden,omitempty"`
	// MoveWords and PerceptWords say what the record's moves and
	// percepts mean, where the game's folder can (games.Phrase).
	MoveWords    map[string]string `json:"moveWords,omitempty"`
	PerceptWords map[string]string `json:"perceptWords,omitempty"`
}

// errHeldBack is the error of a GDL-II record held back.
var errHeldBack = errors.New("a person is playing this GDL-II match on a seat of this viewer, who must not see the state nor the other roles' moves and percepts: it is shown once the match is over")

// heldBack reports whether rec is a GDL-II match under way in which a
// person plays in a seat of this viewer: its record tells what the
// person must not know.
func (s *Server) heldBack(rec *record.Record) bool {
	if !rec.GDLII || rec.IsCompleted || rec.IsAborted {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.seats {
		if t, _ := p.Turn(); t.MatchID == rec.MatchID && t.Status != seat.Over {
			return true
		}
	}
	return false
}

func (s *Server) matchView(srcText string) (matchView, version) {
	mv := matchView{Source: srcText}
	src, err := parseSource(srcText)
	if err != nil {
		mv.Error = err.Error()
		return mv, version{notFound: true}
	}
	rec, v, err := s.load(src)
	if err != nil {
		mv.Error = err.Error()
		return mv, v
	}
	if s.heldBack(rec) {
		mv.Error, mv.Hidden = errHeldBack.Error(), true
		return mv, v
	}
	c := *rec
	c.GameRules = ""
	mv.Record = &c
	mv.Live = src.live != ""
	mv.Game = s.games.info(rec.GameKey, rec.GameRulesheetHash)
	moves, percepts := s.games.phrases(rec.GameKey, rec.GameRulesheetHash)
	mv.MoveWords = sayAll(moves, rec.Moves...)
	var told [][]string
	for _, step := range rec.Percepts {
		told = append(told, step...)
	}
	mv.PerceptWords = sayAll(percepts, told...)
	return mv, v
}

func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request) {
	mv, v := s.matchView(r.URL.Query().Get("src"))
	if mv.Error != "" {
		code := http.StatusUnprocessableEntity
		if v.notFound {
			code = http.StatusNotFound
		}
		if mv.Hidden {
			code = http.StatusForbidden
		}
		s.logf("view: %s: %s", r.URL, mv.Error)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(mv)
		return
	}
	writeJSON(w, mv)
}

// serveWatch sends the match of a source as server-sent events: once at
// once, then at every change, until the client goes away.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request) {
	srcText := r.URL.Query().Get("src")
	src, err := parseSource(srcText)
	if err != nil {
		s.httpError(w, r, http.StatusBadRequest, err)
		return
	}
	sse, ok := s.startEvents(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	ticker := time.NewTicker(s.opts.Poll)
	defer ticker.Stop()
	var last version
	first := true
	for {
		if v := s.current(src); first || v != last {
			mv, v := s.matchView(srcText)
			if err := sse.send(mv); err != nil {
				return
			}
			first, last = false, v
		}
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-ticker.C:
		}
	}
}

// events writes server-sent events.
type events struct {
	w http.ResponseWriter
	f http.Flusher
}

// startEvents starts the answer as a stream of events; it answers with an
// error and returns false when the connection cannot stream.
func (s *Server) startEvents(w http.ResponseWriter, r *http.Request) (*events, bool) {
	f, ok := w.(http.Flusher)
	if !ok {
		s.httpError(w, r, http.StatusInternalServerError, errors.New("streaming not supported"))
		return nil, false
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	// A page whose connection drops tries again after a second: a seat
	// page learns soon that its viewer has gone.
	fmt.Fprint(w, "retry: 1000\n\n")
	f.Flush()
	return &events{w, f}, true
}

func (e *events) send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.w, "data: %s\n\n", data); err != nil {
		return err
	}
	e.f.Flush()
	return nil
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	idx := s.index.scan(r.Context())
	s.mu.Lock()
	// A match being played is listed as live, and not again by its file;
	// once over, it is listed with the others, by its file if it has one.
	inFiles := map[string]int{}
	for i, m := range idx.Matches {
		inFiles[m.MatchID] = i
	}
	var drop []int
	for _, id := range slices.Backward(s.order) {
		rec := s.live[id].rec
		i, hasFile := inFiles[id]
		switch {
		case !rec.IsCompleted && !rec.IsAborted:
			idx.Live = append(idx.Live, summarize(rec, LiveSource(id)))
			if hasFile {
				drop = append(drop, i)
			}
		case !hasFile:
			idx.Matches = append(idx.Matches, summarize(rec, LiveSource(id)))
		}
	}
	if len(drop) > 0 {
		slices.Sort(drop)
		for _, i := range slices.Backward(drop) {
			idx.Matches = slices.Delete(idx.Matches, i, i+1)
		}
	}
	sortMatches(idx.Matches)
	for _, id := range s.seatIDs {
		p := s.seats[id]
		t, _ := p.Turn()
		idx.Seats = append(idx.Seats, seatSummary{Path: seatPath(id), Name: p.Name(), MatchID: t.MatchID, Role: t.Role, Status: t.Status})
	}
	s.mu.Unlock()
	writeJSON(w, idx)
}

// serveStylesheet sends the stylesheet of a source's game: of a record
// held back as well, whose seat draws its boards with it.
func (s *Server) serveStylesheet(w http.ResponseWriter, r *http.Request) {
	src, err := parseSource(r.URL.Query().Get("src"))
	if err != nil {
		s.httpError(w, r, http.StatusNotFound, err)
		return
	}
	rec, _, err := s.load(src)
	if err != nil {
		s.httpError(w, r, http.StatusNotFound, err)
		return
	}
	xsl, err := s.games.stylesheet(rec.GameKey, rec.GameRulesheetHash)
	if err != nil {
		s.httpError(w, r, statusOf(err), err)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Write(xsl)
}

func (s *Server) servePlot(w http.ResponseWriter, r *http.Request) {
	res, err := s.index.results(r.URL.Query().Get("src"))
	if err != nil {
		s.httpError(w, r, statusOf(err), err)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	WritePlot(w, res.Standings)
}

// seat returns the human player of the seat named by the request's id.
func (s *Server) seat(r *http.Request) (seat.Player, error) {
	id := r.URL.Query().Get("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.seats[id]
	if !ok {
		if len(id) > 64 {
			id = id[:64] + "..."
		}
		return nil, fmt.Errorf("no seat %q on this viewer: %w", id, errNotFound)
	}
	return p, nil
}

// seatView is what the seat page is sent.
type seatView struct {
	Name string `json:"name"`
	seat.Turn
	// RemainingMs is the time left to move when the view was sent, so
	// that the page's countdown does not depend on the two clocks agreeing.
	RemainingMs int64 `json:"remainingMs"`
	// Source is the live match of the seat, for its stylesheet and record
	// (held back in a GDL-II match until it ends); Game says how to draw
	// its boards.
	Source string    `json:"source,omitempty"`
	Game   *gameInfo `json:"game,omitempty"`
	// AbortReason says why the live match of the seat was aborted, once
	// it was: interrupted, a player or the rules failed.
	AbortReason string `json:"abortReason,omitempty"`
	// StartsInMs is the time left, when the view was sent, before the
	// other players' start clock runs out (Turn.StartsBy).
	StartsInMs int64 `json:"startsInMs,omitempty"`
	// MoveWords and PerceptWords give, for the moves and the percepts the
	// seat shows that the game's folder can put into words, the words
	// that say what each means (games.Phrase).
	MoveWords    map[string]string `json:"moveWords,omitempty"`
	PerceptWords map[string]string `json:"perceptWords,omitempty"`
	// Truth is what happened in a GDL-II match, told to the person once
	// it is over and nothing is hidden any more.
	Truth *truth `json:"truth,omitempty"`
}

// truth is the whole of a GDL-II match that has ended: its final state and
// every role's moves, from the record.
type truth struct {
	Final  string     `json:"final"` // the final state, as the record writes it
	Moves  [][]string `json:"moves"`
	Nature string     `json:"nature,omitempty"`
	// Decisive are facts of the final state that decide the goals by
	// themselves, as seat.Turn's Decisive are of a GDL match: the
	// winning line, once it can be shown.
	Decisive []string `json:"decisive,omitempty"`
}

func (s *Server) seatView(p seat.Player) (seatView, <-chan struct{}) {
	t, changed := p.Turn()
	v := seatView{Name: p.Name(), Turn: t}
	if t.Status == seat.ToMove {
		v.RemainingMs = max(time.Until(t.Deadline).Milliseconds(), 0)
	}
	if !t.StartsBy.IsZero() {
		v.StartsInMs = max(time.Until(t.StartsBy).Milliseconds(), 0)
	}
	var rec *record.Record
	if t.MatchID != "" {
		s.mu.Lock()
		lm, ok := s.live[t.MatchID]
		if ok {
			rec = lm.rec
		}
		s.mu.Unlock()
		if rec != nil {
			v.Source = LiveSource(t.MatchID)
			v.Game = s.games.info(rec.GameKey, rec.GameRulesheetHash)
			if rec.IsAborted {
				v.AbortReason = rec.AbortReason
			}
			// A GDL-II role is not told the goals, the state nor the
			// others' moves; they are no secret once the match is over.
			if t.GDLII && t.Status == seat.Over && !t.Aborted && rec.IsCompleted {
				v.Goals = slices.Clone(rec.GoalValues)
				v.Outcome = seat.Outcome(v.Goals, t.Roles, slices.Index(t.Roles, t.Role), t.Nature)
				if len(rec.States) > 0 {
					v.Truth = &truth{Final: rec.States[len(rec.States)-1], Moves: slices.Clone(rec.Moves), Nature: rec.Nature, Decisive: s.decisive(t.MatchID, rec)}
				}
			}
		}
	}
	s.words(&v, rec)
	return v, changed
}

// decisive returns the facts of the final state of rec, the completed
// GDL-II match id, that decide its goals, looked for once (finalDecisive).
func (s *Server) decisive(id string, rec *record.Record) []string {
	s.mu.Lock()
	lm := s.live[id]
	if lm == nil || lm.rec != rec {
		s.mu.Unlock()
		return nil
	}
	if lm.decisiveDone {
		defer s.mu.Unlock()
		return lm.decisive
	}
	s.mu.Unlock()
	facts := finalDecisive(context.Background(), rec)
	s.mu.Lock()
	defer s.mu.Unlock()
	if lm.rec == rec {
		lm.decisive, lm.decisiveDone = facts, true
	}
	return facts
}

// words puts into words the moves and percepts of v that the folder of
// rec's game (nil: none) can say.
func (s *Server) words(v *seatView, rec *record.Record) {
	if rec == nil {
		return
	}
	moves, percepts := s.games.phrases(rec.GameKey, rec.GameRulesheetHash)
	all := [][]string{v.Legal, v.Last, {v.Chosen}}
	var told [][]string
	for _, h := range v.History {
		all = append(all, h.Moves, []string{h.Move, h.Chosen})
		told = append(told, h.Percepts)
	}
	if v.Truth != nil {
		all = append(all, v.Truth.Moves...)
	}
	v.MoveWords = sayAll(moves, all...)
	v.PerceptWords = sayAll(percepts, told...)
}

func (s *Server) serveSeat(w http.ResponseWriter, r *http.Request) {
	p, err := s.seat(r)
	if err != nil {
		s.httpError(w, r, statusOf(err), err)
		return
	}
	v, _ := s.seatView(p)
	writeJSON(w, v)
}

func (s *Server) serveSeatWatch(w http.ResponseWriter, r *http.Request) {
	p, err := s.seat(r)
	if err != nil {
		s.httpError(w, r, statusOf(err), err)
		return
	}
	sse, ok := s.startEvents(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	defer p.Attach()()
	for {
		v, changed := s.seatView(p)
		if err := sse.send(v); err != nil {
			return
		}
		if !waitEither(ctx, changed) {
			return
		}
	}
}

func waitEither(ctx context.Context, ch <-chan struct{}) bool {
	select {
	case <-ctx.Done():
		return false
	case <-ch:
		return true
	}
}

// seatMove is the body of a move chosen on a seat page.
type seatMove struct {
	Step int    `json:"step"`
	Move string `json:"move"`
}

func (s *Server) serveSeatMove(w http.ResponseWriter, r *http.Request) {
	p, err := s.seat(r)
	if err != nil {
		s.httpError(w, r, statusOf(err), err)
		return
	}
	var m seatMove
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&m); err != nil {
		s.httpError(w, r, http.StatusBadRequest, fmt.Errorf("move: %w", err))
		return
	}
	if err := p.Choose(m.Step, m.Move); err != nil {
		s.httpError(w, r, http.StatusConflict, err)
		return
	}
	writeJSON(w, map[string]string{"ok": m.Move})
}
