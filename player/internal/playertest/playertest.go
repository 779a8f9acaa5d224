// Package playertest holds what the tests of the player packages share:
// loading a game, the reference reasoner, a reasoner that misbehaves on
// purpose, and a check that no goroutine is left behind. It is imported
// only by tests.
package playertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// LoadGame returns the rules of a bundled game, or of a game of the shared
// corpus when key is "shared/NAME"; it skips the test when the corpus is
// absent.
func LoadGame(t testing.TB, key string) *gdl.Description {
	t.Helper()
	var g *games.Game
	var err error
	if name, ok := strings.CutPrefix(key, "shared/"); ok {
		root := gamestest.Games()
		if _, err := os.Stat(root); err != nil {
			t.Skipf("shared game %s: %v", name, err)
		}
		g, err = games.LoadFolder(filepath.Join(root, name))
	} else {
		g, err = games.Open(key)
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Factory returns the factory of the named backend, failing the test if
// there is none.
func Factory(t testing.TB, name string) reasoner.Factory {
	t.Helper()
	f, err := backend.New(name, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Reference loads d with the reference backend, to check what players do.
func Reference(t testing.TB, d *gdl.Description) reasoner.Reasoner {
	t.Helper()
	r, err := Factory(t, backend.Prolog)(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Faulty returns a factory whose reasoners' forks, which a search uses,
// misbehave: Next panics, or sleeps for delay ignoring its context.
func Faulty(base reasoner.Factory, panics bool, delay time.Duration) reasoner.Factory {
	return func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := base(ctx, d)
		if err != nil {
			return nil, err
		}
		return &faulty{Reasoner: r, panics: panics, delay: delay}, nil
	}
}

// SlowNext returns a factory whose reasoners' forks sleep for delay in
// Next, ignoring its context, as Faulty's do, and a channel on which a
// fork's Next, as it begins, tells a test that waits on it: the test then
// knows that a search is held in a slow call.
func SlowNext(base reasoner.Factory, delay time.Duration) (reasoner.Factory, <-chan struct{}) {
	entered := make(chan struct{})
	return func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := base(ctx, d)
		if err != nil {
			return nil, err
		}
		return &faulty{Reasoner: r, delay: delay, entered: entered}, nil
	}, entered
}

// faulty wraps a reasoner; its forks misbehave.
type faulty struct {
	reasoner.Reasoner
	forked  bool
	panics  bool
	delay   time.Duration
	entered chan struct{} // told, if waited on, when a fork's Next begins
}

func (f *faulty) Fork() (reasoner.Reasoner, error) {
	r, err := f.Reasoner.Fork()
	if err != nil {
		return nil, err
	}
	return &faulty{Reasoner: r, forked: true, panics: f.panics, delay: f.delay, entered: f.entered}, nil
}

func (f *faulty) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	if f.forked {
		if f.panics {
			panic("faulty reasoner")
		}
		select {
		case f.entered <- struct{}{}:
		default: // nobody waits
		}
		time.Sleep(f.delay)
	}
	return f.Reasoner.Next(ctx, s, joint)
}
