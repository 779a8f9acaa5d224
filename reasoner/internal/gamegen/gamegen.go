// Package gamegen generates random valid games, for differential tests of
// reasoners: the same game asked of two backends must get the same answers,
// and a game nobody wrote reaches corners that the recorded games miss.
//
// A generated game is made from one seed and is the same for the same seed.
// It has roles, an initial state given by facts and by rules over static
// relations, static facts, static relations derived from them (recursive
// ones too), state-dependent views with negation, disjunction, distinct and
// function terms, relations that depend on the joint move, and pairs of
// relations of identical shape that differ only in their names and in the
// facts they test. Every rule is safe and the rules are stratified by
// construction: a body calls only relations defined before its head, and
// itself positively. The game is accepted by gdl.Validate without error.
//
// Every role has the move noop in every state, and a step counter ends the
// game within a few steps, so every random playout reaches a terminal state.
//
// GenerateII makes GDL-II games in the Dresden dialect the public ones are
// written in (see gdl.Repair): some have nature's role, random, which has
// moves like any other role; every one has sees rules, percepts read from
// the state, the joint move and, in some, the next state (next in a sees
// body), and percepts that hold keywords as function symbols, as
// (sees ?r (does r0 (m3 1))).
package gamegen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/gdl"
)

// Game is a generated game.
type Game struct {
	Seed uint64
	// Text is the rules in KIF, one rule per line.
	Text        string
	Description *gdl.Description // Text parsed, so positions name its lines
}

// Generate returns the game of seed. It returns an error only when the game
// it made is not valid GDL, which is a bug of this package; the error holds
// the seed and the text.
func Generate(seed uint64) (*Game, error) {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	g.game()
	return g.finish(seed, fmt.Sprintf("gamegen-%d.kif", seed))
}

// GenerateII returns the GDL-II game of seed, a family of its own: the
// game of a seed is not the GDL game of the same seed with percepts added.
// Its errors are Generate's.
func GenerateII(seed uint64) (*Game, error) {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d)), ii: true}
	g.game()
	return g.finish(seed, fmt.Sprintf("gamegen-ii-%d.kif", seed))
}

// finish formats the rules g made, parses them back as filename and
// checks them.
func (g *gen) finish(seed uint64, filename string) (*Game, error) {
	d := &gdl.Description{Rules: g.rules}
	text := gdl.Format(d)
	parsed, err := gdl.ParseFile(filename, []byte(text))
	if err != nil {
		return nil, fmt.Errorf("gamegen seed %d: the text does not parse: %w\n%s", seed, err, text)
	}
	if err := Valid(parsed); err != nil {
		return nil, fmt.Errorf("gamegen seed %d: %w\n%s", seed, err, text)
	}
	return &Game{Seed: seed, Text: text, Description: parsed}, nil
}

// Valid returns an error naming the first problem of severity error that
// gdl.Validate finds in d, or nil.
func Valid(d *gdl.Description) error {
	for _, p := range gdl.Validate(d) {
		if p.Severity == gdl.SeverityError {
			return fmt.Errorf("invalid game: %s", p)
		}
	}
	return nil
}

// typ is the kind of value an argument of a relation holds: a number, or a
// function term (box n).
type typ int

const (
	tNum typ = iota
	tBox
	tRole // a variable bound to a role by does
)

// rel is a relation (or, for fluents and moves, a function) that rules can
// use.
type rel struct {
	name string
	args []typ
	// fluent: a term of the state, used in bodies as (true (name ...)).
	fluent bool
	// move: a move, used in bodies as (does role (name ...)).
	move bool
	// facts of a static fact relation, for making its twin.
	facts [][]gdl.Term
	// level is 0 for facts, fluents and moves, and one more than the
	// highest level a relation's rules call.
	level int
}

// maxCallLevel bounds the levels of relations that derived relations
// call. Without it relations would nest as deep as they come, and the plain
// interpreter, which proves every call afresh, would take exponential time
// on a few of the games.
const maxCallLevel = 2

// below returns the relations of rs of a level below maxCallLevel.
func below(rs []*rel) []*rel {
	var out []*rel
	for _, r := range rs {
		if r.level < maxCallLevel {
			out = append(out, r)
		}
	}
	return out
}

