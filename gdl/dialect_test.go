package gdl_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
)

// baseGameII is a complete, valid GDL-II game in the Dresden dialect,
// appended after each GDL-II case as baseGame is after a GDL one.
const baseGameII = `
(role a)
(role random)
(init on)
(<= (legal a go) (true on))
(<= (legal random go) (true on))
(<= (next on) (does a go))
(<= (sees a (legal random go)) (true on))
(<= terminal (true on))
(<= (goal a 100) (true on))
`

// validateIICases are read as GDL-II: baseGameII makes them so.
var validateIICases = []struct {
	name  string
	codes []string
	src   string
	want  []want
}{
	// The dialect: keywords inside percepts, next in sees bodies.
	{"keyword inside a percept", []string{gdl.CodeKeyword},
		"(<= (sees a (legal a go)) (true on))", nil},
	{"keyword as a function symbol outside a percept", []string{gdl.CodeKeyword},
		"(<= (next (does a go)) (true on))",
		[]want{{"1:11", E, gdl.CodeKeyword, []string{"keyword does is used as a function symbol inside next"}}}},
	{"next in a sees body", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (sees a bright) (next on))", nil},
	{"next in another body", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= lit (next on))",
		[]want{{"1:9", E, gdl.CodeKeyword, []string{"next may appear only in rule heads"}}}},

	// sees in a body, and what may depend on it.
	{"goal reads a percept of the state", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (sees a lit) (true on))\n(<= (goal a 0) (not (sees a lit)))",
		[]want{{"2:21", W, gdl.CodeKeyword, []string{"sees only in rule heads", "(sees a lit) is read as a relation"}}}},
	{"goal reads a percept of the next state", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (sees a bright) (next on))\n(<= (goal a 50) (sees a bright))",
		[]want{
			{"2:17", E, gdl.CodeDependency, []string{"goal must not depend on next", "(sees -> next)"}},
			{"2:17", W, gdl.CodeKeyword, []string{"sees only in rule heads"}},
		}},
	{"terminal reads a percept of the moves", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (sees a moved) (does a go))\n(<= terminal (sees a moved))",
		[]want{
			{"2:14", E, gdl.CodeDependency, []string{"terminal must not depend on does"}},
			{"2:14", W, gdl.CodeKeyword, []string{"sees only in rule heads"}},
		}},
	{"next reads a percept of the next state", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (sees a bright) (next on))\n(<= (next off) (sees a bright))",
		[]want{
			{"2:16", E, gdl.CodeDependency, []string{"next must not depend on next"}},
			{"2:16", W, gdl.CodeKeyword, []string{"sees only in rule heads"}},
		}},
	{"init reads a percept", []string{gdl.CodeKeyword, gdl.CodeDependency},
		"(<= (init off) (sees a lit))\n(<= (sees a lit) (true on))",
		[]want{
			{"1:16", E, gdl.CodeDependency, []string{"init must not depend on sees"}},
			{"1:16", W, gdl.CodeKeyword, []string{"sees only in rule heads"}},
		}},

	// Unsafe variables.
	{"role argument bound by nothing", []string{gdl.CodeUnsafe},
		"(<= (sees ?r flash) (true on))",
		[]want{{"1:11", W, gdl.CodeUnsafe, []string{"?r", "ranging over the roles", "(role ?r)"}}}},
	{"role argument of a fact", []string{gdl.CodeUnsafe},
		"(legal ?r wait)",
		[]want{{"1:8", W, gdl.CodeUnsafe, []string{"?r in a fact for legal", "ranging over the roles"}}}},
	{"other head argument bound by nothing", []string{gdl.CodeUnsafe},
		"(<= (next (cell ?x)) (true on))",
		[]want{{"1:17", E, gdl.CodeUnsafe, []string{"?x in the head", "not a role argument", "nothing says which values"}}}},
	{"head term naming a relation", []string{gdl.CodeUnsafe},
		"(side l)\n(<= (legal random (deal (side ?s))) (true on))",
		[]want{{"2:31", W, gdl.CodeUnsafe, []string{"?s in the head", "inside (side ...), a relation of the rules", "ranging over it"}}}},
	{"head term naming a relation of another arity", []string{gdl.CodeUnsafe},
		"(side l r)\n(<= (legal random (deal (side ?s))) (true on))",
		[]want{{"2:31", E, gdl.CodeUnsafe, []string{"?s in the head", "nothing says which values"}}}},
	{"variable of one negation", []string{gdl.CodeUnsafe},
		"(<= (next off) (true on) (not (does ?r go)))",
		[]want{{"1:37", W, gdl.CodeUnsafe, []string{"?r appears only in negations, here (not (does ?r go))", "no value of ?r makes it hold"}}}},
	{"variable of two negations", []string{gdl.CodeUnsafe},
		"(<= (next off) (not (true (f ?x))) (not (true (g ?x))))",
		[]want{{"1:30", W, gdl.CodeUnsafe, []string{"?x appears only in negations, here (not (true (f ?x)))", "in each negation on its own"}}}},
	{"variable of a negation and a distinct", []string{gdl.CodeUnsafe},
		"(<= (next off) (not (true (f ?x))) (distinct ?x a))",
		[]want{{"1:36", W, gdl.CodeUnsafe, []string{"(distinct ?x a) has a variable that no positive literal binds", "distinct, reached with it unbound, fails", "left out"}}}},
	{"variable of a distinct alone", []string{gdl.CodeUnsafe},
		"(<= (next off) (true on) (distinct a ?y))",
		[]want{{"1:26", W, gdl.CodeUnsafe, []string{"(distinct a ?y) has a variable", "left out"}}}},
	{"variable of a distinct bound later", []string{gdl.CodeUnsafe},
		"(<= (next off) (distinct ?x a) (true (f ?x)))",
		nil},
	{"variable of a distinct given by the head", []string{gdl.CodeUnsafe},
		"(<= (p ?x) (distinct ?x a))\n(<= (next off) (true (f ?y)) (p ?y))",
		[]want{{"1:8", W, gdl.CodeUnsafe, []string{"?x in the head", "ranging over the values the uses of p give it"}}}},

	// Lists named by a variable or a number.
	{"variable naming a function", []string{gdl.CodeSyntax},
		"(<= (next (f ?c)) (does a (pay (?who ?c))))",
		[]want{{"1:33", W, gdl.CodeSyntax, []string{"in rule for next: variable ?who names a function", "a name of its own, named_who", "binds no variable ?who"}}}},
	{"variable naming a relation", []string{gdl.CodeSyntax},
		"(<= (next (f ?c)) (?Rel ?c))",
		[]want{{"1:20", W, gdl.CodeSyntax, []string{"variable ?Rel names a relation", "named_rel"}}}},
	{"number naming a function of no arguments", []string{gdl.CodeSyntax},
		"(<= (next (f (0))) (true on))",
		[]want{{"1:15", W, gdl.CodeSyntax, []string{"(0) is a function of no arguments named by a number", "a constant of its own, named_0", "not 0"}}}},
	{"number naming a function", []string{gdl.CodeSyntax},
		"(<= (next (f (7 a))) (true on))",
		[]want{{"1:15", W, gdl.CodeSyntax, []string{"number 7 names a function", "named_7"}}}},
	{"a list's name taken", []string{gdl.CodeSyntax},
		"(<= (next (named_x (?x 1))) (true on))",
		[]want{{"1:21", W, gdl.CodeSyntax, []string{"variable ?x names a function", "named_x_2"}}}},
	{"variables that differ only in case", []string{gdl.CodeCase, gdl.CodeUnsafe},
		"(<= (next (n ?X)) (true (n ?x)))",
		[]want{{"1:28", W, gdl.CodeCase, []string{"?x and ?X (at 1:14) differ only in case"}}}},

	// Goal values, arities, base and input.
	{"goal values with leading zeros", []string{gdl.CodeGoalValue},
		"(<= (goal a 00) (true on))\n(<= (goal a 007) (true on))\n(<= (goal a 0100) (true on))\n(<= (goal a 101) (true on))",
		[]want{
			{"1:13", W, gdl.CodeGoalValue, []string{"goal value 00 is read as 0"}},
			{"2:13", W, gdl.CodeGoalValue, []string{"goal value 007 is read as 7"}},
			{"3:13", W, gdl.CodeGoalValue, []string{"goal value 0100 is read as 100"}},
			{"4:13", E, gdl.CodeGoalValue, []string{"goal value 101 is not an integer from 0 to 100"}},
		}},
	{"a relation with two arities", []string{gdl.CodeArity, gdl.CodeRecursion},
		"(p a)\n(<= (q ?x ?y) (p ?x ?y))\n(<= (q ?x ?y) (p ?y ?x))",
		[]want{{"2:15", W, gdl.CodeArity, []string{"relation p has 2 arguments here but 1 at 1:1", "read as a relation p/2 of its own"}}}},
	{"a function with two arities", []string{gdl.CodeArity},
		"(p (f a))\n(p (f a b))\n(p (f b c))",
		[]want{{"2:4", W, gdl.CodeArity, []string{"function f has 2 arguments here but 1 at 1:4", "function f/2 of its own"}}}},
	{"two arities make two relations, not a recursion", []string{gdl.CodeRecursion, gdl.CodeArity},
		"(succ 0 1)\n(<= (add 0 ?x ?x) (succ ?x ?y))\n(<= (add ?x ?y ?z) (succ ?w ?x) (succ ?y ?v) (add ?w ?v ?z))\n(<= (add ?x ?y ?z ?s) (add ?x ?y ?p) (add ?p ?z ?s))",
		[]want{{"4:5", W, gdl.CodeArity, []string{"read as a relation add/4 of its own"}}}},
	{"base and input with the wrong arity", []string{gdl.CodeKeyword, gdl.CodeUnsafe},
		"(<= (base (cell ?x) (true (cell ?x))))\n(<= (input ?r noop (role ?r)))",
		[]want{
			{"1:5", W, gdl.CodeKeyword, []string{"base takes 1 argument, not 2", "left out"}},
			{"2:5", W, gdl.CodeKeyword, []string{"input takes 2 arguments, not 3", "left out"}},
		}},
	{"another keyword with the wrong arity", []string{gdl.CodeKeyword},
		"(<= (legal a go now) (true on))",
		[]want{{"1:5", E, gdl.CodeKeyword, []string{"legal takes 2 arguments, not 3"}}}},
}

