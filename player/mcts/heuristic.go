package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ggp-go/ggp/reasoner"
)

// Heuristics found from the rules (Config.Heuristic). Before its first
// search, normally in the start clock, the search plays random games and
// samples one state from each, noting the features of the state and the
// goals the game ended with. The candidate features are read from the
// state's facts (factFeatures): for every relation, the number of its
// facts; for every argument position and value, and every pair of them,
// the number of its facts with those values, which counts the pieces of
// each kind of each role ("(cell 3 4 white)" counts under cell/3=white)
// and per row or column too; numeric arguments as numbers, alone and
// summed per value of another argument (how far each role has advanced);
// whole facts; and the mobility of each role, its number of legal moves.
// Features nonzero in fewer than minSupport of the samples are dropped.
// For each role, of the maxCandidates features that correlate most with
// its goal, at most maxFeatures are chosen by forward selection and
// weighted by a ridge regression fitted on half the samples, and the fit
// is kept only if it predicts the goals of the other half (their
// correlation at least Config.HeuristicQuality). A game where the fit of
// some role with varying goals fails has no heuristic and is played as
// without it. Most games keep
// nothing, so the fit is first tried on screenSamples samples, and
// learning ends there when it falls short of the bars by more than
// screenSlack.
//
// With a heuristic and Config.HeuristicPrior, the first time the tree
// grows below a state each move gets Config.HeuristicPriorVisits visits
// valued at the heuristic's score of the state it reaches (expand.go);
// with Config.HeuristicCut, playouts stop
// after Config.HeuristicDepth moves and score the state reached by the
// predicted goals. The prior is on by default: where a fit is kept
// (checkers' pieces, skirmish's captures) it won the matches of
// docs/strength.md (skirmishZeroSum 7 of 8 and a draw), and a game without
// one plays as before once learning has spent its share of the first
// search. Cutting playouts is on too: in checkers, whose goal is the
// count of pieces the heuristic reads, cut playouts won 12 of 16 matches
// against the prior alone (docs/strength.md).

// Limits of the learning phase.
const (
	learnShare      = 0.25        // of the time to the first search's deadline, at most Config.LearnMax, for sampling; fitting takes a fraction more
	learnNoDeadline = time.Second // when the first search has no deadline
	learnSamples    = 2000        // states sampled at most, which bounds the time of the fit
	learnMinSamples = 100         // fewer and nothing is fitted
	screenSamples   = 500         // samples at which a fit far below the bar ends the learning
	screenSlack     = 0.1         // how far below the bar a fit of screenSamples may be and learning go on
	maxFeatures     = 12          // kept per role
	maxCandidates   = 60          // features forward selection chooses from
	minSupport      = 0.05        // share of the samples a feature must be nonzero in
	minResidual     = 0.03        // correlation with the residual a feature must add
	minCorrelation  = 0.1         // of a feature with the goal, to be a candidate
	maxFactArgs     = 8           // argument positions read per fact
	maxHeurCache    = 1 << 16     // facts whose weights a worker keeps
)

// learnsHeuristic reports whether the search learns a heuristic
// (Config.Heuristic; kept only where it fits).
func (c Config) learnsHeuristic() bool { return c.Heuristic == On }

// A heuristic is a linear evaluation of states, per role, over the
// features of their facts and the roles' mobility.
type heuristic struct {
	cols     map[string]int // feature key to column
	mobility []int          // column of each role's mobility
	bias     []float64      // per role
	weights  [][]float64    // per role, by column; zero for columns not kept
	usesMob  bool           // some role weighs a mobility column
	gameLen  float64        // the mean moves of the random games learning played
	summary  string
}

// cutGameLengths is how many times the depth of a cut playout
// (Config.HeuristicDepth) random games must last on average for playouts
// to be cut. Cutting saves the rest of a long playout and scores a state
// far from the end, where a random game says little (checkers,
// skirmishZeroSum: 100 moves); in a short game the rest costs little and
// its end is the game's own result, which the heuristic only
// approximates (cephalopodMicro: 44 moves, battle: 30, where cut
// playouts lost to full ones; docs/strength.md).
const cutGameLengths = 6

