package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/tournament"
)

// writeResults writes res as the results.json of a new tournament folder
// named name under dir, and returns the folder.
func writeResults(t *testing.T, dir, name string, res tournament.Results) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, tournament.ResultsFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return folder
}

// match is a completed match of game between players, in role order,
// with their goals.
func match(game string, players []string, goals ...int) tournament.MatchResult {
	return tournament.MatchResult{Game: game, Players: players, Goals: goals, Completed: true, Errors: make([]tournament.ErrorCounts, len(players))}
}

// pair is a tournament of a against b over two games. a scores 100, 0,
// 100 and 50 in connectFour (two wins, a loss, a draw), 100 in both
// matches of hex, and has one timeout and two illegal moves in an
// incomplete third match of hex, which the means leave out. b has three
// timeouts and a connection error in the connectFour match it wins, and
// a connection error in the incomplete match.
func pair() tournament.Results {
	ab, ba := []string{"a", "b"}, []string{"b", "a"}
	late := tournament.MatchResult{Game: "hex", Players: ab, Errors: []tournament.ErrorCounts{{TO: 1, IL: 2}, {CE: 1}}}
	erring := match("connectFour", ba, 100, 0)
	erring.Errors[0] = tournament.ErrorCounts{TO: 3, CE: 1}
	return tournament.Results{
		Players: []string{"a", "b"},
		Games:   []string{"connectFour", "hex"},
		Matches: []tournament.MatchResult{
			match("connectFour", ab, 100, 0),
			erring,
			match("connectFour", ba, 0, 100),
			match("connectFour", ab, 50, 50),
			match("hex", ab, 100, 0),
			match("hex", ba, 0, 100),
			late,
		},
		SPRT: &tournament.SPRTResult{Verdict: tournament.AcceptH1, Matches: 6},
	}
}

// alone is a tournament of one player in a game of one role and nature:
// goals 100, 0 and 100.
func alone() tournament.Results {
	a := []string{"mcts"}
	return tournament.Results{
		Players: a,
		Games:   []string{"montyhall"},
		Matches: []tournament.MatchResult{match("montyhall", a, 100), match("montyhall", a, 0), match("montyhall", a, 100)},
	}
}

