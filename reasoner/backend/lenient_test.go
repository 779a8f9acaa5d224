package backend

import (
	"bytes"
	"context"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/internal/difftest"
)

// lenientDir holds gdl's small GDL-II games of our own, each with one
// departure from strict GDL that the Dresden referee reads through.
var lenientDir = filepath.Join("..", "..", "gdl", "testdata", "lenient")

// lenientLines are, for each of those games, a line of play and what the
// lenient reading makes of it: facts of the state it reaches, and the
// goals there.
var lenientLines = []struct {
	file  string
	moves [][]reasoner.Move // joint moves, in role order
	holds []reasoner.Fact   // facts of the last state
	lacks []reasoner.Fact   // facts not in it
	goals []int
}{
	// Nobody buys or sells: the coins are kept, by the rule whose ?p and
	// ?c are in its two negations alone. A buy spends one.
	{"negations.kif", [][]reasoner.Move{{"pass", "(roll 1)"}}, []reasoner.Fact{"(coins 1)", "(step 1)"}, nil, []int{0, 0}},
	{"negations.kif", [][]reasoner.Move{{"(buy a)", "(roll 1)"}}, []reasoner.Fact{"(coins 0)"}, []reasoner.Fact{"(coins 1)"}, []int{0, 0}},
	{"negations.kif", [][]reasoner.Move{{"(sell b)", "(roll 1)"}, {"(sell a)", "(roll 2)"}, {"pass", "(roll 2)"}},
		[]reasoner.Fact{"(coins 3)", "(step 3)"}, []reasoner.Fact{"(coins 2)"}, []int{100, 0}},
	// and is a conjunction: buying spends a coin, passing keeps them.
	{"and.kif", [][]reasoner.Move{{"buy", "(roll 2)"}}, []reasoner.Fact{"(coins 0)"}, []reasoner.Fact{"(coins 1)"}, []int{0, 0}},
	{"and.kif", [][]reasoner.Move{{"pass", "(roll 1)"}}, []reasoner.Fact{"(coins 1)", "(lucky 1)"}, nil, []int{0, 0}},
	// Inside or, (and (same ?n 0) (true (lucky 1)) ...) wins with no coin.
	{"and.kif", [][]reasoner.Move{{"buy", "(roll 1)"}, {"pass", "(roll 1)"}, {"pass", "(roll 1)"}},
		[]reasoner.Fact{"(coins 0)", "(lucky 1)", "(step 3)"}, nil, []int{100, 0}},
	// The other disjunct wins with three coins, unless the last roll,
	// made with fewer than three, was a 2.
	{"and.kif", [][]reasoner.Move{{"sell", "(roll 1)"}, {"sell", "(roll 2)"}, {"pass", "(roll 2)"}},
		[]reasoner.Fact{"(coins 3)"}, []reasoner.Fact{"(lucky 2)"}, []int{100, 0}},
	{"and.kif", [][]reasoner.Move{{"sell", "(roll 1)"}, {"pass", "(roll 2)"}, {"sell", "(roll 2)"}},
		[]reasoner.Fact{"(coins 3)", "(lucky 2)"}, nil, []int{0, 0}},
	// score's ?r ranges over the roles the goal rule asks it for: 0 for
	// a role that took nothing, where the second score rule alone holds.
	// (?to 1) and (?TO ?n) name one function, (?other ?n) one no move
	// matches, (?mark ?n) and (?MARK 2) one relation; (0), read as the
	// constant named_0, is not 0. The Dresden referee, given the first
	// line as moves ((PAY (?TO 1)) (GIVE (0)) (GIVE (0))), scores it 100
	// too.
	{"names.kif", [][]reasoner.Move{{"(pay (named_to 1))", "(roll 1)"}, {"(give named_0)", "(roll 2)"}, {"(give named_0)", "(roll 1)"}},
		[]reasoner.Fact{"paid", "empty", "marked"}, []reasoner.Fact{"lost", "zero"}, []int{100, 0}},
	{"names.kif", [][]reasoner.Move{{"(give 0)", "(roll 1)"}, {"(give 0)", "(roll 2)"}, {"(give 0)", "(roll 1)"}},
		[]reasoner.Fact{"zero", "marked"}, []reasoner.Fact{"paid", "empty"}, []int{0, 0}},
	{"names.kif", [][]reasoner.Move{{"(pay (named_to 1))", "(roll 1)"}, {"(pay (named_to 1))", "(roll 2)"}, {"(pay (named_to 1))", "(roll 1)"}},
		[]reasoner.Fact{"paid", "marked"}, []reasoner.Fact{"lost", "empty"}, []int{50, 0}},
	// The bonus rule, whose distinct is reached with ?other unbound,
	// never holds: three takes earn the coins and no bonus.
	{"distinct.kif", [][]reasoner.Move{{"take", "(roll 1)"}, {"take", "(roll 2)"}, {"take", "(roll 1)"}},
		[]reasoner.Fact{"(coins 3)"}, []reasoner.Fact{"bonus"}, []int{50, 0}},
	{"distinct.kif", [][]reasoner.Move{{"wait", "(roll 2)"}},
		[]reasoner.Fact{"(coins 0)"}, []reasoner.Fact{"bonus"}, []int{0, 0}},
	{"headvar.kif", [][]reasoner.Move{{"(take 2)", "(take 1)", "(roll 2)"}}, []reasoner.Fact{"(took alice 2)"}, []reasoner.Fact{"(took bob 1)"}, []int{100, 0, 0}},
	{"headvar.kif", [][]reasoner.Move{{"(take 1)", "(take 1)", "(roll 2)"}}, nil, []reasoner.Fact{"(took alice 1)"}, []int{0, 0, 0}},
}

