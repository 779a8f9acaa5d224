package gdl

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
)

// fuzzSeeds are small texts that reach every construct and every error.
var fuzzSeeds = []string{
	"",
	"terminal",
	"(role xplayer) (role oplayer)",
	"(<= (goal ?p 100) (not (line x)) (distinct ?p b) (or (a) b (not c)))",
	"; comment\n(init (cell (pos 1 1) b))\r\n(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)))",
	"(ROLE White) (<= (NEXT (cellOpen ?X)) (TRUE (cellopen ?X)) (NOT (DisTinct ?X 1)))",
	"(succ -1 0) (map+ ++ --) (<= (< a b) (> 1 2) (index++ ?x++))",
	"\uFEFF(p café \"q\")",
	"; old Mac line ends\r(role a)\r;(role b)\r\n(role c)",
	"(PLAY m1 ((mark 1 1) noop))",
	"( START id role ((role a) (<= p q)) 30 10 )",
	"(<=)", "(<= ?x p)", "(<= 5 p)", "(<= p (not))", "(<= p (distinct a))", "(<= p (or))",
	"(<= (foo (<= a)) b)", "(<= (not p) q)", "((a b) c)", "(p ())", "(p ?)",
	"(role a", "(a))", "(a\x00)", "(a \x07)", "(a \xff)", "(a\u00a0b)",
	strings.Repeat("(", 1100),
	strings.Repeat("(f ", 999) + "a" + strings.Repeat(")", 999),
}

// addSeeds adds fuzzSeeds and, when the game corpus is present, its small
// games.
func addSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	dirs, err := games.Corpus(corpusRoot)
	if err != nil {
		return
	}
	for _, dir := range dirs {
		if g, err := games.LoadFolder(dir); err == nil && len(g.Rules) < 2000 {
			f.Add(g.Rules)
		}
	}
}

// checkErrorList checks that err, an error of a reader of src, is an
// ErrorList of 1 to MaxErrors errors at positions inside src.
func checkErrorList(t *testing.T, err error, filename string, src []byte) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is not an ErrorList", err, err)
	}
	if len(list) == 0 || len(list) > MaxErrors {
		t.Fatalf("%d errors: %v", len(list), err)
	}
	for _, e := range list {
		p := e.Pos
		if p.Filename != filename {
			t.Errorf("error %q names file %q, want %q", e.Msg, p.Filename, filename)
		}
		if len(src) > MaxSize {
			continue
		}
		if p.Line < 1 || p.Column < 1 || p.Offset < 0 || p.Offset > len(src) || p.Column-1 > p.Offset {
			t.Errorf("error %q at bad position %#v", e.Msg, p)
		}
	}
}

func FuzzParseFile(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseFile("f.kif", src)
		if err != nil {
			if d != nil {
				t.Errorf("ParseFile returned a description and the error %v", err)
			}
			checkErrorList(t, err, "f.kif", src)
			return
		}
		if len(d.Rules) == 0 {
			t.Fatal("ParseFile returned no rules and no error")
		}
		for _, r := range d.Rules {
			if p := r.Pos(); p.Offset < 0 || p.Offset >= len(src) || p.Line < 1 || p.Column < 1 {
				t.Errorf("rule at bad position %#v", p)
			}
		}
		// What the printer writes reads back as the same description, and
		// prints the same again.
		text := Format(d)
		again, err := ParseFile("f.kif", []byte(text))
		if err != nil {
			t.Fatalf("printed description %q does not parse: %v", text, err)
		}
		if text2 := Format(again); text2 != text {
			t.Errorf("printing is not stable:\n%q\n%q", text, text2)
		}
		stripPositions(d)
		stripPositions(again)
		if !reflect.DeepEqual(d, again) {
			t.Errorf("printed description %q reads back differently:\n got %s\nwant %s", text, dump(again.Rules), dump(d.Rules))
		}
	})
}

