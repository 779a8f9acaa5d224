package propnet

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gdl"
)

// Compiling the rules: each rule, its or and not expanded, becomes clauses
// over patterns whose variables are numbered, ready for the join.

// patKind tells how a pattern matches a ground term.
type patKind uint8

type pat struct {
	kind patKind
	id   termID // patGround
	v    int    // patVar
	sym  int32  // patFunc
	args []pat  // patFunc
}

type litKind uint8

const (
	litPos litKind = iota
	litNeg
	litDistinct
)

// literal is one condition of a clause's body, or its head.
type literal struct {
	kind litKind
	rel  int   // relation index, litPos and litNeg
	args []pat // the atom's arguments, litPos and litNeg
	x, y pat   // litDistinct
	vars []int // the variables occurring
	// filter marks a positive literal that restricts the join without
	// being a condition of the rule: a demand (demand.go).
	filter bool
}

// clause is a rule with its disjunctions expanded.
type clause struct {
	head  literal
	body  []literal
	nvars int
	// relax marks the clauses that only widen the relaxation (true from
	// init and next, does from legal) and are no gate of the network.
	relax bool
	pos   gdl.Pos
	// except is 1 + the relation of the witness literal of a rule of an
	// except relation (except.go), 0 for other rules.
	except int
}

// relation holds the atoms of one relation found so far, in the order
// found, indexed by each argument and the parts of arguments: (true (cell
// ?x ?y b)) looks up the facts whose argument is a cell whose third
// argument is b.
type relation struct {
	sym     int32
	arity   int
	name    string
	atoms   []termID
	indexes map[string]*compIndex // by the parts bound
}

// isState reports whether r is true or does: the state or the moves.
func (r *relation) isState() bool {
	return (r.name == gdl.KeyTrue && r.arity == 1) || (r.name == gdl.KeyDoes && r.arity == 2)
}

// maxExpansion bounds the clauses one rule's disjunctions expand into.
const maxExpansion = 4096

// compile turns the rules of d into clauses.
func (g *grounder) compile(d *gdl.Description) error {
	for _, r := range d.Rules {
		if r.Head == nil || r.Head.Name == nil {
			return fmt.Errorf("%s: rule without a head", r.Pos())
		}
		switch r.Head.Name.Name {
		case gdl.KeyTrue, gdl.KeyDoes:
			return fmt.Errorf("%s: a rule defines %s", r.Pos(), r.Head.Name.Name)
		}
		body := r.Body
		if !g.noSplit {
			var err error
			if body, err = g.disjunctions(r); err != nil {
				return err
			}
		}
		alts := [][]gdl.Literal{nil}
		for _, l := range body {
			ls, err := expand(l, false)
			if err != nil {
				return fmt.Errorf("%s: %w", l.Pos(), err)
			}
			var next [][]gdl.Literal
			for _, a := range alts {
				for _, b := range ls {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			if len(next) > maxExpansion {
				return fmt.Errorf("%s: %w: disjunctions expand into more than %d rules", r.Pos(), ErrBudget, maxExpansion)
			}
			alts = next
		}
		for _, body := range alts {
			c, err := g.clause(r.Head, body)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Pos(), err)
			}
			c.pos = r.Pos()
			g.rules = append(g.rules, c)
			g.project(c)
		}
	}
	if !g.noSplit && !g.limits.noAbstract {
		g.abstract()
	}
	if !g.noSplit && !g.noUnfold {
		g.unfold()
	}
	if !g.noSplit {
		g.split()
		g.except()
	}
	// The relaxation: true of whatever init or next may hold of, does of
	// whatever legal may allow.
	x, rr, m := &gdl.Var{Name: "x"}, &gdl.Var{Name: "r"}, &gdl.Var{Name: "m"}
	sent := func(name string, args ...gdl.Term) *gdl.Sentence {
		return &gdl.Sentence{Name: &gdl.Const{Name: name}, Args: args}
	}
	for _, rc := range []struct {
		head *gdl.Sentence
		body *gdl.Sentence
	}{
		{sent(gdl.KeyTrue, x), sent(gdl.KeyInit, x)},
		{sent(gdl.KeyTrue, x), sent(gdl.KeyNext, x)},
		{sent(gdl.KeyDoes, rr, m), sent(gdl.KeyLegal, rr, m)},
	} {
		c, err := g.clause(rc.head, []gdl.Literal{rc.body})
		if err != nil {
			return err
		}
		c.relax = true
		g.rules = append(g.rules, c)
	}
	if !g.noDemand {
		g.demand()
	}
	return nil
}