type gen struct {
	rng   *rand.Rand
	ii    bool // GDL-II: nature's role some of the time, and sees rules
	rules []*gdl.Rule
	top   int // numbers are 0..top
	dom   int // fluent and fact arguments range over 0..dom
	steps int // the game ends when the step counter reaches steps
	roles []string
	names int // for fresh names

	facts   []*rel // static fact relations
	static  []*rel // static relations: facts and derived, callable in init
	fluents []*rel
	views   []*rel // state-dependent relations, not on does
	moves   [][]*rel
	played  []*rel // relations on does, for next only
}

func (g *gen) chance(p float64) bool  { return g.rng.Float64() < p }
func (g *gen) between(lo, hi int) int { return lo + g.rng.IntN(hi-lo+1) }

func (g *gen) fresh(prefix string) string {
	g.names++
	return prefix + strconv.Itoa(g.names)
}

func pick[T any](g *gen, xs []T) T { return xs[g.rng.IntN(len(xs))] }

func cnst(name string) *gdl.Const { return &gdl.Const{Name: name} }
func vr(name string) *gdl.Var     { return &gdl.Var{Name: name} }
func num(n int) *gdl.Const        { return cnst(strconv.Itoa(n)) }

func fn(name string, args ...gdl.Term) gdl.Term {
	if len(args) == 0 {
		return cnst(name)
	}
	return &gdl.Func{Name: cnst(name), Args: args}
}

func sent(name string, args ...gdl.Term) *gdl.Sentence {
	return &gdl.Sentence{Name: cnst(name), Args: args}
}

func (g *gen) add(head *gdl.Sentence, body ...gdl.Literal) {
	g.rules = append(g.rules, &gdl.Rule{Head: head, Body: body})
}

func (g *gen) types(lo, hi int) []typ {
	ts := make([]typ, g.between(lo, hi))
	for i := range ts {
		if g.chance(0.2) {
			ts[i] = tBox
		}
	}
	return ts
}

// constant returns a random ground term of type t.
func (g *gen) constant(t typ) gdl.Term {
	n := num(g.rng.IntN(g.dom + 1))
	if t == tBox {
		return fn("box", n)
	}
	return n
}

func (g *gen) game() {
	g.dom = g.between(2, 4)
	g.steps = g.between(2, 8)
	g.top = max(g.dom, g.steps) + 1
	for i := range g.between(1, 3) {
		g.roles = append(g.roles, "r"+strconv.Itoa(i))
	}
	if g.ii && g.chance(0.6) {
		g.roles = slices.Insert(g.roles, g.rng.IntN(len(g.roles)+1), gdl.KeyRandom)
	}
	for _, role := range g.roles {
		g.add(sent(gdl.KeyRole, cnst(role)))
	}
	for i := range g.top {
		g.add(sent("succ", num(i), num(i+1)))
	}
	succ := &rel{name: "succ", args: []typ{tNum, tNum}}
	g.static = append(g.static, succ)
	for range g.between(2, 4) {
		g.factRelation(g.fresh("s"), g.types(1, 2))
	}
	for range g.between(1, 3) {
		g.derived(true)
	}
	for range g.between(1, 2) {
		g.recursive(true)
	}
	if g.chance(0.5) {
		g.closure()
	}
	g.state()
	for range g.between(2, 4) {
		g.derived(false)
	}
	if g.chance(0.6) {
		g.recursive(false)
	}
	g.moveRules()
	g.nextRules()
	if g.ii {
		g.seesRules()
	}
	g.endRules()
}

// factRelation adds a static relation of a few random facts.
func (g *gen) factRelation(name string, args []typ) *rel {
	r := &rel{name: name, args: args}
	seen := map[string]bool{}
	for range g.between(1, 6) {
		f := make([]gdl.Term, len(args))
		for i, t := range args {
			f[i] = g.constant(t)
		}
		s := sent(name, f...)
		if key := gdl.Format(s); !seen[key] {
			seen[key] = true
			r.facts = append(r.facts, f)
			g.add(s)
		}
	}
	g.facts = append(g.facts, r)
	g.static = append(g.static, r)
	return r
}

