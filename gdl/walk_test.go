package gdl

import (
	"strings"
	"testing"
)

// trace writes one entry per call of f: the node's type and text when it is
// entered and ")" for the f(nil) that closes it.
func trace(node Node, prune func(Node) bool) string {
	var out []string
	Inspect(node, func(n Node) bool {
		if n == nil {
			out = append(out, ")")
			return false
		}
		out = append(out, kind(n)+":"+Format(n))
		return prune == nil || !prune(n)
	})
	return strings.Join(out, " ")
}

func kind(n Node) string {
	switch n.(type) {
	case *Const:
		return "C"
	case *Var:
		return "V"
	case *Func:
		return "F"
	case *Sentence:
		return "S"
	case *Not:
		return "N"
	case *Distinct:
		return "D"
	case *Or:
		return "O"
	case *Rule:
		return "R"
	case *Description:
		return "G"
	}
	return "?"
}

func TestInspect(t *testing.T) {
	isNot := func(n Node) bool { _, ok := n.(*Not); return ok }
	isFunc := func(n Node) bool { _, ok := n.(*Func); return ok }
	tests := []struct {
		name  string
		node  Node
		prune func(Node) bool // f returns false for these nodes
		want  string
	}{
		{"constant", mkConst("a"), nil, "C:a )"},
		{"variable", mkVar("x"), nil, "V:?x )"},
		{"function, name then arguments", mkFunc("f", "a", mkFunc("g", "?x")), nil,
			"F:(f a (g ?x)) C:f ) C:a ) F:(g ?x) C:g ) V:?x ) ) )"},
		{"proposition", mkSent("terminal"), nil, "S:terminal C:terminal ) )"},
		{"sentence", mkSent("cell", "1", "?x"), nil, "S:(cell 1 ?x) C:cell ) C:1 ) V:?x ) )"},
		{"not", mkNot(mkSent("p")), nil, "N:(not p) S:p C:p ) ) )"},
		{"distinct, x then y", mkDistinct("?x", "b"), nil, "D:(distinct ?x b) V:?x ) C:b ) )"},
		{"or", mkOr(mkSent("a"), mkDistinct("?x", "?y")), nil,
			"O:(or a (distinct ?x ?y)) S:a C:a ) ) D:(distinct ?x ?y) V:?x ) V:?y ) ) )"},
		{"rule, head then body", mkRule(mkSent("p", "?x"), mkSent("q", "?x"), mkNot(mkSent("r"))), nil,
			"R:(<= (p ?x) (q ?x) (not r)) S:(p ?x) C:p ) V:?x ) ) S:(q ?x) C:q ) V:?x ) ) N:(not r) S:r C:r ) ) ) )"},
		{"description", &Description{Rules: []*Rule{fact("role", "x"), fact("init", "on")}}, nil,
			"G:(role x)\n(init on)\n R:(role x) S:(role x) C:role ) C:x ) ) ) R:(init on) S:(init on) C:init ) C:on ) ) ) )"},
		{"false prunes children and the closing call", mkOr(mkNot(mkSent("a")), mkSent("b")), isNot,
			"O:(or (not a) b) N:(not a) S:b C:b ) ) )"},
		{"false at the root visits only the root", mkFunc("f", "a"), isFunc, "F:(f a)"},
		{"nil children are skipped", &Not{}, nil, "N:(not <nil>) )"},
		{"typed nil children are skipped", &Sentence{Name: (*Const)(nil), Args: []Term{(*Var)(nil), mkConst("a")}}, nil,
			"S:(<nil> <nil> a) C:a ) )"},
		{"nil root", nil, nil, ""},
		{"typed nil root", (*Rule)(nil), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := trace(tt.node, tt.prune); got != tt.want {
				t.Errorf("Inspect order\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestInspectParsed checks that every node ParseFile builds is visited once,
// with calls of f(nil) balancing the nodes entered.
func TestInspectParsed(t *testing.T) {
	d, err := ParseFile("t.kif", []byte("(role x) (<= (legal x (mark ?c)) (true (cell ?c b)) (or (not (p ?c)) (distinct ?c 1)))"))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	depth, maxDepth := 0, 0
	Inspect(d, func(n Node) bool {
		if n == nil {
			depth--
			return false
		}
		counts[kind(n)]++
		depth++
		maxDepth = max(maxDepth, depth)
		return true
	})
	want := map[string]int{"G": 1, "R": 2, "S": 4, "F": 2, "C": 10, "V": 4, "N": 1, "D": 1, "O": 1}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%s nodes visited %d times, want %d (all: %v)", k, counts[k], n, counts)
		}
	}
	if depth != 0 {
		t.Errorf("f(nil) calls leave depth %d, want 0", depth)
	}
	// Description, Rule, Or, Not, Sentence p, and its variable.
	if maxDepth != 6 {
		t.Errorf("max depth %d, want 6", maxDepth)
	}
}

func TestIsGround(t *testing.T) {
	tests := []struct {
		node Node
		want bool
	}{
		{mkConst("a"), true},
		{mkVar("x"), false},
		{mkFunc("f", "a", mkFunc("g", "b")), true},
		{mkFunc("f", "a", mkFunc("g", "?x")), false},
		{mkSent("cell", "1", "?x"), false},
		{mkNot(mkSent("p", "a")), true},
		{mkDistinct("a", "?y"), false},
	}
	for _, tt := range tests {
		if got := IsGround(tt.node); got != tt.want {
			t.Errorf("IsGround(%s) = %v, want %v", Format(tt.node), got, tt.want)
		}
	}
}
