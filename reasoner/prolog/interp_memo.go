package prolog

import (
	"fmt"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/reasoner"
)

// Per-state answer tables.
//
// Relations that depend on the joint move are tabled too, in a table of
// their own that is emptied whenever the joint move changes.
//
// Game rules are mostly written for forward-chaining provers, which compute
// each relation once per state. Evaluated top-down, the same subgoal is
// proved again and again: in chess, (empty ?x ?y) runs a hundred thousand
// times for one legal-move query. So calls to relations that depend on the
// state (but not on the joint move) go through a memo native: the first
// call with given bound arguments collects every answer with a nested
// query, and later calls in the same state match the stored rows.

// memoVersion is the memo native of one version of a relation.
type memoVersion struct {
	id     int
	name   engine.Atom // memo:...
	target engine.Atom // the version whose answers are stored
	arity  int         // arguments, without the depth
	depth  bool        // the target takes a depth argument last
	// recursive versions always table: the table's loop check is what
	// stops a recursion through a cycle of the state (a group of stones
	// in Go) from running to the depth limit.
	recursive bool
	usesDoes  bool // answers depend on the joint move
}

// Answer tables are bounded: a call with more than maxMemoRows answers is
// proved directly instead (top-down evaluation streams its answers; a table
// would hold them all), and the tables are cleared when they hold more than
// maxMemoTotal rows, which only costs recomputation.
const (
	maxMemoRows  = 1 << 12
	maxMemoTotal = 1 << 18
)

// memoTable holds the answer tables of the current state, and how well
// tabling has paid for each memo version so far.
type memoTable struct {
	answers     map[string][]row // for the state
	moveAnswers map[string][]row // for the state and the joint move
	busy        map[string]bool  // keys whose answers are being collected
	stats       []memoStats      // by memoVersion.id
	rows        int              // rows held in answers and moveAnswers
	// loops counts calls failed because their key was being collected
	// further up: answers found meanwhile may be incomplete, so they are
	// tabled only for the outermost call.
	loops int
}

// memoStats counts the calls of one memo version. Tabling costs a nested
// query and a copy of every answer, which only pays when calls repeat
// within a state; a version whose calls rarely hit stops tabling.
type memoStats struct {
	calls, hits int
	off         bool
}

// Tabling is judged after memoTrial calls: fewer than one hit in
// memoMinHitRatio calls turns it off for the version.
const (
	memoTrial       = 256
	memoMinHitRatio = 8
)

// clearMoves empties the tables of relations that depend on the joint move.
func (m *memoTable) clearMoves() {
	for _, rows := range m.moveAnswers {
		m.rows -= len(rows)
	}
	clear(m.moveAnswers)
}

func (m *memoTable) reset() {
	clear(m.answers)
	clear(m.moveAnswers)
	m.rows = 0
	clear(m.busy)
	m.loops = 0
}

// memoCall answers a call to m's target from the table, filling the table
// on the first call with these bound arguments.
func (r *Reasoner) memoCall(m *memoVersion, args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
	st := &r.memo.stats[m.id]
	if st.off {
		return r.vm.Arrive(m.target, args, k, env)
	}
	st.calls++
	if st.calls == memoTrial && st.hits*memoMinHitRatio < st.calls && !m.recursive {
		st.off = true
	}
	r.buf = append(r.buf[:0], byte(m.id), byte(m.id>>8), byte(m.id>>16))
	// The nested query starts from an empty environment, so it gets the
	// bound arguments fully resolved.
	resolved := make([]engine.Term, m.arity)
	for i := 0; i < m.arity; i++ {
		t, ok := resolveGround(args[i], env)
		r.buf = append(r.buf, ' ')
		switch a := env.Resolve(args[i]).(type) {
		case engine.Variable:
			r.buf = append(r.buf, '_') // free: the key covers every value
		default:
			if ok {
				resolved[i] = t
				from := len(r.buf)
				r.buf = r.appendTerm(r.buf, t, nil)
				// A recursion on ever-deeper terms would table a longer
				// key and nest another query at each level. A term nested
				// d deep is written in at least 2d bytes, so only long
				// keys need their depth measured.
				if limit := r.game.opts.MaxTermDepth; len(r.buf)-from > 2*limit && termDepth(t, limit) > limit {
					return engine.Error(fmt.Errorf("%w of %d, in a call of %s", reasoner.ErrTermDepth, limit, r.game.atomName(m.target)))
				}
			} else {
				// Partly bound: written with its variables, so the key is
				// this call's own and never taken for another's.
				r.buf = r.appendTerm(r.buf, a, env)
			}
		}
	}
	answers := r.memo.answers
	if m.usesDoes {
		answers = r.memo.moveAnswers
	}
	if rows, ok := answers[string(r.buf)]; ok {
		st.hits++
		return matchRows(args[:m.arity], rows, k, env)
	}
	key := string(r.buf)
	if r.memo.busy[key] {
		// A recursive call on the very subgoal being proved: fail it, as
		// ggp-base's prover does. Any proof through it would need a proof
		// of the subgoal first, so for the outermost call nothing is lost.
		r.memo.loops++
		return engine.Bool(false)
	}
	// Collect every answer with the free arguments left free.
	call := make([]engine.Term, len(args))
	for i, t := range resolved {
		if t != nil {
			call[i] = t
		} else {
			call[i] = engine.NewVariable()
		}
	}
	if m.depth {
		call[m.arity] = env.Resolve(args[m.arity])
	}
	var rows []row
	var seen map[string]bool
	complete := true
	r.memo.busy[key] = true
	loops := r.memo.loops
	_, err := r.vm.Arrive(m.target, call, func(e *engine.Env) *engine.Promise {
		rw := make(row, m.arity)
		for i := range rw {
			t, ok := resolveGround(call[i], e)
			if !ok {
				complete = false // a non-ground answer: do not table
				return engine.Bool(true)
			}
			rw[i] = t
		}
		if len(rows) >= maxMemoRows {
			complete = false // too many answers to hold: prove directly
			return engine.Bool(true)
		}
		if len(rows) > 0 {
			if seen == nil {
				seen = map[string]bool{r.rowKey(rows[0]): true}
			}
			k := r.rowKey(rw)
			if seen[k] {
				return engine.Bool(false)
			}
			seen[k] = true
		}
		rows = append(rows, rw)
		return engine.Bool(false)
	}, nil).Force(r.ctx)
	delete(r.memo.busy, key)
	if err != nil {
		return engine.Error(err)
	}
	if !complete {
		return r.vm.Arrive(m.target, args, k, env)
	}
	if r.memo.loops == loops || len(r.memo.busy) == 0 {
		if r.memo.rows+len(rows) > maxMemoTotal {
			clear(r.memo.answers)
			clear(r.memo.moveAnswers)
			r.memo.rows = 0
		}
		r.memo.rows += len(rows)
		answers[key] = rows
	}
	return matchRows(args[:m.arity], rows, k, env)
}

// termDepth returns the nesting depth of the ground term t, an atom being
// 1, or limit+1 as soon as the depth is known to exceed limit.
func termDepth(t engine.Term, limit int) int {
	c, ok := t.(engine.Compound)
	if !ok {
		return 1
	}
	if limit <= 0 {
		return 1
	}
	d := 0
	for i := 0; i < c.Arity(); i++ {
		d = max(d, termDepth(c.Arg(i), limit-1))
	}
	return d + 1
}

// rowKey returns a string identifying a ground row.
func (r *Reasoner) rowKey(rw row) string {
	var b []byte
	for _, t := range rw {
		b = r.appendTerm(b, t, nil)
		b = append(b, ' ')
	}
	return string(b)
}