func TestValidateGDLII(t *testing.T) {
	for _, tc := range validateIICases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := gdl.ParseFile("test.kif", []byte(tc.src+"\n"+baseGameII))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
				t.Fatal("not read as GDL-II")
			}
			compareProblems(t, gdl.Validate(d), tc.codes, tc.want)
		})
	}
}

// TestValidateBaseGameII checks that the game the GDL-II cases extend is
// clean, so that each case's problems are its own.
func TestValidateBaseGameII(t *testing.T) {
	d, err := gdl.ParseFile("base.kif", []byte(baseGameII))
	if err != nil {
		t.Fatal(err)
	}
	if ps := gdl.Validate(d); len(ps) > 0 {
		t.Errorf("base game has problems: %v", ps)
	}
}

func TestDecideMode(t *testing.T) {
	tests := []struct {
		src            string
		alone, natured gdl.Mode // the mode with RulesAlone and with NatureSeated
	}{
		{"(role a) (role random)", gdl.GDL, gdl.GDLII},
		{"(role a) (<= (sees a x) (true x))", gdl.GDLII, gdl.GDLII},
		{"(role a) (role random) (<= (sees a x) (true x))", gdl.GDLII, gdl.GDLII},
		{"(role a) (<= (goal a 0) (sees a x))", gdl.GDLII, gdl.GDLII},
		{"(role a) (role b) (<= (legal a random) (true x))", gdl.GDL, gdl.GDL},
		{"(role a) (<= (next (sees a)) (true x))", gdl.GDL, gdl.GDL},
		{"(role a) (init x)", gdl.GDL, gdl.GDL},
	}
	for _, tt := range tests {
		d, err := gdl.ParseFile("t.kif", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := gdl.DecideMode(d, gdl.RulesAlone); got != tt.alone {
			t.Errorf("DecideMode(%s, RulesAlone) = %v, want %v", tt.src, got, tt.alone)
		}
		if got := gdl.DecideMode(d, gdl.NatureSeated); got != tt.natured {
			t.Errorf("DecideMode(%s, NatureSeated) = %v, want %v", tt.src, got, tt.natured)
		}
	}
}

// repairCases give rules with mistakes the Dresden dialect reads through
// and the rules Repair must turn them into: rules, written where the
// mistaken ones were, and aux, new rules after all the others.
var repairCases = []struct {
	name       string
	src        string
	rules, aux string
}{
	{"role argument", "(<= (sees ?r flash) (true on))", "(<= (sees ?r flash) (role ?r) (true on))", ""},
	{"role argument of a fact", "(legal ?r wait)", "(<= (legal ?r wait) (role ?r))", ""},
	{"role argument bound then negated", "(<= (legal ?p noop) (not (true (control ?p))))",
		"(<= (legal ?p noop) (role ?p) (not (true (control ?p))))", ""},
	{"existential negation",
		"(<= (next off) (true (cell ?c)) (not (true (mark ?c ?v))))",
		"(<= (next off) (true (cell ?c)) (not (exists_1 ?c)))",
		"(<= (exists_1 ?c) (true (mark ?c ?v)))"},
	{"existential negation, nothing else bound",
		"(<= (next off) (true on) (not (does ?r go)) (not (does ?s stop)))",
		"(<= (next off) (true on) (not exists_1) (not exists_2))",
		"(<= exists_1 (does ?r go)) (<= exists_2 (does ?s stop))"},
	{"existential negation, name taken",
		"(exists_1 x)\n(<= (next off) (exists_1 ?c) (not (true (mark ?c ?v))))",
		"(exists_1 x)\n(<= (next off) (exists_1 ?c) (not (exists_2 ?c)))",
		"(<= (exists_2 ?c) (true (mark ?c ?v)))"},
	{"variables that differ only in case", "(<= (next (n ?X)) (true (n ?x)) (not (true (m ?X))))",
		"(<= (next (n ?X)) (true (n ?X)) (not (true (m ?X))))", ""},
	{"goal value with leading zeros", "(<= (goal a 00) (true on))", "(<= (goal a 0) (true on))", ""},
	{"head term naming a relation", "(side l) (side r)\n(<= (legal random (deal (side ?s) ?c)) (true on) (card ?c))\n(card k)",
		"(side l) (side r)\n(<= (legal random (deal (side ?s) ?c)) (side ?s) (true on) (card ?c))\n(card k)", ""},
	{"base with the wrong arity", "(<= (base (cell ?x) (true (cell ?x))))\n(base on)", "(base on)", ""},
}

func TestRepair(t *testing.T) {
	for _, tc := range repairCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := gdl.ParseFile("test.kif", []byte(tc.src+"\n"+baseGameII))
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			before := gdl.Format(d)
			got, ps := gdl.Repair(d)
			if gdl.Format(d) != before {
				t.Error("Repair modified its argument")
			}
			if !slices.Equal(ps, gdl.Validate(d)) {
				t.Errorf("Repair's problems %v differ from Validate's %v", ps, gdl.Validate(d))
			}
			want, err := gdl.ParseFile("want.kif", []byte(tc.rules+"\n"+baseGameII+"\n"+tc.aux))
			if err != nil {
				t.Fatalf("ParseFile(want): %v", err)
			}
			if g, w := gdl.Format(got), gdl.Format(want); g != w {
				t.Errorf("repaired:\n%s\nwant:\n%s", g, w)
			}
			// The repair leaves nothing to repair, and plain GDL-II.
			again, ps := gdl.Repair(got)
			if again != got {
				t.Errorf("repairing again changed the rules:\n%s", gdl.Format(again))
			}
			for _, p := range ps {
				if p.Severity == gdl.SeverityError || p.Code == gdl.CodeUnsafe || p.Code == gdl.CodeCase || p.Code == gdl.CodeGoalValue {
					t.Errorf("repaired rules: %v", p)
				}
			}
		})
	}
}

