package gamemaster

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// FirstGoals settles the goals of the end state s of a GDL-II game whose
// rules d give some roles several goal values there: a role's goal is the
// value of the first goal rule, in the order of the file, that holds. The
// public GDL-II games that do this write the special case first: in
// kriegTTT_4x4, where both players can complete a line in the same step,
// the rule for that case gives each 50 and comes before the rules that
// give a line 100 and the other's line 0. GDL games are left as the GDL
// specification and ggp-base read them: several values are an error.
//
// goals and ge are what the match's reasoner returned; goals is indexed
// by roles. FirstGoals returns the goals with each role of several values
// settled, a note per settled role, and ge reduced to the roles left
// without a single value (nil when none is).
func FirstGoals(ctx context.Context, d *gdl.Description, s *reasoner.State, roles []string, goals []int, ge *reasoner.GoalError) ([]int, []string, error) {
	if !slices.ContainsFunc(ge.Values, func(v []int) bool { return len(v) > 1 }) {
		return goals, nil, ge
	}
	// Each goal rule is copied under a relation of its own, numbered in
	// the file's order, whose name no rule can write (it has spaces), and
	// Prolog is asked which of them hold.
	rules := slices.Clone(d.Rules)
	var heads []*gdl.Const
	for _, r := range d.Rules {
		if r.Head.Name.Name != gdl.KeyGoal || len(r.Head.Args) != 2 {
			continue
		}
		name := &gdl.Const{NamePos: r.Head.Name.NamePos, Name: fmt.Sprintf("goal rule %d", len(heads))}
		heads = append(heads, name)
		rules = append(rules, &gdl.Rule{Lparen: r.Lparen, Head: &gdl.Sentence{Lparen: r.Head.Lparen, Name: name, Args: r.Head.Args}, Body: r.Body})
	}
	p, err := prolog.New(&gdl.Description{Filename: d.Filename, Rules: rules})
	if err != nil {
		return goals, nil, ge
	}
	first := map[string]int{} // role to the value of its first rule that holds
	for _, name := range heads {
		q := &gdl.Sentence{Name: name, Args: []gdl.Term{&gdl.Var{Name: "r"}, &gdl.Var{Name: "v"}}}
		answers, err := p.Ask(ctx, s, q)
		if err != nil {
			return goals, nil, ge
		}
		for _, a := range answers {
			f := strings.Fields(strings.TrimSuffix(a, ")"))
			if len(f) < 2 {
				continue
			}
			v, err := strconv.Atoi(f[len(f)-1])
			if _, seen := first[f[len(f)-2]]; err == nil && !seen {
				first[f[len(f)-2]] = v
			}
		}
	}
	goals = slices.Clone(goals)
	var notes []string
	rest := &reasoner.GoalError{}
	for i, role := range ge.Roles {
		v, ok := first[role]
		at := slices.Index(roles, role)
		if len(ge.Values[i]) > 1 && ok && at >= 0 && slices.Contains(ge.Values[i], v) {
			goals[at] = v
			notes = append(notes, fmt.Sprintf("the rules give %s the goals %v; the first rule that holds gives %d", role, ge.Values[i], v))
			continue
		}
		rest.Roles = append(rest.Roles, role)
		rest.Values = append(rest.Values, ge.Values[i])
	}
	if len(rest.Roles) > 0 {
		return goals, notes, rest
	}
	return goals, notes, nil
}
