package gdl

import (
	"slices"
	"strconv"
	"strings"
)

// headDomains reads the head variables that no positive literal binds, in
// rules of the game's own relations, as the Dresden GameController's prover
// does: a rule is only ever asked with its arguments as its callers give
// them, and (<= (makiPoints ?p 0) (not (mostMaki ?p))) asked for a player
// answers for that player. Where every use of the relation in a rule body
// gives that argument a value, the variable is read as ranging over those
// values: a relation NAME_argN_values_K is added to the rule's body, with
// one rule per use holding that use's argument under what gives it its
// value there (see domainRules). Both backends read the result, and the
// checks that follow (safety, stratification, dependencies, recursion)
// check it as they check every rule. Where some use gives the argument no
// value, nothing is read and checkSafety reports the variable.
func (v *validator) headDomains() {
	b := &domainBuilder{v: v, names: make(map[string]bool), made: make(map[string]*Const),
		uses: make(map[string][]string), visiting: make(map[string]bool), needs: make(map[string]bool)}
	Inspect(v.d, func(n Node) bool {
		if c, ok := n.(*Const); ok {
			b.names[c.Name] = true
		}
		return true
	})
	for _, r := range v.rules {
		if len(unboundHeadArgs(r)) > 0 {
			b.needs[relationKey(r.Head)] = true
		}
	}
	if len(b.needs) == 0 {
		return
	}
	b.g = buildGraph(v.rules, relationKey)
	b.reachesNeed = b.g.reachingAny(b.needs)
	origin := make(map[*Rule]*Rule) // rule as read -> rule of d, where they differ
	for orig, read := range v.read {
		for _, r := range read {
			origin[r] = orig
		}
	}
	for i, r := range v.rules {
		h := r.Head
		var added []Literal
		for _, arg := range unboundHeadArgs(r) {
			x := h.Args[arg].(*Var)
			dom, ok := b.domain(h.Name.Name, len(h.Args), arg)
			if !ok {
				continue
			}
			key := argKey(h.Name.Name, len(h.Args), arg)
			added = append(added, &Sentence{Lparen: x.NamePos, Name: &Const{NamePos: x.NamePos, Name: dom.Name}, Args: []Term{x}})
			v.readf(x.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s in the head appears in no positive literal of the body; read as ranging over the values the uses of %s give it (at %s), as the Dresden GameController's prover asks it with the value given: (%s ?%s) is added to the body",
				h.Name.Name, x.Name, h.Name.Name, strings.Join(b.uses[key], ", "), dom.Name, x.Name)
		}
		if added == nil {
			continue
		}
		ext := &Rule{Lparen: r.Lparen, Head: r.Head, Body: append(added, r.Body...)}
		v.replaceRead(origin, r, ext)
		v.rules[i] = ext
	}
	v.rules = append(v.rules, v.domains...)
}

// unboundHeadArgs returns the indexes of the arguments of r's head, r a rule
// of one of the game's own relations, that are variables no positive
// literal of its body binds.
func unboundHeadArgs(r *Rule) []int {
	if keywords[r.Head.Name.Name] || r.IsFact() {
		return nil
	}
	bound := boundVars(r.Body)
	var out []int
	for i, t := range r.Head.Args {
		if x, ok := t.(*Var); ok && !bound[x.Name] && !slices.ContainsFunc(r.Head.Args[:i], func(u Term) bool { y, ok := u.(*Var); return ok && y.Name == x.Name }) {
			out = append(out, i)
		}
	}
	return out
}

func argKey(name string, arity, arg int) string {
	return name + "/" + strconv.Itoa(arity) + "/" + strconv.Itoa(arg)
}

// A domainBuilder makes the domain relations of one validation.
type domainBuilder struct {
	v *validator
	g *depGraph // of the rules as read, by name and arity
	// reachesNeed holds the nodes of g that depend on a relation that
	// needs a domain, those relations included.
	reachesNeed []bool
	names       map[string]bool     // every name taken
	made        map[string]*Const   // argument key -> its domain relation, nil when it has none
	uses        map[string][]string // argument key -> positions of the uses its domain holds
	visiting    map[string]bool     // argument keys whose domain is being made
	needs       map[string]bool     // relation keys with a rule that needs a domain
}

// domain returns the domain relation of argument arg of relation
// name/arity, making it and its rules when first asked, and reports
// whether it has one.
func (b *domainBuilder) domain(name string, arity, arg int) (*Const, bool) {
	key := argKey(name, arity, arg)
	if c, ok := b.made[key]; ok {
		return c, c != nil
	}
	if b.visiting[key] {
		return nil, false // the uses give the values of each other alone
	}
	b.visiting[key] = true
	rules, ok := b.domainRules(name, arity, arg)
	delete(b.visiting, key)
	if !ok {
		b.made[key] = nil
		return nil, false
	}
	dom := &Const{Name: freshName(b.names, name+"_arg"+strconv.Itoa(arg+1)+"_values_")}
	for _, d := range rules {
		d.Head.Name.Name = dom.Name
		b.uses[key] = append(b.uses[key], lineCol(d.Pos()))
	}
	b.made[key] = dom
	b.v.domains = append(b.v.domains, rules...)
	return dom, true
}