// callable returns the relations a body of a static or dynamic relation
// may call positively or negatively.
func (g *gen) callable(static bool) []*rel {
	if static {
		return below(g.static)
	}
	return below(slices.Concat(g.static, g.fluents, g.views))
}

// derived adds a non-recursive relation of one to three rules, and
// sometimes its twin.
func (g *gen) derived(static bool) {
	name := g.fresh("v")
	if static {
		name = g.fresh("d")
	}
	args := g.types(0, 2)
	if static && len(args) == 0 {
		args = []typ{tNum}
	}
	r := &rel{name: name, args: args}
	start := len(g.rules)
	for range g.between(1, 2) {
		b := g.newBody(g.callable(static))
		if !static && len(g.fluents) > 0 && g.chance(0.7) {
			b.positive(pick(g, g.fluents))
		}
		for range g.between(1, 2) {
			b.positive(pick(g, b.from))
		}
		if g.chance(0.3) {
			b.bindingOr()
		}
		b.tests(g.between(0, 2))
		g.add(sent(name, b.head(args)...), b.lits...)
		r.level = max(r.level, b.level+1)
	}
	g.record(r, static)
	if g.chance(0.4) {
		g.twin(r, start, static)
	}
}

func (g *gen) record(r *rel, static bool) {
	if static {
		g.static = append(g.static, r)
	} else {
		g.views = append(g.views, r)
	}
}

// recursive adds a relation counting up along succ from a base, stopped
// by a negated relation, as (<= (num ?y) (succ ?x ?y) (not (stop ?x))
// (num ?x)), and usually its twin of identical shape stopped by another
// relation: a backend that lets the twins share what it derives for one
// of them (an auxiliary predicate of a negation, a table) answers for
// both alike.
func (g *gen) recursive(static bool) {
	name := g.fresh("rec")
	r := &rel{name: name, args: []typ{tNum}}
	start := len(g.rules)
	base := g.newBody(g.callable(static))
	switch {
	case !static && len(g.fluents) > 0 && g.chance(0.7):
		base.positive(pick(g, g.fluents))
	case g.chance(0.5):
		base.positive(pick(g, base.from))
	}
	if len(base.lits) == 0 {
		g.add(sent(name, num(g.rng.IntN(2))))
	} else {
		g.add(sent(name, base.head(r.args)...), base.lits...)
	}
	stop := g.factRelation(g.fresh("stop"), []typ{tNum})
	step := g.newBody(g.callable(static))
	x, y := vr(g.fresh("x")), vr(g.fresh("y"))
	step.lits = append(step.lits, sent("succ", x, y))
	step.bind(x, tNum)
	step.bind(y, tNum)
	step.lits = append(step.lits, &gdl.Not{Arg: sent(stop.name, x)})
	if !static && len(g.fluents) > 0 && g.chance(0.5) {
		f := pick(g, g.fluents)
		step.lits = append(step.lits, step.literal(f, false))
	}
	step.tests(g.between(0, 1))
	step.lits = append(step.lits, sent(name, x))
	g.add(sent(name, y), step.lits...)
	r.level = max(base.level, step.level) + 1
	g.record(r, static)
	if g.chance(0.8) {
		g.twin(r, start, static)
	}
}

// closure adds the transitive closure of a static binary relation whose
// edges go up, left or right recursive. Edges that go up keep the graph
// acyclic, so that top-down evaluation without tabling terminates too: a
// cycle would only show that the plain interpreter loops.
func (g *gen) closure() {
	e := &rel{name: g.fresh("edge"), args: []typ{tNum, tNum}}
	for range g.between(1, 6) {
		i := g.rng.IntN(g.dom)
		j := g.between(i+1, g.dom)
		e.facts = append(e.facts, []gdl.Term{num(i), num(j)})
		g.add(sent(e.name, num(i), num(j)))
	}
	g.static = append(g.static, e)
	name := g.fresh("lt")
	x, y, z := vr("x"), vr("y"), vr("z")
	g.add(sent(name, x, y), sent(e.name, x, y))
	if g.chance(0.5) {
		g.add(sent(name, x, z), sent(e.name, x, y), sent(name, y, z))
	} else {
		g.add(sent(name, x, z), sent(name, x, y), sent(e.name, y, z))
	}
	g.static = append(g.static, &rel{name: name, args: []typ{tNum, tNum}, level: 1})
}

