package view_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player/human"
)

func index(t *testing.T, srv *view.Server) view.Index {
	t.Helper()
	code, body := get(t, srv.Handler(), "/api/index")
	if code != 200 {
		t.Fatalf("index: %d %s", code, body)
	}
	var idx view.Index
	if err := json.Unmarshal([]byte(body), &idx); err != nil {
		t.Fatal(err)
	}
	return idx
}

func ids(ms []view.MatchSummary) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.MatchID+"@"+m.Source)
	}
	slices.Sort(out)
	return out
}

func TestIndexListsEachMatchOnce(t *testing.T) {
	dir := t.TempDir()
	data := aRecord(t)
	writeRecords(t, dir, data, 2)
	// The same folder, given three times over.
	srv, err := view.New(view.Options{Dirs: []string{dir, dir, dir + "/."}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(index(t, srv).Matches); !slices.Equal(got, []string{"copy.0@0/copy.0.json", "copy.1@0/copy.1.json"}) {
		t.Errorf("a folder given three times lists %v", got)
	}

	rec, err := record.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	// copy.1 being played: listed as live, and not again by its file.
	playing := *rec
	playing.MatchID = "copy.1"
	playing.IsCompleted, playing.GoalValues = false, nil
	srv.Publish(&playing)
	idx := index(t, srv)
	if got := ids(idx.Live); !slices.Equal(got, []string{"copy.1@live/copy.1"}) {
		t.Errorf("live while playing: %v", got)
	}
	if got := ids(idx.Matches); !slices.Equal(got, []string{"copy.0@0/copy.0.json"}) {
		t.Errorf("matches while copy.1 is played: %v", got)
	}
	// Over: listed once, by its file.
	done := *rec
	done.MatchID = "copy.1"
	srv.Publish(&done)
	// A finished match without a file: listed with the others, live.
	solo := *rec
	solo.MatchID = "solo.1"
	srv.Publish(&solo)
	idx = index(t, srv)
	if len(idx.Live) != 0 {
		t.Errorf("finished matches still listed as live: %v", ids(idx.Live))
	}
	if got := ids(idx.Matches); !slices.Equal(got, []string{"copy.0@0/copy.0.json", "copy.1@0/copy.1.json", "solo.1@live/solo.1"}) {
		t.Errorf("matches once over: %v", got)
	}
	// Unpublished, a match is listed by its file alone, if it has one.
	srv.Unpublish("solo.1")
	srv.Unpublish("copy.1")
	if got := ids(index(t, srv).Matches); !slices.Equal(got, []string{"copy.0@0/copy.0.json", "copy.1@0/copy.1.json"}) {
		t.Errorf("matches once unpublished: %v", got)
	}
}

func TestResultNamesRolesAndPlayers(t *testing.T) {
	dir := t.TempDir()
	rec, err := record.Unmarshal(aRecord(t))
	if err != nil {
		t.Fatal(err)
	}
	rec.PlayerNamesFromHost = []string{"random", "random"}
	if err := record.WriteFile(filepath.Join(dir, "m.json"), rec); err != nil {
		t.Fatal(err)
	}
	srv, _ := view.New(view.Options{Dirs: []string{dir}})
	want := fmt.Sprintf("xplayer (random) %d, oplayer (random) %d", rec.GoalValues[0], rec.GoalValues[1])
	if got := index(t, srv).Matches[0].Result; got != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

func TestStylesheetOfAGameGiven(t *testing.T) {
	folder := filepath.Join(t.TempDir(), "styled")
	g0, _ := games.Lookup("ticTacToe")
	writeFile(t, filepath.Join(folder, "METADATA"), `{"gameName": "Styled", "rulesheet": "rules.kif", "stylesheet": "s.xsl"}`)
	writeFile(t, filepath.Join(folder, "rules.kif"), string(g0.Rules))
	writeFile(t, filepath.Join(folder, "s.xsl"), `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><p>styled</p></xsl:template></xsl:stylesheet>`)
	g, err := games.LoadFolder(folder)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Unmarshal(aRecord(t))
	if err != nil {
		t.Fatal(err)
	}
	rec.GameKey = g.Key
	dir := t.TempDir()
	if err := record.WriteFile(filepath.Join(dir, "m.json"), rec); err != nil {
		t.Fatal(err)
	}
	without, _ := view.New(view.Options{Dirs: []string{dir}})
	_, body := get(t, without.Handler(), "/api/record?src=0/m.json")
	if !strings.Contains(body, `"stylesheet":false`) || !strings.Contains(body, "ggp view --games") {
		t.Errorf("record of a game found nowhere: %.400s", body)
	}
	with, _ := view.New(view.Options{Dirs: []string{dir}, Games: []*games.Game{g}})
	_, body = get(t, with.Handler(), "/api/record?src=0/m.json")
	if !strings.Contains(body, `"stylesheet":true`) {
		t.Errorf("record of a game given: %.400s", body)
	}
	if code, body := get(t, with.Handler(), "/api/stylesheet?src=0/m.json"); code != 200 || !strings.Contains(body, "styled") {
		t.Errorf("stylesheet of a game given: %d %.200s", code, body)
	}
}

func TestPiecesCanBeToldApart(t *testing.T) {
	srv, _ := view.New(view.Options{})
	h := srv.Handler()
	seen := map[string]string{}
	var names []string
	for _, color := range []string{"White", "Black"} {
		for _, kind := range []string{"King", "Queen", "Rook", "Bishop", "Knight", "Pawn"} {
			names = append(names, "chess/"+color+"_"+kind)
		}
	}
	names = append(names, "checkers/red_king", "checkers/black_king", "discs/red", "discs/black")
	for _, n := range names {
		code, body := get(t, h, "/ggp-base/resources/images/"+n+".png")
		if code != 200 || !strings.HasPrefix(body, "<svg") {
			t.Errorf("%s: %d %.100s", n, code, body)
		}
		if other, ok := seen[body]; ok {
			t.Errorf("%s is drawn as %s is", n, other)
		}
		seen[body] = n
	}
}

func TestSeatNotFound(t *testing.T) {
	srv, _ := view.New(view.Options{})
	path := srv.AddSeat(human.New("", nil))
	h := srv.Handler()
	if code, body := get(t, h, "/api"+path); code != 200 {
		t.Errorf("%s: %d %s", path, code, body)
	}
	// Seats have random ids: another server's seat, or one guessed, is
	// not found.
	other, _ := view.New(view.Options{})
	otherPath := other.AddSeat(human.New("", nil))
	if otherPath == path {
		t.Errorf("two servers gave their seats the same path %s", path)
	}
	for _, id := range []string{"0", "1", "-1", "x", strings.TrimPrefix(otherPath, "/seat?id=")} {
		code, body := get(t, h, "/api/seat?id="+id)
		if code != 404 || !strings.Contains(body, fmt.Sprintf(`no seat \"%s\" on this viewer`, id)) {
			t.Errorf("seat %s: %d %s", id, code, body)
		}
	}
}

func TestResultLeavesNatureOut(t *testing.T) {
	// Nature plays to no end: the result of a GDL-II match gives no goal
	// of its.
	dir := t.TempDir()
	f := testFactory(t)
	g, err := games.Lookup("montyhall")
	if err != nil {
		t.Fatal(err)
	}
	rec := playMatch(t, &gamemaster.Referee{NewReasoner: f}, g, "monty.1", dir, "random")
	srv, _ := view.New(view.Options{Dirs: []string{dir}})
	want := fmt.Sprintf("candidate (random) %d", rec.GoalValues[0])
	if got := index(t, srv).Matches[0].Result; got != want || rec.Nature != "random" {
		t.Errorf("result %q, want %q (nature %q)", got, want, rec.Nature)
	}
}