// domainRules returns the rules of the domain of argument arg of relation
// name/arity, each with a placeholder name: one per use of the relation in
// a body, holding the use's argument t under what gives it its value
// there:
//   - the positive top-level sentences of that body that share a variable
//     with t, but for those that depend on the relation, or on a relation
//     that needs a domain itself (which would make the domains depend on
//     each other);
//   - for each variable of t they leave unbound that is an argument of the
//     head, what gives that argument its value: (role ?r) for the role
//     argument of legal, sees, goal and input, and the domain of that
//     argument for a relation of the game's own.
//
// It reports false when there is no use, when a use is in a rule of the
// relation itself or leaves a variable of t without a value.
func (b *domainBuilder) domainRules(name string, arity, arg int) ([]*Rule, bool) {
	v := b.v
	key := name + "/" + strconv.Itoa(arity)
	// A sentence is usable when its relation depends on no relation that
	// needs a domain, this one included.
	usable := func(p *Sentence) bool { return !b.reachesNeed[b.g.id[relationKey(p)]] }
	var out []*Rule
	ok := true
	for _, c := range v.rules {
		if !ok {
			break
		}
		eachBodySentence(c, func(s *Sentence, _ bool) {
			if !ok || s.Name.Name != name || len(s.Args) != arity {
				return
			}
			// c depends on the relation through this use; it may not be
			// depended on by it too.
			if b.g.comp[b.g.id[relationKey(c.Head)]] == b.g.comp[b.g.id[key]] {
				ok = false
				return
			}
			t := s.Args[arg]
			need := make(map[string]bool)
			eachVar(t, func(x *Var) { need[x.Name] = true })
			var body []Literal
			for _, l := range c.Body {
				p, isSentence := l.(*Sentence)
				if isSentence && p != s && sharesVar(p, need) && usable(p) {
					body = append(body, p)
				}
			}
			for _, l := range body {
				eachVar(l, func(x *Var) { delete(need, x.Name) })
			}
			for x := range need {
				lit, found := b.headValues(c, x)
				if !found {
					ok = false
					return
				}
				body = append(body, lit)
			}
			head := &Sentence{Lparen: t.Pos(), Name: &Const{NamePos: t.Pos()}, Args: []Term{t}}
			out = append(out, &Rule{Lparen: t.Pos(), Head: head, Body: body})
		})
	}
	return out, ok && len(out) > 0
}

// headValues returns the literal that gives variable x of rule c its value
// when x is an argument of c's head: (role ?x) for the role argument of
// legal, sees, goal and input, and the domain of the argument for a
// relation of the game's own. It reports false otherwise.
func (b *domainBuilder) headValues(c *Rule, x string) (Literal, bool) {
	h := c.Head
	for j, t := range h.Args {
		y, isVar := t.(*Var)
		if !isVar || y.Name != x {
			continue
		}
		if keywords[h.Name.Name] {
			if j == 0 && roleArgument[h.Name.Name] {
				return &Sentence{Lparen: y.NamePos, Name: &Const{NamePos: y.NamePos, Name: KeyRole}, Args: []Term{y}}, true
			}
			return nil, false
		}
		dom, ok := b.domain(h.Name.Name, len(h.Args), j)
		if !ok {
			return nil, false
		}
		return &Sentence{Lparen: y.NamePos, Name: &Const{NamePos: y.NamePos, Name: dom.Name}, Args: []Term{y}}, true
	}
	return nil, false
}

// replaceRead records that the rule as read r is read as ext instead;
// origin maps the rules as read that differ from d's to d's.
func (v *validator) replaceRead(origin map[*Rule]*Rule, r, ext *Rule) {
	orig, ok := origin[r]
	if !ok {
		if v.read == nil {
			v.read = make(map[*Rule][]*Rule)
		}
		v.read[r] = []*Rule{ext}
		return
	}
	read := v.read[orig]
	read[slices.Index(read, r)] = ext
}

// sharesVar reports whether a variable of s is in vars.
func sharesVar(s *Sentence, vars map[string]bool) bool {
	shares := false
	eachVar(s, func(x *Var) { shares = shares || vars[x.Name] })
	return shares
}

// relationKey returns name/arity of sentence s.
func relationKey(s *Sentence) string {
	return s.Name.Name + "/" + strconv.Itoa(len(s.Args))
}