// twin copies the rules of r from g.rules[start:] under a new name, each
// static fact relation they test replaced by a new one of different facts.
func (g *gen) twin(r *rel, start int, static bool) {
	t := &rel{name: g.fresh(r.name + "t"), args: r.args, level: r.level}
	rename := map[string]string{r.name: t.name}
	rules := slices.Clone(g.rules[start:])
	for _, rule := range rules {
		if rule.Head.Name.Name != r.name {
			continue // facts of relations made for r, renamed below
		}
		for _, f := range g.facts {
			if _, done := rename[f.name]; !done && mentions(rule.Body, f.name) && (g.chance(0.7) || strings.HasPrefix(f.name, "stop")) {
				other := g.factRelation(g.fresh(f.name+"t"), f.args)
				rename[f.name] = other.name
			}
		}
	}
	for _, rule := range rules {
		if rule.Head.Name.Name == r.name {
			g.rules = append(g.rules, renameRule(rule, rename))
		}
	}
	g.record(t, static)
}

// mentions reports whether a body calls relation name.
func mentions(body []gdl.Literal, name string) bool {
	for _, l := range body {
		switch l := l.(type) {
		case *gdl.Sentence:
			if l.Name.Name == name {
				return true
			}
		case *gdl.Not:
			if mentions([]gdl.Literal{l.Arg}, name) {
				return true
			}
		case *gdl.Or:
			if mentions(l.Disjuncts, name) {
				return true
			}
		}
	}
	return false
}

func renameRule(r *gdl.Rule, names map[string]string) *gdl.Rule {
	body := make([]gdl.Literal, len(r.Body))
	for i, l := range r.Body {
		body[i] = renameLiteral(l, names)
	}
	return &gdl.Rule{Head: renameLiteral(r.Head, names).(*gdl.Sentence), Body: body}
}

func renameLiteral(l gdl.Literal, names map[string]string) gdl.Literal {
	switch l := l.(type) {
	case *gdl.Sentence:
		name := l.Name.Name
		if n, ok := names[name]; ok {
			name = n
		}
		return &gdl.Sentence{Name: cnst(name), Args: l.Args}
	case *gdl.Not:
		return &gdl.Not{Arg: renameLiteral(l.Arg, names)}
	case *gdl.Or:
		out := &gdl.Or{}
		for _, d := range l.Disjuncts {
			out.Disjuncts = append(out.Disjuncts, renameLiteral(d, names))
		}
		return out
	}
	return l
}

// state adds the fluents, the step counter and the initial state.
func (g *gen) state() {
	for range g.between(2, 4) {
		args := g.types(1, 2)
		f := &rel{name: g.fresh("f"), args: args, fluent: true}
		g.fluents = append(g.fluents, f)
		for range g.between(0, 3) {
			t := make([]gdl.Term, len(args))
			for i, a := range args {
				t[i] = g.constant(a)
			}
			g.add(sent(gdl.KeyInit, fn(f.name, t...)))
		}
		if g.chance(0.5) {
			b := g.newBody(g.static)
			b.positive(pick(g, g.static))
			b.tests(g.between(0, 1))
			g.add(sent(gdl.KeyInit, fn(f.name, b.head(args)...)), b.lits...)
		}
	}
	g.add(sent(gdl.KeyInit, fn("step", num(0))))
}

