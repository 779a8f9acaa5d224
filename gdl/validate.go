package gdl

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Severity tells how serious a Problem is.
type Severity int

const (
	// SeverityError marks a description that breaks a restriction of the
	// GDL specification: players and game masters may reject it or
	// compute nonsense from it.
	SeverityError Severity = iota
	// SeverityWarning marks a description that is valid GDL but contains
	// something that certainly has no effect, which is usually a mistake,
	// or, in a GDL-II description, a departure from strict GDL that the
	// Dresden dialect reads through (Problem.NotStrict).
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// The codes of the problems Validate reports. Each names one check; a
// program can filter on them without parsing messages. In a GDL-II
// description some of the errors are warnings instead, for the mistakes
// the Dresden dialect reads through (see Repair): arity, keyword (base and
// input with the wrong arity, sees in a body), unsafe, goal-value and
// syntax (and as a conjunction).
const (
	CodeSyntax     = "syntax"     // error: a construct GDL does not allow, such as (not (distinct ...))
	CodeArity      = "arity"      // error: a relation or function used with different numbers of arguments
	CodeKeyword    = "keyword"    // error: a reserved word used with the wrong arity or in the wrong place
	CodeDependency = "dependency" // error: init, base, input, legal, goal or terminal depends on what it must not
	CodeUnsafe     = "unsafe"     // error: a variable not bound by a positive literal of the body
	CodeNegation   = "negation"   // error: a cycle through negation (the rules are not stratified)
	CodeRecursion  = "recursion"  // error: a recursive literal breaks the recursion restriction
	CodeMissing    = "missing"    // error: no role, legal, goal or terminal at all
	CodeGoalValue  = "goal-value" // error: a goal value that is not an integer from 0 to 100
	CodeUndefined  = "undefined"  // warning: a condition that can never hold, because nothing concludes it
	CodeUnused     = "unused"     // warning: a relation that is defined but never used
	CodeRole       = "role"       // warning: a duplicate role, or a player argument that is not a role
	CodeNesting    = "nesting"    // error: a rule nested more deeply than Validate examines
	CodeCase       = "case"       // warning (GDL-II): variables of one rule whose names differ only in case
)

// A Problem is one error or warning about a game description.
type Problem struct {
	Pos      Pos
	Severity Severity
	Code     string // one of the Code constants
	Msg      string // one line, naming the rule, relation and variable involved
	// NotStrict marks a warning about a departure from strict GDL that a
	// GDL-II description's dialect reads through, the message saying how
	// (see Repair). Strict makes it an error.
	NotStrict bool
}

// String returns "file:line:col: error: msg" or "file:line:col: warning: msg".
func (p Problem) String() string {
	return p.Pos.String() + ": " + p.Severity.String() + ": " + p.Msg
}

// maxNesting bounds how deeply terms and literals may nest for Validate to
// examine a rule. Public games nest a handful of levels.
const maxNesting = 4000

// Validate checks a game description against the restrictions of the GDL
// specification (Love et al., "General Game Playing: Game Description
// Language Specification", 2008) and returns every problem found, sorted by
// position. A description is valid GDL when no problem has SeverityError.
// A GDL-II description (see DecideMode) is held to the restrictions of GDL-II
// as the Dresden GameController's dialect writes it: the differences, and
// the mistakes it reads through with a warning instead of an error, are
// listed at Repair.
//
// The errors are:
//
//   - every relation and every function symbol has one arity; the
//     keywords have theirs: role/1, init/1, true/1, does/2, next/1,
//     legal/2, goal/2, terminal/0, input/2, base/1, sees/2, and are not
//     used as function symbols (random, a role name in GDL-II, may be);
//   - role is defined by facts only; true and does never appear in a rule
//     head; init, next, base, input and sees never appear in a rule body;
//     not, or, distinct and <= are never relation names;
//   - init, base and input do not depend, through the dependency graph, on
//     true, does, next, sees, legal, goal or terminal; legal, goal and
//     terminal do not depend on does or next; next does not depend on
//     next (which only a sees rule may read, in GDL-II);
//   - negation applies to sentences only;
//   - every rule is safe: each variable of the head, of a negative literal
//     and of a distinct occurs in a positive literal of the body. A
//     disjunction (or A B ...) is read as if the rule were split into one
//     rule per disjunct, as ggp-base reads it: it binds a variable only
//     when every disjunct binds it, and the variables of a positive
//     disjunct need no other binding;
//   - the rules are stratified: no cycle of the dependency graph goes
//     through a negative literal. As in the specification the graph links
//     relation names, whatever the arguments, so even
//     (<= (goal r 100) (not (goal r 0))) is an error;
//   - the recursion restriction (Definition 15 of the specification): in a
//     rule with head p, every argument of a body literal q that is in a
//     cycle with p is ground, or equal to an argument of the head, or made
//     only of variables that occur in positive body literals not in a
//     cycle with p. (The specification allows a variable there; allowing a
//     compound term built from such variables is equally finite and keeps
//     the games ggp-base accepts, which compares whole terms.)
//   - there is at least one role, and legal, goal and terminal are defined;
//     every goal value written as a constant is an integer from 0 to 100.
//
// The warnings report what certainly has no effect: a relation used in a
// body but never defined, a (true f) or (does r m) that no init, next or
// legal rule can produce, a relation defined but never used by the rules
// of another relation, a duplicate
// role, and a player argument of legal, does, goal, input or sees that is
// not a role. Validate never reports what only play could reveal, such as a
// role without legal moves in some state.
//
// Validate does not modify d. It skips nil rules and rules without a head,
// and reports (with CodeNesting) rules with other missing nodes or nested
// deeper than any parser allows, without examining them further.
func Validate(d *Description) []Problem {
	if d == nil {
		return nil
	}
	v := &validator{d: d}
	v.run()
	v.problems = sortProblems(v.problems)
	return v.problems
}

// sortProblems sorts ps by position and drops repetitions: a rule read as
// several rules (one per disjunct) is checked as several.
func sortProblems(ps []Problem) []Problem {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Msg < b.Msg
	})
	return slices.Compact(ps)
}

