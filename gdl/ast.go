// Package gdl reads, writes and checks game descriptions written in GDL, the
// Game Description Language, in its KIF syntax.
//
// The package is laid out like go/scanner, go/parser, go/ast and go/printer
// taken together: ParseFile turns text into a Description, Fprint writes any
// node back as canonical compact KIF, Inspect walks a tree as
// go/ast.Inspect does, and Validate checks a Description against the
// restrictions of the GDL specification.
//
// Every node records the position it was read from, so that every error and
// warning about a game can name its file, line and column.
package gdl

import "fmt"

// Pos is a position in a source text. Line and Column are 1-based; Column
// counts bytes, as go/token does. The zero Pos is unknown.
type Pos struct {
	Filename string
	Offset   int // byte offset, 0-based
	Line     int
	Column   int
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col" without a file name, or "-" for
// an unknown position.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.Filename == "":
		return "-"
	case !p.IsValid():
		return p.Filename
	case p.Filename == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// A Node is any element of a game description.
type Node interface {
	Pos() Pos // position of the node's first character
	node()
}

// A Term is a constant, a variable or a function (compound term).
// Terms are the arguments of sentences.
type Term interface {
	Node
	term()
}

// A Literal is one condition in the body of a rule: a sentence, a negation,
// a distinct or a disjunction.
type Literal interface {
	Node
	literal()
}

// Const is a constant (an atom). Numbers are constants too: GDL has no
// arithmetic, and "100" is compared by name like any other symbol.
type Const struct {
	NamePos Pos
	Name    string // as written, except keywords, which are lower-cased
}

// Var is a variable, written ?name.
type Var struct {
	NamePos Pos
	Name    string // without the leading '?'
}

// Func is a function applied to arguments: (name arg...). A function has at
// least one argument; (name) is read as the constant name. In a GDL-II
// description the parser keeps a function named by a variable or a number,
// (?n ?c) or (0), as written, (0) with no arguments, for Repair to read
// (see ExprDescription); no other Func has a name so written.
type Func struct {
	Lparen Pos
	Name   *Const
	Args   []Term
}

// Sentence is a relation applied to arguments: (name arg...), or a bare
// proposition such as terminal when Args is empty. Sentences are the facts
// and rule heads of a description and the positive literals of rule bodies.
type Sentence struct {
	Lparen Pos // position of '(' or, for a proposition, of the name
	Name   *Const
	Args   []Term
}

// Not is a negated literal: (not literal).
type Not struct {
	Lparen Pos
	Arg    Literal
}

// Distinct requires two terms to differ: (distinct x y).
type Distinct struct {
	Lparen Pos
	X, Y   Term
}

// Or is a disjunction: (or literal...).
type Or struct {
	Lparen    Pos
	Disjuncts []Literal
}

// Rule is a rule (<= head body...) or, when Body is empty, a fact.
type Rule struct {
	Lparen Pos
	Head   *Sentence
	Body   []Literal
}

// Description is a whole game: its facts and rules in the order written.
type Description struct {
	Filename string
	Rules    []*Rule
}

func (c *Const) Pos() Pos       { return c.NamePos }
func (v *Var) Pos() Pos         { return v.NamePos }
func (f *Func) Pos() Pos        { return f.Lparen }
func (s *Sentence) Pos() Pos    { return s.Lparen }
func (n *Not) Pos() Pos         { return n.Lparen }
func (d *Distinct) Pos() Pos    { return d.Lparen }
func (o *Or) Pos() Pos          { return o.Lparen }
func (r *Rule) Pos() Pos        { return r.Lparen }
func (d *Description) Pos() Pos { return Pos{Filename: d.Filename, Line: 1, Column: 1} }

// Roles returns the roles the description's role facts state, in the order
// it states them, each as Format prints it. It reads the facts as written:
// a role stated twice is returned twice, as the validator warns.
func (d *Description) Roles() []string {
	var roles []string
	for _, r := range d.Rules {
		if r.IsFact() && r.Head.Name.Name == KeyRole && len(r.Head.Args) == 1 {
			roles = append(roles, Format(r.Head.Args[0]))
		}
	}
	return roles
}

func (*Const) node()       {}
func (*Var) node()         {}
func (*Func) node()        {}
func (*Sentence) node()    {}
func (*Not) node()         {}
func (*Distinct) node()    {}
func (*Or) node()          {}
func (*Rule) node()        {}
func (*Description) node() {}

func (*Const) term() {}
func (*Var) term()   {}
func (*Func) term()  {}

func (*Sentence) literal() {}
func (*Not) literal()      {}
func (*Distinct) literal() {}
func (*Or) literal()       {}

// IsFact reports whether the rule has no body.
func (r *Rule) IsFact() bool { return len(r.Body) == 0 }

// Arity returns the number of arguments of the sentence.
func (s *Sentence) Arity() int { return len(s.Args) }

// The reserved words of GDL and GDL-II. They are matched case-insensitively
// and stored lower-cased; every other symbol keeps its case.
const (
	KeyRole     = "role"
	KeyInit     = "init"
	KeyTrue     = "true"
	KeyDoes     = "does"
	KeyNext     = "next"
	KeyLegal    = "legal"
	KeyGoal     = "goal"
	KeyTerminal = "terminal"
	KeyInput    = "input"
	KeyBase     = "base"
	KeySees     = "sees"
	KeyRandom   = "random"

	KeyRule     = "<="
	KeyNot      = "not"
	KeyDistinct = "distinct"
	KeyOr       = "or"
)

// Keywords lists the reserved relation names of GDL and GDL-II.
var keywords = map[string]bool{
	KeyRole: true, KeyInit: true, KeyTrue: true, KeyDoes: true, KeyNext: true,
	KeyLegal: true, KeyGoal: true, KeyTerminal: true, KeyInput: true,
	KeyBase: true, KeySees: true, KeyRandom: true,
	KeyRule: true, KeyNot: true, KeyDistinct: true, KeyOr: true,
}

// IsKeyword reports whether name, already lower-cased, is a GDL reserved word.
func IsKeyword(name string) bool { return keywords[name] }
