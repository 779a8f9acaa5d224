package gdl

import (
	"fmt"
	"strings"
)

// ParseFile parses the game description src. Positions name filename. The
// lexical syntax and the limits on src are those of ReadExprs.
//
// A description is a sequence of rules (<= head body...) and facts: a
// sentence (name arg...) or a bare proposition such as terminal. Keywords
// (role, init, true, does, next, legal, goal, terminal, input, base, sees,
// random, <=, not, distinct, or) are matched case-insensitively and stored
// lower-cased; every other symbol keeps its case. (name) with no arguments
// reads as the constant or proposition name. A list named by a variable or
// a number is an error but in a GDL-II description (see ExprDescription).
//
// On failure ParseFile returns a nil Description and an ErrorList of at most
// MaxErrors errors, in the order found.
func ParseFile(filename string, src []byte) (*Description, error) {
	es, err := ReadExprs(filename, src)
	if err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return nil, ErrorList{{Pos: endPos(filename, src), Msg: "no rules"}}
	}
	return ExprDescription(filename, es)
}

// ParseTerm parses src, which must hold exactly one term: a constant such as
// noop, a variable such as ?x or a function such as (mark 1 ?y).
func ParseTerm(src string) (Term, error) {
	b := []byte(src)
	es, err := ReadExprs("", b)
	if err != nil {
		return nil, err
	}
	e, err := oneExpr(es, b, "a term")
	if err != nil {
		return nil, err
	}
	return ExprTerm(e)
}