// disjunctions returns the body of r with each disjunction of sentences
// that all mention the variables it shares with the rest of the rule
// replaced by a relation over those, defined by one rule per disjunct.
// Expanded, (or a b c) would copy the rule three times, and each copy's
// joins would be grounded and split apart; chess's threatened_with_capture
// asks whether a bishop, rook or queen attacks, with the attacker's square
// joined with the capture square in each copy (see except.go).
func (g *grounder) disjunctions(r *gdl.Rule) ([]gdl.Literal, error) {
	var body []gdl.Literal
	for i, l := range r.Body {
		o, ok := l.(*gdl.Or)
		if !ok || len(o.Disjuncts) < 2 {
			body = append(body, l)
			continue
		}
		outside := map[string]bool{}
		addVars(r.Head, outside)
		for j, m := range r.Body {
			if j != i {
				addVars(m, outside)
			}
		}
		inside := map[string]bool{}
		addVars(o, inside)
		var shared []string
		for v := range inside {
			if outside[v] {
				shared = append(shared, v)
			}
		}
		slices.Sort(shared)
		all := true
		for _, d := range o.Disjuncts {
			s, ok := d.(*gdl.Sentence)
			if !ok {
				all = false
				break
			}
			vs := map[string]bool{}
			addVars(s, vs)
			if slices.ContainsFunc(shared, func(v string) bool { return !vs[v] }) {
				all = false
				break
			}
		}
		if !all {
			body = append(body, l)
			continue
		}
		key := gdl.Format(o) + " |" + strings.Join(shared, " ")
		name, seen := g.disjunctionRels[key]
		if !seen {
			name = fmt.Sprintf("disjunction %d", len(g.disjunctionRels))
			if g.disjunctionRels == nil {
				g.disjunctionRels = map[string]string{}
			}
			g.disjunctionRels[key] = name
		}
		head := &gdl.Sentence{Lparen: o.Lparen, Name: &gdl.Const{NamePos: o.Lparen, Name: name}}
		for _, v := range shared {
			head.Args = append(head.Args, &gdl.Var{NamePos: o.Lparen, Name: v})
		}
		body = append(body, head)
		if seen {
			continue
		}
		for _, d := range o.Disjuncts {
			c, err := g.clause(head, []gdl.Literal{d})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Pos(), err)
			}
			c.pos = d.Pos()
			g.rules = append(g.rules, c)
		}
	}
	return body, nil
}

// addVars adds the names of the variables of n to vs.
func addVars(n gdl.Node, vs map[string]bool) {
	switch n := n.(type) {
	case *gdl.Var:
		vs[n.Name] = true
	case *gdl.Func:
		for _, a := range n.Args {
			addVars(a, vs)
		}
	case *gdl.Sentence:
		for _, a := range n.Args {
			addVars(a, vs)
		}
	case *gdl.Not:
		addVars(n.Arg, vs)
	case *gdl.Distinct:
		addVars(n.X, vs)
		addVars(n.Y, vs)
	case *gdl.Or:
		for _, d := range n.Disjuncts {
			addVars(d, vs)
		}
	}
}

// project replaces each positive literal of c that has variables used
// nowhere else in c by a literal of a new relation over its other
// variables, defined by one rule from the literal. The variables projected
// away no longer multiply c's instances: in (<= (next (cell ?x ?y ?m))
// (true (cell ?x ?y ?m)) (does blocker (mark ?xb ?yb ?x2 ?y2)) (does crosser
// (mark ?xc ?yc ?x3 ?y3)) ...) each move would otherwise pair with each
// other move whatever the ?x2 ?y2 ?x3 ?y3 that no other literal reads.
func (g *grounder) project(c *clause) {
	npos := 0
	for _, l := range c.body {
		if l.kind == litPos {
			npos++
		}
	}
	if npos < 2 {
		return
	}
	uses := make([]int, c.nvars)
	for _, p := range c.head.args {
		countVars(p, uses)
	}
	for _, l := range c.body {
		if l.kind == litDistinct {
			countVars(l.x, uses)
			countVars(l.y, uses)
		}
		for _, p := range l.args {
			countVars(p, uses)
		}
	}
	for i := range c.body {
		l := &c.body[i]
		if l.kind != litPos {
			continue
		}
		var keep []int
		single := false
		for _, v := range l.vars {
			if uses[v] == 1 {
				single = true
			} else {
				keep = append(keep, v)
			}
		}
		if !single {
			continue
		}
		aux, isNew := g.auxRelation("projection", []literal{*l}, keep)
		if isNew {
			g.rules = append(g.rules, &clause{head: aux, body: []literal{*l}, nvars: c.nvars, pos: c.pos})
		}
		c.body[i] = aux
	}
}