// keywordArity is the arity of each reserved relation.
var keywordArity = map[string]int{
	KeyRole: 1, KeyInit: 1, KeyTrue: 1, KeyDoes: 2, KeyNext: 1,
	KeyLegal: 2, KeyGoal: 2, KeyTerminal: 0, KeyInput: 2, KeyBase: 1,
	KeySees: 2,
}

// symbol records how a relation or function name is used.
type symbol struct {
	arity    int
	arityPos Pos // first occurrence, which fixes the arity
	def      Pos // first occurrence in a rule head, if any
	use      Pos // first occurrence in a body, if any
	usedBy   bool
}

type validator struct {
	d        *Description
	problems []Problem
	rules    []*Rule // the rules examined, as read: non-nil, with a head, not too deep

	// gdl2 is set for a GDL-II description, which is read in the Dresden
	// dialect (see Repair).
	gdl2 bool
	// read maps each rule of d that the dialect reads otherwise than
	// written to the rules it is read as: none when it is ignored,
	// several when a disjunction of conjunctions is read as one rule per
	// disjunct.
	read map[*Rule][]*Rule
	// domains holds the rules of the relations the dialect adds for head
	// variables that range over what their callers give them (see
	// headDomains).
	domains []*Rule
	// exists holds, for each rule as read, the negations whose variables
	// of their own are read existentially.
	exists map[*Rule][]*Not

	// listNamed maps a variable or number naming lists, in lower case,
	// to the constant the dialect names them by, and taken holds every
	// name of d and each such constant (see listName).
	listNamed map[string]string
	taken     map[string]bool

	heads  map[string]bool   // name/arity of every relation a rule head defines, made by isRelation
	arity0 map[string]symbol // the first arity of each relation name; see relKey
	rels   map[string]*symbol
	funcs  map[string]*symbol

	g *depGraph
}

func (v *validator) errorf(pos Pos, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{pos, SeverityError, code, fmt.Sprintf(format, args...), false})
}

func (v *validator) warnf(pos Pos, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{pos, SeverityWarning, code, fmt.Sprintf(format, args...), false})
}

// readf reports a departure from strict GDL that the Dresden dialect reads
// through, saying how it is read: a warning, and an error under Strict.
func (v *validator) readf(pos Pos, code, format string, args ...any) {
	v.problems = append(v.problems, Problem{pos, SeverityWarning, code, fmt.Sprintf(format, args...), true})
}

