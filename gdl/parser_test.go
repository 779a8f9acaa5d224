package gdl

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Builders of expected nodes, without positions.

func mkConst(name string) *Const { return &Const{Name: name} }
func mkVar(name string) *Var     { return &Var{Name: name} }

// mkTerm reads "?x" as a variable and anything else as a constant.
func mkTerm(s string) Term {
	if name, ok := strings.CutPrefix(s, "?"); ok {
		return mkVar(name)
	}
	return mkConst(s)
}

// mkArgs turns strings into terms with mkTerm and keeps terms as they are.
func mkArgs(args []any) []Term {
	if len(args) == 0 {
		return nil
	}
	ts := make([]Term, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case string:
			ts[i] = mkTerm(a)
		case Term:
			ts[i] = a
		default:
			panic("bad argument")
		}
	}
	return ts
}

func mkFunc(name string, args ...any) *Func {
	return &Func{Name: mkConst(name), Args: mkArgs(args)}
}

func mkSent(name string, args ...any) *Sentence {
	return &Sentence{Name: mkConst(name), Args: mkArgs(args)}
}

func mkRule(head *Sentence, body ...Literal) *Rule {
	if len(body) == 0 {
		body = nil
	}
	return &Rule{Head: head, Body: body}
}

func mkNot(l Literal) *Not                { return &Not{Arg: l} }
func mkDistinct(x, y string) *Distinct    { return &Distinct{X: mkTerm(x), Y: mkTerm(y)} }
func mkOr(ls ...Literal) *Or              { return &Or{Disjuncts: ls} }
func mkDesc(rules ...*Rule) []*Rule       { return rules }
func fact(name string, args ...any) *Rule { return mkRule(mkSent(name, args...)) }

var posType = reflect.TypeFor[Pos]()