// TestRepairGDL checks that Repair leaves a GDL description as it is,
// mistakes and all: the dialect is GDL-II's.
func TestRepairGDL(t *testing.T) {
	var src strings.Builder
	for _, tc := range repairCases {
		if !strings.Contains(tc.src, "sees") {
			src.WriteString(tc.src + "\n")
		}
	}
	d, err := gdl.ParseFile("gdl.kif", []byte(src.String()+baseGame))
	if err != nil {
		t.Fatal(err)
	}
	got, ps := gdl.Repair(d)
	if got != d {
		t.Errorf("Repair rewrote a GDL description:\n%s", gdl.Format(got))
	}
	if !slices.Equal(ps, gdl.Validate(d)) {
		t.Errorf("Repair's problems differ from Validate's")
	}
	if gdl.Errors(ps) == nil {
		t.Error("the mistakes are no errors in GDL")
	}
}

func TestErrors(t *testing.T) {
	pos := gdl.Pos{Filename: "g.kif", Line: 2, Column: 3}
	ps := []gdl.Problem{
		{Pos: pos, Severity: gdl.SeverityWarning, Code: gdl.CodeUnused, Msg: "odd"},
		{Pos: pos, Severity: gdl.SeverityError, Code: gdl.CodeUnsafe, Msg: "bad"},
	}
	err := gdl.Errors(ps)
	var list gdl.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Error() != "g.kif:2:3: bad" {
		t.Errorf("Errors = %v, want the one error", err)
	}
	if err := gdl.Errors(ps[:1]); err != nil {
		t.Errorf("Errors of warnings = %v, want nil", err)
	}
}