// cuts reports whether playouts are cut after depth moves and scored by
// h: whether the random games learning played last at least
// cutGameLengths times as long.
func (h *heuristic) cuts(depth int) bool { return h.gameLen >= cutGameLengths*float64(depth) }

// A featureValue is a feature of a fact and its value: 1 for the
// features that count facts, the number itself for a numeric argument.
type featureValue struct {
	key string
	v   float64
}

// factFeatures appends the features of fact f to dst: the relation, the
// relation with each argument position and its value and with each pair
// of them, the whole fact, and the value of each numeric argument
// ("(piece_count red 3)" is 3 under piece_count/2#).
func factFeatures(f reasoner.Fact, dst []featureValue) []featureValue {
	s := string(f)
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return append(dst, featureValue{s, 1})
	}
	s = s[1 : len(s)-1]
	var args []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '(':
				depth++
				continue
			case ')':
				depth--
				continue
			case ' ':
				if depth != 0 {
					continue
				}
			default:
				continue
			}
		}
		if i > start {
			args = append(args, s[start:i])
		}
		start = i + 1
	}
	if len(args) == 0 {
		return dst
	}
	rel, args := args[0], args[1:]
	dst = append(dst, featureValue{rel, 1})
	if len(args) > maxFactArgs {
		args = args[:maxFactArgs]
	}
	for i, a := range args {
		dst = append(dst, featureValue{fmt.Sprintf("%s/%d=%s", rel, i+1, a), 1})
		if n, err := strconv.Atoi(a); err == nil {
			dst = append(dst, featureValue{fmt.Sprintf("%s/%d#", rel, i+1), float64(n)})
		}
	}
	for i := range args {
		for j := i + 1; j < len(args); j++ {
			dst = append(dst, featureValue{fmt.Sprintf("%s/%d=%s/%d=%s", rel, i+1, args[i], j+1, args[j]), 1})
		}
	}
	// A numeric argument summed per value of another: how far each
	// role's pieces have advanced, when rows are numbered
	// ("(cell 3 7 white)" adds 7 under cell/2#/3=white).
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			continue
		}
		for j, b := range args {
			if j != i {
				dst = append(dst, featureValue{fmt.Sprintf("%s/%d#/%d=%s", rel, i+1, j+1, b), float64(n)})
			}
		}
	}
	if len(args) > 2 {
		dst = append(dst, featureValue{s, 1})
	}
	return dst
}

// A sample is a state's features, sparse, and the goals its game ended with.
type sample struct {
	x     map[int]float64
	goals []float64
}

// learner collects samples over a growing set of feature columns.
type learner struct {
	cols    map[string]int
	keys    []string
	roles   int
	samples []sample
	scratch []featureValue
	quality float64         // the held-out correlation a fit needs, Config.HeuristicQuality
	start   map[int]float64 // the features of the state learning starts from, with Config.Material
}

func (l *learner) column(key string) int {
	if c, ok := l.cols[key]; ok {
		return c
	}
	c := len(l.keys)
	l.cols[key] = c
	l.keys = append(l.keys, key)
	return c
}

// features returns the sparse features of st, mobility included.
func (l *learner) features(ctx context.Context, r reasoner.Reasoner, st *reasoner.State) (map[int]float64, error) {
	x := map[int]float64{}
	for _, f := range st.Facts() {
		l.scratch = factFeatures(f, l.scratch[:0])
		for _, k := range l.scratch {
			x[l.column(k.key)] += k.v
		}
	}
	for role := range l.roles {
		ms, err := r.Legal(ctx, st, role)
		if err != nil {
			return nil, err
		}
		x[l.column(fmt.Sprintf("mobility#%d", role))] = float64(len(ms))
	}
	return x, nil
}

