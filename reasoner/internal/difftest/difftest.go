// Package difftest compares reasoner backends on the same games: it plays
// random playouts and asks every backend every question on the way (the
// roles, the initial state, the legal moves of each role, the percepts of
// each role in GDL-II, the next state, whether a state is terminal, the
// goal values) and reports the first answer on which they differ.
//
// Backends are given as named reasoner.Factory values, so a new backend
// joins the comparison by adding it to the caller's list.
package difftest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/internal/gamegen"
)

// Backend is one evaluation path under comparison.
type Backend struct {
	Name string
	New  reasoner.Factory
	// MayGiveUp marks a backend that may fail where the others answer,
	// by design, with an error wrapping reasoner.ErrDepth or
	// context.DeadlineExceeded: an interpreter without tabling, on rules
	// that recurse around a cycle. Such a failure ends the comparison
	// with a *GaveUp instead of counting as a disagreement.
	MayGiveUp bool
	// Declines, when set, is the error with which the backend may refuse
	// a game at load, by design: a propositional network past its
	// grounding budget (propnet.ErrNotGrounded). A backend that declines
	// is left out of the comparison of that game, and the others are
	// compared without it.
	Declines error
}

// GaveUp reports that a backend marked MayGiveUp failed to answer; the
// answers before were compared and agreed.
type GaveUp struct {
	Backend  string
	Question string
	Err      error
}

func (g *GaveUp) Error() string {
	return fmt.Sprintf("%s gave up on %s: %v", g.Backend, g.Question, g.Err)
}

func (g *GaveUp) Unwrap() error { return g.Err }

// Config sets how much of a game Compare explores. The zero value selects
// the defaults.
type Config struct {
	Playouts int    // random playouts per game; default 2
	MaxSteps int    // steps per playout at most; default 200
	Seed     uint64 // seeds the choice of moves
	// GDLII makes CheckSeed generate the GDL-II game of the seed
	// (gamegen.GenerateII) rather than the GDL one.
	GDLII bool
	// Counts, when not nil, is where Compare adds up what it compared.
	Counts *Counts
}

// Counts is what Compare compared and found alike.
type Counts struct {
	Steps    int // joint moves played
	Percepts int // percepts of one role at one step, the empty ones included
	Seen     int // of those, the ones not empty
}

func (c Config) withDefaults() Config {
	if c.Playouts <= 0 {
		c.Playouts = 2
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 200
	}
	return c
}

// Disagreement is a question the backends answered differently.
type Disagreement struct {
	Playout, Step int
	Question      string   // "legal moves of r0 in (step 1) ...", "next state of ..."
	Backends      []string // names
	Answers       []string // one per backend
}

func (d *Disagreement) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "playout %d, step %d: %s:", d.Playout, d.Step, d.Question)
	for i, name := range d.Backends {
		fmt.Fprintf(&b, "\n\t%s: %s", name, d.Answers[i])
	}
	return b.String()
}