// moveRules adds each role's moves: noop always, and moves of one or two
// kinds, legal under random conditions on the state.
func (g *gen) moveRules() {
	var shared []*rel
	for _, role := range g.roles {
		g.add(sent(gdl.KeyLegal, cnst(role), cnst("noop")))
		var moves []*rel
		for range g.between(1, 2) {
			var m *rel
			if len(shared) > 0 && g.chance(0.3) {
				m = pick(g, shared) // a move another role has too
			} else {
				m = &rel{name: g.fresh("m"), args: g.types(0, 2), move: true}
				shared = append(shared, m)
			}
			moves = append(moves, m)
			for range g.between(1, 2) {
				b := g.newBody(slices.Concat(g.static, g.fluents, g.views))
				b.positive(pick(g, slices.Concat(g.fluents, g.views)))
				if g.chance(0.5) {
					b.positive(pick(g, b.from))
				}
				b.tests(g.between(0, 2))
				var who gdl.Term = cnst(role)
				if g.chance(0.2) {
					// (legal ?r ...) bound by (role ?r)
					r := vr(g.fresh("r"))
					b.lits = append([]gdl.Literal{sent(gdl.KeyRole, r), &gdl.Distinct{X: r, Y: cnst("nobody")}}, b.lits...)
					who = r
				}
				g.add(sent(gdl.KeyLegal, who, fn(m.name, b.head(m.args)...)), b.lits...)
			}
		}
		g.moves = append(g.moves, moves)
	}
	// Relations of the joint move, as frame rules use them: one rule for
	// each role that has the move, each a single does literal.
	for _, m := range shared {
		if len(m.args) == 0 || g.chance(0.3) {
			continue
		}
		p := &rel{name: g.fresh("played"), args: m.args}
		for i, role := range g.roles {
			if !slices.Contains(g.moves[i], m) {
				continue
			}
			args := make([]gdl.Term, len(m.args))
			for j := range args {
				args[j] = vr("a" + strconv.Itoa(j))
			}
			g.add(sent(p.name, args...), sent(gdl.KeyDoes, cnst(role), fn(m.name, args...)))
		}
		g.played = append(g.played, p)
	}
}

// nextRules adds the step counter's rule and, for each fluent, effect,
// frame and derived rules.
func (g *gen) nextRules() {
	x, y := vr("x"), vr("y")
	g.add(sent(gdl.KeyNext, fn("step", y)), sent(gdl.KeyTrue, fn("step", x)), sent("succ", x, y))
	all := slices.Concat(g.static, g.fluents, g.views, g.played)
	for _, f := range g.fluents {
		for range g.between(1, 3) {
			b := g.newBody(all)
			switch g.rng.IntN(3) {
			case 0: // effect of a move
				i := g.rng.IntN(len(g.roles))
				m := pick(g, g.moves[i])
				b.lits = append(b.lits, b.literal(m, true))
			case 1: // frame
				b.positive(f)
			default: // derived from the state
				b.positive(pick(g, slices.Concat(g.fluents, g.views)))
			}
			if g.chance(0.5) {
				b.positive(pick(g, slices.Concat(g.static, g.fluents, g.views)))
			}
			b.tests(g.between(0, 2))
			g.add(sent(gdl.KeyNext, fn(f.name, b.head(f.args)...)), b.lits...)
		}
	}
}

// seesRules adds each role's sees rules, at least one in all: a percept
// of a move played, which names it with the keyword does as in
// (sees r1 (does r0 (m3 ?v4))), or of a condition of the state and the
// joint move, or of the state that follows, read with next in the body.
// A percept is a constant, a term of bound variables, or one under a
// keyword (true, next, legal) as a function symbol; some rules give the
// percept to every role, (sees ?r ...) bound by (role ?r).
func (g *gen) seesRules() {
	all := slices.Concat(g.static, g.fluents, g.views, g.played)
	n := 0
	for _, role := range g.roles {
		for range g.between(0, 2) {
			g.seesRule(role, all)
			n++
		}
	}
	if n == 0 {
		g.seesRule(pick(g, g.roles), all)
	}
}

// seesRule adds a sees rule of role, its body calling the relations of
// all.
func (g *gen) seesRule(role string, all []*rel) {
	b := g.newBody(all)
	var percept gdl.Term
	switch g.rng.IntN(3) {
	case 0: // a move played
		i := g.rng.IntN(len(g.roles))
		m := pick(g, g.moves[i])
		l := b.literal(m, true).(*gdl.Sentence)
		b.lits = append(b.lits, l)
		if g.chance(0.6) {
			percept = fn(gdl.KeyDoes, l.Args...)
		}
	case 1: // the next state
		f := pick(g, g.fluents)
		l := b.literal(f, true).(*gdl.Sentence)
		l.Name = cnst(gdl.KeyNext)
		b.lits = append(b.lits, l)
		if g.chance(0.5) {
			percept = fn(gdl.KeyNext, l.Args...)
		}
	default: // the state
		f := pick(g, slices.Concat(g.fluents, g.views))
		l := b.literal(f, true).(*gdl.Sentence)
		b.lits = append(b.lits, l)
		if f.fluent && g.chance(0.5) {
			percept = fn(gdl.KeyTrue, l.Args...)
		}
	}
	if g.chance(0.4) {
		b.positive(pick(g, slices.Concat(g.static, g.fluents, g.views, g.played)))
	}
	b.tests(g.between(0, 1))
	if percept == nil {
		switch g.rng.IntN(3) {
		case 0:
			percept = cnst(g.fresh("p"))
		case 1:
			percept = fn(gdl.KeyLegal, cnst(role), fn(g.fresh("p"), b.head(g.types(1, 2))...))
		default:
			percept = fn(g.fresh("p"), b.head(g.types(1, 2))...)
		}
	}
	var who gdl.Term = cnst(role)
	if g.chance(0.2) {
		r := vr(g.fresh("r"))
		b.lits = append([]gdl.Literal{sent(gdl.KeyRole, r)}, b.lits...)
		who = r
	}
	g.add(sent(gdl.KeySees, who, percept), b.lits...)
}

