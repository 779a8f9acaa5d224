package propnet

import "github.com/ggp-go/ggp/reasoner"

// SetPlainWins makes r's playouts test wins on facts pattern by pattern,
// not in their trie, when on.
func SetPlainWins(r *Reasoner, on bool) { r.plainWins = on }

// WinHolds reports whether a win on facts of move of role holds in s, as
// playouts find it in the role's trie, and as its patterns read one by one
// say.
func WinHolds(r *Reasoner, role int, move int32, s *reasoner.State) (fast, plain bool) {
	words, err := r.stateWords(s)
	if err != nil {
		panic(err)
	}
	w := r.net.wins
	w.find(r.net)
	if w.tries[role] == nil {
		return false, false
	}
	held := make([]uint64, (len(r.net.legal[role])+63)/64)
	w.tries[role].holding(words, held)
	fast = held[move>>6]>>(move&63)&1 != 0
	clear(held)
	holdingPlain(w.pats[role], words, held)
	return fast, held[move>>6]>>(move&63)&1 != 0
}

// BestGoal returns the value of role's highest goal, or -1 when it has
// none.
func BestGoal(r *Reasoner, role int) int {
	gn := r.net.goalNet
	if gn == nil {
		return -1
	}
	best := gn.bestGoal(role)
	if best < 0 {
		return -1
	}
	return gn.goals[role][best].value
}
