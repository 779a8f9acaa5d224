// Package ismcts searches a GDL-II game from what one role knows of it:
// Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse,
// "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), in its
// multiple-observer form, for games of simultaneous moves.
//
// Each iteration draws a state the match may be in (a determinization,
// from the caller's Sampler) and plays from it down one tree per role.
// A role's tree branches only on what that role observes of a step, its
// own move and its percepts, so a node is one of the role's information
// sets and the move a role chooses there is one move for every state the
// node stands for: no role's choice in the search depends on what it
// cannot see (no strategy fusion), and a move that makes a role see more
// is worth what the role then wins by choosing better. Within a node the
// moves are chosen by UCB1 with availability counts, since a move is
// legal in some of the node's states only. Nature (the role random)
// chooses uniformly at random, as the game master does. Below the trees a
// uniformly random playout ends the iteration, and each role's goal is
// credited along its own tree's path.
//
// What a move is worth, to UCB1 and to the caller, is, in a game of the
// role against nature alone (Config.MaxBackup), an expectimax over the
// role's information sets: the mean, over what the role observes after
// the move (weighed by how often the iterations observed it), of the value
// of its most visited move at the node that follows, down to the goals
// where the tree ends. The mean of every iteration through the move,
// UCT's value, counts the exploration of each decision below it, so a
// move whose worth depends on several good decisions after it (a question
// that pays off only after a second question and a guess) is valued below
// a move that pays at once, and once UCB1 has settled it is never visited
// enough to recover. Against nature alone the expectimax value is exact as
// the visits grow, the most visited move of a node becoming its best; with
// opponents the search keeps UCT's mean.
//
// With Config.Perfect every tree branches on the whole joint move instead:
// a complete-information search of the states drawn, which is what a
// player that takes one sampled state for the true one plays.
//
// The work is bounded by the context, by Config.MaxNodes (the nodes of all
// trees together) and by Config.MaxSteps (the steps of one iteration).
package ismcts

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ggp-go/ggp/player/mcts"
	"github.com/ggp-go/ggp/reasoner"
)

// Config configures a Search. The zero value selects the defaults. The
// fields a player specification sets are in the table of Settings, with
// their defaults; the others are documented here.
type Config struct {
	// Exploration is UCB1's constant, on goals scaled to [0, 1] (the
	// setting c).
	Exploration float64
	// MaxBackup, when on, values a move at a node of a role's tree by an
	// expectimax over the role's information sets (the package's
	// documentation says why): the expectation over what the role
	// observes after it of the value of the role's most visited move at
	// the node that follows (the setting maxback). When off, a move is
	// worth the mean goal of the iterations through it, as in UCT. Auto,
	// the default, is on where the role plays against nature alone and
	// off where it has opponents: there the mean, which weighs the
	// opponents' moves as they are tried, is what the selection of moves
	// by UCB1 in each tree settles on, and the value of the most visited
	// move, at nodes whose moves have been tried a few times each, is the
	// luckiest of their first samples (against the determinizer, at 1,000
	// iterations a move, it lost most kriegTTT_4x4 matches mean backups
	// win).
	MaxBackup mcts.Switch
	// MaxNodes bounds the nodes of all the trees; once they are made,
	// iterations go on from the nodes there are. Default 1<<18.
	MaxNodes int
	// MaxSteps bounds the steps of one iteration, in the trees and in the
	// playout; a playout cut short scores the goals of the state it
	// reached, and 50 for a role without one. Default 1000.
	MaxSteps int
	// Perfect makes every tree branch on the joint move: a search with
	// complete information of the states drawn.
	Perfect bool
	// Iterations bounds the iterations of a call to Run that is given no
	// bound of its own; 0 searches until Run's context is done. A player
	// that searches from a Config (the mcts player) searches each
	// decision so many iterations, whatever its clock: a measurement
	// that must not depend on the machine's load sets it.
	Iterations int
	// Rand is the source of the random choices; nil seeds one from the
	// runtime's random source.
	Rand *rand.Rand
}

