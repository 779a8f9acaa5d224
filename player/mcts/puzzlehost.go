package mcts

import "github.com/ggp-go/ggp/reasoner"

// searchHost is how a Search offers the puzzle search (package puzzle)
// what it shares with the tree search: the memory bounds, the best line,
// the workers' time and the counts of its Stats. Each method takes s.mu as needed; the puzzle
// calls them holding its own lock, never the reverse.
type searchHost struct{ s *Search }

func (h searchHost) MemoryFull() bool { return h.s.full.Load() }

func (h searchHost) SizeChanged() { h.s.checkFull() }

func (h searchHost) BestScore() float64 {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.bscore
}

// OfferLine keeps line as the best if the root has not changed since gen
// and line scores better than the best known.
func (h searchHost) OfferLine(gen uint64, line []reasoner.Move, score float64) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen == s.gen && score > s.bscore {
		s.best = line
		s.bscore = score
	}
}

func (h searchHost) SetExclusive(on bool) { h.s.exclusive.Store(on) }

func (h searchHost) Expanded() { h.s.expansions.Add(1) }

func (h searchHost) Failed(err error) {
	h.s.errs.Add(1)
	h.s.logf("mcts: puzzle expansion: %v", err)
}