// TestRepairCorpus checks that Repair leaves every public GDL game as it
// is: the GDL-II dialect changes nothing for them, beatMania's role
// random included.
func TestRepairCorpus(t *testing.T) {
	dirs, err := games.Corpus(gamestest.Games())
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no game corpus at %s", gamestest.Games())
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		g, err := games.LoadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := gdl.Repair(d); got != d {
			t.Errorf("%s: Repair rewrote the rules", g.Key)
		}
	}
}

// gamesIIVerdicts lists, for each public GDL-II game, every problem
// Validate must find, as "line:col severity code", each checked against
// the rulesheet: each a mistake with one reading. oneCardGame's random
// move (lead ?Player), whose ?Player nothing binds, ranges over the facts
// (lead player1) and (lead player2), which nothing else uses.
var gamesIIVerdicts = map[string][]string{
	"backgammon":             nil,
	"blind_breakthrough_5x5": {"222:11 warning unsafe", "239:11 warning unsafe"},
	"blind_breakthrough_6x6": {"222:11 warning unsafe", "239:11 warning unsafe"},
	"guessSix":               nil,
	"kriegTTT_4x4":           nil,
	"kriegTTT_5x5":           nil,
	"latenttictactoe":        nil,
	"mastermind":             {"67:11 warning arity", "101:1 warning unused"},
	"mastermind2x3":          {"125:22 warning keyword", "127:25 warning keyword", "133:14 warning keyword"},
	"meier":                  nil,
	"montyhall":              nil,
	"oneCardGame": {"26:38 warning unsafe", "59:30 warning unsafe", "63:12 warning unsafe",
		"98:30 warning unsafe", "113:30 warning unsafe", "152:11 warning unsafe", "155:11 warning unsafe",
		"160:11 warning unsafe", "163:30 warning unsafe", "165:11 warning unsafe"},
	"pennies":        {"41:17 warning arity", "58:17 warning goal-value"},
	"small_dominion": {"13:26 warning undefined"},
	"transit":        nil,
	"bigMoney": {
		// Malformed base and input declarations.
		"26:5 warning keyword", "98:5 warning keyword", "99:5 warning keyword", "100:5 warning keyword",
		"103:5 warning keyword", "106:5 warning keyword", "109:5 warning keyword", "110:5 warning keyword",
		"111:5 warning keyword",
		// (legal ?p noop) with ?p unbound, then negations with variables of their own.
		"34:12 warning unsafe", "59:28 warning unsafe", "59:31 warning unsafe", "206:13 warning unsafe",
		"223:21 warning unsafe", "251:39 warning unsafe", "251:42 warning unsafe", "266:34 warning unsafe",
		"286:34 warning unsafe", "287:39 warning unsafe", "287:42 warning unsafe", "338:34 warning unsafe",
		"381:39 warning unsafe", "381:42 warning unsafe", "390:34 warning unsafe", "421:39 warning unsafe",
		"421:42 warning unsafe", "422:34 warning unsafe",
		// ?hPos and ?hpos.
		"239:19 warning case",
		// add/3 and add/4, and the points relations with 2 and 3 arguments.
		"525:2 warning arity", "529:2 warning arity", "545:2 warning arity", "561:2 warning arity",
	},
}

