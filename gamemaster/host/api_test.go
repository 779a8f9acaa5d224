package host_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host"
	"github.com/ggp-go/ggp/gamemaster/host/store"
)

// TestTokens checks every action on a player with no token, another
// player's token, the player's own and the operator's: only the last two
// change anything.
func TestTokens(t *testing.T) {
	f := newFixture(t, "")
	defer f.close()
	operator, err := host.SetupOperator(context.Background(), f.st, "")
	if err != nil || operator == "" {
		t.Fatalf("operator token: %q, %v", operator, err)
	}
	url := f.servePlayer("random")
	other := f.register("mallory", url)

	paused, newURL := true, f.servePlayer("legal")
	actions := []struct {
		name    string
		method  string
		body    any
		changed func(p store.Player, existed bool) bool
		okCode  int
	}{
		{"pause", "POST", host.PlayerChange{Paused: &paused}, func(p store.Player, _ bool) bool { return p.Paused }, http.StatusOK},
		{"change url", "POST", host.PlayerChange{URL: &newURL}, func(p store.Player, _ bool) bool { return p.URL == newURL }, http.StatusOK},
		{"new token", "POST", host.PlayerChange{NewToken: true}, nil, http.StatusOK},
		{"remove", "DELETE", nil, func(_ store.Player, existed bool) bool { return !existed }, http.StatusNoContent},
	}
	for _, a := range actions {
		for _, who := range []string{"none", "other", "own", "operator"} {
			t.Run(a.name+"/"+who, func(t *testing.T) {
				name := strings.ReplaceAll(a.name+"-"+who, " ", "")
				own := f.register(name, url)
				before, _ := f.st.Player(context.Background(), name)
				token := map[string]string{"none": "", "other": other, "own": own, "operator": operator}[who]
				var answer struct {
					Token string `json:"token"`
					Error string `json:"error"`
				}
				code := f.post(a.method, "/api/host/players/"+name, token, a.body, &answer)
				after, err := f.st.Player(context.Background(), name)
				existed := err == nil
				allowed := who == "own" || who == "operator"
				want := map[string]int{"none": http.StatusUnauthorized, "other": http.StatusForbidden}[who]
				if allowed {
					want = a.okCode
				}
				if code != want {
					t.Fatalf("status %d, want %d (%s)", code, want, answer.Error)
				}
				if !allowed {
					if !existed || after != before {
						t.Errorf("changed without the right token: %+v, was %+v", after, before)
					}
					if answer.Error == "" {
						t.Error("no error message")
					}
					return
				}
				if a.changed != nil && !a.changed(after, existed) {
					t.Errorf("not changed: %+v", after)
				}
				if a.name == "new token" {
					if answer.Token == "" || after.TokenHash == before.TokenHash {
						t.Fatalf("no new token: %q", answer.Token)
					}
					if who == "own" && f.post("POST", "/api/host/players/"+name, own, host.PlayerChange{Paused: &paused}, nil) != http.StatusForbidden {
						t.Error("the old token still works")
					}
				}
			})
		}
	}
}