func (v *validator) run() {
	v.gdl2 = DecideMode(v.d, NatureSeated) == GDLII
	for _, r := range v.d.Rules {
		if r == nil || r.Head == nil || r.Head.Name == nil {
			continue
		}
		if !ruleWellFormed(r) {
			v.errorf(r.Pos(), CodeNesting, "rule for %s is nested more than %d levels deep or incomplete; not examined", r.Head.Name.Name, maxNesting)
			continue
		}
		if !v.gdl2 {
			v.refuseListNames(r)
			v.rules = append(v.rules, r)
			continue
		}
		read := v.readDialect(r)
		if len(read) != 1 || read[0] != r {
			if v.read == nil {
				v.read = make(map[*Rule][]*Rule)
			}
			v.read[r] = read
		}
		v.rules = append(v.rules, read...)
	}
	if v.gdl2 {
		v.headDomains()
	}
	v.checkSymbols()
	v.checkKeywordPlaces()
	v.checkMissing()
	for _, r := range v.rules {
		v.checkSafety(r)
	}
	v.g = buildGraph(v.rules, v.relKey)
	v.checkStratified()
	v.checkDependencies()
	for _, r := range v.rules {
		v.checkRecursion(r)
	}
	v.checkRoles()
	v.checkGoalValues()
	v.checkUndefined()
	v.checkUnused()
}

// ruleWellFormed reports whether every node of r is present and r nests at
// most maxNesting levels, so that the recursive walks below are safe. It
// walks by hand because Inspect skips the missing nodes it looks for.
func ruleWellFormed(r *Rule) bool {
	if !sentenceOK(r.Head, 1) {
		return false
	}
	for _, l := range r.Body {
		if !literalOK(l, 1) {
			return false
		}
	}
	return true
}

func sentenceOK(s *Sentence, depth int) bool {
	if s == nil || s.Name == nil {
		return false
	}
	for _, t := range s.Args {
		if !termOK(t, depth+1) {
			return false
		}
	}
	return true
}

