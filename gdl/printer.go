package gdl

import (
	"io"
	"strings"
)

// Fprint writes node to w as canonical compact KIF: one space between the
// elements of a list, none after '(' or before ')', variables as ?x, a
// proposition or a constant as its bare name, a fact as its sentence, a rule
// as (<= head literal...), and a Description as one rule per line, each
// ending in a newline. Missing parts of a node print as <nil>.
//
// Every move and fact exchanged in the system is the Format of a ground
// term: (mark 1 1), noop.
//
// Names are written as they are. What ParseFile returns prints back to the
// same tree; a name that no text can hold, such as "" or "a b", does not.
func Fprint(w io.Writer, node Node) error {
	var p printer
	p.node(node)
	_, err := io.WriteString(w, p.String())
	return err
}

// Format returns node as Fprint writes it.
func Format(node Node) string {
	var p printer
	p.Grow(64) // enough for most terms in one allocation
	p.node(node)
	return p.String()
}

func (c *Const) String() string       { return Format(c) }
func (v *Var) String() string         { return Format(v) }
func (f *Func) String() string        { return Format(f) }
func (s *Sentence) String() string    { return Format(s) }
func (n *Not) String() string         { return Format(n) }
func (d *Distinct) String() string    { return Format(d) }
func (o *Or) String() string          { return Format(o) }
func (r *Rule) String() string        { return Format(r) }
func (d *Description) String() string { return Format(d) }

type printer struct {
	strings.Builder
}

func (p *printer) writeNil() { p.WriteString("<nil>") }

// node writes any node. Typed nil pointers print as <nil>.
func (p *printer) node(n Node) {
	switch n := n.(type) {
	case Term:
		p.term(n)
	case Literal:
		p.literal(n)
	case *Rule:
		p.rule(n)
	case *Description:
		if n == nil {
			p.writeNil()
			return
		}
		for _, r := range n.Rules {
			p.rule(r)
			p.WriteByte('\n')
		}
	default:
		p.writeNil()
	}
}

func (p *printer) name(c *Const) {
	if c == nil {
		p.writeNil()
		return
	}
	p.WriteString(c.Name)
}

func (p *printer) term(t Term) {
	switch t := t.(type) {
	case *Const:
		p.name(t)
	case *Var:
		if t == nil {
			p.writeNil()
			return
		}
		p.WriteByte('?')
		p.WriteString(t.Name)
	case *Func:
		if t == nil {
			p.writeNil()
			return
		}
		p.compound(t.Name, t.Args)
	default:
		p.writeNil()
	}
}

// compound writes (name arg...), or the bare name without arguments.
func (p *printer) compound(name *Const, args []Term) {
	// A list named by a variable or a number keeps its parentheses, so
	// that (0) and (?p) read back as written (see ExprDescription).
	if len(args) == 0 && (name == nil || !irregularName(name.Name)) {
		p.name(name)
		return
	}
	p.WriteByte('(')
	p.name(name)
	for _, a := range args {
		p.WriteByte(' ')
		p.term(a)
	}
	p.WriteByte(')')
}

func (p *printer) literal(l Literal) {
	switch l := l.(type) {
	case *Sentence:
		if l == nil {
			p.writeNil()
			return
		}
		p.compound(l.Name, l.Args)
	case *Not:
		if l == nil {
			p.writeNil()
			return
		}
		p.WriteString("(not ")
		p.literal(l.Arg)
		p.WriteByte(')')
	case *Distinct:
		if l == nil {
			p.writeNil()
			return
		}
		p.WriteString("(distinct ")
		p.term(l.X)
		p.WriteByte(' ')
		p.term(l.Y)
		p.WriteByte(')')
	case *Or:
		if l == nil {
			p.writeNil()
			return
		}
		p.WriteString("(or")
		for _, d := range l.Disjuncts {
			p.WriteByte(' ')
			p.literal(d)
		}
		p.WriteByte(')')
	default:
		p.writeNil()
	}
}

func (p *printer) rule(r *Rule) {
	switch {
	case r == nil:
		p.writeNil()
	case len(r.Body) == 0:
		p.literal(r.Head)
	default:
		p.WriteString("(<= ")
		p.literal(r.Head)
		for _, l := range r.Body {
			p.WriteByte(' ')
			p.literal(l)
		}
		p.WriteByte(')')
	}
}
