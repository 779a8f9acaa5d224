package gdl

import (
	"strconv"
	"strings"
)

// GDL-II (Thielscher, "A General Game Description Language for Incomplete
// Information Games", AAAI 2010) adds two keywords to GDL: the role random,
// which is nature's, and (sees ROLE PERCEPT), derived like next from the
// state and the joint move, which tells each role what it perceives of a
// step. The public GDL-II games are written as the Dresden GameController
// plays them; Repair documents how this package reads that dialect.

// A Mode is how a match is played.
type Mode int

const (
	// GDL: every role has a player, and every player is told the joint
	// move of each step.
	GDL Mode = iota
	// GDLII: each role is told of each step only its own move and its
	// percepts; nature plays the role random, if the rules name it, and
	// no player sits in it.
	GDLII
)

// String returns "GDL" or "GDL-II".
func (m Mode) String() string {
	if m == GDLII {
		return "GDL-II"
	}
	return "GDL"
}

// A Seating is what is known, when a match's mode is decided, of who plays
// the role random.
type Seating int

const (
	// RulesAlone: nothing but the rules is known, as a player told START
	// knows, or a player sits in every role, random included, as a
	// referee given a player for each knows. The rules are read as
	// ggp-base reads them.
	RulesAlone Seating = iota
	// NatureSeated: nature plays the role random wherever the rules name
	// it, as when a referee is given no player for it, or told so
	// (the tournament's --nature).
	NatureSeated
)

// DecideMode decides how a match of d is played, given what is known of
// its seating. Every part of the system asks it, and nothing else decides:
//   - rules with a sees rule, or that read sees, are GDL-II whatever the
//     seating: percepts mean nothing to a player told the joint moves;
//   - rules that name a role random but have no sees rule are GDL-II when
//     nature sits in random, and otherwise GDL: the rules cannot tell
//     beatMania, whose second player is merely called random, from
//     guessSix, a game of chance, and ggp-base, which knows no GDL-II,
//     plays both as GDL;
//   - all other rules are GDL.
//
// The rules that may be played as GDL-II, DecideMode(d, NatureSeated) ==
// GDLII, are read in the dialect of GDL-II (see Repair).
func DecideMode(d *Description, s Seating) Mode {
	random, sees := gdlIIKeywords(d)
	if sees || random && s == NatureSeated {
		return GDLII
	}
	return GDL
}

// gdlIIKeywords reports whether d declares the role random, and whether a
// sentence of d, in a head or a body, is a sees sentence.
func gdlIIKeywords(d *Description) (random, sees bool) {
	if d == nil {
		return false, false
	}
	for _, r := range d.Rules {
		if r == nil || r.Head == nil || r.Head.Name == nil {
			continue
		}
		h := r.Head
		if h.Name.Name == KeyRole && len(h.Args) == 1 {
			if c, ok := h.Args[0].(*Const); ok && c != nil && c.Name == KeyRandom {
				random = true
			}
		}
		if sees {
			continue
		}
		if h.Name.Name == KeySees {
			sees = true
			continue
		}
		for _, l := range r.Body {
			Inspect(l, func(n Node) bool {
				if s, ok := n.(*Sentence); ok && s.Name != nil && s.Name.Name == KeySees {
					sees = true
				}
				return !sees
			})
		}
	}
	return random, sees
}