// Settings returns the table of the search's settings, bound to the
// fields of c, in the form of the GDL search's table (mcts.Setting): the
// mcts player of package player/mctsplayer takes the settings of its GDL-II
// search from here, by the same keys as its GDL search's, and reports the
// keys of the GDL search that are not here as unused in a GDL-II match.
func (c *Config) Settings() []mcts.Setting {
	return []mcts.Setting{
		{Key: "c", Float: &c.Exploration, Min: 0, Max: 100, Default: "0.7",
			Help: "UCB1 exploration constant, goals scaled to [0,1]"},
		{Key: "maxback", Switch: &c.MaxBackup, Default: "auto", Auto: "on where the role plays against nature alone",
			Help: "a move is worth what the role then wins playing its most visited moves, over what it may observe (expectimax), not the mean of every iteration through it"},
	}
}

func (c Config) withDefaults() Config {
	for _, s := range c.Settings() {
		s.SetDefault()
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = 1 << 18
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 1000
	}
	if c.Rand == nil {
		c.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	return c
}

// A Sampler returns a state the match may be in, drawn for one iteration:
// not terminal, and the one the root of the search stands for.
type Sampler func() *reasoner.State

// Weighted returns a Sampler that draws states[i] with probability
// weights[i]; the weights need not sum to 1.
func Weighted(states []*reasoner.State, weights []float64, rng *rand.Rand) Sampler {
	cum := make([]float64, len(states))
	total := 0.0
	for i := range states {
		total += weights[i]
		cum[i] = total
	}
	return func() *reasoner.State {
		i, _ := slices.BinarySearch(cum, rng.Float64()*total)
		return states[min(i, len(states)-1)]
	}
}

// A Search is the trees of one role's decision. It is not safe for
// concurrent use, nor is its reasoner.
type Search struct {
	r      reasoner.Reasoner
	seer   reasoner.Perceiver // nil with Config.Perfect
	cfg    Config
	role   int
	nature int             // index of nature's role, or -1
	roots  []*node         // one per role; nil for nature
	allow  []reasoner.Move // the root moves the role may choose, sorted
	nodes  int
	iters  int

	// Scratch space of one iteration.
	cur    []*node
	joint  []reasoner.Move
	legal  [][]reasoner.Move
	path   []visit
	key    []byte
	goals  []float64
	moves  []reasoner.Move // scratch for Playout
	unseen []*edge
	root   []reasoner.Move // the role's allowed legal moves at the root
}

// A node is an information set of one role, and its edges the role's
// moves there.
type node struct {
	edges map[reasoner.Move]*edge
	// visits and sum count the iterations through the node and their
	// goals; value is what the node is worth to the role, its mean goal
	// or, with Config.MaxBackup, its most visited move's value.
	visits int
	sum    float64
	value  float64
}

// An edge is a move's statistics at a node, and what follows the move.
type edge struct {
	move   reasoner.Move
	visits int
	avail  int // iterations in which the move was legal at the node
	sum    float64
	// children are the role's information sets after the move, by what
	// it observes of the step: its percepts (the joint move with
	// Config.Perfect). A step that ends the game has none.
	children map[string]*node
	// With Config.MaxBackup, childSum is the sum of the children's
	// values, each weighed by its visits, and restSum the goals of the
	// iterations through the edge that reached no child (the game ended,
	// or the trees were full): value, the move's worth, is their sum over
	// the edge's visits.
	childSum float64
	restSum  float64
	value    float64
}

// q returns the value of e that UCB1 maximizes and that the search
// reports, on goals scaled to [0, 1]: the mean goal of the iterations
// through the move or, with Config.MaxBackup, the expectation over what
// the role observes next of what it can then win.
func (s *Search) q(e *edge) float64 {
	if s.cfg.MaxBackup == mcts.On {
		return e.value
	}
	return e.sum / float64(e.visits)
}

// A visit is one role's choice on an iteration's path.
type visit struct {
	role int
	n    *node
	e    *edge
}

// New returns a search for role (an index into r.Roles()) of the decision
// whose states the Sampler given to Run draws. allow restricts the role's
// moves at the root, the moves it may play there; nil allows every move.
// Without Config.Perfect, r must be a reasoner.Perceiver.
func New(r reasoner.Reasoner, role int, allow []reasoner.Move, cfg Config) (*Search, error) {
	for _, set := range cfg.Settings() {
		if err := set.Check(); err != nil {
			return nil, fmt.Errorf("ismcts: %w", err)
		}
	}
	roles := r.Roles()
	if role < 0 || role >= len(roles) {
		return nil, fmt.Errorf("ismcts: no role %d", role)
	}
	s := &Search{r: r, cfg: cfg.withDefaults(), role: role, nature: reasoner.NatureIndex(roles)}
	if s.cfg.MaxBackup == mcts.Auto {
		s.cfg.MaxBackup = mcts.Off
		if againstNature(roles, role) {
			s.cfg.MaxBackup = mcts.On
		}
	}
	if !s.cfg.Perfect {
		p, ok := r.(reasoner.Perceiver)
		if !ok {
			return nil, fmt.Errorf("ismcts: reasoner %T gives no percepts", r)
		}
		s.seer = p
	}
	if allow != nil {
		s.allow = slices.Sorted(slices.Values(allow))
	}
	n := len(roles)
	s.roots = make([]*node, n)
	for i := range s.roots {
		if i != s.nature {
			s.roots[i] = newNode()
			s.nodes++
		}
	}
	s.cur = make([]*node, n)
	s.joint = make([]reasoner.Move, n)
	s.legal = make([][]reasoner.Move, n)
	s.goals = make([]float64, n)
	s.moves = make([]reasoner.Move, n)
	return s, nil
}

// againstNature reports whether every role but role is nature: a game
// of one player against chance, where Config.MaxBackup's auto is on.
func againstNature(roles []string, role int) bool {
	for i, r := range roles {
		if i != role && r != reasoner.Nature {
			return false
		}
	}
	return true
}

// newNode returns an empty node. Its maps are made when first written:
// most nodes are leaves, and the bound on nodes is a bound on memory.
func newNode() *node { return &node{} }

// maxDraws bounds the states drawn in a row that the search cannot use,
// terminal ones or ones where no allowed move is legal, before Run gives
// up: the Sampler does not draw what the search is for.
const maxDraws = 1000

// Run searches, iteration after iteration, each from a state sample
// draws, until ctx is done or, when iterations (or else
// Config.Iterations) is positive, that many iterations have run, and
// returns nil then. It returns an error when the
// reasoner fails, or when sample draws only states it cannot use.
func (s *Search) Run(ctx context.Context, sample Sampler, iterations int) error {
	if iterations <= 0 {
		iterations = s.cfg.Iterations
	}
	unusable := 0
	for done := 0; ctx.Err() == nil && (iterations <= 0 || done < iterations); {
		used, err := s.iterate(ctx, sample())
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if used {
			unusable = 0
			done++
			continue
		}
		if unusable++; unusable >= maxDraws {
			return errors.New("ismcts: the states drawn are terminal or allow none of the moves searched")
		}
	}
	return nil
}

// iterate plays one iteration from st and reports whether st could be used.
func (s *Search) iterate(ctx context.Context, st *reasoner.State) (bool, error) {
	r, rng := s.r, s.cfg.Rand
	copy(s.cur, s.roots)
	s.path = s.path[:0]
	done, err := r.Terminal(ctx, st)
	if err != nil || done {
		return false, err
	}
	step := 0
	for ; step < s.cfg.MaxSteps && !done; step++ {
		for i := range s.joint {
			legal, err := r.Legal(ctx, st, i)
			if err != nil {
				return false, err
			}
			if len(legal) == 0 {
				return false, fmt.Errorf("ismcts: %s has no legal move", r.Roles()[i])
			}
			s.legal[i] = legal
		}
		if step == 0 && s.allow != nil {
			s.root = intersect(s.root[:0], s.legal[s.role], s.allow)
			s.legal[s.role] = s.root
			if len(s.legal[s.role]) == 0 {
				return false, nil
			}
		}
		for i, n := range s.cur {
			if n == nil {
				s.joint[i] = s.legal[i][rng.IntN(len(s.legal[i]))]
				continue
			}
			e := s.choose(n, s.legal[i])
			s.joint[i] = e.move
			s.path = append(s.path, visit{i, n, e})
		}
		next, err := r.Next(ctx, st, s.joint)
		if err != nil {
			return false, err
		}
		if done, err = r.Terminal(ctx, next); err != nil {
			return false, err
		}
		created := false
		for i, n := range s.cur {
			if n == nil {
				continue
			}
			if done {
				// The game is over: no decision follows, and the
				// move's edge keeps the goal (restSum).
				s.cur[i] = nil
				continue
			}
			if err := s.observe(ctx, st, i); err != nil {
				return false, err
			}
			e := n.edges[s.joint[i]]
			child := e.children[string(s.key)]
			if child == nil && s.nodes < s.cfg.MaxNodes {
				child = newNode()
				if e.children == nil {
					e.children = map[string]*node{}
				}
				e.children[string(s.key)] = child
				s.nodes++
				created = true
			}
			s.cur[i] = child
		}
		st = next
		if created || !slices.ContainsFunc(s.cur, func(n *node) bool { return n != nil }) {
			step++
			break
		}
	}
	if !done && step < s.cfg.MaxSteps {
		if st, _, err = reasoner.Playout(ctx, r, st, rng, s.cfg.MaxSteps-step, s.moves); err != nil {
			return false, err
		}
	}
	goals, err := r.Goals(ctx, st)
	var ge *reasoner.GoalError
	if err != nil && !errors.As(err, &ge) {
		return false, err
	}
	for i := range s.goals {
		s.goals[i] = 0.5
		if i < len(goals) && goals[i] >= 0 {
			s.goals[i] = float64(goals[i]) / 100
		}
	}
	s.backup()
	s.iters++
	return true, nil
}

// backup credits each role's goal along its path, from the node the
// iteration left the role's tree at up to the root: s.cur holds those
// nodes, nil where the role's path left its tree by the end of the game
// or with the trees full.
func (s *Search) backup() {
	maxBackup := s.cfg.MaxBackup == mcts.On
	for i, leaf := range s.cur {
		if leaf == nil && s.roots[i] == nil {
			continue // nature
		}
		g := s.goals[i]
		// child is the node below the visit being credited, and
		// before its value and visits before this iteration.
		child, before := leaf, 0.0
		if child != nil {
			before = child.credit(g, maxBackup)
		}
		for k := len(s.path) - 1; k >= 0; k-- {
			v := s.path[k]
			if v.role != i {
				continue
			}
			v.e.visits++
			v.e.sum += g
			if maxBackup {
				if child != nil {
					v.e.childSum += float64(child.visits)*child.value - before
				} else {
					v.e.restSum += g
				}
				v.e.value = (v.e.childSum + v.e.restSum) / float64(v.e.visits)
			}
			child = v.n
			before = child.credit(g, maxBackup)
		}
	}
}

// credit counts an iteration through n that gave its role goal g, and
// sets n's value; it returns n's value before, weighed by its visits
// before.
func (n *node) credit(g float64, maxBackup bool) float64 {
	before := float64(n.visits) * n.value
	n.visits++
	n.sum += g
	n.value = n.sum / float64(n.visits)
	if maxBackup {
		var best *edge
		for _, e := range n.edges {
			if e.visits > 0 && (best == nil || e.visits > best.visits || e.visits == best.visits && e.value > best.value) {
				best = e
			}
		}
		if best != nil {
			n.value = best.value
		}
	}
	return before
}

// observe sets key to what role i observes of the step from st by the
// joint move besides its own move: its percepts, or the joint move with
// Config.Perfect.
func (s *Search) observe(ctx context.Context, st *reasoner.State, i int) error {
	s.key = s.key[:0]
	if s.cfg.Perfect {
		for _, m := range s.joint {
			s.key = append(append(s.key, m...), 0)
		}
		return nil
	}
	percepts, err := s.seer.Sees(ctx, st, s.joint, i)
	if err != nil {
		return err
	}
	for _, p := range percepts {
		s.key = append(append(s.key, 0), p...)
	}
	return nil
}

// choose returns the edge of the move UCB1 chooses at n among legal,
// counting each of them available. A move never tried comes first.
func (s *Search) choose(n *node, legal []reasoner.Move) *edge {
	s.unseen = s.unseen[:0]
	var best *edge
	bestScore := math.Inf(-1)
	for _, m := range legal {
		e := n.edges[m]
		if e == nil {
			e = &edge{move: m}
			if n.edges == nil {
				n.edges = map[reasoner.Move]*edge{}
			}
			n.edges[m] = e
		}
		e.avail++
		if e.visits == 0 {
			s.unseen = append(s.unseen, e)
			continue
		}
		score := s.q(e) + s.cfg.Exploration*math.Sqrt(math.Log(float64(e.avail))/float64(e.visits))
		if score > bestScore {
			best, bestScore = e, score
		}
	}
	if len(s.unseen) > 0 {
		return s.unseen[s.cfg.Rand.IntN(len(s.unseen))]
	}
	return best
}

// intersect appends to out the moves of legal that are in allow, both
// sorted, and returns it.
func intersect(out, legal, allow []reasoner.Move) []reasoner.Move {
	for _, m := range legal {
		if _, ok := slices.BinarySearch(allow, m); ok {
			out = append(out, m)
		}
	}
	return out
}

// A MoveStat is what the search found of one of the role's moves at the
// root: the iterations that played it and its value to the role, from 0
// to 100 (the q UCB1 maximizes: see Config.MaxBackup).
type MoveStat struct {
	Move   reasoner.Move
	Visits int
	Value  float64
}

// Moves returns the statistics of the role's root moves that were played,
// the most played first.
func (s *Search) Moves() []MoveStat {
	var out []MoveStat
	for _, e := range s.roots[s.role].edges {
		if e.visits > 0 {
			out = append(out, MoveStat{e.move, e.visits, 100 * s.q(e)})
		}
	}
	slices.SortFunc(out, func(a, b MoveStat) int {
		switch {
		case a.Visits != b.Visits:
			return b.Visits - a.Visits
		case a.Value != b.Value:
			if a.Value > b.Value {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Move, b.Move)
	})
	return out
}

// Best returns the role's most played root move, and false before any
// iteration.
func (s *Search) Best() (reasoner.Move, bool) {
	ms := s.Moves()
	if len(ms) == 0 {
		return "", false
	}
	return ms[0].Move, true
}

// Advance moves the search on to the role's next decision, once the role
// has played move and been told percepts: the role's tree keeps the
// subtree of that observation, which the iterations so far have grown,
// and the other roles' trees start again, for what they have observed is
// not known. allow restricts the role's moves at the new root, as in New.
// It reports false, leaving the search as it was, in a search with
// Config.Perfect, which branches on moves the role does not see.
func (s *Search) Advance(move reasoner.Move, percepts []reasoner.Percept, allow []reasoner.Move) bool {
	if s.cfg.Perfect {
		return false
	}
	s.key = s.key[:0]
	for _, p := range slices.Compact(slices.Sorted(slices.Values(percepts))) {
		s.key = append(append(s.key, 0), p...)
	}
	var root *node
	if e := s.roots[s.role].edges[move]; e != nil {
		root = e.children[string(s.key)]
	}
	if root == nil {
		root = newNode()
	}
	s.nodes = 0
	for i := range s.roots {
		switch {
		case i == s.role:
			s.roots[i] = root
			s.nodes += count(root)
		case i != s.nature:
			s.roots[i] = newNode()
			s.nodes++
		}
	}
	s.allow = nil
	if allow != nil {
		s.allow = slices.Sorted(slices.Values(allow))
	}
	return true
}

// count returns the nodes of the tree under n, n included.
func count(n *node) int {
	c := 1
	for _, e := range n.edges {
		for _, child := range e.children {
			c += count(child)
		}
	}
	return c
}

// Iterations returns the iterations run so far.
func (s *Search) Iterations() int { return s.iters }

// Nodes returns the nodes of all the trees.
func (s *Search) Nodes() int { return s.nodes }
