// Package backend chooses the reasoner backend for a game: the one place
// that names the backends. Commands turn a --backend flag into a
// reasoner.Factory here and hand it to the player and the game master,
// which never name a backend themselves.
package backend

import (
	"context"
	"fmt"
	"log"
	"slices"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// Names of the backends, as --backend takes them.
const (
	// Auto grounds the rules into a propositional network when that fits
	// its budget and falls back to the Prolog backend otherwise.
	Auto = "auto"
	// Propnet is the grounded propositional network only.
	Propnet = "propnet"
	// Prolog is the reference backend: the rules compiled into an
	// embedded Prolog interpreter.
	Prolog = "prolog"
)

// Names returns the backend names that New accepts, the default first.
func Names() []string { return []string{Auto, Propnet, Prolog} }

// Options configure the factories New returns. The zero value selects the
// defaults.
type Options struct {
	// Log, if not nil, is told when Auto falls back to the Prolog
	// backend, and why. (Grounding is the default and goes unsaid, so
	// that commands keep a quiet standard error.)
	Log *log.Logger
	// LogGrounded makes Auto log its choice when it takes the network
	// too, not only when it falls back: a competition player's operator
	// wants to see which backend each match got. Commands that print
	// results leave it off, for a quiet standard error.
	LogGrounded bool
	// GroundTime bounds the time spent grounding a game. Auto gives it
	// at most a third of what is left of the context's deadline, so that
	// the Prolog backend still has time to load when it falls back.
	// Default 10 s.
	GroundTime time.Duration
	// Limits bound the size of a grounding; the zero value selects
	// propnet's defaults.
	Limits propnet.Limits
	// Strict refuses rules that are not strict GDL: a GDL-II description
	// with a departure from GDL that the Dresden dialect reads through
	// (gdl.Repair lists them; the problems marked NotStrict). Without it
	// such rules are played as read, and Log, if not nil, is told each
	// departure, with its position and how it is read.
	Strict bool
}

// DefaultGroundTime is Options.GroundTime's default.
const DefaultGroundTime = 10 * time.Second

// New returns the factory of the named backend; "" means Auto.
func New(name string, opts Options) (reasoner.Factory, error) {
	if opts.GroundTime <= 0 {
		opts.GroundTime = DefaultGroundTime
	}
	var f reasoner.Factory
	switch name {
	case "", Auto:
		f = opts.auto
	case Propnet:
		f = opts.propnet
	case Prolog:
		f = prologFactory
	default:
		return nil, fmt.Errorf("unknown backend %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	return func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		if err := opts.readings(d); err != nil {
			return nil, err
		}
		return f(ctx, d)
	}, nil
}

// readings refuses d under Strict when it departs from strict GDL, and
// otherwise logs each departure and how it is read.
func (o Options) readings(d *gdl.Description) error {
	if !o.Strict && o.Log == nil {
		return nil
	}
	// Only a description the rules may play as GDL-II is read in the
	// dialect; Validate finds no departure in any other.
	if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
		return nil
	}
	ps := gdl.Validate(d)
	if o.Strict {
		if err := gdl.NotStrict(ps); err != nil {
			return fmt.Errorf("%s: not strict GDL, and strict rules were asked for: %w", d.Filename, err)
		}
		return nil
	}
	for _, p := range ps {
		if p.NotStrict {
			o.logf("%v (not strict GDL)", p)
		}
	}
	return nil
}

// Valid reports whether New accepts name.
func Valid(name string) bool { return name == "" || slices.Contains(Names(), name) }

func prologFactory(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	r, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// propnet grounds d within GroundTime and the size limits.
func (o Options) propnet(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	ctx, cancel := context.WithTimeout(ctx, o.GroundTime)
	defer cancel()
	r, err := propnet.New(ctx, d, propnet.Options{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// auto grounds d within its share of ctx's time and falls back to the
// Prolog backend when that fails.
func (o Options) auto(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	budget := o.GroundTime
	if deadline, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(deadline)/3)
	}
	gctx, cancel := context.WithTimeout(ctx, budget)
	r, err := propnet.New(gctx, d, propnet.Options{Limits: o.Limits})
	cancel()
	if err == nil {
		if o.LogGrounded {
			st := r.Stats()
			o.logf("%s: backend propnet: %d bases, %d inputs, %d nodes", d.Filename, st.Bases, st.Inputs, st.NodesAfter)
		}
		return r, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// Named as the network's failure, so that a failure of Prolog after it
	// is not read as Prolog's reason.
	o.logf("%s: backend propnet declined, trying prolog: %v", d.Filename, err)
	return prologFactory(ctx, d)
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log.Printf(format, args...)
	}
}
