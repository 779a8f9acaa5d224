package prolog

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// nativeFunc is a native predicate of any arity.
type nativeFunc func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise

// register installs fn as the predicate name/arity in vm. The engine offers
// one registration method per arity, up to maxNativeArity.
func register(vm *engine.VM, name engine.Atom, arity int, fn nativeFunc) {
	type (
		T = engine.Term
		K = engine.Cont
		E = engine.Env
		P = engine.Promise
		V = engine.VM
	)
	switch arity {
	case 0:
		vm.Register0(name, func(_ *V, k K, env *E) *P { return fn(nil, k, env) })
	case 1:
		vm.Register1(name, func(_ *V, a T, k K, env *E) *P { return fn([]T{a}, k, env) })
	case 2:
		vm.Register2(name, func(_ *V, a, b T, k K, env *E) *P { return fn([]T{a, b}, k, env) })
	case 3:
		vm.Register3(name, func(_ *V, a, b, c T, k K, env *E) *P { return fn([]T{a, b, c}, k, env) })
	case 4:
		vm.Register4(name, func(_ *V, a, b, c, d T, k K, env *E) *P { return fn([]T{a, b, c, d}, k, env) })
	case 5:
		vm.Register5(name, func(_ *V, a, b, c, d, e T, k K, env *E) *P { return fn([]T{a, b, c, d, e}, k, env) })
	case 6:
		vm.Register6(name, func(_ *V, a, b, c, d, e, f T, k K, env *E) *P { return fn([]T{a, b, c, d, e, f}, k, env) })
	case 7:
		vm.Register7(name, func(_ *V, a, b, c, d, e, f, g T, k K, env *E) *P {
			return fn([]T{a, b, c, d, e, f, g}, k, env)
		})
	case 8:
		vm.Register8(name, func(_ *V, a, b, c, d, e, f, g, h T, k K, env *E) *P {
			return fn([]T{a, b, c, d, e, f, g, h}, k, env)
		})
	default:
		panic(fmt.Sprintf("native predicate %s/%d: arity above %d", name, arity, maxNativeArity))
	}
}

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

// registerNatives installs the native predicates of one instance in its VM.
func (r *Reasoner) registerNatives() {
	vm := &r.vm
	g := r.game
	register(vm, atomFail, 0, func(_ []engine.Term, _ engine.Cont, _ *engine.Env) *engine.Promise {
		return engine.Bool(false)
	})
	register(vm, atomDistinct, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		if identical(args[0], args[1], env) {
			return engine.Bool(false)
		}
		return k(env)
	})
	maxDepth := engine.Integer(g.opts.MaxDepth)
	register(vm, atomDeeper, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		d, _ := env.Resolve(args[0]).(engine.Integer)
		if d >= maxDepth {
			return engine.Error(fmt.Errorf("%w of %d", reasoner.ErrDepth, maxDepth))
		}
		e, _ := env.Unify(args[1], d+1)
		return k(e)
	})
	for slot, key := range g.trueSlots.keys {
		register(vm, g.trueSlots.names[slot], key.arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			if t := r.state.indexed(slot); t != nil {
				return t.call(args, k, env)
			}
			return matchRows(args, r.state.slots[slot], k, env)
		})
	}
	for slot, key := range g.doesSlots.keys {
		// does:f/n takes the role first, then the move's arguments.
		register(vm, g.doesSlots.names[slot], key.arity+1, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			return matchRows(args, r.moves.slots[slot], k, env)
		})
	}
	for _, m := range g.memos {
		arity := m.arity
		if m.depth {
			arity++
		}
		register(vm, m.name, arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			return r.memoCall(m, args, k, env)
		})
	}
	// Templates standing for the arguments of a native, as they are.
	argTemplates := make([]template, maxNativeArity)
	for i := range argTemplates {
		argTemplates[i] = template{slot: i}
	}
	for _, d := range g.derived {
		for _, rel := range d.rels {
			if rel.native == 0 {
				continue
			}
			arity := rel.sig.arity
			if rel.depth {
				arity++
			}
			register(vm, rel.native, arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
				var mask uint64
				var key []engine.Term
				// The partition binding the most of the arguments the
				// call binds, else all rows, or the interpreter when they
				// are too many.
				for _, m := range d.masks {
					// A nil key (an argument unbound) leaves the buffer as
					// it was, for the next mask and call to reuse.
					if k := partitionKey(m, argTemplates[:rel.sig.arity], args, env, r.keyBuf); k != nil {
						r.keyBuf, mask, key = k, m, k
						break
					}
				}
				if key == nil && d.partOnly {
					return r.vm.Arrive(rel.fallback, args, k, env)
				}
				t, err := r.derivedTable(r.ctx, rel, mask, key)
				if err != nil {
					return engine.Error(err)
				}
				return t.call(args[:rel.sig.arity], k, env)
			})
		}
	}
	for _, f := range g.fused {
		register(vm, f.name, f.arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			ok, err := r.evalTests(f.tests, args, env)
			if err != nil {
				return engine.Error(err)
			}
			if !ok {
				return engine.Bool(false)
			}
			return k(env)
		})
	}
	register(vm, atomTrue, 1, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		return matchTerms(args[0], r.state.all, k, env)
	})
	register(vm, atomDoes, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		return matchTerms(atomDoes.Apply(args[0], args[1]), r.moveTerms, k, env)
	})
	for s, t := range g.tables {
		register(vm, engine.NewAtom(relationAtom(s.name)), s.arity, t.call)
	}
}

// matchTerms calls k for every term among candidates that unifies with x.
func matchTerms(x engine.Term, candidates []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
	var ks []func(context.Context) *engine.Promise
	for _, c := range candidates {
		ks = append(ks, func(context.Context) *engine.Promise {
			e, ok := env.Unify(x, c)
			if !ok {
				return engine.Bool(false)
			}
			return k(e)
		})
	}
	return engine.Delay(ks...)
}

// identical reports whether x and y are the same term under env, without
// binding anything: the meaning of GDL's distinct on ground terms.
func identical(x, y engine.Term, env *engine.Env) bool {
	x, y = env.Resolve(x), env.Resolve(y)
	switch x := x.(type) {
	case engine.Compound:
		y, ok := y.(engine.Compound)
		if !ok || x.Functor() != y.Functor() || x.Arity() != y.Arity() {
			return false
		}
		for i := 0; i < x.Arity(); i++ {
			if !identical(x.Arg(i), y.Arg(i), env) {
				return false
			}
		}
		return true
	default:
		return x == y
	}
}
