package view

import (
	"strings"

	"github.com/ggp-go/ggp/games"
)

// maxTermLen bounds the length of a move or percept put into words: a
// longer one is shown as it is.
const maxTermLen = 1000

// termWords returns the words of a term in KIF, its parentheses words of
// their own: "(opened 2)" is "(", "opened", "2", ")".
func termWords(kif string) []string {
	kif = strings.ReplaceAll(kif, "(", " ( ")
	kif = strings.ReplaceAll(kif, ")", " ) ")
	return strings.Fields(kif)
}

// say says in words what term, a move or a percept, means, by the first
// of phrases whose pattern it matches; ok is false when none does. A
// variable of a pattern matches one word, and the same word wherever it
// occurs.
func say(phrases []games.Phrase, term string) (sentence string, ok bool) {
	if len(term) > maxTermLen {
		return "", false
	}
	words := termWords(term)
	for _, t := range phrases {
		bound, ok := match(termWords(t.Pattern), words)
		if !ok {
			continue
		}
		// The longest variables first, so that ?d never replaces the
		// start of ?dd.
		out := t.Text
		for len(bound) > 0 {
			longest := ""
			for v := range bound {
				if len(v) > len(longest) || len(v) == len(longest) && v < longest {
					longest = v
				}
			}
			out = strings.ReplaceAll(out, longest, bound[longest])
			delete(bound, longest)
		}
		return out, true
	}
	return "", false
}

// match matches the words of a term against those of a pattern, and
// returns the word each variable stands for.
func match(pattern, words []string) (map[string]string, bool) {
	if len(pattern) != len(words) || len(pattern) == 0 {
		return nil, false
	}
	bound := map[string]string{}
	for i, p := range pattern {
		w := words[i]
		if !strings.HasPrefix(p, "?") {
			if !strings.EqualFold(p, w) {
				return nil, false
			}
			continue
		}
		if w == "(" || w == ")" {
			return nil, false
		}
		if b, seen := bound[p]; seen && b != w {
			return nil, false
		}
		bound[p] = w
	}
	return bound, true
}

// sayAll returns what each of terms that phrases can say means, by term;
// nil when phrases say nothing.
func sayAll(phrases []games.Phrase, terms ...[]string) map[string]string {
	if len(phrases) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, ts := range terms {
		for _, t := range ts {
			if _, done := out[t]; done || t == "" {
				continue
			}
			if sentence, ok := say(phrases, t); ok {
				out[t] = sentence
			}
		}
	}
	return out
}