// learnHeuristic plays random games from st until ctx is done or enough
// states are sampled, and fits a heuristic to them; nil when no fit
// predicts the goals. Where none does and cfg.Material is on, it looks
// for the roles' pieces (material.go). It also returns a line describing
// what it found.
//
// Sampling stops when ctx is done, fitting when fitCtx is: the time of the
// fit grows with the samples and features, and on a loaded machine could
// otherwise run past the deadline of the search.
func learnHeuristic(ctx, fitCtx context.Context, r reasoner.Reasoner, st *reasoner.State, rng *rand.Rand, cfg Config) (*heuristic, *material, string) {
	maxDepth := cfg.MaxPlayoutDepth
	nr := len(r.Roles())
	l := &learner{cols: map[string]int{}, roles: nr, quality: cfg.HeuristicQuality}
	if cfg.Material == On {
		// Pieces are captured, never added: material compares the
		// samples with the state learning starts from.
		x, err := l.features(ctx, r, st)
		if err != nil {
			return nil, nil, fmt.Sprintf("heuristic: %v", err)
		}
		l.start = x
	}
	moves := make([]reasoner.Move, nr)
	meanLen, games := 20.0, 0
	for len(l.samples) < learnSamples && ctx.Err() == nil {
		depth := rng.IntN(int(1.2*meanLen) + 1)
		mid, steps, err := reasoner.Playout(ctx, r, st, rng, min(depth, maxDepth), moves)
		if err != nil {
			break
		}
		var x map[int]float64
		if steps == depth {
			if term, err := r.Terminal(ctx, mid); err != nil {
				break
			} else if !term {
				if x, err = l.features(ctx, r, mid); err != nil {
					break
				}
			}
		}
		end, more, err := reasoner.Playout(ctx, r, mid, rng, maxDepth-steps, moves)
		if err != nil {
			break
		}
		games++
		meanLen += (float64(steps+more) - meanLen) / float64(games)
		if x == nil {
			continue
		}
		g := make([]float64, nr)
		if err := goalsOf(ctx, r, end, g); err != nil {
			break
		}
		l.samples = append(l.samples, sample{x, g})
		if len(l.samples) == screenSamples {
			// Most games keep nothing, and each sample costs a random
			// game: where a fit of these falls short of the bar by
			// more than their noise, the rest would not reach it.
			if h, why := l.fit(fitCtx, screenSlack); h == nil {
				mat, mwhy := l.materialOf(ctx, r, st, rng, cfg)
				return nil, mat, fmt.Sprintf("heuristic: stopped at %d states of %d random games of %.0f moves on average over %d features, no fit within %.2f of the bar: %s%s",
					len(l.samples), games, meanLen, len(l.keys), screenSlack, why, mwhy)
			}
		}
	}
	if len(l.samples) < learnMinSamples {
		return nil, nil, fmt.Sprintf("heuristic: %d samples of %d games, too few to fit", len(l.samples), games)
	}
	start := time.Now()
	h, why := l.fit(fitCtx, 0)
	var mat *material
	mwhy := ""
	if h == nil {
		mat, mwhy = l.materialOf(ctx, r, st, rng, cfg)
	} else {
		h.gameLen = meanLen
	}
	return h, mat, fmt.Sprintf("heuristic from %d states of %d random games of %.0f moves on average over %d features, fitted in %v: %s%s",
		len(l.samples), games, meanLen, len(l.keys), time.Since(start).Round(time.Millisecond), why, mwhy)
}

// materialOf returns the material of l's samples where cfg looks for it,
// and a clause for the learning's summary. Who moves which pieces is
// learned from random games from st, until ctx, the learning's budget
// (not the fit's deadline), is done: like sampling, it plays games.
func (l *learner) materialOf(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, rng *rand.Rand, cfg Config) (*material, string) {
	if cfg.Material != On {
		return nil, ""
	}
	m, why := l.findMaterial(r.Roles(), l.owners(ctx, r, st, rng))
	return m, "; " + why
}

