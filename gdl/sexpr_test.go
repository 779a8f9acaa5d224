package gdl

import (
	"reflect"
	"strings"
	"testing"
)

// Builders of expected expressions, without positions.

func atom(s string) *Expr { return &Expr{Atom: s} }

func list(xs ...any) *Expr {
	e := &Expr{IsList: true, List: []*Expr{}}
	for _, x := range xs {
		switch x := x.(type) {
		case string:
			e.List = append(e.List, atom(x))
		case *Expr:
			e.List = append(e.List, x)
		case nil:
			e.List = append(e.List, nil)
		default:
			panic("bad element")
		}
	}
	return e
}

func TestReadExprs(t *testing.T) {
	tests := []struct {
		src  string
		want []*Expr
	}{
		{"", []*Expr{}},
		{"; nothing", []*Expr{}},
		{"a", []*Expr{atom("a")}},
		{"()", []*Expr{list()}},
		{"(())", []*Expr{list(list())}},
		{"a (b) c", []*Expr{atom("a"), list("b"), atom("c")}},
		{"(PLAY m1 ((mark 1 1) noop))", []*Expr{list("PLAY", "m1", list(list("mark", "1", "1"), "noop"))}},
		{"(PLAY m1 NIL)", []*Expr{list("PLAY", "m1", "NIL")}},
		{"( START id role ((role a) (<= p q)) 30 10 )", []*Expr{list("START", "id", "role", list(list("role", "a"), list("<=", "p", "q")), "30", "10")}},
		{"(Not ?X) ; atoms as written\n", []*Expr{list("Not", "?X")}},
		{"((a) (b c) ((d)))", []*Expr{list(list("a"), list("b", "c"), list(list("d")))}},
	}
	for _, tt := range tests {
		got, err := ReadExprs("m", []byte(tt.src))
		if err != nil {
			t.Errorf("ReadExprs(%q): %v", tt.src, err)
			continue
		}
		stripPositions(&got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ReadExprs(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestReadExprsPositions(t *testing.T) {
	es, err := ReadExprs("msg", []byte("x\n (a\t(b))"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		e    *Expr
		want Pos
	}{
		{es[0], Pos{"msg", 0, 1, 1}},
		{es[1], Pos{"msg", 3, 2, 2}},
		{es[1].List[0], Pos{"msg", 4, 2, 3}},
		{es[1].List[1], Pos{"msg", 6, 2, 5}},
		{es[1].List[1].List[0], Pos{"msg", 7, 2, 6}},
	}
	for _, tt := range tests {
		if tt.e.Pos != tt.want {
			t.Errorf("%v: Pos = %#v, want %#v", tt.e, tt.e.Pos, tt.want)
		}
	}
}

func TestReadExprsErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"(a", []string{"1:1: unclosed '(': 1 ')' is missing at the end"}},
		{")", []string{"1:1: unmatched ')'"}},
		{"(a \x00)", []string{"1:4: illegal character NUL"}},
		{"\xc0\x80", []string{"1:1: invalid UTF-8 encoding", "1:2: invalid UTF-8 encoding"}},
	}
	for _, tt := range tests {
		es, err := ReadExprs("m", []byte(tt.src))
		if es != nil {
			t.Errorf("ReadExprs(%q) = %v, want nil", tt.src, es)
		}
		checkErrors(t, err, "m", tt.want)
	}
}

func TestReadExpr(t *testing.T) {
	e, err := ReadExpr([]byte(" (PLAY m1 ((mark 1 1) noop)) \r\n"))
	if err != nil {
		t.Fatal(err)
	}
	stripPositions(e)
	if want := list("PLAY", "m1", list(list("mark", "1", "1"), "noop")); !reflect.DeepEqual(e, want) {
		t.Errorf("ReadExpr = %v, want %v", e, want)
	}

	bad := []struct {
		src  string
		want []string
	}{
		{"", []string{"1:1: expected an expression, found end of input"}},
		{"  \n  ", []string{"2:3: expected an expression, found end of input"}},
		{"(ping) (ping)", []string{"1:8: unexpected list after an expression"}},
		{"(ping) x", []string{`1:8: unexpected "x" after an expression`}},
		{"(ping", []string{"1:1: unclosed '(': 1 ')' is missing at the end"}},
	}
	for _, tt := range bad {
		e, err := ReadExpr([]byte(tt.src))
		if e != nil {
			t.Errorf("ReadExpr(%q) = %v, want nil", tt.src, e)
		}
		checkErrors(t, err, "", tt.want)
	}
}

func TestExprString(t *testing.T) {
	deep := atom("x")
	for range MaxDepth + 5 {
		deep = &Expr{IsList: true, List: []*Expr{deep}}
	}
	cycle := &Expr{IsList: true}
	cycle.List = []*Expr{atom("a"), cycle}
	tests := []struct {
		e    *Expr
		want string
	}{
		{atom("noop"), "noop"},
		{atom("?X"), "?X"},
		{list(), "()"},
		{list("PLAY", "m1", list(list("mark", "1", "1"), "noop")), "(PLAY m1 ((mark 1 1) noop))"},
		{list(list(), list("a")), "(() (a))"},
		{nil, "<nil>"},
		{list("a", nil), "(a <nil>)"},
		{deep, repeat("(", MaxDepth) + "(...)" + repeat(")", MaxDepth)},
		{cycle, repeat("(a ", MaxDepth) + "(...)" + repeat(")", MaxDepth)},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// TestExprStringReads checks that String writes what ReadExprs reads.
func TestExprStringReads(t *testing.T) {
	for _, src := range []string{
		"(PLAY m1 ((mark 1 1) noop))",
		"( START\n id  role ((role a)\t(<= p (not q))) 30 10 )",
		"(a (b (c (d))) () e)",
	} {
		e, err := ReadExpr([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		again, err := ReadExpr([]byte(e.String()))
		if err != nil {
			t.Fatalf("ReadExpr(%q): %v", e.String(), err)
		}
		stripPositions(e)
		stripPositions(again)
		if !reflect.DeepEqual(e, again) {
			t.Errorf("%q: String() = %q reads as %v", src, e.String(), again)
		}
	}
}

func TestExprTerm(t *testing.T) {
	msg, err := ReadExpr([]byte("(PLAY m1 ((MARK 1 ?x) noop))"))
	if err != nil {
		t.Fatal(err)
	}
	moves := msg.List[2].List
	tests := []struct {
		e    *Expr
		want Term
	}{
		{moves[0], mkFunc("MARK", "1", "?x")},
		{moves[1], mkConst("noop")},
		{atom("?v"), mkVar("v")},
		{list("noop"), mkConst("noop")},
		{atom("Does"), mkConst("does")},
	}
	for _, tt := range tests {
		got, err := ExprTerm(tt.e)
		if err != nil {
			t.Errorf("ExprTerm(%v): %v", tt.e, err)
			continue
		}
		// The term keeps the positions of the expression.
		if got.Pos() != tt.e.Pos {
			t.Errorf("ExprTerm(%v).Pos() = %v, want %v", tt.e, got.Pos(), tt.e.Pos)
		}
		stripPositions(got)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ExprTerm(%v) = %#v, want %#v", tt.e, got, tt.want)
		}
	}

	deep := atom("x")
	for range MaxDepth {
		deep = list("f", deep)
	}
	if _, err := ExprTerm(deep); err != nil {
		t.Errorf("ExprTerm of %d nested lists: %v", MaxDepth, err)
	}
	deep = list("f", deep)
	cycle := list("f")
	cycle.List = append(cycle.List, cycle)
	bad := []struct {
		e    *Expr
		want []string
	}{
		{msg.List[2], []string{"1:11: expected a function name, found a list"}},
		{list(), []string{"empty list where a term was expected"}},
		{nil, []string{"missing term"}},
		{list("f", nil), []string{"missing term"}},
		{list(nil, "a"), []string{"missing function name"}},
		{atom(""), []string{"empty atom"}},
		{deep, []string{"lists nested more than 1000 deep"}},
		{cycle, []string{"lists nested more than 1000 deep"}},
	}
	for _, tt := range bad {
		got, err := ExprTerm(tt.e)
		if got != nil {
			t.Errorf("ExprTerm(%v) = %v, want nil", tt.e, got)
		}
		checkErrors(t, err, "", tt.want)
	}
}

func TestExprDescription(t *testing.T) {
	msg, err := ReadExpr([]byte("(START m1 white ((ROLE white) (<= terminal (true done))) 30 10)"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := ExprDescription("m1", msg.List[3].List)
	if err != nil {
		t.Fatal(err)
	}
	if d.Filename != "m1" {
		t.Errorf("Filename = %q, want m1", d.Filename)
	}
	if got, want := d.Rules[1].Body[0].Pos(), (Pos{Offset: 43, Line: 1, Column: 44}); got != want {
		t.Errorf("literal at %#v, want %#v", got, want)
	}
	stripPositions(d)
	want := mkDesc(fact("role", "white"), mkRule(mkSent("terminal"), mkSent("true", "done")))
	if !reflect.DeepEqual(d.Rules, want) {
		t.Errorf("ExprDescription = %s, want %s", dump(d.Rules), dump(want))
	}

	// No rules is not an error here; the caller decides.
	d, err = ExprDescription("m", nil)
	if err != nil || len(d.Rules) != 0 {
		t.Errorf("ExprDescription(nil) = %v, %v; want no rules and no error", d, err)
	}

	bad := []struct {
		es   []*Expr
		want []string
	}{
		{[]*Expr{list("<=")}, []string{"rule has no head: (<= head body...)"}},
		{[]*Expr{nil}, []string{"missing rule"}},
		{[]*Expr{list("<=", "p", nil)}, []string{"missing literal"}},
		{[]*Expr{list("<=", nil)}, []string{"missing sentence"}},
		{[]*Expr{list(nil)}, []string{"missing relation name"}},
		{[]*Expr{list("p", "?x"), list("?r")}, []string{"variable ?r cannot be a relation name"}},
	}
	for _, tt := range bad {
		d, err := ExprDescription("m", tt.es)
		if d != nil {
			t.Errorf("ExprDescription(%v) = %v, want nil", tt.es, d)
		}
		checkErrors(t, err, "", tt.want)
	}
}

// TestGrammar runs the participle grammar through the lexer definition, as
// a user of the grammar other than ReadExprs would.
func TestGrammar(t *testing.T) {
	file, err := sexprParser.ParseString("g", "a (b (c) d) ; e\n()")
	if err != nil {
		t.Fatal(err)
	}
	got := sexprs(file.Tokens, file.Lists)
	stripPositions(&got)
	if want := []*Expr{atom("a"), list("b", list("c"), "d"), list()}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, src := range []string{"(a", "a)", "\x00", strings.Repeat(" ", MaxSize+1)} {
		if _, err := sexprParser.ParseString("g", src); err == nil {
			t.Errorf("ParseString(%.10q): no error", src)
		}
	}
}
