package mcts

import "math/bits"

// A gramTable holds NST's averages of the sequences of one length, pairs
// or triples, grouped by context: the move or two moves a sequence starts
// with, before its last move. A playout step ranks every legal move of
// one role after the same context, so it looks the context up once and
// then reads that context's row, a small open-addressing table of last
// moves, instead of hashing every sequence in a Go map (where the
// look-ups took most of breakthrough's search time). A row's keys lie
// together, apart from the averages, so that probing one touches a cache
// line or two.
//
// A row also counts its averages played at least nstMinVisits times; a
// step whose row has none skips the look-ups of its moves, which could
// not count. The counts stay exact: an average's count only grows by
// learning and shrinks by decay, which recounts.
//
// The table keeps at most as many averages as its owner lets it
// (nstMaxGrams), as the maps did: past that, new sequences are not
// learned until decay makes room. Rows have a power of two of slots in
// one slab; a row that grows leaves its old slots to the next row that
// needs that many, and decay lays the slab out afresh, each row at the
// size its averages need. At the 2^20 triples breakthrough's search
// reaches in 10 s the table takes 48 MB, where the map took 53.
//
// Keys are exact: a triple is its context, the pairKey of its first two
// moves, and its last move's NST key (the map hashed the three into 64
// bits, where a collision would have mixed two averages; none occurs
// among the moves of breakthrough, reversi, connect four, checkers or
// speedChess).
type gramTable struct {
	rows  []gramRow   // open addressing on context keys
	nrows int         // rows in use
	keys  []uint32    // the slab's slots: a last move's gramKey, gramHot once it counts; 0 when free
	stats []mastStat  // the slab's slots: the averages
	free  [32][]int32 // by log2 of size: blocks of the slab no row uses
	live  int         // averages held
}

// A gramRow is one context's slots: keys and stats [off, off+1<<logSize);
// logSize 0 marks a free slot of the table's rows.
type gramRow struct {
	ctx     uint64
	off     int32
	logSize uint8
	live    int32 // averages held
	hot     int32 // averages played at least nstMinVisits times
}

// gramKey is how a row keeps last move key, an NST key: never 0, which
// marks a free slot, and without gramHot. Roles 128 apart share keys, as
// nstKey's roles 256 apart and numbers past 2^24 do.
func gramKey(key uint64) uint32 { return uint32(min(key&(gramHot-1), gramHot-2)) + 1 }

// gramHot marks the key of an average played at least nstMinVisits
// times, so that a playout step reads only the averages that count.
const gramHot = 1 << 31

// A gramRowView is the slots of one context's row, as a playout step reads
// them; no slots for a context with no average that counts.
type gramRowView struct {
	keys  []uint32
	stats []mastStat
	shift uint8
}

// mean returns the mean of last move key in the row and whether it was
// played at least nstMinVisits times.
func (v gramRowView) mean(key uint64) (float64, bool) {
	if v.keys == nil {
		return 0, false
	}
	mask := len(v.keys) - 1
	want := gramKey(key)
	for i := gramSlot(want, v.shift); ; i = (i + 1) & mask {
		switch v.keys[i] {
		case want | gramHot:
			return v.stats[i].mean(), true
		case want, 0:
			return 0, false
		}
	}
}

// gramSlot is the home slot of gramKey k in a row of 1<<(32-shift) slots
// (Fibonacci hashing).
func gramSlot(k uint32, shift uint8) int { return int((k * 0x9e3779b9) >> shift) }

// hot returns the row of context ctx for a playout step to read.
func (t *gramTable) hot(ctx uint64) gramRowView {
	r := t.find(ctx)
	if r == nil || r.hot == 0 {
		return gramRowView{}
	}
	end := r.off + 1<<r.logSize
	return gramRowView{t.keys[r.off:end], t.stats[r.off:end], 32 - r.logSize}
}

