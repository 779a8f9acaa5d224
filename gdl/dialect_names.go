package gdl

import (
	"strconv"
	"strings"
)

// The Dresden GameController's prover (cs227b/teamIago/parser/Parser.java,
// parseExpression) reads every list (name arg...) as a predicate whose
// operator is the atom its first element spells, whatever that is: the
// list (?n1 ?c1 ?n2 ?c2) has the constant operator ?N1 (atoms are
// upper-cased), not the variable ?n1, and (0) is a predicate of no
// arguments, which the atom 0 does not unify with (resolver/Atom.java and
// Connective.java, mgu). GDL allows neither; the parser keeps such lists of
// a GDL-II description as written (see ExprDescription), and this file
// reads them.

// irregularName reports whether name, a sentence's or a function's, is
// written as a variable or a number, which GDL does not allow.
func irregularName(name string) bool { return listNameKind(name) != "" }

// listNameKind returns "variable" or "number" when name is written as one,
// and "" otherwise.
func listNameKind(name string) string {
	switch {
	case strings.HasPrefix(name, "?"):
		return "variable"
	case isNumber(name):
		return "number"
	}
	return ""
}

// eachListName calls fn for every sentence and function of r named by a
// variable or a number, with the name, its arity and what it names.
func eachListName(r *Rule, fn func(name *Const, arity int, what string)) {
	Inspect(r, func(n Node) bool {
		switch n := n.(type) {
		case *Sentence:
			if n != nil && n.Name != nil && irregularName(n.Name.Name) {
				fn(n.Name, len(n.Args), "relation")
			}
		case *Func:
			if n != nil && n.Name != nil && irregularName(n.Name.Name) {
				fn(n.Name, len(n.Args), "function")
			}
		}
		return true
	})
}

// refuseListNames reports every list of r named by a variable or a
// number as the error it is in GDL.
func (v *validator) refuseListNames(r *Rule) {
	eachListName(r, func(name *Const, _ int, what string) {
		v.errorf(name.Pos(), CodeSyntax, "%s %s cannot be a %s name", listNameKind(name.Name), name.Name, what)
	})
}

// listNames returns r with each list named by a variable or a number
// renamed as the Dresden prover reads it, reporting each, or nil when r
// has none. The name is a constant of its own: lists written with the same
// name (ignoring case, as the prover does) are the same symbol, and no
// other list matches them; a variable of the rule spelled like it is not
// bound by it. (0), a function of no arguments, is read as a constant of
// its own, which the constant 0 is not.
func (v *validator) listNames(r *Rule) *Rule {
	found := false
	eachListName(r, func(name *Const, arity int, what string) {
		found = true
		to := v.listName(name.Name)
		switch {
		case strings.HasPrefix(name.Name, "?"):
			v.readf(name.Pos(), CodeSyntax, "in rule for %s: variable %s names a %s; read as the Dresden prover reads it, a name of its own, %s, that only lists written (%s ...) match (it binds no variable %s)",
				r.Head.Name.Name, name.Name, what, to, name.Name, name.Name)
		case arity == 0:
			v.readf(name.Pos(), CodeSyntax, "in rule for %s: (%s) is a %s of no arguments named by a number; read as the Dresden prover reads it, a constant of its own, %s, that only (%s) matches, not %s",
				r.Head.Name.Name, name.Name, what, to, name.Name, name.Name)
		default:
			v.readf(name.Pos(), CodeSyntax, "in rule for %s: number %s names a %s; read as the Dresden prover reads it, a name of its own, %s, that only lists written (%s ...) match",
				r.Head.Name.Name, name.Name, what, to, name.Name)
		}
	})
	if !found {
		return nil
	}
	var term func(t Term) Term
	term = func(t Term) Term {
		f, ok := t.(*Func)
		if !ok {
			return t
		}
		name := f.Name
		if irregularName(name.Name) {
			name = &Const{NamePos: name.NamePos, Name: v.listName(name.Name)}
			if len(f.Args) == 0 {
				return name
			}
		}
		return &Func{Lparen: f.Lparen, Name: name, Args: terms(f.Args, term)}
	}
	return mapRule(r, term, func(s *Sentence) *Const {
		if irregularName(s.Name.Name) {
			return &Const{NamePos: s.Name.NamePos, Name: v.listName(s.Name.Name)}
		}
		return s.Name
	})
}

// listName returns the constant that names the lists named written, a
// variable or a number: named_ followed by written in lower case without
// its ?, or with a number added when the description has that name
// already. Every spelling of one name in any case gets the same constant.
func (v *validator) listName(written string) string {
	key := strings.ToLower(written)
	if to, ok := v.listNamed[key]; ok {
		return to
	}
	if v.listNamed == nil {
		v.listNamed = make(map[string]string)
		v.taken = make(map[string]bool)
		Inspect(v.d, func(n Node) bool {
			if c, ok := n.(*Const); ok && c != nil {
				v.taken[c.Name] = true
			}
			return true
		})
	}
	base := "named_" + strings.TrimPrefix(key, "?")
	to := base
	for i := 2; v.taken[to]; i++ {
		to = base + "_" + strconv.Itoa(i)
	}
	v.taken[to] = true
	v.listNamed[key] = to
	return to
}

// unboundDistinct returns the first distinct at the top of r's body with a
// variable that occurs in no positive literal and not in the head, only in
// negations and distincts, or nil when there is none. The Dresden prover
// reads a body left to right, and its distinct holds only of two
// different constants (resolver/DistinctOp.java, chainOne): with a
// variable nothing binds it fails, and so does the rule.
func unboundDistinct(r *Rule) *Distinct {
	bound := boundVars(r.Body)
	eachVar(r.Head, func(x *Var) { bound[x.Name] = true })
	for _, l := range r.Body {
		d, ok := l.(*Distinct)
		if !ok {
			continue
		}
		free := false
		eachVar(d, func(x *Var) { free = free || !bound[x.Name] })
		if free {
			return d
		}
	}
	return nil
}
