package prolog

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/gdl/scc"
)

// signature identifies a relation: its name and arity.
type signature struct {
	name  string
	arity int
}

func (s signature) String() string { return fmt.Sprintf("%s/%d", s.name, s.arity) }

// program is a game description analysed for compilation: its rules grouped
// by relation, the dependency graph, and which relations depend on the
// state. It is computed once per game and shared by every instance.
type program struct {
	rules     map[signature][]*gdl.Rule
	order     []signature               // relations in the order first defined
	deps      map[signature][]signature // head -> body relations
	dynamic   map[signature]bool        // depends on true or does
	usesDoes  map[signature]bool        // depends on does
	recursive map[signature]bool        // on a cycle of the dependency graph
	constants map[string]struct{}       // every constant and function name
	scc       map[signature]int         // strongly connected component id
	sccs      [][]signature             // components, dependencies first
}

// analyse groups the rules of d by relation and computes the dependency
// structure the compiler needs.
func analyse(d *gdl.Description) (*program, error) {
	p := &program{
		rules:     map[signature][]*gdl.Rule{},
		deps:      map[signature][]signature{},
		dynamic:   map[signature]bool{},
		usesDoes:  map[signature]bool{},
		recursive: map[signature]bool{},
		constants: map[string]struct{}{},
		scc:       map[signature]int{},
	}
	for _, r := range d.Rules {
		head := signature{r.Head.Name.Name, len(r.Head.Args)}
		switch head.name {
		case gdl.KeyTrue, gdl.KeyDoes, gdl.KeyDistinct, gdl.KeyNot, gdl.KeyOr:
			return nil, fmt.Errorf("%s: %s cannot be defined by a rule", r.Pos(), head.name)
		}
		if _, ok := p.rules[head]; !ok {
			p.order = append(p.order, head)
		}
		p.rules[head] = append(p.rules[head], r)
		p.noteConstants(r.Head.Args)
		seen := map[signature]bool{}
		// The walk stops at sentences and distinct: below them are
		// terms, whose constants noteConstants collects.
		visit := func(n gdl.Node) bool {
			switch l := n.(type) {
			case *gdl.Sentence:
				p.noteConstants(l.Args)
				s := signature{l.Name.Name, len(l.Args)}
				switch s.name {
				case gdl.KeyTrue, gdl.KeyDoes:
					p.dynamic[head] = true
					if s.name == gdl.KeyDoes {
						p.usesDoes[head] = true
					}
					return false
				}
				if !seen[s] {
					seen[s] = true
					p.deps[head] = append(p.deps[head], s)
				}
				return false
			case *gdl.Distinct:
				p.noteConstants([]gdl.Term{l.X, l.Y})
				return false
			}
			return true
		}
		for _, l := range r.Body {
			gdl.Inspect(l, visit)
		}
	}
	p.components()
	p.propagate(p.dynamic)
	p.propagate(p.usesDoes)
	return p, nil
}

// propagate extends a property of relations to everything that depends on
// them. Components come dependencies first, so one pass in that order
// suffices, with each component settled as a whole.
func (p *program) propagate(has map[signature]bool) {
	for _, comp := range p.sccs {
		any := false
		for _, s := range comp {
			if has[s] {
				any = true
			}
			for _, d := range p.deps[s] {
				if has[d] {
					any = true
				}
			}
		}
		for _, s := range comp {
			has[s] = has[s] || any
		}
	}
}

// noteConstants records the constants of ts, functors included (the name
// of a *gdl.Func is a *gdl.Const).
func (p *program) noteConstants(ts []gdl.Term) {
	for _, t := range ts {
		gdl.Inspect(t, func(n gdl.Node) bool {
			if c, ok := n.(*gdl.Const); ok {
				p.constants[c.Name] = struct{}{}
			}
			return true
		})
	}
}

// components computes the strongly connected components of the dependency
// graph of the defined relations, dependencies first, and marks the
// relations on a cycle as recursive.
func (p *program) components() {
	id := map[signature]int{}
	for i, s := range p.order {
		id[s] = i
	}
	succ := make([][]int, len(p.order))
	for i, s := range p.order {
		for _, d := range p.deps[s] {
			if j, defined := id[d]; defined {
				succ[i] = append(succ[i], j)
			}
		}
	}
	comp, n := scc.Components(len(p.order), func(v int) []int { return succ[v] })
	p.sccs = make([][]signature, n)
	for i, s := range p.order {
		p.scc[s] = comp[i]
		p.sccs[comp[i]] = append(p.sccs[comp[i]], s)
	}
	for _, c := range p.sccs {
		if len(c) > 1 {
			for _, s := range c {
				p.recursive[s] = true
			}
		} else if slices.Contains(p.deps[c[0]], c[0]) {
			p.recursive[c[0]] = true
		}
	}
}