// find returns the row of context ctx, or nil.
func (t *gramTable) find(ctx uint64) *gramRow {
	if len(t.rows) == 0 {
		return nil
	}
	mask := len(t.rows) - 1
	for i := rowSlot(ctx, len(t.rows)); ; i = (i + 1) & mask {
		r := &t.rows[i]
		if r.logSize == 0 {
			return nil
		}
		if r.ctx == ctx {
			return r
		}
	}
}

// rowSlot is the home slot of context ctx in a table of size rows, a
// power of two.
func rowSlot(ctx uint64, size int) int {
	return int((ctx * 0x9e3779b97f4a7c15) >> (64 - bits.TrailingZeros(uint(size))))
}

// slot returns the slot of last move key in row r: its own, or the free
// slot it would take.
func (t *gramTable) slot(r *gramRow, key uint64) int {
	return int(r.off) + probe(t.keys[r.off:r.off+1<<r.logSize], 32-r.logSize, gramKey(key))
}

// probe returns the position of gramKey k in keys, a row of 1<<(32-shift)
// slots, or of the free slot it would take.
func probe(keys []uint32, shift uint8, k uint32) int {
	mask := len(keys) - 1
	for i := gramSlot(k, shift); ; i = (i + 1) & mask {
		if keys[i]&^gramHot == k || keys[i] == 0 {
			return i
		}
	}
}

// stat returns the average of last move key after context ctx.
func (t *gramTable) stat(ctx, key uint64) mastStat {
	r := t.find(ctx)
	if r == nil {
		return mastStat{}
	}
	if i := t.slot(r, key); t.keys[i] != 0 {
		return t.stats[i]
	}
	return mastStat{}
}

// add counts value in the average of last move key after context ctx,
// unless the table holds limit averages and none for the sequence yet.
func (t *gramTable) add(ctx, key uint64, value float64, limit int) {
	r := t.find(ctx)
	if r != nil {
		if i := t.slot(r, key); t.keys[i] != 0 {
			t.count(r, i, value)
			return
		}
	}
	if t.live >= limit {
		return
	}
	if r == nil {
		r = t.newRow(ctx)
	}
	if full(r.live+1, r.logSize) {
		t.grow(r)
	}
	i := t.slot(r, key)
	t.keys[i] = gramKey(key)
	r.live++
	t.live++
	t.count(r, i, value)
}

// full reports whether live averages fill a row of 1<<log slots past
// three quarters, the most it holds: the keys lie together, four bytes
// each, so probing on for a move a row lacks, as most are, mostly stays
// within a cache line.
func full(live int32, log uint8) bool { return int(live)*4 > 3<<log }

// count adds value to the average in slot i, one of row r's.
func (t *gramTable) count(r *gramRow, i int, value float64) {
	st := &t.stats[i]
	cold := st.n < nstMinVisits
	st.n++
	st.sum += value
	if cold && st.n >= nstMinVisits {
		t.keys[i] |= gramHot
		r.hot++
	}
}

// minRowLog is the log2 of a new row's slots.
const minRowLog = 2

// newRow adds an empty row for context ctx and returns it.
func (t *gramTable) newRow(ctx uint64) *gramRow {
	if (t.nrows+1)*2 > len(t.rows) {
		t.resize(max(16, 2*len(t.rows)))
	}
	t.nrows++
	r := t.place(gramRow{ctx: ctx})
	r.off, r.logSize = t.alloc(minRowLog), minRowLog
	return r
}

// alloc returns the offset of a free block of 1<<log slots: one a row
// left, or one at the end of the slab.
func (t *gramTable) alloc(log uint8) int32 {
	if free := t.free[log]; len(free) > 0 {
		off := free[len(free)-1]
		t.free[log] = free[:len(free)-1]
		end := off + 1<<log
		clear(t.keys[off:end])
		clear(t.stats[off:end])
		return off
	}
	n := len(t.keys)
	end := n + 1<<log
	if end > cap(t.keys) {
		// Grow the slab by a quarter: its copies cost a constant per
		// slot, and at most a fifth of it lies unused.
		size := max(cap(t.keys)+cap(t.keys)/4, end, 256)
		t.keys = append(make([]uint32, 0, size), t.keys...)
		t.stats = append(make([]mastStat, 0, size), t.stats...)
	}
	// Slots past the slab's length were never used: they are zero.
	t.keys, t.stats = t.keys[:end], t.stats[:end]
	return int32(n)
}