// stripPositions zeroes every position in the tree below v, a pointer or an
// interface holding one, so that trees read from different texts compare
// equal with reflect.DeepEqual when only their positions differ.
func stripPositions(v any) {
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == posType {
				v.Set(reflect.Zero(posType))
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
}

func TestParseFile(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []*Rule
	}{
		{"fact", "(role xplayer)", mkDesc(fact("role", "xplayer"))},
		{"proposition", "terminal", mkDesc(fact("terminal"))},
		{"proposition in parentheses", "(terminal)", mkDesc(fact("terminal"))},
		{"several facts", "(role x) (role o)\n(index 1)", mkDesc(fact("role", "x"), fact("role", "o"), fact("index", "1"))},
		{"rule", "(<= terminal (line x))", mkDesc(mkRule(mkSent("terminal"), mkSent("line", "x")))},
		{"rule without body", "(<= (p a))", mkDesc(mkRule(mkSent("p", "a")))},
		{"proposition in body", "(<= p q (r))", mkDesc(mkRule(mkSent("p"), mkSent("q"), mkSent("r")))},
		{
			"all literals",
			"(<= (goal ?p 100) (not (line x)) (distinct ?p b) (or (a) b (not c)))",
			mkDesc(mkRule(mkSent("goal", "?p", "100"),
				mkNot(mkSent("line", "x")),
				mkDistinct("?p", "b"),
				mkOr(mkSent("a"), mkSent("b"), mkNot(mkSent("c"))))),
		},
		{
			"nested connectives",
			"(<= p (not (or a (distinct ?x (f ?y)))) (or (not b) (or c d)) (not (not e)))",
			mkDesc(mkRule(mkSent("p"),
				mkNot(mkOr(mkSent("a"), &Distinct{X: mkVar("x"), Y: mkFunc("f", "?y")})),
				mkOr(mkNot(mkSent("b")), mkOr(mkSent("c"), mkSent("d"))),
				mkNot(mkNot(mkSent("e"))))),
		},
		{
			"functions",
			"(init (cell (pos 1 1) (piece white king) (empty)))",
			mkDesc(fact("init", mkFunc("cell", mkFunc("pos", "1", "1"), mkFunc("piece", "white", "king"), "empty"))),
		},
		{
			"keywords in any case",
			"(ROLE White) (Init (Cell 1 a)) (<= (NEXT (cellOpen ?X)) (TRUE (cellopen ?X)) (NOT (DisTinct ?X 1)) (Or p q)) (<= Terminal (Does ?r NOOP))",
			mkDesc(
				fact("role", "White"),
				fact("init", mkFunc("Cell", "1", "a")),
				mkRule(mkSent("next", mkFunc("cellOpen", "?X")),
					mkSent("true", mkFunc("cellopen", "?X")),
					mkNot(mkDistinct("?X", "1")),
					mkOr(mkSent("p"), mkSent("q"))),
				mkRule(mkSent("terminal"), mkSent("does", "?r", "NOOP"))),
		},
		{"keywords as constants", "(p TRUE Goal (Legal x) ROLES)", mkDesc(fact("p", "true", "goal", mkFunc("legal", "x"), "ROLES"))},
		{"variables keep case", "(<= (p ?x ?X ?cellOpen) (q ?x ?X ?cellOpen))", mkDesc(mkRule(mkSent("p", "?x", "?X", "?cellOpen"), mkSent("q", "?x", "?X", "?cellOpen")))},
		{"variable names", "(p ??x ?x? ?1 ?-)", mkDesc(fact("p", "??x", "?x?", "?1", "?-"))},
		{
			"symbols of the corpus",
			"(succ -1 0) (map+ ++ -- + -) (<= (< a b) (> 1 2) (index++ ?x++) (state-goal 1.5))",
			mkDesc(fact("succ", "-1", "0"), fact("map+", "++", "--", "+", "-"),
				mkRule(mkSent("<", "a", "b"), mkSent(">", "1", "2"), mkSent("index++", "?x++"), mkSent("state-goal", "1.5"))),
		},
		{"other printable symbols", `(p "q" a.b x'y |z| #\a café π ∀x [1] {2} a,b a=b)`, mkDesc(fact("p", `"q"`, "a.b", "x'y", "|z|", `#\a`, "café", "π", "∀x", "[1]", "{2}", "a,b", "a=b"))},
		{"comments", "; header\n(role a) ; trailing ; more\n;(role b)\n(role c);end", mkDesc(fact("role", "a"), fact("role", "c"))},
		{"comment ends an atom", "(p a;b)\n)", mkDesc(fact("p", "a"))},
		{"anything but NUL in comments", "; \f\x01\xff\xfe é \r\n(role a)", mkDesc(fact("role", "a"))},
		{"whitespace", "\t(role\ta)\r\n\f(role\r\nb)\n", mkDesc(fact("role", "a"), fact("role", "b"))},
		{"byte order mark", "\uFEFF(role a)", mkDesc(fact("role", "a"))},
		{"carriage returns end comments", "; one\r(role a) ; two\r\n(role b) ; three\r;(role c)\r(role d)", mkDesc(fact("role", "a"), fact("role", "b"), fact("role", "d"))},
		{"no space around parentheses", "(p(f a)b)(q)", mkDesc(fact("p", mkFunc("f", "a"), "b"), fact("q"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseFile("test.kif", []byte(tt.src))
			if err != nil {
				t.Fatalf("ParseFile(%q): %v", tt.src, err)
			}
			if d.Filename != "test.kif" {
				t.Errorf("Filename = %q, want test.kif", d.Filename)
			}
			stripPositions(d)
			if !reflect.DeepEqual(d.Rules, tt.want) {
				t.Errorf("ParseFile(%q)\n got %s\nwant %s", tt.src, dump(d.Rules), dump(tt.want))
			}
		})
	}
}

// dump describes rules for failure messages, with the Go syntax of the
// nodes so that it does not depend on the printer under test.
func dump(rules []*Rule) string {
	var b strings.Builder
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			walk(v.Elem())
		case reflect.Slice:
			b.WriteString("[")
			for i := range v.Len() {
				if i > 0 {
					b.WriteString(" ")
				}
				walk(v.Index(i))
			}
			b.WriteString("]")
		case reflect.Struct:
			if v.Type() == posType {
				b.WriteString("_")
				return
			}
			b.WriteString(v.Type().Name() + "{")
			for i := range v.NumField() {
				if i > 0 {
					b.WriteString(" ")
				}
				walk(v.Field(i))
			}
			b.WriteString("}")
		case reflect.String:
			b.WriteString(`"` + v.String() + `"`)
		default:
			b.WriteString(v.String())
		}
	}
	walk(reflect.ValueOf(rules))
	return b.String()
}