// planBody returns the literals of a rule body in evaluation order. Each
// negation, distinct and disjunction is placed as early as possible after
// the positive literals that bind all its variables: Prolog's negation as
// failure is only sound on ground goals, so this placement is what makes the
// translation correct, and placing tests early prunes the search.
//
// Among the positive literals it chooses greedily: next comes the one with
// the lowest estimated number of answers given the variables bound so far,
// ties going to the earlier written. A nil cost keeps the written order.
//
// Literals for which pinned reports true (calls back into the head's own
// recursive component) need care, since a recursive call with nothing new
// bound regresses forever. Such a call becomes eligible once it makes
// progress, when one of its variables has been bound by a literal of the
// body rather than only by the head: it then walks one step of a chain, so
// it is ranked as cheap. Until then it waits for every other positive
// literal. So (<= (reach ?x ?y) (reach ?x ?z) (step ?z ?y)) evaluates the
// step first when ?y is bound, and (sum ?x ?ym1 ?zm1) runs as soon as
// (succ ?ym1 ?y) has bound ?ym1, before (succ ?zm1 ?z) could enumerate
// every pair. A variable the head binds only inside a compound argument
// counts as progress too: the call then works on a proper part of what it
// was given, as (append_el ?el ?tail ?new) does on (list ?head ?tail), so
// it descends a finite term instead of repeating itself.
//
// bound0 holds the variables bound on entry, and whole those of them that
// are whole arguments of the head.
func planBody(body []gdl.Literal, bound0, whole map[string]bool, cost func(*gdl.Sentence, map[string]bool) float64, pinned func(*gdl.Sentence) bool) []gdl.Literal {
	var positives []*gdl.Sentence
	var tests []gdl.Literal
	for _, l := range body {
		if s, ok := l.(*gdl.Sentence); ok {
			positives = append(positives, s)
		} else {
			tests = append(tests, l)
		}
	}
	if len(tests) == 0 && cost == nil && (pinned == nil || !slices.ContainsFunc(positives, pinned)) {
		return body
	}
	if bound0 == nil {
		bound0 = map[string]bool{}
	}
	pl := &bodyPlan{
		positives: positives,
		tests:     tests,
		whole:     whole,
		cost:      cost,
		bound:     maps.Clone(bound0),
		placed:    make([]bool, len(tests)),
		done:      make([]bool, len(positives)),
		isPinned:  make([]bool, len(positives)),
		out:       make([]gdl.Literal, 0, len(body)),
	}
	for _, p := range positives {
		pl.allPositives = append(pl.allPositives, p)
	}
	for i, p := range positives {
		pl.isPinned[i] = pinned != nil && pinned(p)
		if !pl.isPinned[i] {
			pl.unpinned++
		}
	}
	pl.placeTests()
	for range positives {
		pl.placePositive(pl.nextPositive())
		pl.placeTests()
	}
	// Unsafe tests (variables never bound) go last, in written order.
	for i, t := range tests {
		if !pl.placed[i] {
			pl.out = append(pl.out, t)
		}
	}
	return pl.out
}

// A bodyPlan is planBody's order of a body under way: the literals placed
// so far and the variables they bind.
type bodyPlan struct {
	positives    []*gdl.Sentence
	allPositives []gdl.Literal // positives, as literals
	tests        []gdl.Literal
	whole        map[string]bool
	cost         func(*gdl.Sentence, map[string]bool) float64
	bound        map[string]bool // variables bound by the literals placed
	placed       []bool          // of tests
	done         []bool          // of positives
	isPinned     []bool          // of positives: recursive calls
	unpinned     int             // positives not pinned and not done
	out          []gdl.Literal
}

// stepCost is the cost of a recursive call that makes progress.
const stepCost = 1.5

// placeTests places every test whose variables are bound.
func (pl *bodyPlan) placeTests() {
	for i, t := range pl.tests {
		if pl.placed[i] {
			continue
		}
		if pl.testReady(t) {
			pl.placed[i] = true
			pl.out = append(pl.out, t)
			if o, ok := t.(*gdl.Or); ok {
				for _, v := range literalVars(o, nil) {
					pl.bound[v] = true
				}
			}
		}
	}
}