// endRules adds terminal and goal rules: the step counter ends the game,
// and each role wins when a random condition of the state holds.
func (g *gen) endRules() {
	g.add(sent(gdl.KeyTerminal), sent(gdl.KeyTrue, fn("step", num(g.steps))))
	dynamic := slices.Concat(g.fluents, g.views)
	callable := slices.Concat(g.static, g.fluents, g.views)
	for range g.between(0, 1) {
		b := g.newBody(callable)
		b.positive(pick(g, dynamic))
		b.tests(g.between(0, 2))
		g.add(sent(gdl.KeyTerminal), b.lits...)
	}
	for _, role := range g.roles {
		win := g.fresh("win")
		for range g.between(1, 2) {
			b := g.newBody(callable)
			b.positive(pick(g, dynamic))
			b.tests(g.between(0, 2))
			g.add(sent(win), b.lits...)
		}
		g.add(sent(gdl.KeyGoal, cnst(role), num(100)), sent(win))
		g.add(sent(gdl.KeyGoal, cnst(role), num(0)), &gdl.Not{Arg: sent(win)})
		if g.chance(0.1) {
			// A value that may overlap the others: goals undefined in
			// some states, reported as such.
			b := g.newBody(callable)
			b.positive(pick(g, dynamic))
			g.add(sent(gdl.KeyGoal, cnst(role), num(50)), b.lits...)
		}
	}
}

// body builds a safe rule body: positive literals bind variables, and
// tests use only bound ones.
type body struct {
	g     *gen
	from  []*rel // relations the body may call
	lits  []gdl.Literal
	bound map[typ][]*gdl.Var
	level int // the highest level of the relations called
}

func (g *gen) newBody(from []*rel) *body {
	return &body{g: g, from: from, bound: map[typ][]*gdl.Var{}}
}

type typedVar struct {
	v *gdl.Var
	t typ
}

func (b *body) bind(v *gdl.Var, t typ) {
	for _, w := range b.bound[t] {
		if w.Name == v.Name {
			return
		}
	}
	b.bound[t] = append(b.bound[t], v)
}

// arg returns an argument of type t for a literal: a bound variable, a new
// one (when fresh may be added) or a constant. A box argument may be a
// pattern (box ?n).
func (b *body) arg(t typ, fresh *[]typedVar) gdl.Term {
	g := b.g
	if t == tBox && g.chance(0.3) {
		return fn("box", b.arg(tNum, fresh))
	}
	switch k := g.rng.IntN(10); {
	case k < 4 && len(b.bound[t]) > 0:
		return pick(g, b.bound[t])
	case k < 8 && fresh != nil:
		v := vr(g.fresh("v"))
		*fresh = append(*fresh, typedVar{v, t})
		return v
	}
	if len(b.bound[t]) > 0 && fresh == nil && g.chance(0.6) {
		return pick(g, b.bound[t])
	}
	return g.constant(t)
}

