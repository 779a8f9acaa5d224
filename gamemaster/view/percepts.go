package view

import (
	"strings"

	"github.com/ggp-go/ggp/games"
)

// maxPerceptLen bounds the length of a percept put into words: a longer
// one is shown as it is.
const maxPerceptLen = 1000

// perceptWords returns the words of a percept in KIF, its parentheses
// words of their own: "(opened 2)" is "(", "opened", "2", ")".
func perceptWords(kif string) []string {
	kif = strings.ReplaceAll(kif, "(", " ( ")
	kif = strings.ReplaceAll(kif, ")", " ) ")
	return strings.Fields(kif)
}

// sayPercept says in words what percept means, by the first of texts
// whose pattern it matches; ok is false when none does. A variable of a
// pattern matches one word, and the same word wherever it occurs.
func sayPercept(texts []games.PerceptText, percept string) (sentence string, ok bool) {
	if len(percept) > maxPerceptLen {
		return "", false
	}
	words := perceptWords(percept)
	for _, t := range texts {
		bound, ok := matchPercept(perceptWords(t.Pattern), words)
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

// matchPercept matches the words of a percept against those of a
// pattern, and returns the word each variable stands for.
func matchPercept(pattern, words []string) (map[string]string, bool) {
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