// place enters row r in the table's rows and returns where it is.
func (t *gramTable) place(r gramRow) *gramRow {
	mask := len(t.rows) - 1
	i := rowSlot(r.ctx, len(t.rows))
	for t.rows[i].logSize != 0 {
		i = (i + 1) & mask
	}
	t.rows[i] = r
	return &t.rows[i]
}

// resize lays the rows out in a table of size slots.
func (t *gramTable) resize(size int) {
	old := t.rows
	t.rows = make([]gramRow, size)
	for _, r := range old {
		if r.logSize != 0 {
			t.place(r)
		}
	}
}

// grow doubles the slots of row r, leaving its old block to other rows.
func (t *gramTable) grow(r *gramRow) {
	off, log := r.off, r.logSize
	r.off, r.logSize = t.alloc(log+1), log+1
	end := off + 1<<log
	t.rehash(r, t.keys[off:end], t.stats[off:end])
	t.free[log] = append(t.free[log], off)
}

// rehash enters the averages of keys and stats, the slots of another
// block, into the free slots of row r.
func (t *gramTable) rehash(r *gramRow, keys []uint32, stats []mastStat) {
	rk := t.keys[r.off : r.off+1<<r.logSize]
	for j, k := range keys {
		if k != 0 {
			i := int(r.off) + probe(rk, 32-r.logSize, k&^gramHot)
			t.keys[i], t.stats[i] = k, stats[j]
		}
	}
}

// decay scales every average down by gamma, forgets those that fall to
// almost nothing and the rows left empty, and lays the slab out afresh,
// each row with the fewest slots that hold its averages.
func (t *gramTable) decay(gamma float64) {
	rows, total := 0, 0
	for ri := range t.rows {
		r := &t.rows[ri]
		if r.logSize == 0 {
			continue
		}
		r.live, r.hot = 0, 0
		for i := r.off; i < r.off+1<<r.logSize; i++ {
			if t.keys[i] == 0 {
				continue
			}
			st := &t.stats[i]
			st.n *= gamma
			st.sum *= gamma
			if st.n < 0.01 {
				t.keys[i] = 0
				continue
			}
			r.live++
			t.keys[i] &^= gramHot
			if st.n >= nstMinVisits {
				t.keys[i] |= gramHot
				r.hot++
			}
		}
		if r.live > 0 {
			rows++
			total += 1 << r.fit()
		}
	}
	old := *t
	t.keys, t.stats = make([]uint32, 0, total), make([]mastStat, 0, total)
	t.free = [32][]int32{}
	t.live, t.nrows = 0, rows
	size := 16
	for rows*2 > size {
		size *= 2
	}
	t.rows = make([]gramRow, size)
	for _, r := range old.rows {
		if r.live == 0 {
			continue // a free slot, or a row left empty
		}
		off, end := r.off, r.off+1<<r.logSize
		r.logSize = r.fit()
		r.off = t.alloc(r.logSize)
		t.rehash(&r, old.keys[off:end], old.stats[off:end])
		t.place(r)
		t.live += int(r.live)
	}
}

// fit returns the log2 of the fewest slots that hold the averages of r.
func (r *gramRow) fit() uint8 {
	size := uint8(minRowLog)
	for full(r.live, size) {
		size++
	}
	return size
}

// A pairTable holds NST's averages of pairs of moves. Where the reasoner
// numbers the moves from the start (the numbers MAST takes over), and
// there are few enough of them, it keeps them densely: for the role of
// the last move, a row per earlier move, by its number among every
// role's moves, indexed by the last move's number, so that a playout
// step's candidates read one contiguous row without probing. A game of
// more moves than pairDenseMoves, or moves numbered later, go to a
// gramTable: memory then grows with the pairs played, not with the
// square of the moves.
type pairTable struct {
	sizes []int32      // per role: its moves numbered densely
	base  []int32      // per role: the number among every role's moves of its first
	all   int32        // the moves numbered densely, every role's
	dense [][]mastStat // per role of the last move: all rows of sizes[role]; nil until learned
	live  int          // dense averages held (n > 0)
	rest  gramTable
}

