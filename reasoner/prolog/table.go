package prolog

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
)

// row is a ground fact split into its arguments, for matching against the
// arguments of a native call.
type row []engine.Term

// splitArgs returns the arguments of a ground term: none for a constant.
func splitArgs(t engine.Term) row {
	c, ok := t.(engine.Compound)
	if !ok {
		return nil
	}
	r := make(row, c.Arity())
	for i := range r {
		r[i] = c.Arg(i)
	}
	return r
}

// resolveArgs resolves the arguments of a call once, into buf.
func resolveArgs(buf []engine.Term, args []engine.Term, env *engine.Env) []engine.Term {
	buf = buf[:0]
	for _, a := range args {
		buf = append(buf, env.Resolve(a))
	}
	return buf
}

// quickReject reports whether r certainly does not match the resolved
// arguments: some argument is a constant that differs. It binds nothing.
func quickReject(resolved []engine.Term, r row) bool {
	for i, a := range resolved {
		if x, ok := a.(engine.Atom); ok {
			if y, ok := r[i].(engine.Atom); ok && x != y {
				return true
			}
		}
	}
	return false
}

// matchRows calls k once for every row among candidates that unifies with
// args. Rows are ground, so each candidate is tried independently.
func matchRows(args []engine.Term, candidates []row, k engine.Cont, env *engine.Env) *engine.Promise {
	var resolvedBuf [maxNativeArity + 1]engine.Term
	resolved := resolveArgs(resolvedBuf[:0], args, env)
	// Rows of constants are empty, so track the first candidate by index.
	first := -1
	var more []row
	for i, r := range candidates {
		if quickReject(resolved, r) {
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		more = append(more, r)
	}
	if first < 0 {
		return engine.Bool(false)
	}
	try := func(r row) *engine.Promise {
		e := env
		ok := true
		for i, a := range resolved {
			if _, isAtom := a.(engine.Atom); isAtom {
				continue // already equal: quickReject checked it
			}
			if e, ok = e.Unify(a, r[i]); !ok {
				return engine.Bool(false)
			}
		}
		return k(e)
	}
	if more == nil {
		return try(candidates[first])
	}
	ks := make([]func(context.Context) *engine.Promise, 0, len(more)+1)
	ks = append(ks, func(context.Context) *engine.Promise { return try(candidates[first]) })
	for _, r := range more {
		ks = append(ks, func(context.Context) *engine.Promise { return try(r) })
	}
	return engine.Delay(ks...)
}

// table is the extension of a relation: of a state-independent one,
// computed once when the game is loaded, immutable and shared by all
// instances; or of a state's facts or derived rows, owned by one instance.
type table struct {
	rows []row
	// index maps, for each argument position, a constant to the rows that
	// have it there. Positions holding compound terms in some row are
	// indexed on their constant rows only, with the compound rows listed in
	// open so they are always candidates.
	index []map[engine.Atom][]row
	open  [][]row
	// byRow maps the hash of a row of constants to the rows with that
	// hash, for ground lookups; unused when compound is set, some row
	// holding a compound.
	byRow    map[uint64][]row
	compound bool
	arity    int
	// indexed counts the rows indexed so far. An instance's tables index
	// their rows when first looked up with more than smallTable rows:
	// most derived tables are small and looked up little. Shared tables
	// are indexed when made, so that reading them never writes.
	indexed int

	// projections caches distinct for the planner, which runs at load.
	mu          sync.Mutex
	projections map[uint64]int
}

// A table of at most smallTable rows is scanned rather than indexed.
const smallTable = 8

func newTable(arity int, rows []row) *table {
	t := &table{}
	t.fill(arity, rows)
	t.ensureIndex()
	return t
}

// fill makes t the table of rows, reusing its maps.
func (t *table) fill(arity int, rows []row) {
	t.reset(arity)
	t.rows = rows
}

// reset empties t, keeping its maps for reuse.
func (t *table) reset(arity int) {
	t.rows = nil
	t.arity = arity
	t.indexed = 0
	t.compound = false
	for i := range t.index {
		clear(t.index[i])
		t.open[i] = nil
	}
	clear(t.byRow)
	t.projections = nil
}

// extend adds rows to t. Slices of rows handed out before stay valid:
// appending never changes what they hold.
func (t *table) extend(rows []row) {
	t.rows = append(t.rows, rows...)
}

// ensureIndex indexes the rows not indexed yet.
func (t *table) ensureIndex() {
	if t.indexed == len(t.rows) {
		return
	}
	if len(t.index) != t.arity {
		t.index = make([]map[engine.Atom][]row, t.arity)
		t.open = make([][]row, t.arity)
		for i := range t.index {
			t.index[i] = map[engine.Atom][]row{}
		}
	}
	if t.byRow == nil {
		t.byRow = map[uint64][]row{}
	}
	for _, r := range t.rows[t.indexed:] {
		h := rowSeed
		for i, a := range r {
			if atom, ok := a.(engine.Atom); ok {
				t.index[i][atom] = append(t.index[i][atom], r)
				h = mixAtom(h, atom)
			} else {
				t.open[i] = append(t.open[i], r)
				t.compound = true
			}
		}
		if !t.compound {
			t.byRow[h] = append(t.byRow[h], r)
		}
	}
	t.indexed = len(t.rows)
}

// small reports whether t is scanned rather than indexed, indexing it
// otherwise.
func (t *table) small() bool {
	if len(t.rows) <= smallTable {
		return true
	}
	t.ensureIndex()
	return false
}

// rowSeed and mixAtom hash a row of constants, one argument at a time.
const rowSeed uint64 = 0xcbf29ce484222325

func mixAtom(h uint64, a engine.Atom) uint64 {
	h ^= uint64(a)
	h *= 0x100000001b3
	return h ^ h>>29
}

// estimate returns the expected number of rows matching a call whose
// arguments for which isBound reports true are known: the table's average
// fan-out over the distinct values of the bound positions taken together,
// so correlated positions (a cell and its coordinates) count as the key
// they form rather than as independent filters.
func (t *table) estimate(args []gdl.Term, isBound func(gdl.Term) bool) float64 {
	if len(t.rows) == 0 {
		return 0
	}
	var mask uint64
	all := true
	for i, a := range args {
		if !isBound(a) {
			all = false
		} else if i < 64 {
			mask |= 1 << i
		}
	}
	if all {
		return 0.5
	}
	if mask == 0 {
		return float64(len(t.rows))
	}
	return float64(len(t.rows)) / float64(t.distinct(mask))
}

// distinct returns the number of distinct projections of the rows on the
// positions in mask, computed once per mask.
func (t *table) distinct(mask uint64) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n, ok := t.projections[mask]; ok {
		return n
	}
	seen := map[string]bool{}
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		for i, a := range r {
			if i < 64 && mask&(1<<i) != 0 {
				writeKey(&b, a)
				b.WriteByte(0)
			}
		}
		seen[b.String()] = true
	}
	if t.projections == nil {
		t.projections = map[uint64]int{}
	}
	t.projections[mask] = len(seen)
	return len(seen)
}

