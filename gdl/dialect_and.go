package gdl

import (
	"slices"
	"strings"
)

// maxConjunctionRules bounds how many rules one rule with disjunctions of
// conjunctions is read as: the reading multiplies the disjuncts of its
// disjunctions, and untrusted rules must not make it blow up.
const maxConjunctionRules = 256

// conjunctions returns the rules r is read as when its body uses and, which
// GDL does not have but the Dresden GameController reads as a conjunction
// (its prover parses (and ...) anywhere a literal may stand): an and among
// the literals of the body stands for its conjuncts, and a disjunction with
// an and among its disjuncts is read as one rule per disjunct, as GDL reads
// every disjunction, each with the disjunct's conjuncts in the body. It
// returns r alone when r has no such and, and r alone with an error when
// the reading would make more than maxConjunctionRules rules or an and
// holds a term that is no literal.
func (v *validator) conjunctions(r *Rule) []*Rule {
	first, ok := firstAnd(r)
	if !ok {
		return []*Rule{r}
	}
	out := []*Rule{r}
	for i := 0; i < len(out); i++ {
		split, changed, err := splitAnd(out[i])
		if err != "" {
			v.errorf(first, CodeSyntax, "in rule for %s: %s", r.Head.Name.Name, err)
			return []*Rule{r}
		}
		if !changed {
			continue
		}
		out = append(out[:i], append(split, out[i+1:]...)...)
		i--
		if len(out) > maxConjunctionRules {
			v.errorf(first, CodeSyntax, "in rule for %s: reading and as a conjunction inside or makes more than %d rules; not read", r.Head.Name.Name, maxConjunctionRules)
			return []*Rule{r}
		}
	}
	what := "its conjuncts in the body"
	if len(out) > 1 {
		what = "one rule per disjunct of the or that holds it (" + plural(len(out), "rule") + " in all)"
	}
	v.readf(first, CodeSyntax, "in rule for %s: GDL has no and; (and ...) is read as a conjunction, as the Dresden GameController reads it: %s", r.Head.Name.Name, what)
	return out
}

// isAnd reports whether l is an (and ...) sentence.
func isAnd(l Literal) bool {
	s, ok := l.(*Sentence)
	return ok && s.Name != nil && strings.EqualFold(s.Name.Name, "and") && len(s.Args) > 0
}

// firstAnd returns the position of the first and among r's body literals
// or the disjuncts of a disjunction there.
func firstAnd(r *Rule) (Pos, bool) {
	for _, l := range r.Body {
		if isAnd(l) {
			return l.Pos(), true
		}
		if o, ok := l.(*Or); ok {
			for _, d := range o.Disjuncts {
				if isAnd(d) {
					return d.Pos(), true
				}
			}
		}
	}
	return Pos{}, false
}

// splitAnd reads the first and of r's body: an and among the literals is
// replaced by its conjuncts, and the first disjunction holding an and by
// each of its disjuncts in turn, one rule each. It reports whether r had
// such an and, and a message when a conjunct is no literal.
func splitAnd(r *Rule) (out []*Rule, changed bool, err string) {
	for i, l := range r.Body {
		if isAnd(l) {
			lits, err := conjuncts(l.(*Sentence))
			if err != "" {
				return nil, false, err
			}
			return []*Rule{withBody(r, i, lits)}, true, ""
		}
		o, ok := l.(*Or)
		if !ok || !slices.ContainsFunc(o.Disjuncts, isAnd) {
			continue
		}
		for _, d := range o.Disjuncts {
			lits := []Literal{d}
			if isAnd(d) {
				if lits, err = conjuncts(d.(*Sentence)); err != "" {
					return nil, false, err
				}
			}
			out = append(out, withBody(r, i, lits))
		}
		return out, true, ""
	}
	return nil, false, ""
}

// withBody returns a copy of r with its i-th body literal replaced by lits.
func withBody(r *Rule, i int, lits []Literal) *Rule {
	body := make([]Literal, 0, len(r.Body)-1+len(lits))
	body = append(body, r.Body[:i]...)
	body = append(body, lits...)
	body = append(body, r.Body[i+1:]...)
	return &Rule{Lparen: r.Lparen, Head: r.Head, Body: body}
}

// conjuncts returns the literals an (and ...) sentence's arguments write,
// and a message when one is no literal.
func conjuncts(and *Sentence) ([]Literal, string) {
	var out []Literal
	for _, t := range and.Args {
		l, err := termLiteral(t)
		if err != "" {
			return nil, err
		}
		if isAnd(l) {
			inner, err := conjuncts(l.(*Sentence))
			if err != "" {
				return nil, err
			}
			out = append(out, inner...)
			continue
		}
		out = append(out, l)
	}
	return out, ""
}

// termLiteral returns the literal that the parser read as term t inside an
// and: a constant is a proposition, a function term a sentence, or not,
// distinct and or with their forms. A variable is no literal.
func termLiteral(t Term) (Literal, string) {
	switch t := t.(type) {
	case *Const:
		return &Sentence{Lparen: t.NamePos, Name: t}, ""
	case *Func:
		args := t.Args
		switch name := strings.ToLower(t.Name.Name); {
		case name == KeyNot && len(args) == 1:
			l, err := termLiteral(args[0])
			if err != "" {
				return nil, err
			}
			return &Not{Lparen: t.Lparen, Arg: l}, ""
		case name == KeyDistinct && len(args) == 2:
			return &Distinct{Lparen: t.Lparen, X: args[0], Y: args[1]}, ""
		case name == KeyOr:
			ds := make([]Literal, len(args))
			for i, a := range args {
				l, err := termLiteral(a)
				if err != "" {
					return nil, err
				}
				ds[i] = l
			}
			return &Or{Lparen: t.Lparen, Disjuncts: ds}, ""
		}
		return &Sentence{Lparen: t.Lparen, Name: t.Name, Args: args}, ""
	}
	return nil, "a conjunct of and at " + lineCol(t.Pos()) + " is a variable, not a literal"
}