// testReady reports whether the test t can be placed: its variables are
// bound, or it is a disjunction that binds those still free.
func (pl *bodyPlan) testReady(t gdl.Literal) bool {
	ready := true
	for _, v := range literalVars(t, nil) {
		if !pl.bound[v] {
			ready = false
			break
		}
	}
	// A disjunction may bind variables of its own, so it waits only for
	// those it shares with the positive literals, and for those that some
	// disjunct does not bind: a disjunct such as (distinct ?x 2) or (not
	// (p ?x)) is a test, sound only once ?x is bound.
	if o, ok := t.(*gdl.Or); ok && !ready {
		ready = true
		binds := disjunctionBinds(o)
		for _, v := range literalVars(o, nil) {
			if !pl.bound[v] && (usedElsewhere(v, pl.allPositives) || !binds[v]) {
				ready = false
				break
			}
		}
	}
	return ready
}

// progress reports whether a recursive call has a variable bound by the
// body or by a part of a head argument.
func (pl *bodyPlan) progress(p *gdl.Sentence) bool {
	for _, v := range literalVars(p, nil) {
		if pl.bound[v] && !pl.whole[v] {
			return true
		}
	}
	return false
}

// nextPositive returns the index of the positive literal to place next:
// the cheapest, recursive calls only once they make progress or nothing
// else is left; in written order without a cost.
func (pl *bodyPlan) nextPositive() int {
	best := -1
	bestCost := 0.0
	for i, p := range pl.positives {
		if pl.done[i] {
			continue
		}
		if pl.isPinned[i] && pl.unpinned > 0 && !pl.progress(p) {
			continue
		}
		if pl.cost == nil {
			if pl.isPinned[i] && pl.unpinned > 0 {
				continue // written order, recursion after the rest
			}
			best = i
			break
		}
		c := stepCost
		if !pl.isPinned[i] {
			c = pl.cost(p, pl.bound)
		}
		if best < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	if best < 0 { // only recursive calls without progress remain
		best = slices.Index(pl.done, false)
	}
	return best
}

// placePositive places the positive literal i, binding its variables.
func (pl *bodyPlan) placePositive(i int) {
	pl.done[i] = true
	if !pl.isPinned[i] {
		pl.unpinned--
	}
	pl.out = append(pl.out, pl.positives[i])
	for _, v := range literalVars(pl.positives[i], nil) {
		pl.bound[v] = true
	}
}

// disjunctionBinds returns the variables that every disjunct of o binds:
// those of a positive sentence, or of a disjunction that binds them.
func disjunctionBinds(o *gdl.Or) map[string]bool {
	var common map[string]bool
	for _, d := range o.Disjuncts {
		binds := map[string]bool{}
		switch d := d.(type) {
		case *gdl.Sentence:
			for _, v := range termVars(d.Args, nil) {
				binds[v] = true
			}
		case *gdl.Or:
			binds = disjunctionBinds(d)
		}
		if common == nil {
			common = binds
			continue
		}
		for v := range common {
			if !binds[v] {
				delete(common, v)
			}
		}
	}
	return common
}

func usedElsewhere(v string, ls []gdl.Literal) bool {
	for _, l := range ls {
		if slices.Contains(literalVars(l, nil), v) {
			return true
		}
	}
	return false
}

// literalVars appends the names of the variables of l to vs, each once, in
// the order they are written.
func literalVars(l gdl.Literal, vs []string) []string {
	return appendVars(l, vs)
}

// termVars appends the names of the variables of ts to vs, each once, in
// the order they are written.
func termVars(ts []gdl.Term, vs []string) []string {
	for _, t := range ts {
		vs = appendVars(t, vs)
	}
	return vs
}

func appendVars(n gdl.Node, vs []string) []string {
	gdl.Inspect(n, func(n gdl.Node) bool {
		if v, ok := n.(*gdl.Var); ok && !slices.Contains(vs, v.Name) {
			vs = append(vs, v.Name)
		}
		return true
	})
	return vs
}

// relationAtom is the Prolog name of a GDL relation. The prefix keeps every
// game relation apart from the few native predicates the backend registers,
// so a relation called halt, call or consult is an ordinary relation.
func relationAtom(name string) string { return "gdl:" + name }
