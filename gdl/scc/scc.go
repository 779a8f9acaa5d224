// Package scc finds the strongly connected components of a directed graph,
// as the validator and the reasoner both need for a game's dependency
// graph (recursion, stratification, evaluation order).
package scc

// Components returns the strongly connected component of each of the n
// vertices, numbered from 0 to count-1 so that every edge leads to a
// component with a number no higher than its own: components come
// dependencies first. succ returns the successors of a vertex.
//
// It is Tarjan's algorithm, run with an explicit stack so that a long chain
// of vertices cannot exhaust the goroutine's stack.
func Components(n int, succ func(v int) []int) (comp []int, count int) {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp = make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	// A frame holds its vertex's successors: succ is called once per
	// vertex, not once per edge.
	type frame struct {
		v, next int
		ws      []int
	}
	var call []frame
	next := 0
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], frame{root, 0, succ(root)})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(f.ws) {
				w := f.ws[f.next]
				f.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0, succ(w)})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = count
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	return comp, count
}
