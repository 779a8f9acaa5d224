package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/host"
	"github.com/ggp-go/ggp/gamemaster/host/netguard"
	"github.com/ggp-go/ggp/gamemaster/host/pgtest"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// fixture is a host on a SQLite file in a temporary folder, with its
// workers, and players served on loopback.
type fixture struct {
	t        *testing.T
	dir      string
	dsn      string // PostgreSQL's, or "" for SQLite in dir
	factory  reasoner.Factory
	policy   *netguard.Policy
	st       *store.Store
	h        *host.Host
	web      *httptest.Server
	finished chan store.MatchArgs
}

func newFixture(t *testing.T, dsn string) *fixture {
	t.Helper()
	factory, err := backend.New("", backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	policy, err := netguard.New(netguard.Config{Allow: []string{"127.0.0.0/8"}})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: t.TempDir(), dsn: dsn, factory: factory, policy: policy, finished: make(chan store.MatchArgs, 100)}
	f.open(2)
	return f
}

// open opens the store with workers and makes the host over it.
func (f *fixture) open(workers int) {
	t := f.t
	t.Helper()
	w := &host.Worker{Referee: &gamemaster.Referee{NewReasoner: f.factory}, NewPlayer: host.SeatPlayers(f.policy, f.factory)}
	cfg := store.Config{DSN: f.dsn, Dir: f.dir, Workers: workers, MaxMatch: time.Minute, Logf: t.Logf, OnFinish: func(a store.MatchArgs, counted bool) {
		if counted {
			f.finished <- a
		}
	}}
	if workers > 0 {
		cfg.Play = w.Play
	}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.st = st
	game, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	f.h, err = host.New(host.Config{
		Store: st, Games: []*games.Game{game}, Policy: f.policy,
		StartClock: host.Range{Min: time.Second, Max: 2 * time.Second},
		PlayClock:  host.Range{Min: time.Second, Max: time.Second},
		RecordsDir: filepath.Join(f.dir, "records"), CheckTimeout: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	f.web = httptest.NewServer(f.h.Handler())
}

func (f *fixture) close() {
	// A page's event stream ends only when its browser goes, and the
	// browser is closed after this (its cleanup was registered first):
	// cut the connections, or Close waits for them forever.
	f.web.CloseClientConnections()
	f.web.Close()
	if err := f.st.Close(); err != nil {
		f.t.Fatal(err)
	}
}

// servePlayer serves an in-process player over HTTP on loopback.
func (f *fixture) servePlayer(spec string) string {
	p, err := players.New(spec, f.factory)
	if err != nil {
		f.t.Fatal(err)
	}
	srv := httptest.NewServer(server.New(p))
	f.t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// post sends body as JSON with token, and decodes the answer into out.
func (f *fixture) post(method, path, token string, body any, out any) int {
	f.t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		f.t.Fatal(err)
	}
	req, err := http.NewRequest(method, f.web.URL+path, bytes.NewReader(data))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode != http.StatusNoContent {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			f.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

func (f *fixture) register(name, url string) string {
	f.t.Helper()
	var reg host.Registration
	if code := f.post("POST", "/api/host/players", "", host.Registration{Name: name, URL: url}, &reg); code != http.StatusCreated {
		f.t.Fatalf("registering %s: status %d", name, code)
	}
	return reg.Token
}

// playRound schedules what the players allow and waits for those matches.
func (f *fixture) playRound() []store.MatchArgs {
	f.t.Helper()
	n, err := f.h.Schedule(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	if n == 0 {
		f.t.Fatal("no match scheduled")
	}
	var done []store.MatchArgs
	for range n {
		done = append(done, <-f.finished)
	}
	return done
}

func TestHostRegisterPlayRateRestartResume(t *testing.T) {
	testRegisterPlayRateRestartResume(t, newFixture(t, ""))
}

func TestHostOnPostgres(t *testing.T) {
	testRegisterPlayRateRestartResume(t, newFixture(t, pgtest.Start(t)))
}

func testRegisterPlayRateRestartResume(t *testing.T, f *fixture) {
	f.register("alice", f.servePlayer("random"))
	f.register("bob", f.servePlayer("legal"))

	const rounds = 3
	for range rounds {
		for _, a := range f.playRound() {
			if len(a.Seats) != 2 {
				t.Fatalf("match %s: %d seats, want 2", a.ID, len(a.Seats))
			}
		}
	}
	var st host.Standings
	if code := f.post("GET", "/api/host/standings", "", nil, &st); code != http.StatusOK {
		t.Fatalf("standings: status %d", code)
	}
	if st.Overall.Matches != rounds {
		t.Errorf("standings: %d rated matches, want %d", st.Overall.Matches, rounds)
	}
	for _, name := range []string{"alice", "bob"} {
		r, ok := st.Overall.Player(name)
		if !ok || !r.Rated || r.Matches != rounds || !(r.Low <= r.Elo && r.Elo <= r.High) {
			t.Errorf("standings: %s: %+v, want rated over %d matches within its interval", name, r, rounds)
		}
	}

	// A match queued while no worker runs is played once one does.
	f.close()
	f.open(0)
	if n, err := f.h.Schedule(context.Background()); err != nil || n != 1 {
		t.Fatalf("scheduling without workers: %d matches, %v; want 1", n, err)
	}
	f.close()
	f.open(2)
	defer f.close()
	resumed := <-f.finished
	ms, err := f.st.Matches(context.Background(), store.MatchFilter{Tournament: host.Tournament, WithRecord: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != rounds+1 {
		t.Fatalf("after restarts: %d matches, want %d", len(ms), rounds+1)
	}
	for _, m := range ms {
		if m.Status != store.StatusDone || !m.Completed {
			t.Errorf("match %s: %s, completed %v (%s)", m.ID, m.Status, m.Completed, m.Error)
			continue
		}
		rec, err := record.Unmarshal(m.Record)
		if err != nil {
			t.Fatalf("match %s: %v", m.ID, err)
		}
		if err := rec.Check(); err != nil || !rec.IsCompleted {
			t.Errorf("match %s: record: completed %v, %v", m.ID, rec.IsCompleted, err)
		}
		if strings.Join(rec.PlayerNamesFromHost, ",") != strings.Join(m.Players, ",") {
			t.Errorf("match %s: record names %v, want %v", m.ID, rec.PlayerNamesFromHost, m.Players)
		}
	}
	found := false
	for _, m := range ms {
		found = found || m.ID == resumed.ID
	}
	if !found {
		t.Errorf("resumed match %s not stored", resumed.ID)
	}

	// Export writes every record once, in ggp-base's format.
	out := t.TempDir()
	if _, err := host.Export(context.Background(), f.st, out, time.Time{}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, host.Tournament, "*.json"))
	if len(files) != rounds+1 {
		t.Errorf("export: %d files, want %d", len(files), rounds+1)
	}
	for _, name := range files {
		if _, err := record.ReadFile(name); err != nil {
			t.Errorf("export: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, store.SQLiteFile)); (err == nil) != (f.dsn == "") {
		t.Errorf("database file: %v, want one with SQLite alone", err)
	}
}

func decodeJSON(t *testing.T, resp *http.Response, v any) {
	t.Helper()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("answer: %v", err)
	}
}

func ticTacToeRules(t *testing.T) string {
	t.Helper()
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	return string(g.Rules)
}
