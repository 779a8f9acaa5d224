package main

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner/backend"
)

func runCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code = run(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

// remotePlayer serves an in-process player of kind over HTTP on the
// loopback interface until the test ends, and returns its host:port.
func remotePlayer(t *testing.T, kind string) string {
	t.Helper()
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := players.New(kind, f)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(p)
	srv.ErrorLog = log.New(io.Discard, "", 0)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return strings.TrimPrefix(ts.URL, "http://")
}

func TestMatchAndReplayCommands(t *testing.T) {
	dir := t.TempDir()
	addr := remotePlayer(t, "random")
	code, out, errOut := runCommand(t, "match", "ticTacToe", "--players", "legal,"+addr, "--playclock", "1", "--startclock", "2", "--grace", "500ms", "--out", dir, "--id", "ttt.1")
	if code != 0 {
		t.Fatalf("ggp match: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"match ttt.1: Tic-Tac-Toe, start clock 2s, play clock 1s\n",
		"  xplayer: legal\n",
		"  oplayer: random\n", // the name the remote player gives INFO
		"step 1: xplayer (mark 1 1), oplayer noop\n",
		"goals: xplayer (legal) ",
		", oplayer (random) ",
		"record: " + filepath.Join(dir, "ttt.1.json") + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ggp match output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[") {
		t.Errorf("errors recorded for well-behaved players:\n%s", out)
	}
	name := filepath.Join(dir, "ttt.1.json")
	rec, err := record.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.IsCompleted || rec.MatchID != "ttt.1" {
		t.Fatalf("record: completed %v, id %s", rec.IsCompleted, rec.MatchID)
	}

	code, out, errOut = runCommand(t, "replay", name)
	if code != 0 || !strings.Contains(out, "ok: ") || !strings.Contains(out, "state 0:\n    (cell 1 1 b)\n") || !strings.Contains(out, "step 1: xplayer (mark 1 1), oplayer noop\n") {
		t.Errorf("ggp replay: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, out, _ = runCommand(t, "replay", "-q", "--game", "ticTacToe", name)
	if code != 0 || strings.Contains(out, "state 0") || !strings.Contains(out, "agree with the rules") {
		t.Errorf("ggp replay -q --game: exit %d\n%s", code, out)
	}

	// Change oplayer's first real move to one that is not legal there.
	rec.Moves[1][1] = "(mark 1 1)"
	bad := filepath.Join(dir, "bad.json")
	if err := record.WriteFile(bad, rec); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCommand(t, "replay", "-q", bad)
	if code != 1 || !strings.Contains(out, "disagreement: match ttt.1: step 2: role oplayer: move (mark 1 1) is not legal") {
		t.Errorf("ggp replay of a bad record: exit %d\n%s", code, out)
	}
}

// TestMatchCommandErrors: players that cannot be reached are recorded,
// and the match still completes.
func TestMatchCommandUnreachable(t *testing.T) {
	ts := httptest.NewServer(nil)
	addr := strings.TrimPrefix(ts.URL, "http://")
	ts.Close() // nothing listens there any more
	code, out, errOut := runCommand(t, "match", "nim", "--players", addr+",random", "--startclock", "1", "--playclock", "1", "--grace", "0", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "start: first [CE]\n") || !strings.Contains(out, "step 1: first ") || !strings.Contains(out, " [CE], second ") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(errOut, "step 1: role first (player "+addr+"): CE: ") {
		t.Errorf("-v did not detail the error:\n%s", errOut)
	}
}

func TestMatchCommandUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"match", "-h"}, 0, "Example:\n  ggp match ticTacToe"},
		{[]string{"match", "--players", "random,legal"}, 2, "want one GAME"},
		{[]string{"match", "ticTacToe"}, 2, "--players is required"},
		{[]string{"match", "-h"}, 0, "A player is named as one of"},
		{[]string{"match", "-h"}, 0, "mcts settings (mcts:KEY=VALUE:...)"},
		{[]string{"match", "ticTacToe", "--players", "random,smart"}, 2, `unknown player "smart"`},
		{[]string{"match", "ticTacToe", "--players", "random,human:alice"}, 2, "human takes no settings"},
		{[]string{"match", "ticTacToe", "--players", "random,mcts:"}, 2, "setting 1 is empty"},
		{[]string{"match", "ticTacToe", "--players", "random,localhost:"}, 2, "no port after the colon"},
		{[]string{"match", "ticTacToe", "--players", "random,ftp://x"}, 2, `scheme "ftp"`},
		{[]string{"match", "ticTacToe", "--players", "random,legal", "--playclock", "soon"}, 2, "want seconds"},
		{[]string{"match", "ticTacToe", "--players", "random,legal", "--fallback", "best"}, 2, "unknown fallback"},
		{[]string{"match", "ticTacToe", "--players", "random,legal", "--id", "a b"}, 2, "match id"},
		{[]string{"match", "ticTacToe", "--players", "random"}, 1, "1 players for the 2 roles of ticTacToe"},
		{[]string{"match", "noSuchGame", "--players", "random"}, 1, "noSuchGame"},
		{[]string{"replay"}, 2, "want one RECORD.json"},
		{[]string{"replay", "-h"}, 0, "Example:\n  ggp replay"},
		{[]string{"replay", "no/such/record.json"}, 1, "no such file"},
		{[]string{"tournament", "-h"}, 0, "Example:\n  ggp tournament"},
		{[]string{"tournament", "--players", "random", "--out", "x"}, 2, "--games is required"},
		{[]string{"tournament", "--games", "nim", "--out", "x"}, 2, "--players is required"},
		{[]string{"tournament", "--games", "nim", "--players", "random"}, 2, "--out is required"},
		{[]string{"tournament", "--games", "nim", "--players", "nobody", "--out", "x"}, 2, `unknown player "nobody"`},
		{[]string{"tournament", "--games", "nim", "--players", "random,mcts:depth=3", "--out", "x"}, 2, `unknown setting "depth"`},
		{[]string{"tournament", "-h"}, 0, "A player is named as one of"},
		{[]string{"tournament", "-h"}, 0, "--sprt 0.1 --out ab1"},
		{[]string{"tournament", "--games", "nim", "--players", "random,legal,legal", "--sprt", "0.1", "--out", "x"}, 2, "SPRT compares two players, not 3"},
		{[]string{"tournament", "--games", "nim", "--players", "random,legal", "--sprt", "0.6", "--out", "x"}, 2, "SPRT margin 0.6"},
		{[]string{"tournament", "--games", "nim", "--players", "random,legal", "--sprt", "-0.1", "--out", "x"}, 2, "SPRT margin -0.1"},
		{[]string{"tournament", "--games", "nim", "--players", "random", "--gap", "soon", "--out", "x"}, 2, `invalid value "soon" for flag -gap`},
		{[]string{"tournament", "--games", "nim", "--players", "random", "--gap", "-1s", "--out", "x"}, 2, `invalid value "-1s" for flag -gap`},
		{[]string{"tournament", "--games", "nim", "--players", "human,random", "--out", "x"}, 2, "a human player plays on a seat page of the viewer: add --view"},
		{[]string{"tournament", "--games", "nim", "--players", "human,human", "--view", "--out", "x"}, 2, "at most one human player"},
		{[]string{"tournament", "--games", "nim", "--players", "human,random", "--view", "--parallel", "2", "--out", "x"}, 2, "--parallel 1, not 2"},
		{[]string{"tournament", "--games", "threePlayerTicTacToe", "--players", "human,random", "--view", "--out", "x"}, 2, "threePlayerTicTacToe: a person takes one role, not 2"},
		{[]string{"view", "--port", "0", "--games", "no/such/games", "."}, 2, "--games: no/such/games: no such file or directory"},
		{[]string{"view", "--port", "0", "no/such/records"}, 2, "no/such/records: no such file or directory"},
		{[]string{"match", "ticTacToe", "--players", "random,legal", "--view", "--view-port", "0", "--view-games", "no/such/games"}, 2, "--view-games: no/such/games: no such file or directory"},
	}
	for _, tt := range tests {
		code, _, errOut := runCommand(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("ggp %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), code, errOut, tt.code, tt.want)
		}
	}
}

// TestMatchGDLIIWarning checks that ggp match warns of the settings of a
// player that its GDL-II search does without, in a GDL-II match alone.
func TestMatchGDLIIWarning(t *testing.T) {
	for _, tt := range []struct {
		game, players string
		warn          bool
	}{
		{"montyhall", "mcts:mast=off:c=0.3", true},
		{"montyhall", "mcts:c=0.3", false},
		{"nim", "mcts:mast=off,random", false},
	} {
		code, _, errOut := runCommand(t, "match", tt.game, "--players", tt.players, "-q", "--startclock", "200ms", "--playclock", "100ms")
		if code != 0 {
			t.Fatalf("%s %s: exit %d, stderr:\n%s", tt.game, tt.players, code, errOut)
		}
		const warning = "ggp: warning: mcts:mast=off:c=0.3: a GDL-II match does without mast=off; its search takes c (default 0.7), maxback (default auto) and fullclock (default off) alone"
		if got := strings.Contains(errOut, "warning: "); got != tt.warn || tt.warn && strings.Count(errOut, warning) != 1 {
			t.Errorf("%s %s: stderr %q; want the warning once: %v", tt.game, tt.players, errOut, tt.warn)
		}
	}
}

func TestTournamentCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t1")
	args := []string{"tournament", "--games", "ticTacToe,nim", "--players", "random,legal", "--rounds", "2", "--parallel", "2", "--playclock", "1", "--startclock", "2", "--out", dir}
	code, out, errOut := runCommand(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// 2 games x 2 assignments x 2 rounds, one plain line each.
	if n := strings.Count(errOut, "/8 "); n != 8 || !strings.Contains(errOut, "ticTacToe.r2.1-0: legal ") {
		t.Errorf("progress lines:\n%s", errOut)
	}
	for _, want := range []string{"player", "mean goal", "95% CI", "wins", "random", "legal", "8 of 8 matches completed", filepath.Join(dir, "results.json")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "matches", "*.json"))
	if len(files) != 8 {
		t.Errorf("%d records, want 8", len(files))
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Error(err)
	}
	// Run again: nothing left to play.
	code, out, errOut = runCommand(t, args...)
	if code != 0 || !strings.Contains(errOut, "8/8 skipped") || strings.Count(errOut, "\n") != 1 || !strings.Contains(out, "8 of 8 matches completed") {
		t.Errorf("second run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestTournamentGap checks that --gap reaches the tournament: each match
// starts no sooner than the gap after the last state of the one before.
func TestTournamentGap(t *testing.T) {
	const gapMS = 300
	dir := filepath.Join(t.TempDir(), "t")
	code, out, errOut := runCommand(t, "tournament", "--games", "ticTacToe", "--players", "random,legal", "--rounds", "2",
		"--gap", "300ms", "--playclock", "1", "--startclock", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "matches", "*.json"))
	var recs []*record.Record
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	slices.SortFunc(recs, func(a, b *record.Record) int { return cmp.Compare(a.StartTime, b.StartTime) })
	for k := 1; k < len(recs); k++ {
		prev, cur := recs[k-1], recs[k]
		// Times are in whole milliseconds: one may be lost to rounding.
		if d := cur.StartTime - prev.StateTimes[len(prev.StateTimes)-1]; d < gapMS-1 {
			t.Errorf("%s started %d ms after the last state of %s, want at least %d", cur.MatchID, d, prev.MatchID, gapMS)
		}
	}
}

// TestTournamentSPRT compares legal with random at breakthrough, which
// legal nearly always wins: the test accepts H1 long before the 30 rounds,
// the command prints the comparison and the verdict and exits 0, and run
// again it plays nothing and says the same.
func TestTournamentSPRT(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ab")
	args := []string{"tournament", "--games", "breakthrough", "--players", "legal,random", "--rounds", "30", "--sprt", "0.1", "--out", dir}
	code, out, errOut := runCommand(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"legal against random: legal's goal per match",
		"\nbreakthrough ", "\nall ",
		"SPRT: H1 accepted: legal scores ≥ 0.60 against random (LLR ",
		"the test decided, leaving ",
		"of the 60 scheduled unplayed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "(LLR ") || !strings.Contains(errOut, "): H1 accepted\n") {
		t.Errorf("progress lines lack the test's state:\n%s", errOut)
	}
	verdict := func(out string) string {
		i := strings.Index(out, "SPRT: ")
		if i < 0 {
			return ""
		}
		return out[i : i+strings.Index(out[i:], "\n")]
	}
	code, out2, errOut := runCommand(t, args...)
	if code != 0 || verdict(out2) != verdict(out) || !strings.Contains(errOut, "skipped: completed before") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("second run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out2, errOut)
	}
}

// TestTournamentSeatsAPersonOnce checks that a tournament with a person
// prints one seat for all their matches, and that a match whose seat page
// is never opened is aborted after --human-wait, saying why.
func TestTournamentSeatsAPersonOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "t1")
	code, out, errOut := runCommand(t, "tournament", "--games", "ticTacToe", "--players", "human,random", "--view", "--view-port", "0", "--view-linger=false",
		"--human-wait", "300ms", "--out", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1: no match completed", code)
	}
	if n := strings.Count(out, "seat for human: http://127.0.0.1:"); n != 1 {
		t.Errorf("%d seats printed for one person:\n%s", n, out)
	}
	if !strings.Contains(out, "waiting at most 300ms") || !strings.Contains(out, "a person has 1m0s a move") {
		t.Errorf("the output does not say how the person's clocks run:\n%s", out)
	}
	rec, err := record.ReadFile(filepath.Join(dir, "matches", "ticTacToe.r1.0-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	seat := regexp.MustCompile(`seat for human: http://[^/\s]+(/seat\S+)`).FindStringSubmatch(out)
	if seat == nil {
		t.Fatalf("no seat printed:\n%s", out)
	}
	if !rec.IsAborted || !strings.Contains(rec.AbortReason, "role xplayer: player human: nobody opened the seat page "+seat[1]+": not ready within 300ms") {
		t.Errorf("record of a match nobody sat at: aborted %v, %q\nstderr:\n%s", rec.IsAborted, rec.AbortReason, errOut)
	}
}

func TestHumanClock(t *testing.T) {
	for _, c := range []struct {
		args []string
		want time.Duration
	}{
		{nil, 60 * time.Second},
		{[]string{"--playclock", "5"}, 60 * time.Second}, // the programs' clock, not a person's
		{[]string{"--human-playclock", "30"}, 30 * time.Second},
		{[]string{"--playclock", "5", "--human-playclock", "90s"}, 90 * time.Second},
	} {
		fs := flag.NewFlagSet("match", flag.ContinueOnError)
		clocks := addRefereeFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := clocks.humanClock(); got != c.want {
			t.Errorf("%v: a person's clock %v, want %v", c.args, got, c.want)
		}
	}
}