// TestBadRegistrations checks that each bad registration gets an error
// that says what is wrong, and registers nothing.
func TestBadRegistrations(t *testing.T) {
	f := newFixture(t, "")
	defer f.close()
	url := f.servePlayer("random")
	f.register("taken", url)
	tests := []struct {
		name string
		body string
		code int
		says string
	}{
		{"duplicate name", `{"name":"taken","url":"` + url + `"}`, http.StatusConflict, "taken"},
		{"bad name", `{"name":"a b<script>","url":"` + url + `"}`, http.StatusBadRequest, "name"},
		{"empty name", `{"name":"","url":"` + url + `"}`, http.StatusBadRequest, "name"},
		{"not a url", `{"name":"p1","url":"player at home"}`, http.StatusBadRequest, "url"},
		{"other scheme", `{"name":"p2","url":"ftp://127.0.0.1/"}`, http.StatusBadRequest, "url"},
		{"private address", `{"name":"p3","url":"http://10.1.2.3:9147/"}`, http.StatusBadRequest, "allow"},
		{"metadata service", `{"name":"p4","url":"http://169.254.169.254:80/"}`, http.StatusBadRequest, "allow"},
		{"unknown field", `{"name":"p5","url":"` + url + `","admin":true}`, http.StatusBadRequest, "admin"},
		{"not json", `name=p6`, http.StatusBadRequest, "request body"},
		{"huge body", `{"name":"p7","url":"` + url + `","x":"` + strings.Repeat("x", 1<<20) + `"}`, http.StatusRequestEntityTooLarge, "larger"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(f.web.URL+"/api/host/players", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var answer struct{ Error string }
			decodeJSON(t, resp, &answer)
			if resp.StatusCode != tt.code || !strings.Contains(answer.Error, tt.says) {
				t.Errorf("status %d %q, want %d saying %q", resp.StatusCode, answer.Error, tt.code, tt.says)
			}
		})
	}
	ps, err := f.st.Players(context.Background())
	if err != nil || len(ps) != 1 {
		t.Errorf("players after bad registrations: %d, %v; want the one registered", len(ps), err)
	}
}

// TestHostilePlayers registers players that answer INFO and the game's
// messages slowly, hugely or with garbage: the checks pause them, their
// matches complete with their moves replaced, and the host keeps serving.
func TestHostilePlayers(t *testing.T) {
	f := newFixture(t, "")
	defer f.close()
	good := f.servePlayer("random")
	hostile := map[string]http.HandlerFunc{
		"silent": func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so that the server sees the client leave
			<-r.Context().Done()        // and never answers
		},
		"huge": func(w http.ResponseWriter, r *http.Request) {
			chunk := []byte(strings.Repeat("(", 1<<16))
			for range 1 << 10 { // 64 MiB
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		},
		"garbage": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("((((name \x00\xff) ) ) ) ) )"))
		},
		"redirect": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://169.254.169.254/", http.StatusFound)
		},
	}
	for name, h := range hostile {
		srv := httptest.NewServer(h)
		defer srv.Close()
		f.register(name, srv.URL+"/")
		f.register("good-"+name, good)
	}
	f.h.CheckPlayers(context.Background())
	for name := range hostile {
		p, err := f.st.Player(context.Background(), name)
		if err != nil || !p.Paused || !strings.HasPrefix(p.PauseReason, store.HostPausePrefix) {
			t.Errorf("player %s: paused %v (%q), %v; want paused by the host", name, p.Paused, p.PauseReason, err)
		}
		g, _ := f.st.Player(context.Background(), "good-"+name)
		if g.Paused || g.Checked.IsZero() {
			t.Errorf("player good-%s: paused %v, checked %v; want active and checked", name, g.Paused, g.Checked)
		}
	}

	// Matches against them, all at once, complete with the hostile
	// players' moves replaced.
	ps, err := f.st.Players(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	url := map[string]string{}
	for _, p := range ps {
		url[p.Name] = p.URL
	}
	n := 0
	for name := range hostile {
		if name == "silent" {
			continue // it would only make the match last its clocks
		}
		args := store.MatchArgs{
			Tournament: "hostile", ID: "m-" + name, Game: "ticTacToe", Rules: ticTacToeRules(t),
			StartClockMS: 1000, PlayClockMS: 1000, LimitMS: time.Minute.Milliseconds(),
			Seats: []store.Seat{{Name: name, Spec: url[name], Registered: true}, {Name: "good-" + name, Spec: good, Registered: true}},
		}
		if _, err := f.st.Enqueue(context.Background(), args); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for range n {
		<-f.finished
	}
	ms, err := f.st.Matches(context.Background(), store.MatchFilter{Tournament: "hostile"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !m.Completed {
			t.Errorf("match %s: not completed: %s", m.ID, m.Error)
		}
	}
	resp, err := http.Get(f.web.URL + "/api/host/standings")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("standings after hostile players: %v", err)
	}
	resp.Body.Close()
}
