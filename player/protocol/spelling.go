package protocol

import (
	"strings"

	"github.com/ggp-go/ggp/gdl"
)

// A Spelling maps symbols written in any case back to their spelling in a
// match's rules. The Dresden GameController writes every symbol of its
// messages in upper case, whatever the rules say; a move or percept it
// sends is read in the rules' spelling by looking each symbol up whatever
// its case. Symbols the rules do not have are kept as written.
type Spelling struct {
	names map[string]string // lower case -> as in the rules
}

// NewSpelling returns the spelling of the symbols of d. Of two symbols
// that differ only in case, the first written is kept.
func NewSpelling(d *gdl.Description) *Spelling {
	sp := &Spelling{names: map[string]string{}}
	if d == nil {
		return sp
	}
	add := func(name string) {
		key := strings.ToLower(name)
		if _, ok := sp.names[key]; !ok {
			sp.names[key] = name
		}
	}
	gdl.Inspect(d, func(n gdl.Node) bool {
		switch x := n.(type) {
		case *gdl.Const:
			if x != nil {
				add(x.Name)
			}
		case *gdl.Func:
			if x != nil && x.Name != nil {
				add(x.Name.Name)
			}
		case *gdl.Sentence:
			if x != nil && x.Name != nil {
				add(x.Name.Name)
			}
		}
		return true
	})
	return sp
}

// Respell returns term, a term in compact KIF, with each symbol spelled
// as in the rules.
func (sp *Spelling) Respell(term string) string {
	if sp == nil || len(sp.names) == 0 {
		return term
	}
	var b strings.Builder
	for i := 0; i < len(term); {
		c := term[i]
		if c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(term) && !strings.ContainsRune("() \t\n\r", rune(term[j])) {
			j++
		}
		word := term[i:j]
		if name, ok := sp.names[strings.ToLower(word)]; ok && word[0] != '?' {
			word = name
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}
