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

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
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
	// Log, if not nil, is told which backend each game got and why.
	Log *log.Logger
}

// New returns the factory of the named backend; "" means Auto.
func New(name string, opts Options) (reasoner.Factory, error) {
	switch name {
	case "", Auto:
		// Until the propositional network exists, auto is the Prolog
		// backend.
		return prologFactory, nil
	case Prolog:
		return prologFactory, nil
	}
	return nil, fmt.Errorf("unknown backend %q (want one of %s)", name, strings.Join(Names(), ", "))
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