// Repair returns the description the reasoners play, and every problem
// Validate finds in d.
//
// A GDL description is returned as it is. A GDL-II description (one that
// may be played as GDL-II: see DecideMode) is read in the dialect of the Dresden GameController, which the
// public GDL-II games are written in. Validate accepts without a word:
//   - keywords as function symbols inside a percept, as in
//     (sees ?r (does ?p ?m)) or (sees ?r (legal ?r ?m));
//   - next in the body of a sees rule: a percept may depend on the state
//     after the move.
//
// Some games hold mistakes the Dresden GameController plays through.
// Where such a mistake has one meaning, Validate reports it as a warning
// saying how it is read, and the description Repair returns says the same
// in plain GDL:
//   - a variable that is the role argument of a legal, sees, goal or input
//     head and that nothing binds ranges over the roles, as if (role ?r)
//     were in the body (the game master asks each role in turn): Repair
//     adds that literal;
//   - a variable that occurs in negations and nowhere else, in one or in
//     several, is read as existential in each, as Prolog's negation as
//     failure, which binds nothing, reads it: (not (true (card talon ?v)))
//     holds when no value of ?v makes (true (card talon ?v)) hold, and
//     (not (does ?p (buy ?c))) beside (not (does ?p endTurn)) when nobody
//     buys and nobody ends the turn. Repair moves each such negated
//     sentence into a relation of its own, named exists_N, whose arguments
//     are the negation's other variables;
//   - and, which GDL does not have, is a conjunction wherever the Dresden
//     prover reads it so: among the literals of a body, where it stands
//     for its conjuncts, and among the disjuncts of an or, which Repair
//     reads as one rule per disjunct (at most maxConjunctionRules from one
//     rule; see conjunctions);
//   - a head variable that no positive literal binds, in a rule of the
//     game's own relations, ranges over the values the relation's uses
//     give it, as the prover only ever asks the rule with the value its
//     caller gives: Repair adds a relation of those values to the body
//     (see headDomains);
//   - variables of one rule whose names differ only in case, as ?hPos and
//     ?hpos, are one variable, as to the Dresden GameController, which
//     ignores case: Repair gives them the first spelling;
//   - a goal value with leading zeros, such as 00, is the integer it
//     writes: Repair writes it plainly;
//   - a base or input sentence with the wrong number of arguments declares
//     nothing, and Repair leaves it out: the rules of play never depend on
//     base and input;
//   - a relation or function name used with several arities names as many
//     relations or functions, as in Prolog, where terms of different
//     arities never match; the reasoners read them so as written;
//   - sees in a rule body, which GDL-II forbids, is read as a relation like
//     any other; the dependency checks still reject legal, goal and
//     terminal rules that would then depend on the moves or the next state;
//   - a variable of a head that nothing binds, inside a function term that
//     names a relation of the rules with as many arguments, ranges over
//     that relation: (legal random (deal (lead ?p) ...)) with facts
//     (lead player1) and (lead player2) deals either lead, and Repair adds
//     (lead ?p) to the body;
//   - a list named by a variable or a number, such as the term
//     (?n1 ?c1 ?n2 ?c2), the literal (?role ?n2) or the term (0), which
//     the parser keeps as written only in a GDL-II description, is named
//     by a constant of its own, as the Dresden prover names a list by the
//     atom written first in it: Repair writes named_n1 for every ?n1 or
//     ?N1, binding nothing, and named_0 for (0), which 0 is not (see
//     listNames);
//   - a distinct with a variable that no positive literal binds and the
//     head does not hold fails, as the Dresden prover's distinct does when
//     reached with an unbound variable, and so does its rule: Repair
//     leaves the rule out (see unboundDistinct).
//
// Every such warning is marked NotStrict, and NotStrict collects them for a
// caller that refuses anything but strict GDL. Everything else keeps its
// GDL verdict: a variable of a head that nothing binds outside a role
// argument or such a term, and that some use of the relation leaves
// without a value, for one, is an error, since the rule would hold for
// infinitely many values. The errors among the problems are
// left as they are: a caller that plays only descriptions free of them
// (as the reasoners do with GDL-II) checks them with Errors.
//
// Repair does not modify d; the result shares d's unchanged rules, and is
// d itself when nothing is read otherwise than written.
func Repair(d *Description) (*Description, []Problem) {
	if d == nil {
		return nil, nil
	}
	v := &validator{d: d}
	v.run()
	v.problems = sortProblems(v.problems)
	return v.repaired(), v.problems
}

// Errors returns the problems of ps that are errors as an ErrorList, or nil
// when there are none.
func Errors(ps []Problem) error {
	var l ErrorList
	for _, p := range ps {
		if p.Severity == SeverityError {
			l.Add(p.Pos, p.Msg)
		}
	}
	return l.Err()
}

// NotStrict returns the problems of ps that mark a departure from strict
// GDL the dialect reads through (those marked NotStrict) as an ErrorList,
// or nil when there are none: what a caller that plays strict GDL alone
// refuses, besides the errors.
func NotStrict(ps []Problem) error {
	var l ErrorList
	for _, p := range ps {
		if p.NotStrict {
			l.Add(p.Pos, p.Msg)
		}
	}
	return l.Err()
}

// roleArgument lists the keywords whose first argument is a role.
var roleArgument = map[string]bool{KeyLegal: true, KeySees: true, KeyGoal: true, KeyInput: true}

// readDialect returns the rules r is read as in the Dresden dialect,
// reporting each mistake it reads through: r itself alone when there is
// none, none when r is to be left out, several when r has a disjunction of
// conjunctions. Negations read existentially are left to checkSafety, which
// knows which variables the body binds, and head variables that range over
// what their callers give them to headDomains, which knows every rule.
func (v *validator) readDialect(r *Rule) []*Rule {
	read := v.readRule(r)
	if read == nil {
		return nil
	}
	return v.conjunctions(read)
}

