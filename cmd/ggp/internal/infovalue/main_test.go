package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/infoset/exact"
)

// TestRunResumes plays a small measurement of bankerThief, then runs it
// again: the second run plays nothing and writes the same table.
func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-out", dir, "-matches", "4", "-iterations", "200", "-games", "bankerThief"}
	var first, second bytes.Buffer
	if err := run(t.Context(), args, &first); err != nil {
		t.Fatal(err)
	}
	lines := func() int {
		data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Count(data, []byte("\n"))
	}
	// 4 estimating and 4 measured matches of each player.
	if n := lines(); n != 16 {
		t.Errorf("%d results, want 16", n)
	}
	if err := run(t.Context(), args, &second); err != nil {
		t.Fatal(err)
	}
	if n := lines(); n != 16 {
		t.Errorf("%d results after the second run, want 16", n)
	}
	if first.String() != second.String() {
		t.Errorf("the second run wrote\n%s\nthe first\n%s", &second, &first)
	}
	if !strings.Contains(first.String(), "| bankerThief | banker | thief (best reply to the strategy played), nature | 25.0 |") {
		t.Errorf("no row of bankerThief with its exact value in\n%s", &first)
	}
}

// TestBestReply checks the thief's reply to a banker that showed its bank
// by its split: one bag in its own bank, three in the other. The thief
// then robs the bank with one bag.
func TestBestReply(t *testing.T) {
	ctx := t.Context()
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := solve(ctx, f, "bankerThief")
	if err != nil {
		t.Fatal(err)
	}
	c := config{matches: 2, iterations: 1}
	done := map[string]result{}
	for seed, own := range map[uint64]string{3: "left", 4: "right"} {
		split := map[string]string{"left": "(split 1 3)", "right": "(split 3 1)"}[own]
		view := exact.Key([]infoset.Step{{Move: "noop", Percepts: []reasoner.Percept{reasoner.Percept("(yours " + own + ")")}}})
		r := result{Game: "bankerThief", Player: "sample", Iterations: 1, Seed: seed,
			Choices: [][2]string{{"", "noop"}, {view, split}, {view + "(split 1 3) []; ", "noop"}}}
		done[r.key()] = r
	}
	reply, err := bestReply(ctx, g, c, "sample", done)
	if err != nil {
		t.Fatal(err)
	}
	for bags, want := range map[string]string{"(bags 1 3)": "(rob left)", "(bags 3 1)": "(rob right)"} {
		view := exact.Key([]infoset.Step{{Move: "noop"}, {Move: "noop", Percepts: []reasoner.Percept{reasoner.Percept(bags)}}})
		if got := reply[view]; !slices.Equal(got, []reasoner.Move{reasoner.Move(want)}) {
			t.Errorf("after %s the thief plays %v, want %s", bags, got, want)
		}
	}
	if _, err := bestReply(ctx, g, config{matches: 3, iterations: 1}, "sample", done); err == nil {
		t.Error("a reply without the estimating matches of seeds 4 to 6: no error")
	}
}

// TestChoices checks the views read from a record: the role's moves and
// percepts before each of its moves.
func TestChoices(t *testing.T) {
	rec := &record.Record{
		Moves:    [][]string{{"noop", "noop", "(own left)"}, {"(split 2 2)", "noop", "noop"}, {"noop", "(rob left)", "noop"}},
		Percepts: [][][]string{{{"(yours left)"}, nil, nil}, {nil, {"(bags 2 2)"}, nil}, {nil, nil, nil}},
	}
	got := choices(rec, 0)
	want := [][2]string{
		{"", "noop"},
		{"noop [(yours left)]; ", "(split 2 2)"},
		{"noop [(yours left)]; (split 2 2) []; ", "noop"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("choices %q, want %q", got, want)
	}
}

// TestProbe checks the probe of battleshipsFog: the exact strategy scouts
// at the captain's first decision, and so does the search, most visited.
func TestProbe(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-probe", "3000", "-games", "battleshipsFog"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`battleshipsFog: the captain's decision after "noop []; "; the exact strategy plays [scout]`,
		"\n  3000 iterations: scout ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the probe wrote\n%s\nwithout %q", &out, want)
		}
	}
	if err := run(t.Context(), []string{"-probe", "many"}, &out); err == nil || !strings.Contains(err.Error(), `"many" is not a number`) {
		t.Errorf("-probe many: %v", err)
	}
}

// TestDocsPage checks the page in docs/results: it names the command that
// writes it, and its exact values are those of the games' rules now.
func TestDocsPage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "results", "infovalue.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "\ngo run ./cmd/ggp/internal/infovalue -out $RUNS/infovalue ") ||
		!strings.Contains(string(text), " -o docs/results/infovalue.md\n") {
		t.Errorf("the page does not name the command that writes it")
	}
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for line := range strings.SplitSeq(string(text), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) < 4 || cells[0] == "game" || cells[0] == "---" {
			continue
		}
		rows++
		g, err := solve(t.Context(), f, cells[0])
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%.1f", g.sol.Value); cells[3] != want {
			t.Errorf("%s: the page's exact value is %s, the rules' %s", cells[0], cells[3], want)
		}
	}
	if rows != 3 {
		t.Errorf("%d rows of games, want 3", rows)
	}
}