// fit fits each role's evaluation and validates it on held-out samples,
// against bars lowered by slack.
func (l *learner) fit(ctx context.Context, slack float64) (*heuristic, string) {
	nc := len(l.keys)
	h := &heuristic{cols: l.cols, mobility: make([]int, l.roles), bias: make([]float64, l.roles), weights: make([][]float64, l.roles)}
	for role := range l.roles {
		h.mobility[role] = -1
		if c, ok := l.cols[fmt.Sprintf("mobility#%d", role)]; ok {
			h.mobility[role] = c
		}
	}
	var train, test []int
	for i := range l.samples {
		if i%2 == 0 {
			train = append(train, i)
		} else {
			test = append(test, i)
		}
	}
	var parts []string
	all := make([]int, len(l.samples))
	for i := range all {
		all[i] = i
	}
	fitted := 0
	for role := range l.roles {
		y := func(i int) float64 { return l.samples[i].goals[role] }
		if variance(train, y) == 0 && variance(test, y) == 0 {
			// A goal random play never changes: its mean is its value.
			h.bias[role] = mean(train, y)
			h.weights[role] = make([]float64, nc)
			parts = append(parts, fmt.Sprintf("role %d constant %.2f", role, h.bias[role]))
			continue
		}
		cols, q, why := l.fitRole(ctx, train, test, role, l.quality-slack)
		if ctx.Err() != nil {
			return nil, "out of time while fitting"
		}
		if why != "" {
			return nil, strings.Join(append(parts, fmt.Sprintf("role %d: %s", role, why)), "; ")
		}
		b, w := l.ridge(all, role, cols)
		h.bias[role] = b
		h.weights[role] = make([]float64, nc)
		desc := make([]string, len(cols))
		for k, c := range cols {
			h.weights[role][c] = w[k]
			desc[k] = fmt.Sprintf("%s %+.3f", l.keys[c], w[k])
			if slices.Contains(h.mobility, c) {
				h.usesMob = true
			}
		}
		parts = append(parts, fmt.Sprintf("role %d held-out correlation %.2f: %s", role, q, strings.Join(desc, ", ")))
		fitted++
	}
	if fitted == 0 {
		return nil, strings.Join(append(parts, "no role's goal varies"), "; ")
	}
	h.summary = strings.Join(parts, "; ")
	return h, h.summary
}

// fitRole chooses role's features from the candidates, fits them on the
// samples train and measures the fit on test: its columns and held-out
// correlation, or why it fails the bar.
func (l *learner) fitRole(ctx context.Context, train, test []int, role int, bar float64) ([]int, float64, string) {
	cands := l.candidates(ctx, train, role)
	cols := l.forward(ctx, train, role, cands)
	if len(cols) == 0 {
		return nil, 0, "no feature correlates with its goal"
	}
	b, w := l.ridge(train, role, cols)
	y := func(i int) float64 { return l.samples[i].goals[role] }
	q := correlation(test, y, func(i int) float64 { return predict(l.samples[i].x, b, cols, w) })
	if !(q >= bar) {
		return nil, q, fmt.Sprintf("prediction correlates %.2f with held-out goals, below %.2f", q, bar)
	}
	return cols, q, ""
}

// candidates returns the columns that correlate most with role's goal on
// the samples idx, strongest first: at most maxCandidates, chosen from
// by forward selection.
func (l *learner) candidates(ctx context.Context, idx []int, role int) []int {
	y := func(i int) float64 { return l.samples[i].goals[role] }
	type cand struct {
		col int
		r   float64
	}
	var cs []cand
	support := make([]int, len(l.keys))
	for _, i := range idx {
		for c, v := range l.samples[i].x {
			if v != 0 {
				support[c]++
			}
		}
	}
	for c := range l.keys {
		if ctx.Err() != nil {
			return nil
		}
		if float64(support[c]) < minSupport*float64(len(idx)) {
			// Rare: a whole fact or a step number, which a few
			// samples would fit by chance.
			continue
		}
		x := func(i int) float64 { return l.samples[i].x[c] }
		if r := correlation(idx, y, x); math.Abs(r) >= minCorrelation {
			cs = append(cs, cand{c, math.Abs(r)})
		}
	}
	sort.Slice(cs, func(a, b int) bool { return cs[a].r > cs[b].r || cs[a].r == cs[b].r && cs[a].col < cs[b].col })
	var cols []int
	for _, c := range cs {
		if len(cols) == maxCandidates {
			break
		}
		cols = append(cols, c.col)
	}
	return cols
}

