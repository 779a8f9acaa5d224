package host

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/rating"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
)

// Handler returns the host's web pages and JSON API, and the viewer's
// pages for its matches:
//
//	GET  /                          standings, players, matches in play
//	GET  /register, POST /register  the registration form
//	GET  /player?name=NAME          a player's page
//	GET  /matches                   the viewer's list of matches
//	POST /api/host/players          register: {"name", "url"} → {"token"}
//	GET  /api/host/players          the players
//	POST /api/host/players/{name}   change (Authorization: Bearer TOKEN)
//	DELETE /api/host/players/{name} remove (Authorization: Bearer TOKEN)
//	GET  /api/host/standings        ratings and matches
//	GET  /api/host/matches          the last matches
//
// Every other path is the viewer's (/match, /api/record...).
func (h *Host) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", h.pageStandings)
	mux.HandleFunc("GET /register", h.pageRegister)
	mux.HandleFunc("POST /register", h.pageRegister)
	mux.HandleFunc("GET /player", h.pagePlayer)
	mux.HandleFunc("POST /api/host/players", h.apiRegister)
	mux.HandleFunc("GET /api/host/players", h.apiPlayers)
	mux.HandleFunc("POST /api/host/players/{name}", h.apiChange)
	mux.HandleFunc("DELETE /api/host/players/{name}", h.apiRemove)
	mux.HandleFunc("GET /api/host/standings", h.apiStandings)
	mux.HandleFunc("GET /api/host/matches", h.apiMatches)
	viewer := h.viewer.Handler()
	mux.HandleFunc("GET /matches", func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/"
		viewer.ServeHTTP(w, r2)
	})
	mux.Handle("/", viewer)
	return secureHeaders(mux)
}

// secureHeaders keeps the host's pages from running any script or being
// framed: they are forms and tables.
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

// keepEnded is how many finished matches stay published in the viewer
// as live, for the pages that watched them to see their end; older ones
// are read from the exported records.
const keepEnded = 100

// publisher shows the host's matches in play in the viewer. It belongs to
// the goroutine of Host.Run.
type publisher struct {
	live  map[string]bool // published and in play, by match id
	ended []string        // published and finished, oldest first
	since time.Time       // of the last export
}

// publish shows the matches in play in the viewer, each finished one in
// its final state, and exports the finished ones into the viewer's folder.
func (h *Host) publish(ctx context.Context, p *publisher) {
	live, err := h.cfg.Store.Matches(ctx, store.MatchFilter{Status: store.StatusQueued, WithRecord: true})
	if err != nil {
		h.logf("host: matches in play: %v", err)
		return
	}
	now := map[string]bool{}
	for _, m := range live {
		if rec := parseRecord(m.Record); rec != nil {
			h.viewer.Publish(rec)
			now[rec.MatchID] = true
		}
	}
	if p.since, err = Export(ctx, h.cfg.Store, h.cfg.RecordsDir, p.since); err != nil {
		h.logf("host: exporting records: %v", err)
	}
	for id := range p.live {
		if now[id] {
			continue
		}
		// Finished (or gone back on the queue): show its final state.
		if ms, err := h.cfg.Store.Matches(ctx, store.MatchFilter{ID: id, Status: store.StatusDone, WithRecord: true}); err == nil && len(ms) > 0 {
			if rec := parseRecord(ms[0].Record); rec != nil {
				h.viewer.Publish(rec)
			}
		}
		p.ended = append(p.ended, id)
	}
	p.live = now
	for len(p.ended) > keepEnded {
		h.viewer.Unpublish(p.ended[0])
		p.ended = p.ended[1:]
	}
}

// parseRecord returns the record of data, nil if there is none.
func parseRecord(data []byte) *record.Record {
	if len(data) == 0 {
		return nil
	}
	rec, err := record.Unmarshal(data)
	if err != nil {
		return nil
	}
	return rec
}

var pageTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"elo":   func(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) },
	"query": url.QueryEscape,
	"live":  func(id string) string { return "/match?src=" + url.QueryEscape(view.LiveSource(id)) },
	// The viewer's only folder, 0, is RecordsDir, where Export writes.
	"saved": func(t, id string) string {
		return "/match?src=" + url.QueryEscape("0/"+safeName(t)+"/"+safeName(id)+".json")
	},
}).Parse(pagesHTML))

func (h *Host) pageStandings(w http.ResponseWriter, r *http.Request) {
	st, err := h.Standings(r.Context())
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	h.render(w, "standings", st)
}

// registered is what the registration page shows after a registration.
type registered struct {
	Name, URL, Token, Error string
}

func (h *Host) pageRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.render(w, "register", registered{})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	if err := r.ParseForm(); err != nil {
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		h.render(w, "register", registered{Error: "the form is larger than the host takes"})
		return
	}
	reg := registered{Name: r.PostFormValue("name"), URL: r.PostFormValue("url")}
	token, err := h.Register(r.Context(), reg.Name, reg.URL)
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		w.WriteHeader(ae.status)
		reg.Error = ae.msg
	case err != nil:
		h.pageError(w, r, err)
		return
	default:
		reg.Token = token
	}
	h.render(w, "register", reg)
}

// playerPage is what a player's page shows.
type playerPage struct {
	Player  PlayerView
	Rating  *rating.Rating
	Matches []MatchView
}

func (h *Host) pagePlayer(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	p, err := h.cfg.Store.Player(r.Context(), name)
	if errors.Is(err, store.ErrNoPlayer) {
		http.Error(w, "no player "+name, http.StatusNotFound)
		return
	}
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	st, err := h.Standings(r.Context())
	if err != nil {
		h.pageError(w, r, err)
		return
	}
	page := playerPage{Player: viewOf(p)}
	if rt, ok := st.Overall.Player(name); ok {
		page.Rating = &rt
	}
	for _, m := range append(st.Live, st.Recent...) {
		for _, n := range m.Players {
			if n == name {
				page.Matches = append(page.Matches, m)
				break
			}
		}
	}
	h.render(w, "player", page)
}

func (h *Host) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pageTemplates.ExecuteTemplate(w, name, data); err != nil {
		h.logf("host: page %s: %v", name, err)
	}
}

func (h *Host) pageError(w http.ResponseWriter, r *http.Request, err error) {
	h.logf("host: %s %s: %v", r.Method, r.URL.Path, err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}