func TestRows(t *testing.T) {
	// Expected intervals, by hand: connectFour's scores 100, 0, 100, 50
	// have mean 62.5 and standard deviation √(6875/3) = 47.87, so the
	// half-width is t(3) 3.182 × 47.87 / 2 = 76.2. montyhall's 100, 0,
	// 100: mean 66.7, deviation 57.74, t(2) 4.303 × 57.74 / √3 = 143.4.
	// All six of pair: 100, 0, 100, 50, 100, 100: mean 75, deviation
	// 41.83, t(5) 2.571 × 41.83 / √6 = 43.9.
	tests := []struct {
		name    string
		res     tournament.Results
		perGame bool
		want    []tableRow
	}{
		{"pair, all games", pair(), false, []tableRow{
			{"run", "all", "a", "b", "6", "75.0 ± 43.9", "4, 1, 1", "1, 0, 2", "3, 2, 0", "H1 after 6", sourceResults},
		}},
		{"pair, per game", pair(), true, []tableRow{
			{"run", "connectFour", "a", "b", "4", "62.5 ± 76.2", "2, 1, 1", "0, 0, 0", "3, 1, 0", "-", sourceResults},
			{"run", "hex", "a", "b", "2", "100.0 ± 0.0", "2, 0, 0", "1, 0, 2", "0, 1, 0", "-", sourceResults},
			{"run", "all", "a", "b", "6", "75.0 ± 43.9", "4, 1, 1", "1, 0, 2", "3, 2, 0", "H1 after 6", sourceResults},
		}},
		{"one player", alone(), true, []tableRow{
			{"run", "montyhall", "mcts", "-", "3", "66.7 ± 143.4", "-", "0, 0, 0", "0, 0, 0", "-", sourceResults},
			{"run", "all", "mcts", "-", "3", "66.7 ± 143.4", "-", "0, 0, 0", "0, 0, 0", "-", sourceResults},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := rowsOf("run", &tc.res, tc.perGame)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("rows:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestPage writes a page from two folders, then again with one of them
// gone: its rows are kept, marked recorded, and the others written anew.
func TestPage(t *testing.T) {
	dir := t.TempDir()
	ab := writeResults(t, dir, "ab", pair())
	mh := writeResults(t, dir, "mh", alone())
	page := filepath.Join(dir, "page.md")
	if err := run([]string{"-o", page, "-games", ab, mh}, nil); err != nil {
		t.Fatal(err)
	}
	first := readRows(t, page)
	if len(first) != 5 {
		t.Fatalf("%d rows, want 5 (three of ab, two of mh)", len(first))
	}
	for _, r := range first {
		if r[len(r)-1] != sourceResults {
			t.Errorf("row %q: source %s, want %s", r, r[len(r)-1], sourceResults)
		}
	}

	if err := os.RemoveAll(ab); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-o", page, "-games", ab, mh}, nil); err != nil {
		t.Fatal(err)
	}
	second := readRows(t, page)
	if len(second) != len(first) {
		t.Fatalf("%d rows after ab was removed, want %d", len(second), len(first))
	}
	for i, r := range second {
		want := slices.Clone(first[i])
		if r[0] == "ab" {
			want[len(want)-1] = sourceRecorded
		}
		if !slices.Equal(r, want) {
			t.Errorf("row %d: got %q, want %q", i, r, want)
		}
	}

	// Written again from the same folders, the page does not change.
	before, _ := os.ReadFile(page)
	if err := run([]string{"-o", page, "-games", ab, mh}, nil); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(page); !bytes.Equal(before, after) {
		t.Errorf("the page changed when written again:\n%s\nthen\n%s", before, after)
	}
}

// sittings splits pair into two sittings, its connectFour matches then its
// hex matches, with no sequential test, and names the first player name
// in both.
func sittings(name string) (tournament.Results, tournament.Results) {
	whole := pair()
	whole.SPRT = nil
	whole.Standings = []tournament.Standing{{Player: "a", Name: name}}
	cf, hex := whole, whole
	cf.Games, hex.Games = []string{"connectFour"}, []string{"hex"}
	cf.Matches, hex.Matches = whole.Matches[:4], whole.Matches[4:]
	return cf, hex
}

// TestPool sums up two sittings of pair as one run: the rows are those of
// pair played in one sitting, as if by hand. When no sitting is at hand
// the rows are kept as recorded; when only some are, or the sittings
// disagree about the player, the page is not written.
func TestPool(t *testing.T) {
	dir := t.TempDir()
	cf, hex := sittings("ggp-1234567-mcts")
	first := writeResults(t, dir, "first", cf)
	second := writeResults(t, dir, "second", hex)
	page := filepath.Join(dir, "page.md")
	if err := run([]string{"-o", page, "-games", "-pool", "suite", first, second}, nil); err != nil {
		t.Fatal(err)
	}
	shown := "a (ggp-1234567-mcts)"
	want := []tableRow{
		{"suite", "connectFour", shown, "b", "4", "62.5 ± 76.2", "2, 1, 1", "0, 0, 0", "3, 1, 0", "-", sourceResults},
		{"suite", "hex", shown, "b", "2", "100.0 ± 0.0", "2, 0, 0", "1, 0, 2", "0, 1, 0", "-", sourceResults},
		{"suite", "all", shown, "b", "6", "75.0 ± 43.9", "4, 1, 1", "1, 0, 2", "3, 2, 0", "-", sourceResults},
	}
	if got := readRows(t, page); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("pooled rows:\n got %q\nwant %q", got, want)
	}

	other, _ := sittings("ggp-89abcde-mcts")
	withTest, _ := sittings("ggp-1234567-mcts")
	withTest.SPRT = &tournament.SPRTResult{Verdict: tournament.AcceptH1, Matches: 4}
	errs := []struct {
		name    string
		sitting tournament.Results
		want    string
	}{
		{"another version of the player", other, `named "ggp-89abcde-mcts"`},
		{"a sitting with a sequential test", withTest, "sequential test"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			odd := writeResults(t, t.TempDir(), "odd", tc.sitting)
			err := run([]string{"-games", "-pool", "suite", first, odd}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}

	if err := os.RemoveAll(second); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(page)
	err := run([]string{"-o", page, "-games", "-pool", "suite", first, second}, nil)
	if err == nil || !strings.Contains(err.Error(), "never from some") {
		t.Errorf("with one sitting gone: error %v, want one saying a run is never summed up from some sittings", err)
	}
	if after, _ := os.ReadFile(page); !bytes.Equal(before, after) {
		t.Errorf("the page changed although pooling failed")
	}

	if err := os.RemoveAll(first); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-o", page, "-games", "-pool", "suite", first, second}, nil); err != nil {
		t.Fatal(err)
	}
	for i, r := range readRows(t, page) {
		kept := slices.Clone(want[i])
		kept[len(kept)-1] = sourceRecorded
		if !slices.Equal(r, kept) {
			t.Errorf("with no sitting at hand, row %d: got %q, want %q", i, r, kept)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, tournament.ResultsFile), []byte(`{"players": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	notPage := filepath.Join(dir, "other.md")
	if err := os.WriteFile(notPage, []byte("| a | b |\n|---|---|\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in the error
	}{
		{"no folder", nil, "no tournament folder"},
		{"missing folder without -o", []string{filepath.Join(dir, "gone")}, "no such file"},
		{"missing folder, no row to keep", []string{"-o", filepath.Join(dir, "new.md"), filepath.Join(dir, "gone")}, "no row of the run gone"},
		{"unreadable results", []string{broken}, filepath.Join(broken, tournament.ResultsFile)},
		{"not a page of resultstable", []string{"-o", notPage, filepath.Join(dir, "gone")}, "line 1: a table whose columns"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func readRows(t *testing.T, page string) []tableRow {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parseRows(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestDocsPages checks that each page of docs/results that resultstable
// writes is what the command it names writes: run again as written, with
// none of its $RUNS folders at hand (the sittings kept in the repository
// are), it gives the page back unchanged. (A page another tool writes names that tool: infovalue's.)
func TestDocsPages(t *testing.T) {
	// The commands name their folders from the top of the repository,
	// where the results of sittings kept in it (docs/results/runs) are.
	t.Chdir(filepath.Join("..", "..", "..", ".."))
	pages, err := filepath.Glob(filepath.Join("docs", "results", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Skip("no docs/results pages")
	}
	t.Setenv("RUNS", t.TempDir()) // every $RUNS folder missing
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), "<!-- Written by resultstable:") {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			args, err := writtenBy(string(text))
			if err != nil {
				t.Fatal(err)
			}
			copyOf := filepath.Join(t.TempDir(), "page.md")
			if err := os.WriteFile(copyOf, text, 0o644); err != nil {
				t.Fatal(err)
			}
			i := slices.Index(args, "-o")
			if i < 0 || i+1 >= len(args) {
				t.Fatalf("the command %q has no -o", args)
			}
			written := args[i+1]
			args[i+1] = copyOf
			for j, a := range args {
				args[j] = strings.Replace(a, "$RUNS", os.Getenv("RUNS"), 1)
			}
			if err := run(args, nil); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(copyOf)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(string(text), "-o "+written, "-o "+copyOf, 1)
			if string(got) != want {
				t.Errorf("written again, %s differs:\n%s", page, got)
			}
		})
	}
}

// writtenBy returns the arguments of the command a page names, unquoted
// as a shell would.
func writtenBy(text string) ([]string, error) {
	const prefix = "go run ./cmd/ggp/internal/resultstable "
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return shellWords(rest)
		}
	}
	return nil, errors.New("no line naming the command")
}

// shellWords splits s into words as a shell would, for the quoting that
// command writes: words in single quotes, a quote inside them closed,
// escaped with a backslash and opened again.
func shellWords(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			word.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			word.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// TestParseOlderPage checks that a page written before the column of the
// other players' errors was added is read with "-" in that column, so that
// its recorded rows carry over.
func TestParseOlderPage(t *testing.T) {
	page := `| run | game | player | against | matches | mean goal | won, drawn, lost | TO, CE, IL | SPRT | source |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| sancho | hex | a | b | 4 | 75.0 ± 45.9 | 3, 0, 1 | 0, 0, 0 | - | recorded |
`
	rows, err := parseRows(page)
	if err != nil {
		t.Fatal(err)
	}
	want := []tableRow{{"sancho", "hex", "a", "b", "4", "75.0 ± 45.9", "3, 0, 1", "0, 0, 0", "-", "-", "recorded"}}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows:\n got %q\nwant %q", rows, want)
	}
}