func countVars(p pat, uses []int) {
	switch p.kind {
	case patVar:
		uses[p.v]++
	case patFunc:
		for _, a := range p.args {
			countVars(a, uses)
		}
	}
}

// expand returns a literal as alternatives of conjunctions of sentences,
// negated sentences and distincts: disjunctions are multiplied out and
// negations pushed inwards.
func expand(l gdl.Literal, negated bool) ([][]gdl.Literal, error) {
	switch l := l.(type) {
	case *gdl.Sentence:
		if negated {
			return [][]gdl.Literal{{&gdl.Not{Lparen: l.Lparen, Arg: l}}}, nil
		}
		return [][]gdl.Literal{{l}}, nil
	case *gdl.Distinct:
		if negated {
			return nil, errors.New("negated distinct is not supported")
		}
		return [][]gdl.Literal{{l}}, nil
	case *gdl.Not:
		return expand(l.Arg, !negated)
	case *gdl.Or:
		var out [][]gdl.Literal
		if negated {
			// not (a or b) = (not a) and (not b)
			out = [][]gdl.Literal{nil}
			for _, d := range l.Disjuncts {
				ds, err := expand(d, true)
				if err != nil {
					return nil, err
				}
				var next [][]gdl.Literal
				for _, a := range out {
					for _, b := range ds {
						next = append(next, append(slices.Clip(a), b...))
					}
				}
				out = next
				if len(out) > maxExpansion {
					return nil, fmt.Errorf("%w: disjunctions expand into more than %d rules", ErrBudget, maxExpansion)
				}
			}
			return out, nil
		}
		for _, d := range l.Disjuncts {
			ds, err := expand(d, false)
			if err != nil {
				return nil, err
			}
			out = append(out, ds...)
			if len(out) > maxExpansion {
				return nil, fmt.Errorf("%w: disjunctions expand into more than %d rules", ErrBudget, maxExpansion)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown literal %T", l)
}

// clause compiles one rule whose body holds only sentences, negated
// sentences and distincts.
func (g *grounder) clause(head *gdl.Sentence, body []gdl.Literal) (*clause, error) {
	vars := map[string]int{}
	c := &clause{}
	var err error
	if c.head, err = g.atomLiteral(litPos, head, vars); err != nil {
		return nil, err
	}
	for _, l := range body {
		var lit literal
		switch l := l.(type) {
		case *gdl.Sentence:
			lit, err = g.atomLiteral(litPos, l, vars)
		case *gdl.Not:
			lit, err = g.atomLiteral(litNeg, l.Arg.(*gdl.Sentence), vars)
		case *gdl.Distinct:
			lit.kind = litDistinct
			if lit.x, err = g.pattern(l.X, vars, 0); err == nil {
				lit.y, err = g.pattern(l.Y, vars, 0)
			}
			collectVars(lit.x, &lit.vars)
			collectVars(lit.y, &lit.vars)
		}
		if err != nil {
			return nil, err
		}
		c.body = append(c.body, lit)
	}
	c.nvars = len(vars)
	return c, nil
}

func (g *grounder) atomLiteral(kind litKind, s *gdl.Sentence, vars map[string]int) (literal, error) {
	if s == nil || s.Name == nil {
		return literal{}, errors.New("sentence without a name")
	}
	lit := literal{kind: kind, rel: g.relation(s.Name.Name, len(s.Args))}
	for _, a := range s.Args {
		p, err := g.pattern(a, vars, 1)
		if err != nil {
			return literal{}, err
		}
		lit.args = append(lit.args, p)
		collectVars(p, &lit.vars)
	}
	return lit, nil
}

func (g *grounder) pattern(t gdl.Term, vars map[string]int, depth int) (pat, error) {
	if depth > g.limits.MaxDepth {
		return pat{}, fmt.Errorf("%s: %w: term nested deeper than %d", t.Pos(), ErrBudget, g.limits.MaxDepth)
	}
	switch t := t.(type) {
	case *gdl.Const:
		return pat{kind: patGround, id: g.ts.intern(g.ts.symbol(t.Name), nil)}, nil
	case *gdl.Var:
		v, ok := vars[t.Name]
		if !ok {
			v = len(vars)
			vars[t.Name] = v
		}
		return pat{kind: patVar, v: v}, nil
	case *gdl.Func:
		p := pat{kind: patFunc, sym: g.ts.symbol(t.Name.Name)}
		ground := true
		for _, a := range t.Args {
			ap, err := g.pattern(a, vars, depth+1)
			if err != nil {
				return pat{}, err
			}
			ground = ground && ap.kind == patGround
			p.args = append(p.args, ap)
		}
		if ground {
			ids := make([]termID, len(p.args))
			for i, a := range p.args {
				ids[i] = a.id
			}
			return pat{kind: patGround, id: g.ts.intern(p.sym, ids)}, nil
		}
		return p, nil
	}
	return pat{}, fmt.Errorf("unknown term %T", t)
}

func collectVars(p pat, vs *[]int) {
	switch p.kind {
	case patVar:
		if !slices.Contains(*vs, p.v) {
			*vs = append(*vs, p.v)
		}
	case patFunc:
		for _, a := range p.args {
			collectVars(a, vs)
		}
	}
}

func kindName(k litKind) string {
	switch k {
	case litNeg:
		return "a negation"
	case litDistinct:
		return "a distinct"
	}
	return "a literal"
}

// auxRelation returns a literal over vars of a new relation, named prefix
// and a number, to be defined by one rule with body over vars; isNew is
// false when a relation defined by the same body, up to the names of the
// variables, over the same variables exists already, and the literal is
// of that one. Such rules arise from one rule's disjunctions expanded and
// from rules that read the same relation alike: sharing the relation
// grounds those instances once. The new relation's name cannot be written
// in KIF, so it meets no relation of the game.
func (g *grounder) auxRelation(prefix string, body []literal, vars []int) (aux literal, isNew bool) {
	canon := map[int]int{}
	var b strings.Builder
	b.WriteString(prefix)
	for _, l := range body {
		writeLiteral(&b, l, canon)
	}
	order := slices.Clone(vars)
	slices.SortFunc(order, func(x, y int) int { return canon[x] - canon[y] })
	b.WriteString(" |")
	for _, v := range order {
		fmt.Fprintf(&b, " %d", canon[v])
	}
	key := b.String()
	rel, ok := g.auxRels[key]
	if !ok {
		rel = g.relation(fmt.Sprintf("%s %d", prefix, len(g.rels)), len(order))
		if g.auxRels == nil {
			g.auxRels = map[string]int{}
		}
		g.auxRels[key] = rel
	}
	aux = literal{kind: litPos, rel: rel, vars: order}
	for _, v := range order {
		aux.args = append(aux.args, pat{kind: patVar, v: v})
	}
	return aux, !ok
}

// writeLiteral writes l to b with its variables numbered by canon, in
// order of first appearance.
func writeLiteral(b *strings.Builder, l literal, canon map[int]int) {
	fmt.Fprintf(b, " %d/%d/%v(", l.kind, l.rel, l.filter)
	if l.kind == litDistinct {
		writePat(b, l.x, canon)
		writePat(b, l.y, canon)
	}
	for _, p := range l.args {
		writePat(b, p, canon)
	}
	b.WriteString(")")
}

func writePat(b *strings.Builder, p pat, canon map[int]int) {
	switch p.kind {
	case patGround:
		fmt.Fprintf(b, " #%d", p.id)
	case patVar:
		n, ok := canon[p.v]
		if !ok {
			n = len(canon)
			canon[p.v] = n
		}
		fmt.Fprintf(b, " ?%d", n)
	case patFunc:
		fmt.Fprintf(b, " f%d(", p.sym)
		for _, a := range p.args {
			writePat(b, a, canon)
		}
		b.WriteString(")")
	}
}