// Compare loads d into every backend and plays cfg.Playouts random
// playouts, moves chosen at random among the legal moves on which the
// backends agree. It returns a *Disagreement for the first question
// answered differently, where an error counts as an answer (so a backend
// failing where another answers is a disagreement, and all failing alike
// ends the playout). Goal values are compared in every state, terminal or
// not, undefined values included. When every backend is a
// reasoner.Perceiver, every role's percepts of each joint move played
// are compared too. It returns a *GaveUp when a backend
// marked MayGiveUp gives up, and another error only when ctx ends.
func Compare(ctx context.Context, d *gdl.Description, backends []Backend, cfg Config) error {
	cfg = cfg.withDefaults()
	if len(backends) < 2 {
		return errors.New("difftest: fewer than two backends to compare")
	}
	c := &comparison{counts: cfg.Counts}
	if c.counts == nil {
		c.counts = &Counts{}
	}
	var loadErrs []error
	for _, b := range backends {
		r, err := b.New(ctx, d)
		if err != nil && b.Declines != nil && errors.Is(err, b.Declines) {
			continue
		}
		c.backends = append(c.backends, b)
		c.rs = append(c.rs, r)
		loadErrs = append(loadErrs, err)
	}
	if len(c.backends) < 2 {
		return nil // nothing left to compare
	}
	c.perceive = true
	for _, r := range c.rs {
		if _, ok := r.(reasoner.Perceiver); !ok && r != nil {
			c.perceive = false
		}
	}
	c.answers = make([]string, len(c.backends))
	c.errs = make([]error, len(c.backends))
	for i, err := range loadErrs {
		c.answers[i] = "loaded"
		if err != nil {
			c.failed(i, err)
		}
	}
	if err := c.agree(ctx, "loading the game"); err != nil || c.stop {
		return err // a disagreement, or all failed to load alike
	}
	for i, r := range c.rs {
		c.answers[i] = fmt.Sprint(r.Roles())
	}
	if err := c.agree(ctx, "roles"); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5851f42d4c957f2d))
	for p := range cfg.Playouts {
		c.playout, c.step = p, 0
		if err := c.play(ctx, rng, cfg.MaxSteps); err != nil {
			return err
		}
	}
	return nil
}

type comparison struct {
	backends      []Backend
	rs            []reasoner.Reasoner
	answers       []string // of the question under way, by backend
	errs          []error  // the errors among them
	playout, step int
	stop          bool // every backend failed alike: end the playout
	perceive      bool // every backend is a Perceiver
	counts        *Counts
}

// agree compares the answers to question, errors by their kind alone:
// every backend words its errors its own way. When every backend failed it
// sets c.stop.
func (c *comparison) agree(ctx context.Context, question string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer clear(c.errs)
	for i, b := range c.backends {
		if err := c.errs[i]; b.MayGiveUp && (errors.Is(err, reasoner.ErrDepth) || errors.Is(err, context.DeadlineExceeded)) {
			return &GaveUp{Backend: b.Name, Question: question, Err: err}
		}
	}
	kind := func(a string) string {
		if strings.HasPrefix(a, "error:") {
			return "error"
		}
		return a
	}
	first := kind(c.answers[0])
	c.stop = first == "error"
	for _, a := range c.answers[1:] {
		if kind(a) != first {
			return &Disagreement{Playout: c.playout, Step: c.step, Question: question,
				Backends: names(c.backends), Answers: slices.Clone(c.answers)}
		}
	}
	return nil
}

func names(bs []Backend) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

// failed records a backend's error as its answer, keeping the message for
// the report.
func (c *comparison) failed(i int, err error) {
	c.answers[i] = "error: " + err.Error()
	c.errs[i] = err
}

// play runs one playout, asking every question in every state.
func (c *comparison) play(ctx context.Context, rng *rand.Rand, maxSteps int) error {
	states := make([]*reasoner.State, len(c.rs))
	for i, r := range c.rs {
		s, err := r.Initial(ctx)
		states[i] = s
		c.setAnswer(i, s, err)
	}
	if err := c.agree(ctx, "initial state"); err != nil || c.stop {
		return err
	}
	roles := c.rs[0].Roles()
	joint := make([]reasoner.Move, len(roles))
	for c.step = 0; c.step < maxSteps; c.step++ {
		at := " in " + states[0].String()
		terminal := false
		for i, r := range c.rs {
			t, err := r.Terminal(ctx, states[i])
			c.answers[i] = fmt.Sprint(t)
			if err != nil {
				c.failed(i, err)
			}
			terminal = t
		}
		if err := c.agree(ctx, "terminal"+at); err != nil || c.stop {
			return err
		}
		for i, r := range c.rs {
			// Undefined goals are an answer: -1 for the roles concerned.
			goals, err := r.Goals(ctx, states[i])
			c.answers[i] = fmt.Sprint(goals)
			if ge := (*reasoner.GoalError)(nil); err != nil && !errors.As(err, &ge) {
				c.failed(i, err)
			}
		}
		if err := c.agree(ctx, "goals"+at); err != nil {
			return err
		}
		if terminal {
			return nil
		}
		for role, name := range roles {
			var legal []reasoner.Move
			for i, r := range c.rs {
				ms, err := r.Legal(ctx, states[i], role)
				c.answers[i] = fmt.Sprint(ms)
				if err != nil {
					c.failed(i, err)
				}
				legal = ms
			}
			if err := c.agree(ctx, "legal moves of "+name+at); err != nil || c.stop {
				return err
			}
			if len(legal) == 0 {
				return nil // all agree there is none: the playout ends
			}
			joint[role] = legal[rng.IntN(len(legal))]
		}
		if c.perceive {
			if err := c.percepts(ctx, states, joint, roles, at); err != nil || c.stop {
				return err
			}
		}
		for i, r := range c.rs {
			s, err := r.Next(ctx, states[i], joint)
			states[i] = s
			c.setAnswer(i, s, err)
		}
		if err := c.agree(ctx, fmt.Sprintf("next state after %v%s", joint, at)); err != nil || c.stop {
			return err
		}
		c.counts.Steps++
	}
	return nil
}

