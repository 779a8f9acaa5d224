package gdl

import (
	"strconv"
	"strings"
)

// headDomains reads the head variables that no positive literal binds, in
// rules of the game's own relations, as the Dresden GameController's prover
// does: a rule is only ever asked with its arguments as its callers give
// them, and (<= (makiPoints ?p 0) (not (mostMaki ?p))) asked for a player
// answers for that player. Where every rule that uses the relation gives
// that argument a value from its own positive literals, the variable is
// read as ranging over those values: a relation NAME_argN_values_K, with one
// rule per use holding that use's argument under the positive literals of
// its body that bind it, is added to the rule's body. Both backends read
// the result, and the checks that follow (safety, stratification,
// dependencies, recursion) check it as they check every rule. Where some use
// gives the argument no value, or the relation is recursive through a use,
// nothing is read and checkSafety reports the variable.
func (v *validator) headDomains() {
	names := make(map[string]bool)
	Inspect(v.d, func(n Node) bool {
		if c, ok := n.(*Const); ok {
			names[c.Name] = true
		}
		return true
	})
	made := make(map[string]*Const)   // relation/arity/argument -> domain relation
	uses := make(map[string][]string) // relation/arity/argument -> positions of its uses
	for i, r := range v.rules {
		h := r.Head
		if keywords[h.Name.Name] || r.IsFact() {
			continue
		}
		bound := boundVars(r.Body)
		var added []Literal
		for arg, t := range h.Args {
			x, ok := t.(*Var)
			if !ok || bound[x.Name] {
				continue
			}
			key := h.Name.Name + "/" + strconv.Itoa(len(h.Args)) + "/" + strconv.Itoa(arg)
			dom, ok := made[key]
			if !ok {
				var rules []*Rule
				rules, ok = v.domainRules(h.Name.Name, len(h.Args), arg)
				if !ok {
					continue
				}
				dom = &Const{NamePos: x.NamePos, Name: freshName(names, h.Name.Name+"_arg"+strconv.Itoa(arg+1)+"_values_")}
				for _, d := range rules {
					d.Head.Name = &Const{NamePos: d.Head.Name.NamePos, Name: dom.Name}
				}
				for _, d := range rules {
					uses[key] = append(uses[key], lineCol(d.Pos()))
				}
				made[key] = dom
				v.domains = append(v.domains, rules...)
			}
			bound[x.Name] = true
			added = append(added, &Sentence{Lparen: x.NamePos, Name: &Const{NamePos: x.NamePos, Name: dom.Name}, Args: []Term{x}})
			v.readf(x.Pos(), CodeUnsafe, "unsafe rule for %s: variable ?%s in the head appears in no positive literal of the body; read as ranging over the values the uses of %s give it (at %s), as the Dresden GameController's prover asks it with the value given: (%s ?%s) is added to the body",
				h.Name.Name, x.Name, h.Name.Name, strings.Join(uses[key], ", "), dom.Name, x.Name)
		}
		if added == nil {
			continue
		}
		ext := &Rule{Lparen: r.Lparen, Head: r.Head, Body: append(added, r.Body...)}
		v.replaceRead(r, ext)
		v.rules[i] = ext
	}
	v.rules = append(v.rules, v.domains...)
}

// replaceRead records that the rule as read r is read as ext instead.
func (v *validator) replaceRead(r, ext *Rule) {
	for orig, read := range v.read {
		for j, x := range read {
			if x == r {
				read[j] = ext
				v.read[orig] = read
				return
			}
		}
	}
	if v.read == nil {
		v.read = make(map[*Rule][]*Rule)
	}
	v.read[r] = []*Rule{ext}
}

// domainRules returns the rules of a domain of argument arg of relation
// name/arity, each with a placeholder name: one per use of the relation in
// a body, holding the use's argument under the positive top-level
// sentences of that body that share a variable with it. It reports false
// when there is no use, when a use's argument keeps a variable those
// sentences do not bind, or when a use is in a rule whose relation the
// relation depends on, or that depends on it through those sentences.
func (v *validator) domainRules(name string, arity, arg int) ([]*Rule, bool) {
	deps := v.dependsOn()
	key := name + "/" + strconv.Itoa(arity)
	var out []*Rule
	ok := true
	for _, c := range v.rules {
		eachBodySentence(c, func(s *Sentence, _ bool) {
			if !ok || s.Name.Name != name || len(s.Args) != arity {
				return
			}
			if deps(key)[relationKey(c.Head)] || relationKey(c.Head) == key {
				ok = false
				return
			}
			t := s.Args[arg]
			need := make(map[string]bool)
			eachVar(t, func(x *Var) { need[x.Name] = true })
			var body []Literal
			for _, l := range c.Body {
				p, isSentence := l.(*Sentence)
				if !isSentence || p == s || !sharesVar(p, need) {
					continue
				}
				if deps(relationKey(p))[key] || relationKey(p) == key {
					ok = false
					return
				}
				body = append(body, p)
			}
			for _, l := range body {
				eachVar(l, func(x *Var) { delete(need, x.Name) })
			}
			if len(need) > 0 {
				ok = false
				return
			}
			head := &Sentence{Lparen: t.Pos(), Name: &Const{NamePos: t.Pos()}, Args: []Term{t}}
			out = append(out, &Rule{Lparen: t.Pos(), Head: head, Body: body})
		})
	}
	return out, ok && len(out) > 0
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

// dependsOn returns a function giving, for each relation key, the set of
// relation keys it depends on through the rules as read, itself only when
// it is recursive. It is built once for all the calls of a validation.
func (v *validator) dependsOn() func(string) map[string]bool {
	if v.deps != nil {
		return v.deps
	}
	edges := make(map[string][]string)
	for _, r := range v.rules {
		h := relationKey(r.Head)
		eachBodySentence(r, func(s *Sentence, _ bool) { edges[h] = append(edges[h], relationKey(s)) })
	}
	memo := make(map[string]map[string]bool)
	v.deps = func(from string) map[string]bool {
		if m, ok := memo[from]; ok {
			return m
		}
		seen := make(map[string]bool)
		stack := append([]string(nil), edges[from]...)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[n] {
				continue
			}
			seen[n] = true
			stack = append(stack, edges[n]...)
		}
		memo[from] = seen
		return seen
	}
	return v.deps
}
