package gdl

import (
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gdl/scc"
)

// depGraph is the dependency graph of a description: one node per relation
// (per name, but in GDL-II per name and arity; see relKey), and an edge
// from p to q when q occurs in the body of a rule for p.
type depGraph struct {
	names  []string
	id     map[string]int
	succ   [][]int // successors, without duplicates
	comp   []int   // strongly connected component of each node
	cyclic []bool  // per component: has a cycle (more than one node, or a self-loop)

	reach map[int][]bool   // memo for reaches
	paths map[[2]int][]int // memo for pathTo
}

// buildGraph returns the graph of rules, whose relations key names.
func buildGraph(rules []*Rule, key func(*Sentence) string) *depGraph {
	g := &depGraph{id: make(map[string]int)}
	node := func(name string) int {
		if n, ok := g.id[name]; ok {
			return n
		}
		n := len(g.names)
		g.id[name] = n
		g.names = append(g.names, name)
		g.succ = append(g.succ, nil)
		return n
	}
	seen := make(map[[2]int]bool)
	for _, r := range rules {
		p := node(key(r.Head))
		eachBodySentence(r, func(s *Sentence, _ bool) {
			q := node(key(s))
			if !seen[[2]int{p, q}] {
				seen[[2]int{p, q}] = true
				g.succ[p] = append(g.succ[p], q)
			}
		})
	}
	g.components()
	for p, qs := range g.succ {
		for _, q := range qs {
			if g.comp[p] == g.comp[q] {
				g.cyclic[g.comp[p]] = true
			}
		}
	}
	return g
}

// components computes the strongly connected components.
func (g *depGraph) components() {
	var n int
	g.comp, n = scc.Components(len(g.names), func(v int) []int { return g.succ[v] })
	g.cyclic = make([]bool, n)
}

// path returns a shortest path of nodes from `from` to `to`, both included,
// or nil if there is none. If comp is not negative the path stays inside
// that component.
func (g *depGraph) path(from, to, comp int) []int {
	if from == to {
		return []int{from}
	}
	const unseen = -2
	prev := make([]int, len(g.names))
	for i := range prev {
		prev[i] = unseen
	}
	prev[from] = -1
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range g.succ[u] {
			if prev[w] != unseen || (comp >= 0 && g.comp[w] != comp) {
				continue
			}
			prev[w] = u
			if w == to {
				var p []int
				for n := w; n >= 0; n = prev[n] {
					p = append(p, n)
				}
				slices.Reverse(p)
				return p
			}
			queue = append(queue, w)
		}
	}
	return nil
}

// reaches returns, for every node, whether it depends on node t directly
// or transitively (or is t).
func (g *depGraph) reaches(t int) []bool {
	if r, ok := g.reach[t]; ok {
		return r
	}
	if g.reach == nil {
		g.reach = make(map[int][]bool)
	}
	pred := make([][]int, len(g.names))
	for p, qs := range g.succ {
		for _, q := range qs {
			pred[q] = append(pred[q], p)
		}
	}
	r := make([]bool, len(g.names))
	r[t] = true
	queue := []int{t}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, p := range pred[u] {
			if !r[p] {
				r[p] = true
				queue = append(queue, p)
			}
		}
	}
	g.reach[t] = r
	return r
}

// maxPaths bounds how many paths showPath searches for, each a search of
// the whole graph, so that a huge description with many problems is still
// validated quickly. Later messages leave the path out.
const maxPaths = 200

// maxPathNames bounds how many relation names a path shows.
const maxPathNames = 12

// showPath returns " (from -> ... -> to)", a shortest path from node from to
// node to: inside their component when they share one. It returns "" once
// maxPaths searches have been made.
func (g *depGraph) showPath(from, to int) string {
	key := [2]int{from, to}
	p, ok := g.paths[key]
	if !ok {
		if len(g.paths) >= maxPaths {
			return ""
		}
		if g.paths == nil {
			g.paths = make(map[[2]int][]int)
		}
		comp := -1
		if g.comp[from] == g.comp[to] {
			comp = g.comp[from]
		}
		p = g.path(from, to, comp)
		g.paths[key] = p
	}
	if len(p) == 0 {
		return ""
	}
	names := make([]string, 0, min(len(p), maxPathNames)+1)
	for i, n := range p {
		if len(p) > maxPathNames && i == maxPathNames/2 {
			names = append(names, "...")
		}
		if len(p) <= maxPathNames || i < maxPathNames/2 || i >= len(p)-maxPathNames/2 {
			names = append(names, g.names[n])
		}
	}
	return " (" + strings.Join(names, " -> ") + ")"
}

// reachingAny returns, for each node, whether it depends on (reaches) a
// node named in targets, the targets themselves included: one walk of the
// reversed edges, however many targets.
func (g *depGraph) reachingAny(targets map[string]bool) []bool {
	pred := make([][]int, len(g.names))
	for p, qs := range g.succ {
		for _, q := range qs {
			pred[q] = append(pred[q], p)
		}
	}
	out := make([]bool, len(g.names))
	var stack []int
	for name := range targets {
		if n, ok := g.id[name]; ok && !out[n] {
			out[n] = true
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range pred[q] {
			if !out[p] {
				out[p] = true
				stack = append(stack, p)
			}
		}
	}
	return out
}