// forward chooses up to maxFeatures of the candidate columns for role by
// forward selection: each step adds the column that correlates most with
// what the columns chosen so far leave unexplained, so that a feature
// that repeats one already chosen (the same pieces counted twice) adds
// nothing and is not chosen.
func (l *learner) forward(ctx context.Context, idx []int, role int, cands []int) []int {
	n := len(idx)
	x := make([][]float64, len(cands))
	for j, c := range cands {
		x[j] = make([]float64, n)
		for k, i := range idx {
			x[j][k] = l.samples[i].x[c]
		}
	}
	res := make([]float64, n)
	at := func(v []float64) func(int) float64 { return func(k int) float64 { return v[k] } }
	pos := make([]int, n)
	for k := range pos {
		pos[k] = k
	}
	var chosen []int
	used := make([]bool, len(cands))
	for len(chosen) < maxFeatures && ctx.Err() == nil {
		if len(chosen) == 0 {
			for k, i := range idx {
				res[k] = l.samples[i].goals[role]
			}
		} else {
			b, w := l.ridge(idx, role, chosen)
			for k, i := range idx {
				res[k] = l.samples[i].goals[role] - predict(l.samples[i].x, b, chosen, w)
			}
		}
		best, bestR := -1, minResidual
		for j := range cands {
			if used[j] {
				continue
			}
			if r := math.Abs(correlation(pos, at(res), at(x[j]))); r > bestR {
				best, bestR = j, r
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		chosen = append(chosen, cands[best])
	}
	return chosen
}

// ridge fits y ≈ b + Σ w[k]·x[cols[k]] on the samples idx by least squares
// on standardised features with a small ridge penalty, which keeps
// features that move together (the pieces of a role and its mobility)
// from cancelling out in huge weights.
func (l *learner) ridge(idx []int, role int, cols []int) (float64, []float64) {
	k, n := len(cols), float64(len(idx))
	mu, sd := make([]float64, k), make([]float64, k)
	for j, c := range cols {
		x := func(i int) float64 { return l.samples[i].x[c] }
		mu[j] = mean(idx, x)
		sd[j] = math.Sqrt(variance(idx, x))
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	ym := mean(idx, func(i int) float64 { return l.samples[i].goals[role] })
	a := make([][]float64, k)
	for j := range a {
		a[j] = make([]float64, k+1)
		a[j][j] = 0.05 * n
	}
	z := make([]float64, k)
	for _, i := range idx {
		s := l.samples[i]
		for j, c := range cols {
			z[j] = (s.x[c] - mu[j]) / sd[j]
		}
		for p := range k {
			for q := range k {
				a[p][q] += z[p] * z[q]
			}
			a[p][k] += z[p] * (s.goals[role] - ym)
		}
	}
	beta := solve(a)
	w := make([]float64, k)
	b := ym
	for j := range k {
		w[j] = beta[j] / sd[j]
		b -= w[j] * mu[j]
	}
	return b, w
}

// solve solves the linear system of the augmented matrix a by Gaussian
// elimination with partial pivoting; a singular column gets 0.
func solve(a [][]float64) []float64 {
	k := len(a)
	for p := range k {
		best := p
		for q := p + 1; q < k; q++ {
			if math.Abs(a[q][p]) > math.Abs(a[best][p]) {
				best = q
			}
		}
		a[p], a[best] = a[best], a[p]
		if math.Abs(a[p][p]) < 1e-12 {
			continue
		}
		for q := p + 1; q < k; q++ {
			f := a[q][p] / a[p][p]
			for c := p; c <= k; c++ {
				a[q][c] -= f * a[p][c]
			}
		}
	}
	x := make([]float64, k)
	for p := k - 1; p >= 0; p-- {
		if math.Abs(a[p][p]) < 1e-12 {
			continue
		}
		s := a[p][k]
		for c := p + 1; c < k; c++ {
			s -= a[p][c] * x[c]
		}
		x[p] = s / a[p][p]
	}
	return x
}

func predict(x map[int]float64, b float64, cols []int, w []float64) float64 {
	for j, c := range cols {
		b += w[j] * x[c]
	}
	return b
}

func mean(idx []int, f func(int) float64) float64 {
	if len(idx) == 0 {
		return 0
	}
	s := 0.0
	for _, i := range idx {
		s += f(i)
	}
	return s / float64(len(idx))
}

func variance(idx []int, f func(int) float64) float64 {
	m := mean(idx, f)
	s := 0.0
	for _, i := range idx {
		d := f(i) - m
		s += d * d
	}
	if len(idx) == 0 {
		return 0
	}
	return s / float64(len(idx))
}

// correlation returns the Pearson correlation of x and y over idx, 0 when
// either is constant.
func correlation(idx []int, y, x func(int) float64) float64 {
	mx, my := mean(idx, x), mean(idx, y)
	var sxy, sxx, syy float64
	for _, i := range idx {
		dx, dy := x(i)-mx, y(i)-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// heurCache holds one worker's weights of the facts it has met: per fact,
// its contribution to each role's evaluation.
type heurCache struct {
	h       *heuristic
	weights map[reasoner.Fact][]float64
	keys    []featureValue
}

// evaluate leaves in out the heuristic's value of st for each role, in
// [0,1].
func (c *heurCache) evaluate(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, out []float64) error {
	h := c.h
	copy(out, h.bias)
	for _, f := range st.Facts() {
		w, ok := c.weights[f]
		if !ok {
			w = make([]float64, len(out))
			c.keys = factFeatures(f, c.keys[:0])
			for _, k := range c.keys {
				if col, ok := h.cols[k.key]; ok {
					for role := range w {
						w[role] += h.weights[role][col] * k.v
					}
				}
			}
			if len(c.weights) < maxHeurCache {
				c.weights[f] = w
			}
		}
		for role, v := range w {
			out[role] += v
		}
	}
	if h.usesMob {
		for role, col := range h.mobility {
			if col < 0 {
				continue
			}
			ms, err := r.Legal(ctx, st, role)
			if err != nil {
				return err
			}
			for q := range out {
				out[q] += h.weights[q][col] * float64(len(ms))
			}
		}
	}
	for role, v := range out {
		out[role] = math.Min(math.Max(v, 0), 1)
	}
	return nil
}

// learn learns the heuristic from random games from the current state,
// for a share of the time to the deadline of ctx.
func (s *Search) learn(ctx context.Context) {
	budget := learnNoDeadline
	if d, ok := ctx.Deadline(); ok {
		budget = min(time.Duration(learnShare*float64(time.Until(d))), s.cfg.LearnMax)
	}
	lctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	r := s.acquire(lctx)
	if r == nil {
		return
	}
	defer s.releaseRecovered(r, "learning a heuristic")
	rng := rand.New(rand.NewPCG(s.cfg.Seed, 1<<40))
	h, mat, why := learnHeuristic(lctx, ctx, r, s.State(), rng, s.cfg)
	s.heurWhy.Store(&why)
	if h != nil {
		s.heur.Store(h)
	}
	if mat != nil {
		s.material.Store(mat)
	}
}

// heuristicSummary returns what learning found, or "".
func (s *Search) heuristicSummary() string {
	if p := s.heurWhy.Load(); p != nil {
		return *p
	}
	return ""
}

// heuristic returns the worker's view of the search's heuristic, nil
// while there is none.
func (w *worker) heuristic() *heurCache {
	if !w.heur {
		return nil
	}
	h := w.s.heur.Load()
	if h == nil {
		return nil
	}
	if w.hc == nil || w.hc.h != h {
		w.hc = &heurCache{h: h, weights: map[reasoner.Fact][]float64{}}
	}
	return w.hc
}

// cutScore scores st, where a playout was cut short, into w.value: by its
// goals if it is terminal and otherwise by the heuristic. ok reports a
// terminal state.
func (w *worker) cutScore(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, h *heurCache) (ok bool, err error) {
	term, err := r.Terminal(ctx, st)
	if err != nil {
		return false, err
	}
	if term {
		return true, w.goals(ctx, r, st)
	}
	return false, h.evaluate(ctx, r, st, w.value)
}