func TestParseFilePositions(t *testing.T) {
	src := "; game\n(role x)\n\n(<= (goal ?p 100)\n\t(not (line ?p))\n    (distinct é ?p) (or a (b c)))\nterminal\n"
	d, err := ParseFile("g.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rules) != 3 {
		t.Fatalf("got %d rules, want 3", len(d.Rules))
	}
	r := d.Rules[1]
	goal := r.Head
	not := r.Body[0].(*Not)
	line := not.Arg.(*Sentence)
	dist := r.Body[1].(*Distinct)
	or := r.Body[2].(*Or)
	b := or.Disjuncts[1].(*Sentence)
	tests := []struct {
		what       string
		node       Node
		off, l, co int
	}{
		{"role fact", d.Rules[0], 7, 2, 1},
		{"role sentence", d.Rules[0].Head, 7, 2, 1},
		{"role name", d.Rules[0].Head.Name, 8, 2, 2},
		{"role argument", d.Rules[0].Head.Args[0], 13, 2, 7},
		{"rule", r, 17, 4, 1},
		{"head", goal, 21, 4, 5},
		{"head name", goal.Name, 22, 4, 6},
		{"variable", goal.Args[0], 27, 4, 11},
		{"number", goal.Args[1], 30, 4, 14},
		{"not", not, 36, 5, 2},
		{"negated sentence", line, 41, 5, 7},
		{"negated sentence's variable", line.Args[0], 47, 5, 13},
		{"distinct", dist, 56, 6, 5},
		{"distinct's constant", dist.X, 66, 6, 15},
		{"distinct's variable, after a 2-byte character", dist.Y, 69, 6, 18},
		{"or", or, 73, 6, 22},
		{"disjunct proposition", or.Disjuncts[0], 77, 6, 26},
		{"disjunct sentence", b, 79, 6, 28},
		{"function argument", b.Args[0], 82, 6, 31},
		{"proposition fact", d.Rules[2], 87, 7, 1},
		{"proposition name", d.Rules[2].Head.Name, 87, 7, 1},
	}
	for _, tt := range tests {
		want := Pos{Filename: "g.kif", Offset: tt.off, Line: tt.l, Column: tt.co}
		if got := tt.node.Pos(); got != want {
			t.Errorf("%s: Pos() = %#v, want %#v", tt.what, got, want)
		}
	}
	// A term (name) read as a constant is at its name.
	d, err = ParseFile("", []byte("(p (q))"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Rules[0].Head.Args[0].Pos(), (Pos{Offset: 4, Line: 1, Column: 5}); got != want {
		t.Errorf("(q) as a constant: Pos() = %#v, want %#v", got, want)
	}
}

func TestParseFileErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "line:col: message"
	}{
		{"empty file", "", []string{"1:1: no rules"}},
		{"only comments", "; nothing\n  ; here\n", []string{"3:1: no rules"}},
		{"only whitespace", " \n\t", []string{"2:2: no rules"}},
		{"lines ending in \\r\\n", "(a)\r\n\r\n  (?x)", []string{"3:4: variable ?x cannot be a relation name"}},
		{"lines ending in \\r", "(a)\r; (b)\r  (?x)", []string{"3:4: variable ?x cannot be a relation name"}},
		{"mixed line ends", "\r\n\n\r\r\n?x", []string{"5:1: variable ?x cannot be a fact"}},
		{"no rules after \\r", "; (a)\r", []string{"2:1: no rules"}},
		{"rule without head", "(<=)", []string{"1:1: rule has no head: (<= head body...)"}},
		{"variable as head", "(<= ?x (p))", []string{"1:5: variable ?x cannot be a rule head"}},
		{"number as head", "(<= 5 (p))", []string{"1:5: number 5 cannot be a rule head"}},
		{"variable as head's relation", "(<= (?r a) (p))", []string{"1:6: variable ?r cannot be a relation name"}},
		{"number as head's relation", "(<= (-1 a) (p))", []string{"1:6: number -1 cannot be a relation name"}},
		{"variable as fact", "?x", []string{"1:1: variable ?x cannot be a fact"}},
		{"number as fact", "\n  42", []string{"2:3: number 42 cannot be a fact"}},
		{"variable as relation", "(?x a)", []string{"1:2: variable ?x cannot be a relation name"}},
		{"number as relation", "(5 a)", []string{"1:2: number 5 cannot be a relation name"}},
		{"decimal as relation", "(2.5 a)", []string{"1:2: number 2.5 cannot be a relation name"}},
		{"variable as literal", "(<= p ?x)", []string{"1:7: variable ?x cannot be a literal"}},
		{"number as literal", "(<= p 1)", []string{"1:7: number 1 cannot be a literal"}},
		{"variable as body relation", "(<= p (?x a))", []string{"1:8: variable ?x cannot be a relation name"}},
		{"not without argument", "(<= p (not))", []string{"1:7: 'not' takes exactly 1 argument, found 0"}},
		{"not with two arguments", "(<= p (not a b))", []string{"1:7: 'not' takes exactly 1 argument, found 2"}},
		{"bare not", "(<= p not)", []string{"1:7: 'not' needs arguments: (not ...)"}},
		{"distinct with one argument", "(<= p (distinct a))", []string{"1:7: 'distinct' takes exactly 2 arguments, found 1"}},
		{"distinct with three arguments", "(<= p (DISTINCT a b c))", []string{"1:7: 'distinct' takes exactly 2 arguments, found 3"}},
		{"empty or", "(<= p (or))", []string{"1:7: 'or' needs at least 1 argument"}},
		{"bare or", "(<= p or)", []string{"1:7: 'or' needs arguments: (or ...)"}},
		{"not as head", "(<= (not p) q)", []string{"1:6: 'not' cannot be a rule head"}},
		{"or as head", "(<= (Or p q) r)", []string{"1:6: 'or' cannot be a rule head"}},
		{"distinct as head", "(<= distinct q)", []string{"1:5: 'distinct' cannot be a rule head"}},
		{"not as fact", "(not p)", []string{"1:2: 'not' cannot be a fact"}},
		{"distinct as fact", "(distinct a b)", []string{"1:2: 'distinct' cannot be a fact"}},
		{"bare or as fact", "or", []string{"1:1: 'or' cannot be a fact"}},
		{"rule inside a body", "(<= p (<= q r))", []string{"1:7: rule nested inside a rule"}},
		{"rule inside a term", "(<= (p (<= q)) r)", []string{"1:9: '<=' is allowed only at the start of a top-level rule"}},
		{"rule inside a fact", "(p (q (<= a b)))", []string{"1:8: '<=' is allowed only at the start of a top-level rule"}},
		{"<= as a constant", "(p a <=)", []string{"1:6: '<=' is allowed only at the start of a top-level rule"}},
		{"<= as rule head", "(<= <= a)", []string{"1:5: '<=' is allowed only at the start of a top-level rule"}},
		{"<= as proposition", "<=", []string{"1:1: '<=' is allowed only at the start of a top-level rule"}},
		{"list as relation", "((a b) c)", []string{"1:2: expected a relation name, found a list"}},
		{"list as body relation", "(<= p ((a) b))", []string{"1:8: expected a relation name, found a list"}},
		{"list as function", "(p ((a) b))", []string{"1:5: expected a function name, found a list"}},
		{"variable as function", "(p (?f a))", []string{"1:5: variable ?f cannot be a function name"}},
		{"number as function", "(p (1 a))", []string{"1:5: number 1 cannot be a function name"}},
		{"empty list as fact", "()", []string{"1:1: empty list where a fact was expected"}},
		{"empty list as head", "(<= () p)", []string{"1:5: empty list where a rule head was expected"}},
		{"empty list as literal", "(<= p ())", []string{"1:7: empty list where a literal was expected"}},
		{"empty list as term", "(p ())", []string{"1:4: empty list where a term was expected"}},
		{"variable without name", "(p ?)", []string{"1:4: variable has no name after '?'"}},
		{"unclosed", "(role a", []string{"1:1: unclosed '(': 1 ')' is missing at the end"}},
		{"unclosed rule", "(<= (p ?x)\n  (q ?x)\n\n(r b)\n(s (c)", []string{"1:1: unclosed '(': 2 ')' are missing at the end"}},
		{"stray )", "(a))", []string{"1:4: unmatched ')'"}},
		{"stray ) between rules", "(a)\n)\n(b)\n  ) )", []string{"2:1: unmatched ')'", "4:3: unmatched ')'", "4:5: unmatched ')'"}},
		{"stray ) then unclosed", ")(a", []string{"1:1: unmatched ')'", "1:2: unclosed '(': 1 ')' is missing at the end"}},
		{"NUL", "(a\x00)", []string{"1:3: illegal character NUL"}},
		{"NUL in comment", "(a) ; \x00", []string{"1:7: illegal character NUL"}},
		{"control character", "(a \x07)", []string{"1:4: illegal character U+0007"}},
		{"vertical tab", "(a\vb)", []string{"1:3: illegal character U+000B"}},
		{"DEL", "(a\x7f)", []string{"1:3: illegal character U+007F"}},
		{"invalid UTF-8", "(a \xff)", []string{"1:4: invalid UTF-8 encoding"}},
		{"truncated UTF-8", "(a b\xc3)", []string{"1:5: invalid UTF-8 encoding"}},
		{"no-break space", "(a\u00a0b)", []string{"1:3: illegal character U+00A0"}},
		{"zero width space", "(a \u200b)", []string{"1:4: illegal character U+200B"}},
		{"byte order mark inside", "(a)\uFEFF", []string{"1:4: illegal character U+FEFF"}},
		{"C1 control", "(a \u0085)", []string{"1:4: illegal character U+0085"}},
		{"several illegal characters", "(a\x01\n\x02)", []string{"1:3: illegal character U+0001", "2:1: illegal character U+0002"}},
		{
			"several structural errors",
			"(<= ?x p)\n(q ())\n(r a)\n(5)\n(<= s (not))",
			[]string{"1:5: variable ?x cannot be a rule head", "2:4: empty list where a term was expected", "4:2: number 5 cannot be a relation name", "5:7: 'not' takes exactly 1 argument, found 0"},
		},
		{"several errors in one rule", "(<= (p ?) (q ()) (not))", []string{"1:8: variable has no name after '?'", "1:14: empty list where a term was expected", "1:18: 'not' takes exactly 1 argument, found 0"}},
		{"too deep", strings.Repeat("(", MaxDepth+1), []string{"1:1001: lists nested more than 1000 deep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseFile("bad.kif", []byte(tt.src))
			if d != nil {
				t.Errorf("ParseFile(%q) returned a description", tt.src)
			}
			checkErrors(t, err, "bad.kif", tt.want)
		})
	}
}