// pairDenseMoves is the most moves, every role's, whose pairs are kept
// densely: 16 bytes times its square, 4 MiB.
const pairDenseMoves = 512

// newPairTable returns a table keeping densely the pairs of the first
// sizes[role] moves of each role, if there are few enough.
func newPairTable(sizes []int32) pairTable {
	t := pairTable{base: make([]int32, len(sizes)), dense: make([][]mastStat, len(sizes))}
	for r, n := range sizes {
		t.base[r] = t.all
		t.all += n
	}
	if t.all <= pairDenseMoves {
		t.sizes = sizes
	} else {
		t.sizes = make([]int32, len(sizes))
		t.all = 0
	}
	return t
}

// row returns the dense row of earlier move prev for last moves of role,
// or nil if those pairs are not kept densely or, unless alloc is set,
// none was learned yet.
func (t *pairTable) row(prev uint64, role int, alloc bool) []mastStat {
	pr, pid := nstMove(prev)
	if pr >= len(t.sizes) || pid >= t.sizes[pr] || role >= len(t.sizes) || t.sizes[role] == 0 {
		return nil
	}
	if t.dense[role] == nil {
		if !alloc {
			return nil
		}
		t.dense[role] = make([]mastStat, int(t.all)*int(t.sizes[role]))
	}
	n := t.sizes[role]
	g := t.base[pr] + pid
	return t.dense[role][g*n : (g+1)*n]
}

// A pairView is what a playout step reads of the pairs after one move,
// ending in the moves of one role: the dense row, and the rest.
type pairView struct {
	dense []mastStat
	rest  gramRowView
}

// hot returns the pairs after move prev ending in moves of role.
func (t *pairTable) hot(prev uint64, role int) pairView {
	v := pairView{dense: t.row(prev, role, false)}
	if t.rest.nrows > 0 {
		v.rest = t.rest.hot(prev)
	}
	return v
}

// mean returns the mean of the pair ending in the move of NST key key and
// whether it was played at least nstMinVisits times.
func (v pairView) mean(key uint64) (float64, bool) {
	if _, id := nstMove(key); int(id) < len(v.dense) {
		st := &v.dense[id]
		return st.mean(), st.n >= nstMinVisits
	}
	return v.rest.mean(key)
}

// add counts value in the average of the pair of moves prev and key (NST
// keys), unless the table holds limit averages and none for the pair yet.
func (t *pairTable) add(prev, key uint64, value float64, limit int) {
	role, id := nstMove(key)
	if row := t.row(prev, role, true); row != nil && id < int32(len(row)) {
		st := &row[id]
		if st.n == 0 {
			if t.live+t.rest.live >= limit {
				return
			}
			t.live++
		}
		st.n++
		st.sum += value
		return
	}
	t.rest.add(prev, key, value, limit-t.live)
}

// stat returns the average of the pair of moves prev and key.
func (t *pairTable) stat(prev, key uint64) mastStat {
	role, id := nstMove(key)
	if row := t.row(prev, role, false); row != nil && id < int32(len(row)) {
		return row[id]
	}
	return t.rest.stat(prev, key)
}

// decay scales every average down by gamma, forgetting those that fall to
// almost nothing.
func (t *pairTable) decay(gamma float64) {
	t.live = 0
	for _, rows := range t.dense {
		for i := range rows {
			st := &rows[i]
			if st.n == 0 {
				continue
			}
			st.n *= gamma
			st.sum *= gamma
			if st.n < 0.01 {
				*st = mastStat{}
				continue
			}
			t.live++
		}
	}
	t.rest.decay(gamma)
}