// readRule returns r as the Dresden dialect reads it, but for its
// conjunctions: r itself when nothing is read otherwise, nil when r is to
// be left out.
func (v *validator) readRule(r *Rule) *Rule {
	h := r.Head
	if want, ok := keywordArity[h.Name.Name]; ok && len(h.Args) != want && (h.Name.Name == KeyBase || h.Name.Name == KeyInput) {
		what := "what init and next produce"
		if h.Name.Name == KeyInput {
			what = "what legal allows"
		}
		v.readf(h.Pos(), CodeKeyword, "%s takes %s, not %d: this declares nothing and is left out (base and input only describe %s)",
			h.Name.Name, plural(want, "argument"), len(h.Args), what)
		return nil
	}
	out := r
	if renamed := v.listNames(out); renamed != nil {
		out = renamed
	}
	if renamed := v.sameVarsInCase(out); renamed != nil {
		out = renamed
	}
	if d := unboundDistinct(out); d != nil {
		v.readf(d.Pos(), CodeUnsafe, "in rule for %s: %s has a variable that no positive literal binds; the Dresden prover's distinct, reached with it unbound, fails, so the rule never holds and is left out",
			h.Name.Name, shortForm(d))
		return nil
	}
	if h.Name.Name == KeyGoal && len(h.Args) == 2 {
		if c, ok := h.Args[1].(*Const); ok {
			if n, ok := leadingZeros(c.Name); ok {
				v.readf(c.Pos(), CodeGoalValue, "goal value %s is read as %d", c.Name, n)
				head := *out.Head
				head.Args = []Term{head.Args[0], &Const{NamePos: c.NamePos, Name: strconv.Itoa(n)}}
				out = &Rule{Lparen: out.Lparen, Head: &head, Body: out.Body}
			}
		}
	}
	if roleArgument[h.Name.Name] && len(h.Args) > 0 {
		if x, ok := out.Head.Args[0].(*Var); ok && !boundVars(out.Body)[x.Name] {
			if out.IsFact() {
				v.readf(x.Pos(), CodeUnsafe, "variable ?%s in a fact for %s; read as ranging over the roles, as if the fact were a rule with body (role ?%s)", x.Name, h.Name.Name, x.Name)
			} else {
				v.readf(x.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s in the head appears in no positive literal of the body; read as ranging over the roles, as if (role ?%s) were in the body", h.Name.Name, x.Name, x.Name)
			}
			role := &Sentence{Lparen: x.NamePos, Name: &Const{NamePos: x.NamePos, Name: KeyRole}, Args: []Term{x}}
			body := append([]Literal{role}, out.Body...)
			out = &Rule{Lparen: out.Lparen, Head: out.Head, Body: body}
		}
	}
	if bound := v.boundByRelation(out); bound != nil {
		out = bound
	}
	return out
}

// boundByRelation returns r with a literal added to its body for each
// function term of its head that holds a variable nothing binds and that
// names a relation of the rules, with as many arguments: the move
// (leadAndDeal (lead ?p) ...) of oneCardGame, whose ?p nothing binds,
// ranges over the players lead holds for, as if (lead ?p) were in the
// body. It returns nil when there is no such term.
func (v *validator) boundByRelation(r *Rule) *Rule {
	bound := boundVars(r.Body)
	var added []Literal
	var visit func(t Term)
	visit = func(t Term) {
		f, ok := t.(*Func)
		if !ok || f.Name == nil {
			return
		}
		var free *Var
		eachVar(f, func(x *Var) {
			if free == nil && !bound[x.Name] {
				free = x
			}
		})
		if free == nil {
			return
		}
		if v.isRelation(f.Name.Name, len(f.Args)) {
			v.readf(free.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s in the head appears in no positive literal of the body; it is inside (%s ...), a relation of the rules, and is read as ranging over it, as if that term were in the body",
				r.Head.Name.Name, free.Name, f.Name.Name)
			added = append(added, &Sentence{Lparen: f.Lparen, Name: f.Name, Args: f.Args})
			eachVar(f, func(x *Var) { bound[x.Name] = true })
			return
		}
		for _, a := range f.Args {
			visit(a)
		}
	}
	for _, a := range r.Head.Args {
		visit(a)
	}
	if added == nil {
		return nil
	}
	return &Rule{Lparen: r.Lparen, Head: r.Head, Body: append(added, r.Body...)}
}

// isRelation reports whether the rules define name with arity arguments
// as a relation of their own (a keyword is not one), in a head or a fact.
func (v *validator) isRelation(name string, arity int) bool {
	if keywords[name] {
		return false
	}
	if v.heads == nil {
		v.heads = make(map[string]bool)
		for _, r := range v.d.Rules {
			if r != nil && r.Head != nil && r.Head.Name != nil {
				v.heads[r.Head.Name.Name+"/"+strconv.Itoa(len(r.Head.Args))] = true
			}
		}
	}
	return v.heads[name+"/"+strconv.Itoa(arity)]
}

// leadingZeros returns the integer that name writes when it is an integer
// from 0 to 100 written with leading zeros, such as 00 or 050.
func leadingZeros(name string) (int, bool) {
	if len(name) < 2 || name[0] != '0' || len(name) > 8 {
		return 0, false
	}
	n, err := strconv.Atoi(name)
	if err != nil || n < 0 || n > 100 || strings.ContainsAny(name, "+-") {
		return 0, false
	}
	return n, true
}

// sameVarsInCase returns r with every variable renamed to the spelling of
// its first occurrence among those that differ from it only in case,
// reporting each other spelling once, or nil when there is none.
func (v *validator) sameVarsInCase(r *Rule) *Rule {
	first := make(map[string]*Var)
	rename := make(map[string]string)
	eachVar(r, func(x *Var) {
		key := strings.ToLower(x.Name)
		f, ok := first[key]
		if !ok {
			first[key] = x
			return
		}
		if f.Name != x.Name && rename[x.Name] == "" {
			rename[x.Name] = f.Name
			v.readf(x.Pos(), CodeCase, "in rule for %s: variables ?%s and ?%s (at %s) differ only in case; read as one variable, as the Dresden GameController, which ignores case, reads them",
				r.Head.Name.Name, x.Name, f.Name, lineCol(f.Pos()))
		}
	})
	if len(rename) == 0 {
		return nil
	}
	return renameRule(r, rename)
}

// renameRule returns a copy of r with the variables renamed as rename says.
func renameRule(r *Rule, rename map[string]string) *Rule {
	var term func(t Term) Term
	term = func(t Term) Term {
		switch t := t.(type) {
		case *Var:
			if to, ok := rename[t.Name]; ok {
				return &Var{NamePos: t.NamePos, Name: to}
			}
		case *Func:
			return &Func{Lparen: t.Lparen, Name: t.Name, Args: terms(t.Args, term)}
		}
		return t
	}
	return mapRule(r, term, func(s *Sentence) *Const { return s.Name })
}

// mapRule returns a copy of r with term applied to every argument of its
// sentences, wherever they stand, and each sentence named as name says.
func mapRule(r *Rule, term func(Term) Term, name func(*Sentence) *Const) *Rule {
	sentence := func(s *Sentence) *Sentence {
		return &Sentence{Lparen: s.Lparen, Name: name(s), Args: terms(s.Args, term)}
	}
	var literal func(l Literal) Literal
	literal = func(l Literal) Literal {
		switch l := l.(type) {
		case *Sentence:
			return sentence(l)
		case *Not:
			return &Not{Lparen: l.Lparen, Arg: literal(l.Arg)}
		case *Distinct:
			return &Distinct{Lparen: l.Lparen, X: term(l.X), Y: term(l.Y)}
		case *Or:
			ds := make([]Literal, len(l.Disjuncts))
			for i, d := range l.Disjuncts {
				ds[i] = literal(d)
			}
			return &Or{Lparen: l.Lparen, Disjuncts: ds}
		}
		return l
	}
	body := make([]Literal, len(r.Body))
	for i, l := range r.Body {
		body[i] = literal(l)
	}
	return &Rule{Lparen: r.Lparen, Head: sentence(r.Head), Body: body}
}

func terms(ts []Term, f func(Term) Term) []Term {
	out := make([]Term, len(ts))
	for i, t := range ts {
		out[i] = f(t)
	}
	return out
}

// existential returns the negations of r's body, each (not sentence) at
// the top level, that hold a variable not in bound, when every such
// variable of them occurs in such negations only. Prolog's negation as
// failure binds nothing, so each of those negations reads it as its own:
// (not (does ?p (buy ?c))) and (not (does ?p endTurn)) in one body hold
// when nobody buys and nobody ends the turn. A negation with such a
// variable that occurs elsewhere too (in the head, a distinct, a
// disjunction) is not returned, and checkSafety reports the variable as
// unsafe.
func (v *validator) existential(r *Rule, bound map[string]bool) []*Not {
	// count[x] is the number of literals (the head counting as one) in
	// which variable x occurs.
	count := make(map[string]int)
	countIn := func(n Node) {
		seen := make(map[string]bool)
		eachVar(n, func(x *Var) {
			if !seen[x.Name] {
				seen[x.Name] = true
				count[x.Name]++
			}
		})
	}
	countIn(r.Head)
	for _, l := range r.Body {
		countIn(l)
	}
	// negated[x] is the number of those literals that are negations of a
	// sentence: a variable found in them alone is existential in each.
	negated := make(map[string]int)
	for _, l := range r.Body {
		if n, ok := l.(*Not); ok {
			if _, ok := n.Arg.(*Sentence); ok {
				seen := make(map[string]bool)
				eachVar(n.Arg, func(x *Var) {
					if !seen[x.Name] {
						seen[x.Name] = true
						negated[x.Name]++
					}
				})
			}
		}
	}
	var out []*Not
	for _, l := range r.Body {
		n, ok := l.(*Not)
		if !ok {
			continue
		}
		if _, ok := n.Arg.(*Sentence); !ok {
			continue
		}
		free, alone := false, true
		eachVar(n.Arg, func(x *Var) {
			if bound[x.Name] {
				return
			}
			free = true
			if count[x.Name] > negated[x.Name] {
				alone = false
			}
		})
		if free && alone {
			out = append(out, n)
		}
	}
	return out
}

// repaired returns the description as read: d itself when every rule is
// read as written.
func (v *validator) repaired() *Description {
	if len(v.read) == 0 && len(v.exists) == 0 && len(v.domains) == 0 {
		return v.d
	}
	names := make(map[string]bool)
	Inspect(v.d, func(n Node) bool {
		if c, ok := n.(*Const); ok {
			names[c.Name] = true
		}
		return true
	})
	out := &Description{Filename: v.d.Filename, Rules: make([]*Rule, 0, len(v.d.Rules))}
	var extra []*Rule
	for _, r := range v.d.Rules {
		read, ok := v.read[r]
		if !ok {
			read = []*Rule{r}
		}
		for _, r := range read {
			if nots := v.exists[r]; len(nots) > 0 {
				var aux []*Rule
				r, aux = existsRules(r, nots, names)
				extra = append(extra, aux...)
			}
			out.Rules = append(out.Rules, r)
		}
	}
	out.Rules = append(out.Rules, extra...)
	out.Rules = append(out.Rules, v.domains...)
	return out
}

// existsRules returns r with each negation of nots, whose variables not
// bound elsewhere in r are existential, replaced by the negation of a new
// relation, and the rules of those relations: (not (p ?x ?v)) with ?v
// existential becomes (not (exists_1 ?x)) with (<= (exists_1 ?x) (p ?x ?v)).
// The names are new: names holds every name of the description, and each
// name taken.
func existsRules(r *Rule, nots []*Not, names map[string]bool) (*Rule, []*Rule) {
	others := make(map[string]bool) // variables of r outside the negations
	eachVar(r.Head, func(x *Var) { others[x.Name] = true })
	replaced := make(map[*Not]bool, len(nots))
	for _, n := range nots {
		replaced[n] = true
	}
	for _, l := range r.Body {
		if n, ok := l.(*Not); ok && replaced[n] {
			continue
		}
		eachVar(l, func(x *Var) { others[x.Name] = true })
	}
	body := make([]Literal, len(r.Body))
	var aux []*Rule
	for i, l := range r.Body {
		n, ok := l.(*Not)
		if !ok || !replaced[n] {
			body[i] = l
			continue
		}
		var args []Term
		seen := make(map[string]bool)
		eachVar(n.Arg, func(x *Var) {
			if others[x.Name] && !seen[x.Name] {
				seen[x.Name] = true
				args = append(args, &Var{NamePos: x.NamePos, Name: x.Name})
			}
		})
		name := freshName(names, "exists_")
		head := &Sentence{Lparen: n.Lparen, Name: &Const{NamePos: n.Lparen, Name: name}, Args: args}
		aux = append(aux, &Rule{Lparen: n.Lparen, Head: head, Body: []Literal{n.Arg}})
		body[i] = &Not{Lparen: n.Lparen, Arg: &Sentence{Lparen: n.Lparen, Name: head.Name, Args: args}}
	}
	return &Rule{Lparen: r.Lparen, Head: r.Head, Body: body}, aux
}

// freshName returns prefix followed by the smallest positive number that
// makes a name not in names, and adds it to names.
func freshName(names map[string]bool, prefix string) string {
	for i := 1; ; i++ {
		name := prefix + strconv.Itoa(i)
		if !names[name] {
			names[name] = true
			return name
		}
	}
}