// ParseSentence parses src, which must hold exactly one sentence, such as
// (line ?who) or terminal.
func ParseSentence(src string) (*Sentence, error) {
	b := []byte(src)
	es, err := ReadExprs("", b)
	if err != nil {
		return nil, err
	}
	e, err := oneExpr(es, b, "a sentence")
	if err != nil {
		return nil, err
	}
	var c converter
	s := c.sentence(e, inQuery, 0)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// ExprTerm converts an expression to a term, as ParseTerm reads it.
func ExprTerm(e *Expr) (Term, error) {
	var c converter
	t := c.term(e, 0)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// ExprDescription converts expressions, each a rule or a fact, to a game
// description, as ParseFile reads it. It lets a player read the rules of a
// protocol message without printing them again. An empty list of rules is
// not an error here.
//
// A list named by a variable or a number, as (?n ?c) or (0), is an error in
// GDL. In a description that may be played as GDL-II (see DecideMode) it is
// kept as written, its name the variable's or number's spelling (a Func
// with no arguments for (0)), for Validate to report and Repair to read in
// the Dresden dialect.
func ExprDescription(filename string, es []*Expr) (*Description, error) {
	c := converter{keepListNames: true}
	d := &Description{Filename: filename, Rules: make([]*Rule, 0, len(es))}
	for _, e := range es {
		if c.full() {
			break
		}
		if r := c.rule(e); r != nil {
			d.Rules = append(d.Rules, r)
		}
	}
	if len(c.errs) == 0 && (len(c.listNames) == 0 || DecideMode(d, NatureSeated) == GDLII) {
		return d, nil
	}
	errs := append(c.errs, c.listNames...)
	errs.Sort()
	if len(errs) > MaxErrors {
		errs = errs[:MaxErrors]
	}
	return nil, errs
}

// A converter gives expressions the structure of GDL, collecting errors.
// Its methods return nil for an expression with errors.
type converter struct {
	errs ErrorList
	// keepListNames keeps a list named by a variable or a number as
	// written, its error held in listNames, which ExprDescription reports
	// unless the description is GDL-II (see listName).
	keepListNames bool
	listNames     ErrorList
}

// listName reports a list named by a variable or a number, such as
// (?n ?c) or (0): an error, or with keepListNames an error held back, and
// the name kept as written for the Dresden dialect to read (see Repair).
// It reports whether the list is to be kept.
func (c *converter) listName(pos Pos, format string, args ...any) bool {
	if !c.keepListNames {
		c.error(pos, format, args...)
		return false
	}
	c.listNames.Add(pos, fmt.Sprintf(format, args...))
	return true
}

func (c *converter) error(pos Pos, format string, args ...any) {
	if len(c.errs) < MaxErrors {
		c.errs.Add(pos, fmt.Sprintf(format, args...))
	}
}

func (c *converter) full() bool { return len(c.errs) >= MaxErrors }

// checkDepth reports a list e inside depth lists that nests deeper than
// MaxDepth. Expressions read from text never nest that deep, but expressions
// built by a program might, even in a cycle.
func (c *converter) checkDepth(e *Expr, depth int) bool {
	if e.IsList && depth >= MaxDepth {
		c.error(e.Pos, "lists nested more than %d deep", MaxDepth)
		return false
	}
	return true
}

// Where a sentence occurs, for error messages.
type sentencePlace int

const (
	inFact  sentencePlace = iota // a fact of a description
	inHead                       // the head of a rule
	inBody                       // a literal of a rule body
	inQuery                      // a sentence read alone
)

func (p sentencePlace) String() string {
	switch p {
	case inFact:
		return "a fact"
	case inHead:
		return "a rule head"
	case inBody:
		return "a literal"
	}
	return "a sentence"
}

func (c *converter) rule(e *Expr) *Rule {
	if e == nil {
		c.error(Pos{}, "missing rule")
		return nil
	}
	if e.IsList && len(e.List) > 0 && e.List[0] != nil && !e.List[0].IsList && e.List[0].Atom == KeyRule {
		r := &Rule{Lparen: e.Pos}
		if len(e.List) == 1 {
			c.error(e.Pos, "rule has no head: (<= head body...)")
			return nil
		}
		r.Head = c.sentence(e.List[1], inHead, 1)
		ok := r.Head != nil
		if len(e.List) > 2 {
			r.Body = make([]Literal, len(e.List)-2)
		}
		for i, x := range e.List[2:] {
			r.Body[i] = c.literal(x, 1)
			ok = ok && r.Body[i] != nil
		}
		if !ok {
			return nil
		}
		return r
	}
	s := c.sentence(e, inFact, 0)
	if s == nil {
		return nil
	}
	return &Rule{Lparen: e.Pos, Head: s}
}

// sentence converts e to a sentence, or returns nil after reporting why e is
// not one.
func (c *converter) sentence(e *Expr, where sentencePlace, depth int) *Sentence {
	if e == nil {
		c.error(Pos{}, "missing sentence")
		return nil
	}
	if !c.checkDepth(e, depth) {
		return nil
	}
	if !e.IsList {
		name := c.relationName(e, where, true)
		if name == nil {
			return nil
		}
		return &Sentence{Lparen: e.Pos, Name: name}
	}
	if len(e.List) == 0 {
		c.error(e.Pos, "empty list where %s was expected", where)
		return nil
	}
	name := c.relationName(e.List[0], where, false)
	s := &Sentence{Lparen: e.Pos, Name: name}
	if len(e.List) > 1 {
		s.Args = make([]Term, len(e.List)-1)
	}
	ok := name != nil
	for i, x := range e.List[1:] {
		s.Args[i] = c.term(x, depth+1)
		ok = ok && s.Args[i] != nil
	}
	if !ok {
		return nil
	}
	return s
}

// relationName converts the name of a sentence: e itself for a bare
// proposition, or the first element of the sentence's list.
func (c *converter) relationName(e *Expr, where sentencePlace, bare bool) *Const {
	if e == nil {
		c.error(Pos{}, "missing relation name")
		return nil
	}
	if e.IsList {
		c.error(e.Pos, "expected a relation name, found a list")
		return nil
	}
	what := "a relation name"
	if bare {
		what = where.String()
	}
	name := canonical(e.Atom)
	if kind := listNameKind(name); kind != "" {
		if bare {
			c.error(e.Pos, "%s %s cannot be %s", kind, name, what)
			return nil
		}
		if !c.listName(e.Pos, "%s %s cannot be %s", kind, name, what) {
			return nil
		}
		return &Const{NamePos: e.Pos, Name: name}
	}
	switch {
	case name == KeyRule:
		c.error(e.Pos, "'<=' is allowed only at the start of a top-level rule")
		return nil
	case name == KeyNot || name == KeyOr || name == KeyDistinct:
		if where == inBody {
			c.error(e.Pos, "'%s' needs arguments: (%s ...)", name, name)
		} else {
			c.error(e.Pos, "'%s' cannot be %s", name, where)
		}
		return nil
	}
	return &Const{NamePos: e.Pos, Name: name}
}

func (c *converter) literal(e *Expr, depth int) Literal {
	if e == nil {
		c.error(Pos{}, "missing literal")
		return nil
	}
	if !c.checkDepth(e, depth) {
		return nil
	}
	if !e.IsList || len(e.List) == 0 || e.List[0] == nil || e.List[0].IsList {
		if s := c.sentence(e, inBody, depth); s != nil {
			return s
		}
		return nil
	}
	args := e.List[1:]
	switch canonical(e.List[0].Atom) {
	case KeyNot:
		if len(args) != 1 {
			c.error(e.Pos, "'not' takes exactly 1 argument, found %d", len(args))
			return nil
		}
		if l := c.literal(args[0], depth+1); l != nil {
			return &Not{Lparen: e.Pos, Arg: l}
		}
		return nil
	case KeyDistinct:
		if len(args) != 2 {
			c.error(e.Pos, "'distinct' takes exactly 2 arguments, found %d", len(args))
			return nil
		}
		x, y := c.term(args[0], depth+1), c.term(args[1], depth+1)
		if x == nil || y == nil {
			return nil
		}
		return &Distinct{Lparen: e.Pos, X: x, Y: y}
	case KeyOr:
		if len(args) == 0 {
			c.error(e.Pos, "'or' needs at least 1 argument")
			return nil
		}
		o := &Or{Lparen: e.Pos, Disjuncts: make([]Literal, len(args))}
		ok := true
		for i, x := range args {
			o.Disjuncts[i] = c.literal(x, depth+1)
			ok = ok && o.Disjuncts[i] != nil
		}
		if !ok {
			return nil
		}
		return o
	case KeyRule:
		c.error(e.Pos, "rule nested inside a rule")
		return nil
	}
	if s := c.sentence(e, inBody, depth); s != nil {
		return s
	}
	return nil
}

// term converts e to a term.
func (c *converter) term(e *Expr, depth int) Term {
	if e == nil {
		c.error(Pos{}, "missing term")
		return nil
	}
	if !c.checkDepth(e, depth) {
		return nil
	}
	if !e.IsList {
		return c.atomTerm(e)
	}
	if len(e.List) == 0 {
		c.error(e.Pos, "empty list where a term was expected")
		return nil
	}
	head := e.List[0]
	if head == nil {
		c.error(e.Pos, "missing function name")
		return nil
	}
	if head.IsList {
		c.error(head.Pos, "expected a function name, found a list")
		return nil
	}
	name := canonical(head.Atom)
	kind := listNameKind(name)
	if kind != "" && !c.listName(head.Pos, "%s %s cannot be a function name", kind, name) {
		return nil
	}
	if name == KeyRule {
		c.error(head.Pos, "'<=' is allowed only at the start of a top-level rule")
		return nil
	}
	fn := &Const{NamePos: head.Pos, Name: name}
	if len(e.List) == 1 && kind == "" {
		return fn
	}
	f := &Func{Lparen: e.Pos, Name: fn}
	if len(e.List) > 1 {
		f.Args = make([]Term, len(e.List)-1)
	}
	ok := true
	for i, x := range e.List[1:] {
		f.Args[i] = c.term(x, depth+1)
		ok = ok && f.Args[i] != nil
	}
	if !ok {
		return nil
	}
	return f
}

// atomTerm converts an atom to a constant or a variable.
func (c *converter) atomTerm(e *Expr) Term {
	if name, ok := strings.CutPrefix(e.Atom, "?"); ok {
		if name == "" {
			c.error(e.Pos, "variable has no name after '?'")
			return nil
		}
		return &Var{NamePos: e.Pos, Name: name}
	}
	name := canonical(e.Atom)
	if name == KeyRule {
		c.error(e.Pos, "'<=' is allowed only at the start of a top-level rule")
		return nil
	}
	if name == "" {
		c.error(e.Pos, "empty atom")
		return nil
	}
	return &Const{NamePos: e.Pos, Name: name}
}

// canonical returns the lower-case form of a keyword, written in any case,
// and any other name unchanged.
func canonical(name string) string {
	if len(name) < 2 || len(name) > len("terminal") {
		return name
	}
	if keywords[name] {
		return name
	}
	if lower := strings.ToLower(name); keywords[lower] {
		return lower
	}
	return name
}

// isNumber reports whether name is written as a number: an optional sign,
// digits, and optionally a decimal point followed by more digits.
func isNumber(name string) bool {
	if name != "" && (name[0] == '-' || name[0] == '+') {
		name = name[1:]
	}
	digits := func(s string) int {
		n := 0
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		return n
	}
	n := digits(name)
	if n == 0 {
		return false
	}
	name = name[n:]
	if name == "" {
		return true
	}
	return name[0] == '.' && len(name) > 1 && digits(name[1:]) == len(name)-1
}
