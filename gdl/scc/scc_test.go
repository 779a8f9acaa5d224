package scc

import "testing"

func TestComponents(t *testing.T) {
	tests := []struct {
		name  string
		edges [][]int // successors by vertex
		same  [][]int // groups of vertices that must share a component
		count int
	}{
		{"empty", nil, nil, 0},
		{"single", [][]int{nil}, [][]int{{0}}, 1},
		{"self loop", [][]int{{0}}, [][]int{{0}}, 1},
		{"chain", [][]int{{1}, {2}, nil}, [][]int{{0}, {1}, {2}}, 3},
		{"cycle and tail", [][]int{{1}, {2}, {0, 3}, nil}, [][]int{{0, 1, 2}, {3}}, 2},
		{"two cycles", [][]int{{1}, {0, 2}, {3}, {2}}, [][]int{{0, 1}, {2, 3}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			comp, count := Components(len(tt.edges), func(v int) []int { return tt.edges[v] })
			if count != tt.count {
				t.Fatalf("count %d, want %d (comp %v)", count, tt.count, comp)
			}
			for _, g := range tt.same {
				for _, v := range g {
					if comp[v] != comp[g[0]] {
						t.Errorf("%d and %d in components %d and %d", v, g[0], comp[v], comp[g[0]])
					}
				}
			}
			// Dependencies first: no edge leads to a later component.
			for v, ws := range tt.edges {
				for _, w := range ws {
					if comp[w] > comp[v] {
						t.Errorf("edge %d->%d goes from component %d to later %d", v, w, comp[v], comp[w])
					}
				}
			}
		})
	}
}

// TestLongChain checks that a chain far longer than any recursion could
// take completes.
func TestLongChain(t *testing.T) {
	const n = 1_000_000
	succ := func(v int) []int {
		if v+1 < n {
			return []int{v + 1}
		}
		return nil
	}
	comp, count := Components(n, succ)
	if count != n {
		t.Fatalf("count %d, want %d", count, n)
	}
	// The sink is the first component, the root the last.
	if comp[n-1] != 0 || comp[0] != n-1 {
		t.Errorf("sink in component %d, root in %d", comp[n-1], comp[0])
	}
}
