package propnet

import "github.com/ggp-go/ggp/reasoner"

// SetPlainWins makes r's playouts test wins on facts pattern by pattern,
// not in their trie, when on.
func SetPlainWins(r *Reasoner, on bool) { r.plainWins = on }

// WinHolds reports whether a win on facts of move of role holds in s, as
// playouts find it in the role's trie, and as its patterns read one by one
// say. The wins must have been found.
func WinHolds(r *Reasoner, role int, move int32, s *reasoner.State) (fast, plain bool) {
	words, err := r.stateWords(s)
	if err != nil {
		panic(err)
	}
	w := r.net.wins
	if !w.known() || w.tries[role] == nil {
		return false, false
	}
	held := make([]uint64, (len(r.net.legal[role])+63)/64)
	w.tries[role].holding(words, held)
	fast = held[move>>6]>>(move&63)&1 != 0
	clear(held)
	holdingPlain(w.pats[role], words, held)
	return fast, held[move>>6]>>(move&63)&1 != 0
}
