package gdl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

// lenientFiles are our own small GDL-II games in testdata/lenient, each
// holding one departure from strict GDL that the Dresden referee reads
// through, with the problems Validate must report for it: every one a
// warning marked NotStrict, at the place of the departure, saying how it
// is read.
var lenientFiles = []struct {
	file string
	want []want
}{
	{"negations.kif", []want{
		{"25:16", W, gdl.CodeUnsafe, []string{"rule for next", "?p appears only in negations, here (not (does ?p (buy ?c)))", "in each negation on its own"}},
		{"25:24", W, gdl.CodeUnsafe, []string{"?c appears only in negations", "no value of ?c makes it hold"}},
	}},
	{"and.kif", []want{
		{"18:23", W, gdl.CodeSyntax, []string{"rule for next", "GDL has no and", "read as a conjunction", "its conjuncts in the body"}},
		{"20:63", W, gdl.CodeSyntax, []string{"rule for next", "one rule per disjunct of the or that holds it (2 rules in all)"}},
		{"26:9", W, gdl.CodeSyntax, []string{"rule for win", "one rule per disjunct", "(2 rules in all)"}},
	}},
	{"names.kif", []want{
		{"13:20", W, gdl.CodeSyntax, []string{"rule for legal", "variable ?to names a function", "a name of its own, named_to"}},
		{"14:21", W, gdl.CodeSyntax, []string{"(0) is a function of no arguments", "named_0", "not 0"}},
		{"19:35", W, gdl.CodeSyntax, []string{"rule for next", "variable ?TO names a function", "named_to"}},
		{"21:35", W, gdl.CodeSyntax, []string{"variable ?other names a function", "named_other"}},
		{"22:37", W, gdl.CodeSyntax, []string{"(0) is a function of no arguments", "named_0"}},
		{"26:6", W, gdl.CodeSyntax, []string{"variable ?mark names a relation", "named_mark"}},
		{"27:20", W, gdl.CodeSyntax, []string{"variable ?MARK names a relation", "named_mark"}},
	}},
	{"distinct.kif", []want{
		{"23:5", W, gdl.CodeUnsafe, []string{"rule for next", "(distinct ?other alice) has a variable that no positive literal binds", "never holds and is left out"}},
	}},
	{"headvar.kif", []want{
		{"25:12", W, gdl.CodeUnsafe, []string{"rule for score", "?r in the head", "ranging over the values the uses of score give it (at 27:56)", "(score_arg1_values_1 ?r) is added"}},
	}},
}

// readLenient parses one of the files of testdata/lenient.
func readLenient(t *testing.T, file string) *gdl.Description {
	t.Helper()
	path := filepath.Join("testdata", "lenient", file)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile("test.kif", src) // the name compareProblems expects
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLenientReadings checks each departure's warning (position, code,
// text, NotStrict), that NotStrict refuses the file, and that Repair reads
// it into a description with no departure and no error left.
func TestLenientReadings(t *testing.T) {
	for _, tc := range lenientFiles {
		t.Run(tc.file, func(t *testing.T) {
			d := readLenient(t, tc.file)
			ps := gdl.Validate(d)
			var departures []gdl.Problem
			for _, p := range ps {
				if p.Severity == gdl.SeverityError {
					t.Errorf("error: %v", p)
				}
				if p.NotStrict {
					departures = append(departures, p)
				}
			}
			compareProblems(t, departures, []string{gdl.CodeUnsafe, gdl.CodeSyntax}, tc.want)
			err := gdl.NotStrict(ps)
			if err == nil {
				t.Fatal("NotStrict accepts the file")
			}
			if !strings.Contains(err.Error(), tc.want[0].at) {
				t.Errorf("NotStrict's error %q does not name %s", err, tc.want[0].at)
			}

			repaired, _ := gdl.Repair(d)
			if repaired == d {
				t.Fatal("Repair returned the description as written")
			}
			again, err := gdl.ParseFile("repaired.kif", []byte(gdl.Format(repaired)))
			if err != nil {
				t.Fatalf("Repair's description does not parse: %v", err)
			}
			for _, p := range gdl.Validate(again) {
				if p.Severity == gdl.SeverityError || p.NotStrict {
					t.Errorf("Repair's description: %v\n%s", p, gdl.Format(repaired))
				}
			}
		})
	}
}

// TestLenientRefusals checks the forms the readings leave refused: a head
// variable that some use of its relation leaves without a value, a
// variable of negations found in a distinct too, an and holding a
// variable, and an and inside a negation.
func TestLenientRefusals(t *testing.T) {
	cases := []struct {
		name, src string
		want      []want
	}{
		{"head variable a use leaves unbound",
			"(<= (p ?x) (not (true (f ?x))))\n(<= (next off) (p ?y) (true (g ?y)))\n(<= (next off) (p ?z))",
			[]want{{"1:8", E, gdl.CodeUnsafe, []string{"variable ?x in the head appears in no positive literal"}}}},
		{"head variable of a recursive relation",
			"(<= (p ?x) (not (true (f ?x))))\n(<= (p ?x) (true (g ?x)) (p ?x))\n(<= (next off) (p ?y) (true (g ?y)))",
			[]want{{"1:8", E, gdl.CodeUnsafe, []string{"variable ?x in the head appears in no positive literal"}}}},
		{"variable of negations and a distinct in an or",
			"(<= (next off) (not (true (f ?x))) (not (true (g ?x))) (or (distinct ?x a) (true on)))",
			[]want{{"1:30", E, gdl.CodeUnsafe, []string{"?x in (not (true (f ?x)))"}}}},
		{"and holding a variable",
			"(<= (next off) (or (and (true on) ?x) (true on)))",
			[]want{{"1:20", E, gdl.CodeSyntax, []string{"a conjunct of and at 1:35 is a variable"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := gdl.ParseFile("test.kif", []byte(tc.src+"\n"+baseGameII))
			if err != nil {
				t.Fatal(err)
			}
			ps := gdl.Validate(d)
			compareProblems(t, ps, []string{gdl.CodeUnsafe, gdl.CodeSyntax}, tc.want)
		})
	}
}

// TestConjunctionBound checks that a rule whose disjunctions of
// conjunctions would be read as too many rules is refused, not expanded.
func TestConjunctionBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("(<= (next off)")
	for range 10 {
		b.WriteString(" (or (and (true on) (true on)) (and (true off) (true off)))")
	}
	b.WriteString(")\n")
	d, err := gdl.ParseFile("test.kif", []byte(b.String()+baseGameII))
	if err != nil {
		t.Fatal(err)
	}
	compareProblems(t, gdl.Validate(d), []string{gdl.CodeSyntax},
		[]want{{"1:20", E, gdl.CodeSyntax, []string{"makes more than 256 rules; not read"}}})
}
