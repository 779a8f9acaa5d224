package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games/gamestest"
)

// TestMatchAndReplayGDLII plays montyhall against a remote random player,
// with -v printing the candidate's percepts and --seed fixing nature's
// moves, then replays the record, and finds a changed percept.
func TestMatchAndReplayGDLII(t *testing.T) {
	game := filepath.Join(gamestest.GamesII(), "montyhall", "montyhall.kif")
	if _, err := os.Stat(game); errors.Is(err, os.ErrNotExist) {
		t.Skipf("no GDL-II game at %s", game)
	}
	dir := t.TempDir()
	addr := remotePlayer(t, "random")
	code, out, errOut := runCommand(t, "match", game, "--players", addr, "-v", "--seed", "7", "--out", dir, "--id", "mh.1")
	if code != 0 {
		t.Fatalf("ggp match: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"  random: nature\n", "step 1: candidate (choose ", "  candidate sees: (does candidate (choose ", "seed: 7 "} {
		if !strings.Contains(out, want) {
			t.Errorf("ggp match output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "random sees") || strings.Contains(out, "[") {
		t.Errorf("nature's percepts printed, or errors recorded:\n%s", out)
	}
	name := filepath.Join(dir, "mh.1.json")
	code, out, errOut = runCommand(t, "replay", "-q", name)
	if code != 0 || !strings.Contains(out, "agree with the rules") {
		t.Fatalf("ggp replay: exit %d\n%s\n%s", code, out, errOut)
	}
	rec, err := record.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.GDLII || rec.Seed != 7 || rec.Nature != "random" {
		t.Fatalf("record: gdlII %v, seed %d, nature %q", rec.GDLII, rec.Seed, rec.Nature)
	}
	rec.Percepts[1][0] = []string{"(does candidate noop)", "(open_door 9)"}
	bad := filepath.Join(dir, "bad.json")
	if err := record.WriteFile(bad, rec); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCommand(t, "replay", "-q", bad)
	if code != 1 || !strings.Contains(out, "step 2: role candidate: recorded percepts") {
		t.Errorf("ggp replay of a changed percept: exit %d\n%s", code, out)
	}
}

// TestMatchSeedPlaysAgain plays matches of in-process random players with
// one seed and then another: the seed decides the whole match, nature's
// moves and the players' choices, in a GDL-II and a GDL game.
func TestMatchSeedPlaysAgain(t *testing.T) {
	for _, tt := range []struct{ game, players string }{
		{"kriegTicTacToe", "random,random"},
		{"connectFour", "random,random"},
	} {
		t.Run(tt.game, func(t *testing.T) {
			steps := func(seed string) string {
				code, out, errOut := runCommand(t, "match", tt.game, "--players", tt.players, "--seed", seed, "--id", "m.1", "--playclock", "5")
				if code != 0 {
					t.Fatalf("seed %s: exit %d\n%s\n%s", seed, code, out, errOut)
				}
				if !strings.Contains(out, "seed: "+seed+" ") {
					t.Errorf("seed %s not printed:\n%s", seed, out)
				}
				return out
			}
			first, again, other := steps("11"), steps("11"), steps("12")
			if first != again {
				t.Errorf("seed 11 played two matches:\n%s\n%s", first, again)
			}
			if first == other {
				t.Errorf("seeds 11 and 12 played the same match:\n%s", first)
			}
		})
	}
}