func literalOK(l Literal, depth int) bool {
	if depth > maxNesting {
		return false
	}
	switch l := l.(type) {
	case *Sentence:
		return l != nil && sentenceOK(l, depth)
	case *Not:
		return l != nil && literalOK(l.Arg, depth+1)
	case *Distinct:
		return l != nil && termOK(l.X, depth+1) && termOK(l.Y, depth+1)
	case *Or:
		if l == nil {
			return false
		}
		for _, d := range l.Disjuncts {
			if !literalOK(d, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

func termOK(t Term, depth int) bool {
	if depth > maxNesting {
		return false
	}
	switch t := t.(type) {
	case *Const:
		return t != nil
	case *Var:
		return t != nil
	case *Func:
		if t == nil || t.Name == nil {
			return false
		}
		for _, a := range t.Args {
			if !termOK(a, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// eachSentence calls fn for every sentence in l, with neg telling whether
// it occurs under a negation.
func eachSentence(l Literal, neg bool, fn func(s *Sentence, neg bool)) {
	Inspect(l, func(n Node) bool {
		switch n := n.(type) {
		case *Sentence:
			fn(n, neg)
		case *Not:
			eachSentence(n.Arg, !neg, fn)
		case *Or:
			return true
		}
		return false
	})
}

// eachBodySentence calls fn for every sentence in the body of r.
func eachBodySentence(r *Rule, fn func(s *Sentence, neg bool)) {
	for _, l := range r.Body {
		eachSentence(l, false, fn)
	}
}

// eachFunc calls fn for every function term in t, outermost first.
func eachFunc(t Term, fn func(f *Func)) {
	Inspect(t, func(n Node) bool {
		if f, ok := n.(*Func); ok {
			fn(f)
		}
		return true
	})
}

// eachVar calls fn for every variable occurrence in n, left to right.
func eachVar(n Node, fn func(x *Var)) {
	Inspect(n, func(n Node) bool {
		if x, ok := n.(*Var); ok {
			fn(x)
		}
		return true
	})
}

// checkSymbols checks the arity of every relation and function symbol and
// records where each relation is defined and used.
//
// In GDL a name has one arity. In GDL-II, read in the Dresden dialect, a
// name used with several arities names as many relations or functions, as
// in Prolog: terms of different arities never match, so the reading is
// unambiguous, and each further arity gets a warning rather than an error.
func (v *validator) checkSymbols() {
	v.arity0 = make(map[string]symbol)
	for _, r := range v.rules {
		first := func(s *Sentence, _ bool) {
			if _, ok := v.arity0[s.Name.Name]; ok {
				return
			}
			if want, ok := keywordArity[s.Name.Name]; ok {
				v.arity0[s.Name.Name] = symbol{arity: want}
				return
			}
			v.arity0[s.Name.Name] = symbol{arity: len(s.Args), arityPos: s.Pos()}
		}
		first(r.Head, true)
		eachBodySentence(r, first)
	}
	v.rels = make(map[string]*symbol)
	v.funcs = make(map[string]*symbol)
	warned := make(map[string]bool)
	sentence := func(s *Sentence, head bool) {
		name := s.Name.Name
		key := v.relKey(s)
		sym := v.rels[key]
		if sym == nil {
			sym = &symbol{arity: len(s.Args), arityPos: s.Pos()}
			v.rels[key] = sym
		}
		if first := v.arity0[name]; len(s.Args) != first.arity {
			_, keyword := keywordArity[name]
			switch {
			case keyword:
				v.errorf(s.Pos(), CodeKeyword, "%s takes %s, not %d", name, plural(first.arity, "argument"), len(s.Args))
			case !v.gdl2:
				v.errorf(s.Pos(), CodeArity, "relation %s has %s here but %d at %s", name, plural(len(s.Args), "argument"), first.arity, lineCol(first.arityPos))
			case !warned["rel "+key]:
				warned["rel "+key] = true
				v.readf(s.Pos(), CodeArity, "relation %s has %s here but %d at %s; read as a relation %s of its own", name, plural(len(s.Args), "argument"), first.arity, lineCol(first.arityPos), key)
			}
		}
		if head && !sym.def.IsValid() {
			sym.def = s.Pos()
		}
		if !head && !sym.use.IsValid() {
			sym.use = s.Pos()
		}
		for i, a := range s.Args {
			// The Dresden dialect writes percepts such as
			// (sees ?r (does ?p ?m)): keywords as function symbols
			// inside the percept argument of sees.
			percept := name == KeySees && i == 1
			eachFunc(a, func(f *Func) {
				fname := f.Name.Name
				if IsKeyword(fname) && fname != KeyRandom && !percept {
					v.errorf(f.Pos(), CodeKeyword, "keyword %s is used as a function symbol inside %s", fname, name)
				}
				fs := v.funcs[fname]
				if fs == nil {
					v.funcs[fname] = &symbol{arity: len(f.Args), arityPos: f.Pos()}
					return
				}
				if len(f.Args) == fs.arity {
					return
				}
				if !v.gdl2 {
					v.errorf(f.Pos(), CodeArity, "function %s has %s here but %d at %s", fname, plural(len(f.Args), "argument"), fs.arity, lineCol(fs.arityPos))
					return
				}
				fkey := fname + "/" + strconv.Itoa(len(f.Args))
				if !warned["func "+fkey] {
					warned["func "+fkey] = true
					v.readf(f.Pos(), CodeArity, "function %s has %s here but %d at %s; read as a function %s of its own", fname, plural(len(f.Args), "argument"), fs.arity, lineCol(fs.arityPos), fkey)
				}
			})
		}
	}
	for _, r := range v.rules {
		sentence(r.Head, true)
		for _, l := range r.Body {
			v.checkLiteralForm(l, r)
			eachSentence(l, false, func(s *Sentence, _ bool) { sentence(s, false) })
		}
	}
	// usedBy: the relation is used in the body of a rule for another relation.
	for _, r := range v.rules {
		head := v.relKey(r.Head)
		eachBodySentence(r, func(s *Sentence, _ bool) {
			if key := v.relKey(s); key != head {
				v.rels[key].usedBy = true
			}
		})
	}
}

// relKey returns the name under which the validator knows the relation of
// s: its name, or in GDL-II, where a name used with several arities names
// as many relations, name/arity for the arities other than the first (a
// keyword's first arity is its own).
func (v *validator) relKey(s *Sentence) string {
	name := s.Name.Name
	if !v.gdl2 {
		return name
	}
	if first, ok := v.arity0[name]; !ok || first.arity == len(s.Args) {
		return name
	}
	return name + "/" + strconv.Itoa(len(s.Args))
}

// checkLiteralForm reports negations of anything but a sentence.
func (v *validator) checkLiteralForm(l Literal, r *Rule) {
	Inspect(l, func(n Node) bool {
		switch n := n.(type) {
		case *Not:
			switch n.Arg.(type) {
			case *Distinct:
				v.errorf(n.Pos(), CodeSyntax, "in rule for %s: not applies only to sentences, not to distinct; write the equality with a shared variable instead", r.Head.Name.Name)
			case *Or:
				v.errorf(n.Pos(), CodeSyntax, "in rule for %s: not applies only to sentences, not to or; negate each disjunct instead", r.Head.Name.Name)
			case *Not:
				v.errorf(n.Pos(), CodeSyntax, "in rule for %s: not applies only to sentences, not to another not", r.Head.Name.Name)
			}
			return true
		case *Or:
			return true
		}
		return false
	})
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// lineCol returns "line:col" of a position in the file being validated.
func lineCol(p Pos) string {
	if !p.IsValid() {
		return "-"
	}
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// notRelations are reserved words that are never relation names.
var notRelations = map[string]bool{KeyNot: true, KeyOr: true, KeyDistinct: true, KeyRule: true}

// headOnly are the keywords that may not appear in rule bodies.
var headOnly = map[string]bool{KeyInit: true, KeyNext: true, KeyBase: true, KeyInput: true, KeySees: true}

// checkKeywordPlaces checks that keywords appear only where GDL allows.
func (v *validator) checkKeywordPlaces() {
	for _, r := range v.rules {
		h := r.Head.Name.Name
		switch {
		case h == KeyTrue || h == KeyDoes:
			v.errorf(r.Head.Pos(), CodeKeyword, "%s cannot be the head of a rule or a fact: it is given by the game state and the moves", h)
		case h == KeyRole && !r.IsFact():
			v.errorf(r.Head.Pos(), CodeKeyword, "role must be defined by facts, not by a rule")
		case notRelations[h]:
			v.errorf(r.Head.Pos(), CodeKeyword, "%s is a reserved word and cannot be the head of a rule or a fact", h)
		}
		eachBodySentence(r, func(s *Sentence, _ bool) {
			n := s.Name.Name
			switch {
			case n == KeyNext && h == KeySees:
				// The Dresden dialect: a percept may depend on the
				// state after the move.
			case n == KeySees && v.gdl2:
				v.readf(s.Pos(), CodeKeyword, "in rule for %s: GDL-II allows sees only in rule heads; %s is read as a relation of the state and the moves, like any other", h, shortForm(s))
			case headOnly[n]:
				v.errorf(s.Pos(), CodeKeyword, "in rule for %s: %s may appear only in rule heads, not in a body", h, n)
			case notRelations[n]:
				v.errorf(s.Pos(), CodeKeyword, "in rule for %s: %s is a reserved word, not a relation", h, n)
			}
		})
	}
}

// checkMissing reports the relations every game needs but d lacks.
func (v *validator) checkMissing() {
	for _, name := range []string{KeyRole, KeyLegal, KeyGoal, KeyTerminal} {
		if s := v.rels[name]; s == nil || !s.def.IsValid() {
			v.errorf(v.d.Pos(), CodeMissing, "no %s is defined: every game needs %s", name, missingWhy[name])
		}
	}
}

var missingWhy = map[string]string{
	KeyRole:     "at least one role fact",
	KeyLegal:    "legal rules giving the moves",
	KeyGoal:     "goal rules giving the payoffs",
	KeyTerminal: "a terminal rule saying when it ends",
}

// boundVars returns the variables that the body binds: those of the
// positive sentences, and, for each disjunction, those found in a positive
// sentence in every one of its disjuncts.
func boundVars(body []Literal) map[string]bool {
	bound := make(map[string]bool)
	for _, l := range body {
		for name := range literalBinds(l, nil) {
			bound[name] = true
		}
	}
	return bound
}

// literalBinds returns the variables that literal l binds, leaving out the
// sentences for which recursive, when not nil, reports true.
func literalBinds(l Literal, recursive func(*Sentence) bool) map[string]bool {
	switch l := l.(type) {
	case *Sentence:
		if recursive != nil && recursive(l) {
			return nil
		}
		set := make(map[string]bool)
		eachVar(l, func(x *Var) { set[x.Name] = true })
		return set
	case *Or:
		var set map[string]bool
		for i, d := range l.Disjuncts {
			ds := literalBinds(d, recursive)
			if i == 0 {
				set = ds
				continue
			}
			for name := range set {
				if !ds[name] {
					delete(set, name)
				}
			}
		}
		return set
	}
	return nil
}

// checkSafety reports the variables of r that no positive literal binds.
//
// In GDL-II a variable that occurs in a single negation of the body and
// nowhere else, as ?v in (not (true (card talon ?v))), is read as
// existential, "no value of ?v makes it hold", as Prolog's negation reads
// it and the Dresden GameController plays it; it gets a warning, and the
// negation is recorded in v.exists for Repair.
func (v *validator) checkSafety(r *Rule) {
	bound := boundVars(r.Body)
	head := r.Head.Name.Name
	reported := make(map[string]bool)
	if v.gdl2 {
		for _, n := range v.existential(r, bound) {
			if v.exists == nil {
				v.exists = make(map[*Rule][]*Not)
			}
			v.exists[r] = append(v.exists[r], n)
			eachVar(n.Arg, func(x *Var) {
				if bound[x.Name] || reported[x.Name] {
					return
				}
				reported[x.Name] = true
				v.readf(x.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s appears only in negations, here (not %s); read as Prolog's negation reads it: no value of ?%s makes it hold, in each negation on its own", head, x.Name, shortForm(n.Arg), x.Name)
			})
		}
	}
	report := func(x *Var, where string) {
		if bound[x.Name] || reported[x.Name] {
			return
		}
		reported[x.Name] = true
		if r.IsFact() {
			v.errorf(x.Pos(), CodeUnsafe, "unsafe fact for %s: variable ?%s in a fact; facts must be ground", head, x.Name)
			return
		}
		why := ""
		if v.gdl2 && where == "the head" {
			// The dialect reads a role argument as ranging over the
			// roles; nothing says what any other ranges over.
			why = ", and it is not a role argument: the rule would hold for every value of it, and nothing says which values are meant"
		}
		v.errorf(x.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s in %s appears in no positive literal of the body%s", head, x.Name, where, why)
	}
	eachVar(r.Head, func(x *Var) { report(x, "the head") })
	for _, l := range r.Body {
		Inspect(l, func(n Node) bool {
			switch n := n.(type) {
			case *Not:
				where := "(not " + shortForm(n.Arg) + ")"
				eachVar(n.Arg, func(x *Var) { report(x, where) })
			case *Distinct:
				where := shortForm(n)
				eachVar(n, func(x *Var) { report(x, where) })
			case *Or:
				return true
			}
			return false
		})
	}
}

// checkStratified reports every negative literal on a cycle of the
// dependency graph, naming the relations of the cycle.
func (v *validator) checkStratified() {
	for _, r := range v.rules {
		p := v.g.id[v.relKey(r.Head)]
		eachBodySentence(r, func(s *Sentence, neg bool) {
			if !neg {
				return
			}
			q := v.g.id[v.relKey(s)]
			if v.g.comp[p] != v.g.comp[q] {
				return
			}
			if p == q {
				v.errorf(s.Pos(), CodeNegation, "negation cycle: this rule for %s uses (not %s), so %s depends on its own negation; GDL requires stratified negation, by relation name, whatever the arguments",
					v.g.names[p], shortForm(s), v.g.names[p])
				return
			}
			v.errorf(s.Pos(), CodeNegation, "negation cycle: this rule for %s uses (not %s), and %s depends on %s%s; the rules are not stratified",
				v.g.names[p], shortForm(s), v.g.names[q], v.g.names[p], v.g.showPath(q, p))
		})
	}
}

// forbidden lists, for each keyword, the relations it may not depend on.
// The next state, which sees rules may read in the Dresden dialect, is as
// forbidden as the moves it follows from, and nothing but sees may read
// it, next least of all.
var forbidden = map[string][]string{
	KeyInit:     {KeyTrue, KeyDoes, KeyNext, KeySees, KeyLegal, KeyGoal, KeyTerminal},
	KeyBase:     {KeyTrue, KeyDoes, KeyNext, KeySees, KeyLegal, KeyGoal, KeyTerminal},
	KeyInput:    {KeyTrue, KeyDoes, KeyNext, KeySees, KeyLegal, KeyGoal, KeyTerminal},
	KeyLegal:    {KeyNext, KeyDoes},
	KeyGoal:     {KeyNext, KeyDoes},
	KeyTerminal: {KeyNext, KeyDoes},
	KeyNext:     {KeyNext},
}

// checkDependencies reports rules for init, base, input, legal, goal and
// terminal that depend on a relation they must not depend on: once for
// each relation of the body that leads there, naming the first forbidden
// relation it reaches and the path to it.
func (v *validator) checkDependencies() {
	for _, r := range v.rules {
		head := v.relKey(r.Head)
		bad := forbidden[head]
		if len(bad) == 0 {
			continue
		}
		reported := make(map[string]bool)
		eachBodySentence(r, func(s *Sentence, _ bool) {
			name := v.relKey(s)
			if reported[name] || name == KeyNext {
				// next outside a sees rule is reported by
				// checkKeywordPlaces.
				return
			}
			q := v.g.id[name]
			if slices.Contains(bad, name) {
				reported[name] = true
				v.errorf(s.Pos(), CodeDependency, "%s must not depend on %s, but this rule for %s uses %s", head, name, head, shortForm(s))
				return
			}
			for _, f := range bad {
				fid, ok := v.g.id[f]
				if !ok || !v.g.reaches(fid)[q] {
					continue
				}
				reported[name] = true
				v.errorf(s.Pos(), CodeDependency, "%s must not depend on %s, but this rule for %s uses %s, which depends on %s%s",
					head, f, head, name, f, v.g.showPath(q, fid))
				return
			}
		})
	}
}

// checkRecursion checks the recursion restriction of the GDL specification
// (Definition 15) for rule r.
func (v *validator) checkRecursion(r *Rule) {
	p := v.g.id[v.relKey(r.Head)]
	if !v.g.cyclic[v.g.comp[p]] {
		return
	}
	recursive := func(s *Sentence) bool {
		return v.g.comp[v.g.id[v.relKey(s)]] == v.g.comp[p]
	}
	// binds[i] holds the variables that the non-recursive positive
	// sentences of literal i bind, and count how many literals bind each,
	// so that the variables bound outside literal i are found in constant
	// time.
	binds := make([]map[string]bool, len(r.Body))
	count := make(map[string]int)
	for i, l := range r.Body {
		binds[i] = literalBinds(l, recursive)
		for x := range binds[i] {
			count[x]++
		}
	}
	heads := make(map[string]bool, len(r.Head.Args))
	for _, h := range r.Head.Args {
		heads[Format(h)] = true
	}
	check := func(s *Sentence, i int) {
		for _, a := range s.Args {
			if IsGround(a) || heads[Format(a)] {
				continue
			}
			var bad *Var
			eachVar(a, func(x *Var) {
				n := count[x.Name]
				if binds[i][x.Name] {
					n--
				}
				if bad == nil && n == 0 {
					bad = x
				}
			})
			if bad == nil {
				continue
			}
			v.errorf(a.Pos(), CodeRecursion, "recursion restriction: in rule for %s, argument %s of %s, which is recursive with %s, is neither ground nor an argument of the head, and ?%s appears in no positive literal outside the recursion",
				r.Head.Name.Name, shortForm(a), s.Name.Name, r.Head.Name.Name, bad.Name)
		}
	}
	for i, l := range r.Body {
		Inspect(l, func(n Node) bool {
			switch n := n.(type) {
			case *Sentence:
				if recursive(n) {
					check(n, i)
				}
			case *Or:
				return true
			}
			return false
		})
	}
}

// checkRoles warns about duplicate roles and about player arguments that
// are not roles.
func (v *validator) checkRoles() {
	roles := make(map[string]Pos)
	allGround := true
	for _, r := range v.rules {
		if r.Head.Name.Name != KeyRole || !r.IsFact() || len(r.Head.Args) != 1 {
			continue
		}
		a := r.Head.Args[0]
		if !IsGround(a) {
			allGround = false
			continue
		}
		key := shortForm(a)
		if first, ok := roles[key]; ok {
			v.warnf(r.Head.Pos(), CodeRole, "role %s is declared again; first declared at %s", key, lineCol(first))
			continue
		}
		roles[key] = r.Head.Pos()
	}
	if len(roles) == 0 || !allGround {
		return
	}
	warned := make(map[string]bool)
	check := func(s *Sentence) {
		switch s.Name.Name {
		case KeyLegal, KeyDoes, KeyGoal, KeyInput, KeySees:
		default:
			return
		}
		if len(s.Args) == 0 || !IsGround(s.Args[0]) {
			return
		}
		key := shortForm(s.Args[0])
		if _, ok := roles[key]; ok || warned[s.Name.Name+" "+key] {
			return
		}
		warned[s.Name.Name+" "+key] = true
		v.warnf(s.Args[0].Pos(), CodeRole, "%s names player %s, which is not a role", s.Name.Name, key)
	}
	for _, r := range v.rules {
		check(r.Head)
		eachBodySentence(r, func(s *Sentence, _ bool) { check(s) })
	}
}

// checkGoalValues reports constant goal values outside 0..100.
func (v *validator) checkGoalValues() {
	for _, r := range v.rules {
		h := r.Head
		if h.Name.Name != KeyGoal || len(h.Args) != 2 {
			continue
		}
		switch val := h.Args[1].(type) {
		case *Const:
			n, err := strconv.Atoi(val.Name)
			if err != nil || n < 0 || n > 100 || val.Name != strconv.Itoa(n) {
				v.errorf(val.Pos(), CodeGoalValue, "goal value %s is not an integer from 0 to 100", val.Name)
			}
		case *Func:
			v.errorf(val.Pos(), CodeGoalValue, "goal value %s is not an integer from 0 to 100", shortForm(val))
		}
	}
}

// shape is the top-level symbol of a term: name and arity, or "" for a
// variable, which may stand for anything.
func shape(t Term) string {
	switch t := t.(type) {
	case *Const:
		return t.Name + "/0"
	case *Func:
		return t.Name.Name + "/" + strconv.Itoa(len(t.Args))
	}
	return ""
}

// checkUndefined warns about body sentences that can never hold: relations
// that nothing defines, (true f) for an f that no init or next produces,
// and (does r m) for an m that no legal rule allows.
func (v *validator) checkUndefined() {
	// Shapes of the fluents init and next produce, and of the moves legal
	// allows; a variable produces anything.
	fluents, moves := make(map[string]bool), make(map[string]bool)
	anyFluent, anyMove := false, false
	for _, r := range v.rules {
		h := r.Head
		switch {
		case (h.Name.Name == KeyInit || h.Name.Name == KeyNext) && len(h.Args) == 1:
			if sh := shape(h.Args[0]); sh == "" {
				anyFluent = true
			} else {
				fluents[sh] = true
			}
		case h.Name.Name == KeyLegal && len(h.Args) == 2:
			if sh := shape(h.Args[1]); sh == "" {
				anyMove = true
			} else {
				moves[sh] = true
			}
		}
	}
	warned := make(map[string]bool)
	for _, r := range v.rules {
		eachBodySentence(r, func(s *Sentence, neg bool) {
			name := s.Name.Name
			always := "false"
			if neg {
				always = "true"
			}
			switch {
			case name == KeyTrue && len(s.Args) == 1:
				sh := shape(s.Args[0])
				if anyFluent || sh == "" || fluents[sh] || warned["true "+sh] {
					return
				}
				warned["true "+sh] = true
				v.warnf(s.Pos(), CodeUndefined, "in rule for %s: %s can never hold: no init or next produces %s", r.Head.Name.Name, shortForm(s), sh)
			case name == KeyDoes && len(s.Args) == 2:
				sh := shape(s.Args[1])
				if anyMove || sh == "" || moves[sh] || warned["does "+sh] {
					return
				}
				warned["does "+sh] = true
				v.warnf(s.Pos(), CodeUndefined, "in rule for %s: %s can never hold: no legal rule allows a move %s", r.Head.Name.Name, shortForm(s), sh)
			case name == KeyTrue || name == KeyDoes || headOnly[name] || notRelations[name]:
			default:
				key := v.relKey(s)
				if v.rels[key].def.IsValid() || warned[key] {
					return
				}
				warned[key] = true
				v.warnf(s.Pos(), CodeUndefined, "in rule for %s: relation %s is never defined, so %s is always %s", r.Head.Name.Name, key, shortForm(s), always)
			}
		})
	}
}

// checkUnused warns about relations that are defined but never used in
// the body of a rule for another relation.
func (v *validator) checkUnused() {
	for name, sym := range v.rels {
		if _, ok := keywordArity[name]; ok || notRelations[name] || !sym.def.IsValid() || sym.usedBy {
			continue
		}
		v.warnf(sym.def, CodeUnused, "relation %s is defined but never used by another rule, so it has no effect on the game", name)
	}
}

// shortForm writes n in KIF, shortened to about 60 bytes, for messages.
func shortForm(n Node) string {
	var b strings.Builder
	writeShort(&b, n, 0)
	s := b.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func writeShort(b *strings.Builder, n Node, depth int) {
	if b.Len() > 80 || depth > 20 {
		b.WriteString("...")
		return
	}
	list := func(name string, args []Node) {
		b.WriteString("(" + name)
		for _, a := range args {
			b.WriteByte(' ')
			writeShort(b, a, depth+1)
		}
		b.WriteByte(')')
	}
	switch n := n.(type) {
	case *Const:
		b.WriteString(n.Name)
	case *Var:
		b.WriteString("?" + n.Name)
	case *Func:
		list(n.Name.Name, termNodes(n.Args))
	case *Sentence:
		if len(n.Args) == 0 {
			b.WriteString(n.Name.Name)
			return
		}
		list(n.Name.Name, termNodes(n.Args))
	case *Not:
		list(KeyNot, []Node{n.Arg})
	case *Distinct:
		list(KeyDistinct, []Node{n.X, n.Y})
	case *Or:
		args := make([]Node, len(n.Disjuncts))
		for i, d := range n.Disjuncts {
			args[i] = d
		}
		list(KeyOr, args)
	}
}

func termNodes(ts []Term) []Node {
	ns := make([]Node, len(ts))
	for i, t := range ts {
		ns[i] = t
	}
	return ns
}
