package rating

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// pair is the comparisons of two players, a < b by index: their total
// weight, and a's weighted score against b.
type pair struct {
	a, b     int
	weight   float64
	scoreOfA float64
}

// maxNewtonSteps bounds the fit. Newton's method on this concave posterior
// takes a handful of steps; hitting the bound means a numerical fault.
const maxNewtonSteps = 200

// rate computes the table of the given results, sorted by match ID.
func rate(game string, results []Result, lambda float64, skipErrored bool) (Table, error) {
	t := Table{Game: game}

	// Every player seen, by name, so that indices do not depend on order.
	var names []string
	for _, r := range results {
		names = append(names, r.Players...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}

	c := tally(results, index, skipErrored)
	t.Matches = c.rated
	fitIndex, fitted, local := restrict(len(names), c.pairs)

	beta, variance, err := fit(len(fitted), local, lambda)
	if err != nil {
		if game != "" {
			return Table{}, fmt.Errorf("rating game %s: %w", game, err)
		}
		return Table{}, fmt.Errorf("rating: %w", err)
	}
	comp, ncomp := components(len(fitted), local)
	t.Components = ncomp

	won := make([]float64, len(fitted))
	weight := make([]float64, len(fitted))
	for _, p := range local {
		won[p.a] += p.scoreOfA
		won[p.b] += p.weight - p.scoreOfA
		weight[p.a] += p.weight
		weight[p.b] += p.weight
	}

	t.Ratings = make([]Rating, len(names))
	for i, n := range names {
		r := Rating{Player: n, Matches: c.matches[i], Aborted: c.aborted[i]}
		if f := fitIndex[i]; f >= 0 {
			half := z95 * Scale * math.Sqrt(variance[f])
			r.Rated = true
			r.Elo = Mean + Scale*beta[f]
			r.Low, r.High = r.Elo-half, r.Elo+half
			r.Score = won[f] / weight[f]
			r.Component = comp[f]
		}
		t.Ratings[i] = r
	}
	slices.SortStableFunc(t.Ratings, func(p, q Rating) int {
		if p.Rated != q.Rated {
			if p.Rated {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(q.Elo, p.Elo), strings.Compare(p.Player, q.Player))
	})
	return t, nil
}

// A count is what the results say of the players, by index: the matches
// each played, rated or not, and the pairwise comparisons of the rated.
type count struct {
	matches, aborted []int
	pairs            []pair // sorted by a, then b
	rated            int    // the matches rated
}

// tally counts results, whose players index numbers. Each rated match of
// n roles compares every two of its roles by their goals, a comparison
// weighing 1/(n-1), so that a match counts as much for each role
// whatever the number of roles.
func tally(results []Result, index map[string]int, skipErrored bool) count {
	c := count{matches: make([]int, len(index)), aborted: make([]int, len(index))}
	pairAt := make(map[[2]int]int)
	seen := make(map[int]bool)
	for _, r := range results {
		rated := r.Status == Completed || (r.Status == Errored && !skipErrored)
		clear(seen)
		for _, p := range r.Players {
			i := index[p]
			if seen[i] {
				continue
			}
			seen[i] = true
			if rated {
				c.matches[i]++
			} else {
				c.aborted[i]++
			}
		}
		if !rated {
			continue
		}
		c.rated++
		n := len(r.Players)
		for x := 0; x < n; x++ {
			for y := x + 1; y < n; y++ {
				a, b := index[r.Players[x]], index[r.Players[y]]
				if a == b {
					continue
				}
				s := 0.5 // score of role x against role y
				switch {
				case r.Goals[x] > r.Goals[y]:
					s = 1
				case r.Goals[x] < r.Goals[y]:
					s = 0
				}
				if a > b {
					a, b, s = b, a, 1-s
				}
				k, ok := pairAt[[2]int{a, b}]
				if !ok {
					k = len(c.pairs)
					pairAt[[2]int{a, b}] = k
					c.pairs = append(c.pairs, pair{a: a, b: b})
				}
				w := 1 / float64(n-1)
				c.pairs[k].weight += w
				c.pairs[k].scoreOfA += w * s
			}
		}
	}
	// Sums in the fit run over pairs in this order, so that the result is
	// the same to the last bit whatever the order of the input.
	slices.SortFunc(c.pairs, func(p, q pair) int {
		return cmp.Or(cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b))
	})
	return c
}

// restrict numbers the players of n compared with someone, who are
// fitted; the others are not rated. fitIndex maps a player's index to
// its place among the fitted, or -1; fitted is the inverse; local is
// pairs in the places of the fitted.
func restrict(n int, pairs []pair) (fitIndex, fitted []int, local []pair) {
	compared := make([]bool, n)
	for _, p := range pairs {
		compared[p.a], compared[p.b] = true, true
	}
	fitIndex = make([]int, n)
	for i := range n {
		fitIndex[i] = -1
		if compared[i] {
			fitIndex[i] = len(fitted)
			fitted = append(fitted, i)
		}
	}
	local = make([]pair, len(pairs))
	for k, p := range pairs {
		local[k] = pair{a: fitIndex[p.a], b: fitIndex[p.b], weight: p.weight, scoreOfA: p.scoreOfA}
	}
	return fitIndex, fitted, local
}

// components numbers the groups of n players connected by pairs, from 1,
// in the order of each group's lowest index, and returns the number of
// each player's group and the number of groups.
func components(n int, pairs []pair) ([]int, int) {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var root func(int) int
	root = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, p := range pairs {
		ra, rb := root(p.a), root(p.b)
		if ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	number := make(map[int]int)
	comp := make([]int, n)
	for i := range comp {
		r := root(i)
		if number[r] == 0 {
			number[r] = len(number) + 1
		}
		comp[i] = number[r]
	}
	return comp, len(number)
}

// fit returns the strengths of n players that maximise the posterior of
// the pairs' comparisons under a Gaussian prior of precision lambda, and
// each strength's variance given that the strengths sum to zero.
func fit(n int, pairs []pair, lambda float64) (beta, variance []float64, err error) {
	beta = make([]float64, n)
	if n == 0 {
		return beta, nil, nil
	}
	grad := make([]float64, n)
	hess := newMatrix(n)
	next := make([]float64, n)
	converged := false
	for step := 0; step < maxNewtonSteps && !converged; step++ {
		curvature(beta, pairs, lambda, grad, hess)
		dir, err := hess.solve(grad)
		if err != nil {
			return nil, nil, fmt.Errorf("Newton step %d: %w", step, err)
		}
		// Newton's direction ascends; halve the step until the posterior
		// does not fall, which guards against overshooting far from the
		// maximum.
		now := logPosterior(beta, pairs, lambda)
		t := 1.0
		for halvings := 0; ; halvings++ {
			for i := range next {
				next[i] = beta[i] + t*dir[i]
			}
			if logPosterior(next, pairs, lambda) >= now || halvings == 60 {
				break
			}
			t /= 2
		}
		largest := 0.0
		for i := range beta {
			largest = max(largest, math.Abs(next[i]-beta[i]))
		}
		copy(beta, next)
		converged = largest < 1e-10
	}
	if !converged {
		return nil, nil, fmt.Errorf("no convergence in %d Newton steps", maxNewtonSteps)
	}
	curvature(beta, pairs, lambda, grad, hess)
	diag, err := hess.inverseDiagonal()
	if err != nil {
		return nil, nil, fmt.Errorf("inverting the information matrix: %w", err)
	}
	// The likelihood does not change when every strength moves by the same
	// amount, so along that direction only the prior informs, with
	// variance 1/(n·lambda) of the mean. Removing it gives the variances
	// on the condition that the strengths sum to zero, which the maximum
	// satisfies.
	variance = make([]float64, n)
	for i := range variance {
		variance[i] = max(0, diag[i]-1/(float64(n)*lambda))
	}
	return beta, variance, nil
}

// curvature sets grad and hess to the gradient of the log posterior at beta
// and the negative of its Hessian (the information plus the prior's
// precision).
func curvature(beta []float64, pairs []pair, lambda float64, grad []float64, hess matrix) {
	clear(hess.data)
	for i := range beta {
		grad[i] = -lambda * beta[i]
		hess.add(i, i, lambda)
	}
	for _, p := range pairs {
		prob := sigmoid(beta[p.a] - beta[p.b])
		g := p.scoreOfA - p.weight*prob
		grad[p.a] += g
		grad[p.b] -= g
		h := p.weight * prob * (1 - prob)
		hess.add(p.a, p.a, h)
		hess.add(p.b, p.b, h)
		hess.add(p.a, p.b, -h)
		hess.add(p.b, p.a, -h)
	}
}

// logPosterior is the log posterior at beta, up to a constant.
func logPosterior(beta []float64, pairs []pair, lambda float64) float64 {
	sum := 0.0
	for _, p := range pairs {
		d := beta[p.a] - beta[p.b]
		// log P(a beats b) = -softplus(-d), log P(b beats a) = -softplus(d).
		sum -= p.scoreOfA*softplus(-d) + (p.weight-p.scoreOfA)*softplus(d)
	}
	for _, b := range beta {
		sum -= lambda * b * b / 2
	}
	return sum
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus is log(1+exp(x)) without overflow.
func softplus(x float64) float64 {
	return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}