// percepts compares every role's percepts of joint played in states.
func (c *comparison) percepts(ctx context.Context, states []*reasoner.State, joint []reasoner.Move, roles []string, at string) error {
	for role, name := range roles {
		seen := false
		for i, r := range c.rs {
			ps, err := r.(reasoner.Perceiver).Sees(ctx, states[i], joint, role)
			c.answers[i] = fmt.Sprint(ps)
			if err != nil {
				c.failed(i, err)
			}
			seen = len(ps) > 0
		}
		if err := c.agree(ctx, fmt.Sprintf("percepts of %s after %v%s", name, joint, at)); err != nil || c.stop {
			return err
		}
		c.counts.Percepts++
		if seen {
			c.counts.Seen++
		}
	}
	return nil
}

func (c *comparison) setAnswer(i int, s *reasoner.State, err error) {
	if err != nil {
		c.failed(i, err)
		return
	}
	c.answers[i] = s.String()
}

// CheckSeed generates the game of seed and compares the backends on it.
// On a disagreement it shrinks the game to a smaller one on which they
// still disagree, and returns an error holding the seed, the disagreement,
// the game and the shrunk game.
func CheckSeed(ctx context.Context, seed uint64, backends []Backend, cfg Config) error {
	generate := gamegen.Generate
	if cfg.GDLII {
		generate = gamegen.GenerateII
	}
	g, err := generate(seed)
	if err != nil {
		return err
	}
	cfg.Seed = seed
	start := time.Now()
	err = Compare(ctx, g.Description, backends, cfg)
	var d *Disagreement
	if !errors.As(err, &d) {
		return err
	}
	// A smaller game may make a backend loop where the game did not: each
	// candidate gets a few times the time the game took, and shrinking as
	// a whole is bounded.
	perTry := 4*time.Since(start) + 100*time.Millisecond
	cfg.Counts = nil // what shrinking compares is not the game's
	// Shrinking has its own time: the game's deadline may be close.
	shrinkCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxShrinkTime)
	defer cancel()
	small := gamegen.Shrink(g.Description, func(c *gdl.Description) bool {
		tctx, cancel := context.WithTimeout(shrinkCtx, perTry)
		defer cancel()
		var d *Disagreement
		return errors.As(Compare(tctx, c, backends, cfg), &d)
	})
	smallErr := Compare(shrinkCtx, small, backends, cfg)
	return fmt.Errorf("game of seed %d: backends disagree: %w\n--- game (seed %d):\n%s--- shrunk to %d of %d rules:\n%s--- where: %v",
		seed, d, seed, g.Text, len(small.Rules), len(g.Description.Rules), gdl.Format(small), smallErr)
}

// maxShrinkTime bounds the time CheckSeed spends shrinking a game.
const maxShrinkTime = 2 * time.Minute
