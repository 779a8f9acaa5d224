package gdl

import (
	"errors"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	var (
		nilConst *Const
		nilVar   *Var
		nilFunc  *Func
		nilSent  *Sentence
		nilNot   *Not
		nilDist  *Distinct
		nilOr    *Or
		nilRule  *Rule
		nilDesc  *Description
	)
	tests := []struct {
		name string
		node Node
		want string
	}{
		{"constant", mkConst("noop"), "noop"},
		{"number", mkConst("100"), "100"},
		{"variable", mkVar("x"), "?x"},
		{"variable keeps case", mkVar("Who"), "?Who"},
		{"function", mkFunc("mark", "1", "1"), "(mark 1 1)"},
		{"nested function", mkFunc("cell", mkFunc("pos", "?x", "1"), "b"), "(cell (pos ?x 1) b)"},
		{"function without arguments", mkFunc("noop"), "noop"},
		{"proposition", mkSent("terminal"), "terminal"},
		{"sentence", mkSent("cell", "1", "1", "b"), "(cell 1 1 b)"},
		{"sentence with function", mkSent("legal", "?r", mkFunc("mark", "?x", "?y")), "(legal ?r (mark ?x ?y))"},
		{"not", mkNot(mkSent("line", "x")), "(not (line x))"},
		{"not proposition", mkNot(mkSent("open")), "(not open)"},
		{"distinct", mkDistinct("?x", "b"), "(distinct ?x b)"},
		{"or", mkOr(mkSent("a"), mkNot(mkSent("b", "?x")), mkDistinct("?x", "?y")), "(or a (not (b ?x)) (distinct ?x ?y))"},
		{"fact", fact("init", mkFunc("cell", "1", "1", "b")), "(init (cell 1 1 b))"},
		{"proposition fact", fact("terminal"), "terminal"},
		{"rule", mkRule(mkSent("goal", "?p", "100"), mkSent("line", "?p"), mkNot(mkSent("open"))), "(<= (goal ?p 100) (line ?p) (not open))"},
		{"rule with proposition head", mkRule(mkSent("terminal"), mkSent("done")), "(<= terminal done)"},
		{"description", &Description{Rules: mkDesc(fact("role", "x"), fact("terminal"), mkRule(mkSent("p"), mkSent("q")))}, "(role x)\nterminal\n(<= p q)\n"},
		{"empty description", &Description{}, ""},
		{"nil node", nil, "<nil>"},
		{"nil constant", nilConst, "<nil>"},
		{"nil variable", nilVar, "<nil>"},
		{"nil function", nilFunc, "<nil>"},
		{"nil sentence", nilSent, "<nil>"},
		{"nil not", nilNot, "<nil>"},
		{"nil distinct", nilDist, "<nil>"},
		{"nil or", nilOr, "<nil>"},
		{"nil rule", nilRule, "<nil>"},
		{"nil description", nilDesc, "<nil>"},
		{"missing parts", mkRule(&Sentence{Args: []Term{nil, nilVar}}, &Not{}, &Distinct{}, nil), "(<= (<nil> <nil> <nil>) (not <nil>) (distinct <nil> <nil>) <nil>)"},
		{"missing head", &Rule{}, "<nil>"},
		{"missing function name", &Func{Args: []Term{mkConst("a")}}, "(<nil> a)"},
		{"nil rule in description", &Description{Rules: []*Rule{nil}}, "<nil>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Format(tt.node); got != tt.want {
				t.Errorf("Format = %q, want %q", got, tt.want)
			}
			var b strings.Builder
			if err := Fprint(&b, tt.node); err != nil {
				t.Errorf("Fprint: %v", err)
			}
			if b.String() != tt.want {
				t.Errorf("Fprint wrote %q, want %q", b.String(), tt.want)
			}
			if s, ok := tt.node.(interface{ String() string }); ok {
				if got := s.String(); got != tt.want {
					t.Errorf("String() = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

// TestFormatParsed checks that parsed text prints in canonical form.
func TestFormatParsed(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"(ROLE   xplayer )", "(role xplayer)\n"},
		{"( terminal )", "terminal\n"},
		{"(<= (Goal ?P 100)\n\t(NOT (line x)) ; comment\n   (or a\n(b ?P)))", "(<= (goal ?P 100) (not (line x)) (or a (b ?P)))\n"},
		{"(init(cell 1 1 (b)))(<= (p) )", "(init (cell 1 1 b))\np\n"},
		{"(succ -1 0) (map+ ++)", "(succ -1 0)\n(map+ ++)\n"},
	}
	for _, tt := range tests {
		d, err := ParseFile("", []byte(tt.src))
		if err != nil {
			t.Errorf("ParseFile(%q): %v", tt.src, err)
			continue
		}
		if got := Format(d); got != tt.want {
			t.Errorf("Format(ParseFile(%q)) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

type failingWriter struct{}

var errWrite = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestFprintError(t *testing.T) {
	if err := Fprint(failingWriter{}, mkConst("a")); !errors.Is(err, errWrite) {
		t.Errorf("Fprint to a failing writer: %v, want %v", err, errWrite)
	}
}

// BenchmarkFormat prints a fact, as the reasoner does for each fact of each
// state.
func BenchmarkFormat(b *testing.B) {
	x := mkFunc("cell", "e", "2", mkFunc("piece", "white", "pawn"))
	b.ReportAllocs()
	for b.Loop() {
		_ = Format(x)
	}
}
