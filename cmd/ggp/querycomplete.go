package main

import (
	"slices"
	"strings"
	"unicode"
)

// queryVerbs are the command names, for completion.
var queryVerbs = []string{"ask", "goals", "help", "history", "legal", "play", "quit", "random", "state", "terminal", "undo"}

// complete returns the completions of the word that ends line, for line
// editing: command names, roles after legal and legal moves after play.
// head is the text before that word.
func (s *querySession) complete(line string) (head string, completions []string) {
	verb, rest, found := strings.Cut(line, " ")
	if !found {
		for _, v := range queryVerbs {
			if strings.HasPrefix(v, strings.ToLower(verb)) {
				completions = append(completions, v)
			}
		}
		return "", completions
	}
	var words []string
	switch strings.ToLower(verb) {
	case "legal":
		words = s.roles
	case "play":
		if st := s.current(); st.known {
			for _, ms := range st.legal {
				for _, m := range ms {
					words = append(words, string(m))
				}
			}
			slices.Sort(words)
			words = slices.Compact(words)
		}
	}
	start := len(verb) + 1 + lastTermStart(rest)
	for _, w := range words {
		if strings.HasPrefix(w, line[start:]) {
			completions = append(completions, w)
		}
	}
	return line[:start], completions
}

// lastTermStart returns the offset in s of its last term, which may be
// incomplete: where the text after the last complete term starts.
func lastTermStart(s string) int {
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '(':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')':
			depth = max(depth-1, 0)
			if depth == 0 {
				start = i + 1
			}
		case unicode.IsSpace(c):
			if depth == 0 {
				start = i + 1
			}
		}
	}
	return start
}