func FuzzReadExprs(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		es, err := ReadExprs("m", src)
		if err != nil {
			if es != nil {
				t.Errorf("ReadExprs returned expressions and the error %v", err)
			}
			checkErrorList(t, err, "m", src)
			return
		}
		for _, e := range es {
			// String writes what ReadExpr reads.
			back, err := ReadExpr([]byte(e.String()))
			if err != nil {
				t.Fatalf("ReadExpr(%q): %v", e.String(), err)
			}
			if !sameExpr(back, e) {
				t.Errorf("%q reads back as %q", e.String(), back.String())
			}
			// A term prints as ParseTerm reads it.
			if x, err := ExprTerm(e); err == nil {
				y, err := ParseTerm(Format(x))
				if err != nil {
					t.Fatalf("ParseTerm(%q): %v", Format(x), err)
				}
				stripPositions(x)
				stripPositions(y)
				if !reflect.DeepEqual(x, y) {
					t.Errorf("term %q reads back differently", Format(x))
				}
			}
		}
		// Converting to a description never panics and agrees with
		// ParseFile.
		d, err := ExprDescription("m", es)
		d2, err2 := ParseFile("m", src)
		if len(es) == 0 {
			if err != nil || d == nil || len(d.Rules) != 0 {
				t.Errorf("ExprDescription(no expressions) = %v, %v", d, err)
			}
			return
		}
		if (err == nil) != (err2 == nil) {
			t.Fatalf("ExprDescription error %v, ParseFile error %v", err, err2)
		}
		if err != nil {
			checkErrorList(t, err, "m", src)
			if err.Error() != err2.Error() {
				t.Errorf("ExprDescription error %q, ParseFile error %q", err, err2)
			}
			return
		}
		if !reflect.DeepEqual(d, d2) {
			t.Errorf("ExprDescription and ParseFile differ")
		}
	})
}

// sameExpr reports whether a and b are the same expression but for
// positions.
func sameExpr(a, b *Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.IsList != b.IsList || a.Atom != b.Atom || len(a.List) != len(b.List) {
		return false
	}
	for i := range a.List {
		if !sameExpr(a.List[i], b.List[i]) {
			return false
		}
	}
	return true
}

// FuzzRepair checks that Repair never panics, leaves nothing to repair
// and writes rules that read back.
func FuzzRepair(f *testing.F) {
	addSeeds(f)
	for _, src := range []string{
		"(role random) (<= (sees ?r x) (true on)) (<= (next off) (not (true (f ?x))))",
		"(role a) (<= (sees a (does ?p ?m)) (does ?p ?m) (next (c ?X)) (true (c ?x)))",
		"(role random) (legal ?r go) (goal ?r 007) (<= (base (c ?x) (role ?x))) (p a) (p a b)",
		"(role random) (<= (legal ?p (m ?q)) (not (true (t ?p ?z))) (distinct ?q ?z))",
		"(role random) (<= (next off) (and (true on) (p ?x)) (or (and (q ?x) (not (r ?x))) (s ?x)))",
		"(role random) (<= (next (c ?n)) (true (c ?n)) (not (does ?p (buy ?c))) (not (does ?p end)))",
		"(role random) (<= (v ?p 0) (not (w ?p))) (<= (goal ?r ?s) (role ?r) (v ?r ?s)) (<= (w ?p) (true (h ?p)))",
		"(role random) (legal random (pay (?to 1))) (<= (next (c ?n)) (does ?p (pay (?TO ?n))) (?r ?n)) (<= (?R 1) (true (0)))",
		"(role random) (<= (next (f (-1 a) (2.5) (named_0))) (true (0)) (not (true (?n ?m))))",
		"(role random) (<= (next off) (true on) (not (does ?p (m ?q))) (distinct ?q ?p))",
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseFile("f.kif", src)
		if err != nil {
			return
		}
		repaired, _ := Repair(d)
		again, ps := Repair(repaired)
		if again != repaired {
			t.Errorf("repairing %q again changed it:\n%s\n%s", src, Format(repaired), Format(again))
		}
		for _, p := range ps {
			if p.Severity == SeverityWarning && (p.Code == CodeCase || p.Code == CodeGoalValue) {
				t.Errorf("repaired %q still has %v", src, p)
			}
		}
		if _, err := ParseFile("f.kif", []byte(Format(repaired))); err != nil {
			t.Errorf("repaired %q does not read back: %v", src, err)
		}
	})
}