// TestGamesII validates every public GDL-II game against its verdicts, and
// checks that Repair reads each through to plain GDL-II.
func TestGamesII(t *testing.T) {
	files := gamestest.GamesIIFiles()
	if len(files) == 0 {
		t.Skipf("no GDL-II games at %s", gamestest.GamesII())
	}
	if len(files) != len(gamesIIVerdicts) {
		t.Errorf("%d GDL-II games, want %d", len(files), len(gamesIIVerdicts))
	}
	for _, file := range files {
		key := strings.TrimSuffix(filepath.Base(file), ".kif")
		t.Run(key, func(t *testing.T) {
			want, ok := gamesIIVerdicts[key]
			if !ok {
				t.Fatalf("no verdicts for %s", key)
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := gdl.ParseFile(file, src)
			if err != nil {
				t.Fatal(err)
			}
			if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
				t.Error("not read as GDL-II")
			}
			repaired, ps := gdl.Repair(d)
			var got []string
			for _, p := range ps {
				if p.Pos.Filename != file {
					t.Errorf("problem names file %q", p.Pos.Filename)
				}
				got = append(got, fmt.Sprintf("%d:%d %s %s", p.Pos.Line, p.Pos.Column, p.Severity, p.Code))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("verdicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if again, _ := gdl.Repair(repaired); again != repaired {
				t.Error("repairing again changed the rules")
			}
			for _, p := range gdl.Validate(repaired) {
				switch p.Code {
				case gdl.CodeUnsafe, gdl.CodeCase, gdl.CodeGoalValue:
					if p.Severity == gdl.SeverityWarning {
						t.Errorf("repaired rules: %v", p)
					}
				}
			}
		})
	}
}
