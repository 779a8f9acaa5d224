package mcts

import (
	"runtime/metrics"
	"sync"

	"github.com/ggp-go/ggp/reasoner"
)

// The transposition table, which finds the node of a state, is split by
// state hash into shards, each under its own lock, so that workers adding
// nodes at the same time seldom wait for each other: the table is the one
// structure every iteration that grows the tree changes (tree.go). A
// shard's lock also guards the next links of its nodes and the appending of
// their children. Search.mu, when held with shard locks, is taken first;
// a worker never holds two shard locks, and only prune and Close hold them
// all, in order.

// tableShards is the number of shards of the table.
const tableShards = 64

// A shard is a part of the transposition table: the nodes whose states
// hash to it, chained by next in each bucket.
type shard struct {
	mu sync.Mutex
	m  map[uint64]*node
	_  [48]byte // a cache line each: workers lock different shards
}

// shardOf returns the shard that holds the states of hash h.
func (s *Search) shardOf(h uint64) *shard {
	return &s.shards[h%tableShards]
}

// lookup returns the node of st in the transposition table, or nil.
func (s *Search) lookup(st *reasoner.State) *node {
	sh := s.shardOf(st.Hash())
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.find(st)
}

// find returns the node of st in the shard, or nil. sh.mu must be held.
func (sh *shard) find(st *reasoner.State) *node {
	for n := sh.m[st.Hash()]; n != nil; n = n.next {
		if n.state.Equal(st) {
			return n
		}
	}
	return nil
}

// add adds n to the shard, counting its bytes in s's memory; the caller
// has counted the node. sh.mu must be held.
func (s *Search) add(sh *shard, n *node) {
	h := n.state.Hash()
	n.next = sh.m[h]
	sh.m[h] = n
	s.bytes.Add(n.size)
}

// reserve counts one more node against MaxNodes, or reports false, with
// nothing counted, when the table is full. The check and the count are one
// atomic step: workers that add nodes at once, each under its own shard's
// lock, cannot pass the bound between them.
func (s *Search) reserve() bool {
	if s.full.Load() {
		return false
	}
	limit := int64(s.cfg.MaxNodes)
	if s.puz != nil {
		pn, _ := s.puz.Size()
		limit -= int64(pn)
	}
	for {
		n := s.nodes.Load()
		if n >= limit {
			return false
		}
		if s.nodes.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// insert adds n to the transposition table.
func (s *Search) insert(n *node) {
	sh := s.shardOf(n.state.Hash())
	sh.mu.Lock()
	s.nodes.Add(1) // the root is kept whatever the bound
	s.add(sh, n)
	sh.mu.Unlock()
	s.checkFull()
}

// findOrAdd returns the table's node for st, adding made when the table
// has none and memory allows; ok is false, and nothing added, when it
// has neither (made nil or memory full) or the root's generation is no
// longer gen: Advance publishes the new generation before prune locks
// the shards to rebuild the table from the new root, so a node added
// under an unchanged generation is seen by that rebuild.
func (s *Search) findOrAdd(gen uint64, st *reasoner.State, made *node) (n *node, ok bool) {
	sh := s.shardOf(st.Hash())
	sh.mu.Lock()
	if gen != s.view.Load().gen {
		sh.mu.Unlock()
		return nil, false
	}
	if n = sh.find(st); n != nil {
		sh.mu.Unlock()
		return n, true
	}
	if made == nil || !s.reserve() {
		sh.mu.Unlock()
		return nil, false
	}
	s.add(sh, made)
	sh.mu.Unlock()
	s.checkFull()
	return made, true
}

// checkFull updates s.full from the memory bounds.
func (s *Search) checkFull() {
	pn, pb := 0, int64(0)
	if s.puz != nil {
		pn, pb = s.puz.Size()
	}
	full := int(s.nodes.Load())+pn >= s.cfg.MaxNodes || s.bytes.Load()+pb >= s.cfg.MaxBytes || s.heapFull.Load()
	if full != s.full.Load() {
		s.full.Store(full)
	}
}

// liveHeapMetric is the runtime's measure of the live heap: the bytes
// its last collection found reachable.
const liveHeapMetric = "/gc/heap/live:bytes"

// checkHeap updates s.heapFull from the live heap, read into sample (one
// sample of liveHeapMetric), and s.full with it. The live heap changes
// only at a collection, so the run loop looks at every tick; states
// freed by Advance count until the next collection after it.
func (s *Search) checkHeap(sample []metrics.Sample) {
	if s.cfg.MaxHeap <= 0 {
		return
	}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	full := int64(sample[0].Value.Uint64()) >= s.cfg.MaxHeap
	if full != s.heapFull.Load() {
		s.heapFull.Store(full)
		s.checkFull()
	}
}

// lockTable locks every shard, so that no worker adds a node or a child
// until unlockTable.
func (s *Search) lockTable() {
	for i := range s.shards {
		s.shards[i].mu.Lock()
	}
}

func (s *Search) unlockTable() {
	for i := range s.shards {
		s.shards[i].mu.Unlock()
	}
}

// clearTable empties the table, sized for about size nodes. The shards
// must be locked, or the Search not yet shared.
func (s *Search) clearTable(size int) {
	for i := range s.shards {
		s.shards[i].m = make(map[uint64]*node, size/tableShards)
	}
	s.nodes.Store(0)
	s.bytes.Store(0)
}

// prune keeps in the table only the nodes reachable from the root.
// s.mu must be held, and the root's generation published first (tree.go's
// attach relies on it).
func (s *Search) prune() {
	s.lockTable()
	defer s.unlockTable()
	s.mark++
	stamp := s.mark
	s.clearTable(int(s.nodes.Load()))
	stack := []*node{s.root}
	s.root.mark = stamp
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s.nodes.Add(1) // nodes kept from the table, which held them within the bound
		s.add(s.shardOf(n.state.Hash()), n)
		for _, e := range n.children() {
			if e.child.mark != stamp {
				e.child.mark = stamp
				stack = append(stack, e.child)
			}
		}
	}
	s.checkFull()
}
