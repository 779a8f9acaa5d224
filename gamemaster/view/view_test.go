package view_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
)

func get(t testing.TB, h http.Handler, url string) (int, string) {
	t.Helper()
	rr := httptest.NewRecorder()
	h.ServeHTTP(rr, httptest.NewRequest(http.MethodGet, url, nil))
	body, _ := io.ReadAll(rr.Result().Body)
	return rr.Code, string(body)
}

// aRecord plays one ticTacToe match and returns its record file's content.
func aRecord(t testing.TB) []byte {
	t.Helper()
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := testFactory(t)
	ref := &gamemaster.Referee{NewReasoner: f}
	p1, _ := players.New("random", f)
	p2, _ := players.New("legal", f)
	m := &gamemaster.Match{ID: "m", Game: g, Players: []player.Player{p1, p2}, StartClock: time.Second, PlayClock: time.Second, Record: filepath.Join(dir, "m.json")}
	if _, err := ref.Run(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(m.Record)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// writeRecords writes n copies of a record, each with its own match id.
func writeRecords(t testing.TB, dir string, data []byte, n int) {
	t.Helper()
	rec, err := record.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		rec.MatchID = fmt.Sprintf("copy.%d", i)
		rec.StartTime = int64(1_700_000_000_000 + i)
		if err := record.WriteFile(filepath.Join(dir, rec.MatchID+".json"), rec); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIndexAndRecord(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, dir, aRecord(t), 3)
	writeFile(t, filepath.Join(dir, "bad.json"), `{"matchId": "x", "states": []}`)
	writeFile(t, filepath.Join(dir, ".hidden", "h.json"), `{}`)
	srv, err := view.New(view.Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	code, body := get(t, h, "/api/index")
	if code != 200 {
		t.Fatalf("index: %d %s", code, body)
	}
	var idx view.Index
	if err := json.Unmarshal([]byte(body), &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Matches) != 4 {
		t.Fatalf("index has %d lines, want 3 matches and the bad file: %+v", len(idx.Matches), idx.Matches)
	}
	if m := idx.Matches[0]; m.MatchID != "copy.2" || !m.Completed || len(m.Goals) != 2 || m.Players[1] != "legal" {
		t.Errorf("newest match line = %+v", m)
	}
	bad := idx.Matches[3]
	if bad.MatchID != "" || !strings.Contains(bad.Error, "no states") {
		t.Errorf("bad file line = %+v, want its error", bad)
	}
	code, body = get(t, h, "/api/record?src=0/copy.1.json")
	if code != 200 || !strings.Contains(body, `"matchId":"copy.1"`) || strings.Contains(body, "gameRules\":\"(") {
		t.Errorf("record: %d %.200s", code, body)
	}
	if !strings.Contains(body, `"stylesheet":true`) {
		t.Errorf("record of a bundled game with a stylesheet: %.300s", body)
	}
	code, body = get(t, h, "/api/stylesheet?src=0/copy.1.json")
	if code != 200 || !strings.Contains(body, "xsl:stylesheet") {
		t.Errorf("stylesheet: %d %.200s", code, body)
	}
	for _, src := range []string{"0/../etc/passwd", "0//etc/passwd", "7/copy.1.json", "live/none", "x", "0/bad.json"} {
		code, body := get(t, h, "/api/record?src="+src)
		if code < 400 || !strings.Contains(body, `"error"`) {
			t.Errorf("record %s: %d %.200s, want an error", src, code, body)
		}
	}
	// The server keeps serving after bad requests.
	if code, _ := get(t, h, "/"); code != 200 {
		t.Errorf("index page: %d", code)
	}
}

func TestPlot(t *testing.T) {
	var b strings.Builder
	err := view.WritePlot(&b, []tournament.Standing{
		{Player: "mcts", Matches: 10, GoalMean: 80, GoalCI95: 12.5},
		{Player: "<random>", Matches: 1, GoalMean: 20, GoalCI95: -1},
		{Player: "legal"},
	})
	if err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{`data-player="mcts" data-mean="80.00" data-ci="12.50"`, "80.0 ± 12.5 (n=10)", "&lt;random&gt;", "20.0 (n=1)", "no completed match"} {
		if !strings.Contains(svg, want) {
			t.Errorf("plot lacks %q:\n%s", want, svg)
		}
	}
	// The interval of mcts spans 67.5 to 92.5 on a 420-pixel axis from x=170.
	if !strings.Contains(svg, `x1="453.5"`) || !strings.Contains(svg, `x2="558.5"`) {
		t.Errorf("interval of mcts not drawn from 67.5 to 92.5:\n%s", svg)
	}
}

func TestPlaceholderImages(t *testing.T) {
	srv, _ := view.New(view.Options{})
	h := srv.Handler()
	code, body := get(t, h, "/ggp-base/resources/images/discs/red.png")
	if code != 200 || !strings.Contains(body, `fill="red"`) {
		t.Errorf("red disc: %d %s", code, body)
	}
	_, body = get(t, h, "/ggp-base/resources/images/chess/<wk>.png")
	if strings.Contains(body, "<wk>") {
		t.Errorf("image name not escaped: %s", body)
	}
}

func BenchmarkIndex1000(b *testing.B) {
	dir := b.TempDir()
	writeRecords(b, dir, aRecord(b), 1000)
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			srv, _ := view.New(view.Options{Dirs: []string{dir}})
			if code, _ := get(b, srv.Handler(), "/api/index"); code != 200 {
				b.Fatal(code)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		srv, _ := view.New(view.Options{Dirs: []string{dir}})
		h := srv.Handler()
		get(b, h, "/api/index")
		for b.Loop() {
			if code, _ := get(b, h, "/api/index"); code != 200 {
				b.Fatal(code)
			}
		}
	})
}