// checkErrors checks that err is an ErrorList holding the errors want, each
// "line:col: message", at positions in filename.
func checkErrors(t *testing.T, err error, filename string, want []string) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is not an ErrorList", err, err)
	}
	var got []string
	for _, e := range list {
		if e.Pos.Filename != filename {
			t.Errorf("error %q names file %q, want %q", e.Msg, e.Pos.Filename, filename)
		}
		got = append(got, strings.TrimPrefix(e.Error(), filename+":"))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
}

func TestParseFileMaxErrors(t *testing.T) {
	src := strings.Repeat("(?x a)\n", MaxErrors+5)
	_, err := ParseFile("", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	if len(list) != MaxErrors {
		t.Errorf("got %d errors, want %d", len(list), MaxErrors)
	}
	if list[MaxErrors-1].Pos.Line != MaxErrors {
		t.Errorf("last error at %v, want line %d", list[MaxErrors-1].Pos, MaxErrors)
	}
	// The same for lexical errors.
	_, err = ParseFile("", []byte(strings.Repeat("\x01", 100)))
	if !errors.As(err, &list) || len(list) != MaxErrors {
		t.Errorf("100 illegal characters: got %v, want %d errors", err, MaxErrors)
	}
}

func TestParseTerm(t *testing.T) {
	tests := []struct {
		src  string
		want Term
	}{
		{"noop", mkConst("noop")},
		{"  noop ; a move\n", mkConst("noop")},
		{"(mark 1 1)", mkFunc("mark", "1", "1")},
		{"(MARK 1 ?y)", mkFunc("MARK", "1", "?y")},
		{"?x", mkVar("x")},
		{"(noop)", mkConst("noop")},
		{"(f (g) (h ?x (i a)))", mkFunc("f", "g", mkFunc("h", "?x", mkFunc("i", "a")))},
		{"TRUE", mkConst("true")},
		{"(Does x)", mkFunc("does", "x")},
		{"100", mkConst("100")},
	}
	for _, tt := range tests {
		got, err := ParseTerm(tt.src)
		if err != nil {
			t.Errorf("ParseTerm(%q): %v", tt.src, err)
			continue
		}
		stripPositions(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTerm(%q) = %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestParseTermPosition(t *testing.T) {
	got, err := ParseTerm("\n  (mark 1 ?y)")
	if err != nil {
		t.Fatal(err)
	}
	f := got.(*Func)
	if want := (Pos{Offset: 3, Line: 2, Column: 3}); f.Pos() != want {
		t.Errorf("Pos() = %#v, want %#v", f.Pos(), want)
	}
	if want := (Pos{Offset: 11, Line: 2, Column: 11}); f.Args[1].Pos() != want {
		t.Errorf("?y: Pos() = %#v, want %#v", f.Args[1].Pos(), want)
	}
}

func TestParseTermErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"", []string{"1:1: expected a term, found end of input"}},
		{"; comment\n", []string{"2:1: expected a term, found end of input"}},
		{"a b", []string{`1:3: unexpected "b" after a term`}},
		{"(a x) (b)", []string{"1:7: unexpected list after a term"}},
		{"(<= a)", []string{"1:2: '<=' is allowed only at the start of a top-level rule"}},
		{"()", []string{"1:1: empty list where a term was expected"}},
		{"(mark 1", []string{"1:1: unclosed '(': 1 ')' is missing at the end"}},
		{"mark)", []string{"1:5: unmatched ')'"}},
		{"?", []string{"1:1: variable has no name after '?'"}},
		{"(?f a)", []string{"1:2: variable ?f cannot be a function name"}},
		{"\x00", []string{"1:1: illegal character NUL"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := ParseTerm(tt.src)
			if got != nil {
				t.Errorf("ParseTerm(%q) = %v, want nil", tt.src, got)
			}
			checkErrors(t, err, "", tt.want)
		})
	}
}

func TestParseSentence(t *testing.T) {
	tests := []struct {
		src  string
		want *Sentence
	}{
		{"terminal", mkSent("terminal")},
		{"(TERMINAL)", mkSent("terminal")},
		{"(line ?who)", mkSent("line", "?who")},
		{"(True (cell 1 1 b))", mkSent("true", mkFunc("cell", "1", "1", "b"))},
		{"(legal ?r (mark ?x ?y))", mkSent("legal", "?r", mkFunc("mark", "?x", "?y"))},
	}
	for _, tt := range tests {
		got, err := ParseSentence(tt.src)
		if err != nil {
			t.Errorf("ParseSentence(%q): %v", tt.src, err)
			continue
		}
		stripPositions(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSentence(%q) = %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestParseSentenceErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"", []string{"1:1: expected a sentence, found end of input"}},
		{"?x", []string{"1:1: variable ?x cannot be a sentence"}},
		{"7", []string{"1:1: number 7 cannot be a sentence"}},
		{"(not p)", []string{"1:2: 'not' cannot be a sentence"}},
		{"(<= p q)", []string{"1:2: '<=' is allowed only at the start of a top-level rule"}},
		{"(p ?)", []string{"1:4: variable has no name after '?'"}},
		{"(p) (q)", []string{"1:5: unexpected list after a sentence"}},
		{"((p))", []string{"1:2: expected a relation name, found a list"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			got, err := ParseSentence(tt.src)
			if got != nil {
				t.Errorf("ParseSentence(%q) = %v, want nil", tt.src, got)
			}
			checkErrors(t, err, "", tt.want)
		})
	}
}

func TestIsNumber(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"0", true}, {"100", true}, {"-1", true}, {"+7", true}, {"1.5", true}, {"-0.25", true},
		{"", false}, {"-", false}, {"+", false}, {"1.", false}, {".5", false}, {"1.2.3", false},
		{"1st", false}, {"x1", false}, {"--1", false}, {"1-", false}, {"1e5", false},
	}
	for _, tt := range tests {
		if got := isNumber(tt.s); got != tt.want {
			t.Errorf("isNumber(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// BenchmarkParseTerm parses a move, as a player does for each move of a
// PLAY message.
func BenchmarkParseTerm(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTerm("(move wp e 2 e 4)"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDescriptionRoles(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"(role white) (role black) (init (cell 1))", []string{"white", "black"}},
		{"(init (cell 1))", nil},
		{"(role x) (<= (role y) (true (p))) (role (f a)) (role x)", []string{"x", "(f a)", "x"}},
	}
	for _, tt := range tests {
		d, err := ParseFile("roles.kif", []byte(tt.src))
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := d.Roles(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Roles() = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestListNames checks that a list named by a variable or a number is kept
// as written in a GDL-II description, for the dialect to read, and stays
// an error, in place among the others, everywhere else.
func TestListNames(t *testing.T) {
	const gdlII = "(role random)\n(<= (sees random x) (true x))\n"
	cases := []struct {
		name, src string
		want      []string // errors; none when the description parses
	}{
		{"GDL-II keeps a variable's list", gdlII + "(<= (next (f (?n 1))) (?r 2))", nil},
		{"GDL-II keeps (0)", gdlII + "(<= (next (f (0))) (true x))", nil},
		{"GDL refuses a variable's list", "(role a)\n(<= (next (f (?n 1))) (true x))",
			[]string{"2:15: variable ?n cannot be a function name"}},
		{"GDL refuses (0)", "(role a)\n(<= (next (f (0))) (true x))",
			[]string{"2:15: number 0 cannot be a function name"}},
		{"other errors refuse GDL-II, in order", gdlII + "(<= (next (f (?n 1))) (true x))\n(<= p 1)\n(<= (next (0)) (?r))",
			[]string{"3:15: variable ?n cannot be a function name", "4:7: number 1 cannot be a literal", "5:12: number 0 cannot be a function name", "5:17: variable ?r cannot be a relation name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseFile("t.kif", []byte(tc.src))
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				got := Format(d)
				if !strings.Contains(got, "(?n 1)") && !strings.Contains(got, "(0)") {
					t.Errorf("the list is not kept as written:\n%s", got)
				}
				again, err := ParseFile("t.kif", []byte(got))
				if err != nil {
					t.Fatalf("the description as printed does not parse: %v", err)
				}
				if Format(again) != got {
					t.Errorf("printed again as\n%s\nnot\n%s", Format(again), got)
				}
				return
			}
			var got []string
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			for _, e := range l {
				got = append(got, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Column, e.Msg))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// Without the rules that make it GDL-II, a description built with such
	// a list is GDL, and Validate refuses the list.
	d, err := ParseFile("t.kif", []byte(gdlII+"(<= (next (f (?n 1))) (?r 2))"))
	if err != nil {
		t.Fatal(err)
	}
	d.Rules = d.Rules[2:]
	var got []string
	for _, p := range Validate(d) {
		if p.Code == CodeSyntax {
			got = append(got, fmt.Sprintf("%d:%d: %v %s", p.Pos.Line, p.Pos.Column, p.Severity, p.Msg))
		}
	}
	want := []string{"3:15: error variable ?n cannot be a function name", "3:24: error variable ?r cannot be a relation name"}
	if !slices.Equal(got, want) {
		t.Errorf("Validate of a GDL description: got %q, want %q", got, want)
	}
	for _, src := range []string{"(?n 1)", "(0)", "(f (?n 1))"} {
		if _, err := ParseTerm(src); err == nil {
			t.Errorf("ParseTerm(%q) accepts a list named by a variable or a number", src)
		}
	}
}
