package view

import (
	"context"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// decisiveTime bounds the time spent finding the decisive facts of a
// match's final state: the rules' compilation, the goals and the facts
// left out in turn. The page shows no line when it runs out.
const decisiveTime = 3 * time.Second

// finalDecisive returns the facts of the final state of rec, a completed
// match, that decide its goals by themselves (human.DecisiveFacts): the
// winning line of a game of lines. A person's player of a GDL-II match
// never learns the true final state, so the viewer finds them itself,
// with the Prolog reference reasoner, which needs no grounding, on the
// record's rules, within decisiveTime. Nil when the rules or the state
// cannot be read, or the time runs out.
func finalDecisive(ctx context.Context, rec *record.Record) []string {
	if !rec.IsCompleted || len(rec.States) == 0 || rec.GameRules == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, decisiveTime)
	defer cancel()
	d, err := gdl.ParseFile(rec.GameKey, []byte(rec.GameRules))
	if err != nil {
		return nil
	}
	r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
	if err != nil {
		return nil
	}
	facts, ok := stateFacts(rec.States[len(rec.States)-1])
	if !ok {
		return nil
	}
	s := reasoner.NewState(facts)
	goals, err := r.Goals(ctx, s)
	if err != nil {
		return nil
	}
	return human.DecisiveFacts(ctx, r, s, goals)
}

// stateFacts splits a state as a record writes it, "((cell 1 1 x)
// (control oplayer))", into its facts in compact KIF; ok is false when it
// is not a list of terms.
func stateFacts(state string) (facts []reasoner.Fact, ok bool) {
	words := termWords(state)
	if len(words) < 2 || words[0] != "(" || words[len(words)-1] != ")" {
		return nil, false
	}
	depth := 0
	var fact []string
	for _, w := range words[1 : len(words)-1] {
		switch w {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth < 0 {
			return nil, false
		}
		fact = append(fact, w)
		if depth == 0 {
			facts = append(facts, reasoner.Fact(compactKIF(fact)))
			fact = nil
		}
	}
	return facts, depth == 0
}

// compactKIF writes the words of a term (termWords) as compact KIF: no
// space after an opening or before a closing parenthesis.
func compactKIF(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 && words[i-1] != "(" && w != ")" {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}
