package propnet

import "testing"

// BenchmarkIntern interns a million terms of three arguments, as grounding
// does atoms, and looks each up twice.
func BenchmarkIntern(b *testing.B) {
	for range b.N {
		ts := newTermStore()
		f := ts.symbol("f")
		var consts []termID
		for i := range 1000 {
			consts = append(consts, ts.intern(int32(1000+i), nil))
		}
		for i := range 1_000_000 {
			ts.intern(f, []termID{consts[i%1000], consts[(i/1000)%1000], termID(i % 7)})
		}
		for range 2 {
			for j := range 1_000_000 {
				i := (j * 7919) % 1_000_000 // another order
				if _, ok := ts.lookup(f, []termID{consts[i%1000], consts[(i/1000)%1000], termID(i % 7)}); !ok {
					b.Fatal("interned term not found")
				}
			}
		}
	}
}

// TestTermStore checks that equal terms get equal ids across the table's
// growth, and different terms different ones.
func TestTermStore(t *testing.T) {
	ts := newTermStore()
	f, g := ts.symbol("f"), ts.symbol("g")
	a, c := ts.intern(ts.symbol("a"), nil), ts.intern(ts.symbol("c"), nil)
	ids := map[[3]int32]termID{}
	for i := range 50_000 {
		sym := []int32{f, g}[i%2]
		args := []termID{[]termID{a, c}[i%3%2], termID(i / 2)}
		id := ts.intern(sym, args)
		k := [3]int32{sym, int32(args[0]), int32(args[1])}
		if old, ok := ids[k]; ok && old != id {
			t.Fatalf("term %v: id %d, earlier %d", k, id, old)
		}
		ids[k] = id
	}
	seen := map[termID]bool{}
	for k, id := range ids {
		if seen[id] {
			t.Fatalf("id %d given twice", id)
		}
		seen[id] = true
		got, ok := ts.lookup(k[0], []termID{termID(k[1]), termID(k[2])})
		if !ok || got != id {
			t.Fatalf("lookup %v = %d, %v; want %d", k, got, ok, id)
		}
		if tt := ts.terms[id]; tt.sym != k[0] || tt.args[0] != termID(k[1]) || tt.args[1] != termID(k[2]) {
			t.Fatalf("term %d is %v, want %v", id, tt, k)
		}
	}
	if _, ok := ts.lookup(f, []termID{a, c, c}); ok {
		t.Fatal("lookup found a term never interned")
	}
}