// literal returns a call of r (a relation, or a fluent under true, or a
// move under does of a role that has it) with random arguments; when
// binding, new variables may appear, and are bound after it.
func (b *body) literal(r *rel, binding bool) gdl.Literal {
	var fresh *[]typedVar
	if binding {
		fresh = &[]typedVar{}
	}
	args := make([]gdl.Term, len(r.args))
	for i, t := range r.args {
		args[i] = b.arg(t, fresh)
	}
	b.level = max(b.level, r.level)
	var l *gdl.Sentence
	switch {
	case r.fluent:
		l = sent(gdl.KeyTrue, fn(r.name, args...))
	case r.move:
		var roles []string
		for i, ms := range b.g.moves {
			if slices.Contains(ms, r) {
				roles = append(roles, b.g.roles[i])
			}
		}
		var who gdl.Term = cnst(pick(b.g, roles))
		if binding && b.g.chance(0.3) {
			v := vr(b.g.fresh("r"))
			*fresh = append(*fresh, typedVar{v, tRole})
			who = v
		}
		l = sent(gdl.KeyDoes, who, fn(r.name, args...))
	default:
		l = sent(r.name, args...)
	}
	if fresh != nil {
		for _, tv := range *fresh {
			b.bind(tv.v, tv.t)
		}
	}
	return l
}

func (b *body) positive(r *rel) { b.lits = append(b.lits, b.literal(r, true)) }

// bindingOr adds (or A B) where both disjuncts bind the same new variable,
// as (or (succ ?x ?u) (succ ?u ?x)) does.
func (b *body) bindingOr() {
	g := b.g
	var withNum []*rel
	for _, r := range b.from {
		if slices.Contains(r.args, tNum) {
			withNum = append(withNum, r)
		}
	}
	if len(withNum) == 0 {
		return
	}
	v := vr(g.fresh("u"))
	or := &gdl.Or{}
	for range g.between(2, 3) {
		r := pick(g, withNum)
		args := make([]gdl.Term, len(r.args))
		var at []int
		for i, t := range r.args {
			if t == tNum {
				at = append(at, i)
			}
		}
		k := pick(g, at)
		b.level = max(b.level, r.level)
		for i, t := range r.args {
			if i == k {
				args[i] = v
			} else {
				args[i] = b.arg(t, nil)
			}
		}
		if r.fluent {
			or.Disjuncts = append(or.Disjuncts, sent(gdl.KeyTrue, fn(r.name, args...)))
		} else {
			or.Disjuncts = append(or.Disjuncts, sent(r.name, args...))
		}
	}
	b.lits = append(b.lits, or)
	b.bind(v, tNum)
}

// tests adds n tests over bound variables: negations, distinct and
// disjunctions of them.
func (b *body) tests(n int) {
	for range n {
		if t := b.test(true); t != nil {
			b.lits = append(b.lits, t)
		}
	}
}

func (b *body) test(orOK bool) gdl.Literal {
	g := b.g
	switch k := g.rng.IntN(10); {
	case k < 5:
		return &gdl.Not{Arg: b.literal(pick(g, b.from), false)}
	case k < 8:
		var ts []typ
		for t, vs := range b.bound {
			if len(vs) > 0 {
				ts = append(ts, t)
			}
		}
		if len(ts) == 0 {
			return nil
		}
		slices.Sort(ts) // map order is random; the game must not be
		t := pick(g, ts)
		x := pick(g, b.bound[t])
		var y gdl.Term = g.constant(t)
		if len(b.bound[t]) > 1 && g.chance(0.5) {
			y = pick(g, b.bound[t])
		}
		return &gdl.Distinct{X: x, Y: y}
	case orOK:
		or := &gdl.Or{}
		for range g.between(2, 3) {
			var d gdl.Literal
			if g.chance(0.5) {
				d = b.literal(pick(g, b.from), false)
			} else {
				d = b.test(false)
			}
			if d != nil {
				or.Disjuncts = append(or.Disjuncts, d)
			}
		}
		if len(or.Disjuncts) < 2 {
			return nil
		}
		return or
	}
	return nil
}

// head returns the arguments of a head of the given types: bound
// variables, or constants when none of a type is bound.
func (b *body) head(ts []typ) []gdl.Term {
	out := make([]gdl.Term, len(ts))
	for i, t := range ts {
		if vs := b.bound[t]; len(vs) > 0 && b.g.chance(0.85) {
			out[i] = pick(b.g, vs)
		} else {
			out[i] = b.g.constant(t)
		}
	}
	return out
}