func readLenient(t *testing.T, file string) *gdl.Description {
	t.Helper()
	path := filepath.Join(lenientDir, file)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLenientLines plays each line on both backends and checks what the
// lenient reading makes of it.
func TestLenientLines(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{Propnet, Prolog} {
		f, err := New(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, tc := range lenientLines {
			r, err := f(ctx, readLenient(t, tc.file))
			if err != nil {
				t.Fatalf("%s: %s: %v", name, tc.file, err)
			}
			s, err := r.Initial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, joint := range tc.moves {
				if s, err = r.Next(ctx, s, joint); err != nil {
					t.Fatalf("%s: line %d: %v", name, i, err)
				}
			}
			facts := s.Facts()
			for _, f := range tc.holds {
				if !slices.Contains(facts, f) {
					t.Errorf("%s: line %d of %s: %s not in %v", name, i, tc.file, f, facts)
				}
			}
			for _, f := range tc.lacks {
				if slices.Contains(facts, f) {
					t.Errorf("%s: line %d of %s: %s in %v", name, i, tc.file, f, facts)
				}
			}
			goals, err := r.Goals(ctx, s)
			if err != nil || !slices.Equal(goals, tc.goals) {
				t.Errorf("%s: line %d of %s: goals %v, %v; want %v", name, i, tc.file, goals, err, tc.goals)
			}
		}
	}
}

// TestLenientBackendsAgree plays random matches of each game on both
// backends and compares their every answer: legal moves, next states,
// percepts, terminal and goals.
func TestLenientBackendsAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(lenientDir, "*.kif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no games in %s: %v", lenientDir, err)
	}
	var backends []difftest.Backend
	for _, name := range []string{Propnet, Prolog} {
		f, err := New(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		backends = append(backends, difftest.Backend{Name: name, New: f})
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			d := readLenient(t, filepath.Base(path))
			var counts difftest.Counts
			if err := difftest.Compare(context.Background(), d, backends, difftest.Config{Playouts: 30, Seed: 1, Counts: &counts}); err != nil {
				t.Fatal(err)
			}
			if counts.Steps == 0 {
				t.Error("no step compared")
			}
		})
	}
}

// TestStrict checks that Strict refuses a game that departs from strict
// GDL, naming the place, and that without it the game loads and the log
// is told each departure.
func TestStrict(t *testing.T) {
	d := readLenient(t, "negations.kif")
	for _, name := range Names() {
		f, err := New(name, Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f(context.Background(), d)
		if err == nil || !strings.Contains(err.Error(), "negations.kif:25:16: ") || !strings.Contains(err.Error(), "not strict GDL") {
			t.Errorf("%s, strict: err = %v", name, err)
		}
		var buf bytes.Buffer
		f, err = New(name, Options{Log: log.New(&buf, "", 0)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f(context.Background(), d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := buf.String(); !strings.Contains(got, "negations.kif:25:16: warning: unsafe rule for next") || !strings.Contains(got, "(not strict GDL)") {
			t.Errorf("%s: log %q", name, got)
		}
	}
}