// writeKey writes a ground term to b in a form that tells terms apart.
func writeKey(b *strings.Builder, t engine.Term) {
	switch t := t.(type) {
	case engine.Atom:
		b.WriteString(t.String())
	case engine.Compound:
		b.WriteByte('(')
		b.WriteString(t.Functor().String())
		for i := range t.Arity() {
			b.WriteByte(' ')
			writeKey(b, t.Arg(i))
		}
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "%v", t)
	}
}

// call answers a query on the table, using the most selective bound
// constant argument.
func (t *table) call(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
	candidates := t.rows
	if t.small() {
		return matchRows(args, candidates, k, env)
	}
	for i, a := range args {
		atom, ok := env.Resolve(a).(engine.Atom)
		if !ok {
			continue
		}
		if len(t.open[i]) > 0 {
			continue // keeping it simple: positions with compounds are not used as keys
		}
		rows := t.index[i][atom]
		if len(rows) < len(candidates) {
			candidates = rows
		}
		if len(candidates) == 0 {
			return engine.Bool(false)
		}
	}
	return matchRows(args, candidates, k, env)
}

// factIndex holds the facts of one state (or the moves of one joint move)
// grouped by functor, for the specialised true:f/n and does:f/n natives.
type factIndex struct {
	slots [][]row       // by slot number
	all   []engine.Term // every fact, for the generic $true/1
	// A slot is scanned row by row until it has been looked up
	// indexAfter times for the same facts; then its rows are indexed in
	// a table, by argument and by whole row. Small states and states
	// queried little never pay for building one.
	scans  []int
	tables []*table // reused from state to state
	built  []bool
}

// Indexing a slot's facts pays once the slot holds indexMinRows rows and
// has been looked up indexAfter times: building the index costs a few
// scans.
const (
	indexAfter   = 16
	indexMinRows = 8
)

func newFactIndex(slots int) factIndex {
	return factIndex{
		slots:  make([][]row, slots),
		scans:  make([]int, slots),
		tables: make([]*table, slots),
		built:  make([]bool, slots),
	}
}

func (x *factIndex) reset() {
	for i := range x.slots {
		x.slots[i] = x.slots[i][:0]
	}
	x.all = x.all[:0]
	clear(x.scans)
	clear(x.built)
}

// indexed returns the table of the rows of slot when it pays to have one,
// else nil: the caller scans the rows.
func (x *factIndex) indexed(slot int) *table {
	if x.built[slot] {
		return x.tables[slot]
	}
	rows := x.slots[slot]
	if len(rows) < indexMinRows {
		return nil
	}
	x.scans[slot]++
	if x.scans[slot] < indexAfter {
		return nil
	}
	t := x.tables[slot]
	if t == nil {
		t = &table{}
		x.tables[slot] = t
	}
	t.fill(len(rows[0]), rows)
	x.built[slot] = true
	return t
}
