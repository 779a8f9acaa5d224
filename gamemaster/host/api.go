package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/host/store"
)

// MaxBody bounds the body of a request to the host's API, in bytes.
const MaxBody = 4 << 10

// namePattern is what a player's name may be: it appears in match ids,
// records and pages.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$`)

// apiError is an error with its HTTP status, told to the client.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// PlayerView is a player as the API shows it: without its token.
type PlayerView struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	Paused      bool   `json:"paused"`
	PauseReason string `json:"pauseReason,omitempty"`
	Checked     string `json:"lastAnswer,omitempty"`
}

func viewOf(p store.Player) PlayerView {
	v := PlayerView{Name: p.Name, URL: p.URL, Paused: p.Paused, PauseReason: p.PauseReason}
	if !p.Checked.IsZero() {
		v.Checked = p.Checked.UTC().Format("2006-01-02 15:04:05Z")
	}
	return v
}

// Registration is what registers a player, and its answer.
type Registration struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Token string `json:"token,omitempty"` // in the answer only
}

// Register registers a player and returns its token. A bad name, a URL
// the network policy refuses and a name taken are errors that say so.
func (h *Host) Register(ctx context.Context, name, url string) (string, error) {
	name, url = strings.TrimSpace(name), strings.TrimSpace(url)
	if !namePattern.MatchString(name) {
		return "", badRequest("name %q: want 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	if _, err := h.cfg.Policy.CheckURL(url); err != nil {
		return "", badRequest("url: %v", err)
	}
	token, hash := newToken()
	err := h.cfg.Store.AddPlayer(ctx, store.Player{Name: name, URL: url, TokenHash: hash})
	if errors.Is(err, store.ErrNameTaken) {
		return "", &apiError{http.StatusConflict, fmt.Sprintf("name %s is taken: choose another", name)}
	}
	if err != nil {
		return "", err
	}
	h.logf("host: player %s registered at %s", name, url)
	return token, nil
}

// PlayerChange is a change to a player: the fields given are changed.
type PlayerChange struct {
	URL    *string `json:"url,omitempty"`
	Paused *bool   `json:"paused,omitempty"`
	// NewToken asks for a new token, which the answer gives; the old one
	// stops working.
	NewToken bool `json:"newToken,omitempty"`
}

// Change changes a player, for the holder of its token or the operator's,
// and returns its new token if one was asked for.
func (h *Host) Change(ctx context.Context, name, token string, c PlayerChange) (string, error) {
	p, err := h.authorize(ctx, name, token)
	if err != nil {
		return "", err
	}
	if c.URL != nil {
		u := strings.TrimSpace(*c.URL)
		if _, err := h.cfg.Policy.CheckURL(u); err != nil {
			return "", badRequest("url: %v", err)
		}
		p.URL = u
	}
	if c.Paused != nil {
		p.Paused = *c.Paused
		p.PauseReason = ""
		if p.Paused {
			p.PauseReason = "paused by its owner"
		}
	}
	var fresh string
	if c.NewToken {
		fresh, p.TokenHash = newToken()
	}
	if err := h.cfg.Store.UpdatePlayer(ctx, p); err != nil {
		return "", err
	}
	return fresh, nil
}

// Remove removes a player, for the holder of its token or the operator's.
func (h *Host) Remove(ctx context.Context, name, token string) error {
	if _, err := h.authorize(ctx, name, token); err != nil {
		return err
	}
	return h.cfg.Store.DeletePlayer(ctx, name)
}

// authorize returns the player name if token is its token or the
// operator's.
func (h *Host) authorize(ctx context.Context, name, token string) (store.Player, error) {
	if token == "" {
		return store.Player{}, &apiError{http.StatusUnauthorized, errNoToken.Error()}
	}
	p, err := h.cfg.Store.Player(ctx, name)
	if errors.Is(err, store.ErrNoPlayer) {
		return store.Player{}, &apiError{http.StatusNotFound, fmt.Sprintf("no player %s", name)}
	}
	if err != nil {
		return store.Player{}, err
	}
	if tokenMatches(p.TokenHash, token) {
		return p, nil
	}
	op, err := h.isOperator(ctx, token)
	if err != nil {
		return store.Player{}, err
	}
	if !op {
		return store.Player{}, &apiError{http.StatusForbidden, fmt.Sprintf("the token is neither player %s's nor the operator's", name)}
	}
	return p, nil
}

// decodeBody reads a JSON body of at most MaxBody bytes into v.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", MaxBody)}
		}
		return badRequest("request body: %v", err)
	}
	return nil
}

// writeJSON answers v as JSON with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// writeError answers err: its message and status if it is an apiError,
// else a server error whose details go to the log only.
func (h *Host) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		h.logf("host: %s %s: %v", r.Method, r.URL.Path, err)
		ae = &apiError{http.StatusInternalServerError, "internal error"}
	}
	writeJSON(w, ae.status, map[string]string{"error": ae.msg})
}

func (h *Host) apiRegister(w http.ResponseWriter, r *http.Request) {
	var reg Registration
	if err := decodeBody(w, r, &reg); err != nil {
		h.writeError(w, r, err)
		return
	}
	token, err := h.Register(r.Context(), reg.Name, reg.URL)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, Registration{Name: strings.TrimSpace(reg.Name), URL: strings.TrimSpace(reg.URL), Token: token})
}

func (h *Host) apiPlayers(w http.ResponseWriter, r *http.Request) {
	ps, err := h.cfg.Store.Players(r.Context())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, views(ps, viewOf))
}

func (h *Host) apiChange(w http.ResponseWriter, r *http.Request) {
	var c PlayerChange
	token := bearer(r)
	if err := decodeBody(w, r, &c); err != nil {
		h.writeError(w, r, err)
		return
	}
	name := r.PathValue("name")
	fresh, err := h.Change(r.Context(), name, token, c)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	p, err := h.cfg.Store.Player(r.Context(), name)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		PlayerView
		Token string `json:"token,omitempty"`
	}{viewOf(p), fresh})
}

func (h *Host) apiRemove(w http.ResponseWriter, r *http.Request) {
	if err := h.Remove(r.Context(), r.PathValue("name"), bearer(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Host) apiStandings(w http.ResponseWriter, r *http.Request) {
	st, err := h.Standings(r.Context())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (h *Host) apiMatches(w http.ResponseWriter, r *http.Request) {
	ms, err := h.cfg.Store.Matches(r.Context(), store.MatchFilter{Tournament: r.URL.Query().Get("tournament"), Limit: 500})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, views(ms, matchViewOf))
}

// MatchView is a match as the API shows it.
type MatchView struct {
	Tournament string   `json:"tournament"`
	ID         string   `json:"id"`
	Game       string   `json:"game"`
	Players    []string `json:"players"`
	Status     string   `json:"status"`
	Completed  bool     `json:"completed"`
	Goals      []int    `json:"goals,omitempty"`
	Error      string   `json:"error,omitempty"`
	Attempts   int      `json:"attempts"`
}

// views returns the view of every x, an empty list (not null in JSON) for
// none.
func views[T, V any](xs []T, view func(T) V) []V {
	out := make([]V, 0, len(xs))
	for _, x := range xs {
		out = append(out, view(x))
	}
	return out
}

func matchViewOf(m store.Match) MatchView {
	return MatchView{m.Tournament, m.ID, m.Game, m.Players, m.Status, m.Completed, m.Goals, m.Error, m.Attempts}
}
