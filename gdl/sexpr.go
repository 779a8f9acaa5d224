package gdl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// An Expr is a generic S-expression: an atom or a list of expressions. It is
// what the GGP protocol messages are made of, such as
// (PLAY m1 ((mark 1 1) noop)), and what game descriptions are read as before
// they are given the structure of a Description.
type Expr struct {
	Pos    Pos     // position of the atom or of the list's '('
	Atom   string  // the atom exactly as written, when !IsList
	List   []*Expr // the elements of a list, when IsList
	IsList bool
}

// String returns the expression in compact form: atoms as written, lists as
// (a b c) with one space between elements.
func (e *Expr) String() string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

func writeExpr(b *strings.Builder, e *Expr, depth int) {
	switch {
	case e == nil:
		b.WriteString("<nil>")
	case !e.IsList:
		b.WriteString(e.Atom)
	case depth >= MaxDepth:
		b.WriteString("(...)")
	default:
		b.WriteByte('(')
		for i, x := range e.List {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeExpr(b, x, depth+1)
		}
		b.WriteByte(')')
	}
}

// The participle grammar of S-expressions. A list is '(' followed by atoms
// and lists and then ')'; a text is a sequence of atoms and lists.
//
// Only the nested lists are captured. Participle fills the Tokens field of
// each list with the tokens it spans, its parentheses included, and sexprs
// reads the atoms from there, in order with the nested lists. Capturing each
// atom in a struct of its own would make parsing twice as slow.
type sexprList struct {
	Tokens []lexer.Token
	Lists  []*sexprList `parser:"'(' ( Atom | @@ )* ')'"`
}

type sexprFile struct {
	Tokens []lexer.Token
	Lists  []*sexprList `parser:"( Atom | @@ )*"`
}

var sexprParser = participle.MustBuild[sexprFile](
	participle.Lexer(kifLexer{}),
	participle.UseLookahead(1),
)

// ReadExprs reads all the S-expressions of src. Positions name filename. The
// error, if any, is an ErrorList.
//
// The text is KIF as GDL uses it:
//
//   - Whitespace is space, tab, form feed and line ends: newline, carriage
//     return, or both.
//   - A comment runs from ';' to the end of the line. Comments may hold any
//     byte but NUL, so that text in a legacy encoding does no harm there.
//   - '(' and ')' delimit lists.
//   - An atom is a run of any other printable Unicode characters, such as
//     cell, 100, -1, map+, <, "x" or café. Variables are atoms that start
//     with '?'.
//   - A byte order mark at the start of the text is skipped.
//
// Control characters, NUL, invalid UTF-8, and non-printable or space
// characters beyond ASCII are errors outside comments. Lists must balance
// and nest at most MaxDepth deep; src may hold at most MaxSize bytes and
// MaxTokens atoms and parentheses.
func ReadExprs(filename string, src []byte) ([]*Expr, error) {
	s, err := checkedScanner(filename, src)
	if err != nil {
		return nil, err
	}
	peek, err := lexer.Upgrade(s)
	if err != nil {
		return nil, parserError(filename, err)
	}
	file, err := sexprParser.ParseFromLexer(peek)
	if err != nil {
		// The scanner has checked the text, so this is not expected.
		return nil, parserError(filename, err)
	}
	return sexprs(file.Tokens, file.Lists), nil
}

// sexprs returns the expressions spelled by tokens, a sequence of atoms and
// of the lists, in order.
func sexprs(tokens []lexer.Token, lists []*sexprList) []*Expr {
	n := 0 // the number of expressions
	for i, j := 0, 0; i < len(tokens); n++ {
		if tokens[i].Type == tokPunct {
			i += len(lists[j].Tokens)
			j++
		} else {
			i++
		}
	}
	slab := make([]Expr, n)
	es := make([]*Expr, n)
	for i, k := 0, 0; i < len(tokens); k++ {
		t := &tokens[i]
		e := &slab[k]
		es[k] = e
		e.Pos = toPos(t.Pos)
		if t.Type != tokPunct {
			e.Atom = t.Value
			i++
			continue
		}
		l := lists[0]
		lists = lists[1:]
		end := len(l.Tokens)
		e.IsList = true
		e.List = sexprs(l.Tokens[1:end-1], l.Lists)
		i += end
	}
	return es
}

func parserError(filename string, err error) ErrorList {
	var perr participle.Error
	if errors.As(err, &perr) {
		return ErrorList{{Pos: toPos(perr.Position()), Msg: perr.Message()}}
	}
	return ErrorList{{Pos: Pos{Filename: filename}, Msg: err.Error()}}
}

// ReadExpr reads src, which must hold exactly one S-expression, such as a
// protocol message. The error, if any, is an ErrorList.
func ReadExpr(src []byte) (*Expr, error) {
	es, err := ReadExprs("", src)
	if err != nil {
		return nil, err
	}
	return oneExpr(es, src, "an expression")
}

// one returns the only element of es, read from src, or an error naming what
// was expected.
func oneExpr(es []*Expr, src []byte, what string) (*Expr, error) {
	switch len(es) {
	case 0:
		return nil, ErrorList{{Pos: endPos("", src), Msg: "expected " + what + ", found end of input"}}
	case 1:
		return es[0], nil
	}
	return nil, ErrorList{{Pos: es[1].Pos, Msg: "unexpected " + describeExpr(es[1]) + " after " + what}}
}

// describeExpr names e for an error message: the atom in quotes, or "list".
func describeExpr(e *Expr) string {
	if e.IsList {
		return "list"
	}
	return fmt.Sprintf("%q", e.Atom)
}
