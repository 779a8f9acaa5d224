package backend

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// TestShared checks that callers with the same description share one
// build, each getting its own fork; that another description builds
// again; that only the last keep descriptions are kept; and that a build
// cut short by its caller's context is built again for the next caller.
func TestShared(t *testing.T) {
	parse := func() *gdl.Description {
		d, err := gdl.ParseFile("tiny.kif", []byte(tinyGame))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	inner, err := New(Prolog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var builds atomic.Int32
	release := make(chan struct{})
	counted := func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		builds.Add(1)
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return inner(ctx, d)
	}
	f := Shared(counted, 2)
	bg := context.Background()

	// A build whose caller gives up is not kept.
	a := parse()
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := f(ctx, a); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: err %v", err)
	}

	// Three callers at once: one build, three distinct instances.
	var wg sync.WaitGroup
	got := make([]reasoner.Reasoner, 3)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := f(bg, a)
			if err != nil {
				t.Error(err)
			}
			got[i] = r
		}()
	}
	close(release)
	wg.Wait()
	if n := builds.Load(); n != 2 {
		t.Errorf("%d builds for a cancelled one and three callers of one description, want 2", n)
	}
	if got[0] == got[1] || got[1] == got[2] || got[0] == got[2] {
		t.Error("callers share an instance; each must get its own fork")
	}
	for _, r := range got {
		if r != nil && len(r.Roles()) != 1 {
			t.Errorf("a fork has roles %v", r.Roles())
		}
	}

	// Two more descriptions push a out of a cache of two.
	b, c := parse(), parse()
	for _, d := range []*gdl.Description{b, c, b} {
		if _, err := f(bg, d); err != nil {
			t.Fatal(err)
		}
	}
	if n := builds.Load(); n != 4 {
		t.Errorf("%d builds after b, c, b; want 4 (b once, c once)", n)
	}
	if _, err := f(bg, a); err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 5 {
		t.Errorf("%d builds after a again; want 5, a having been dropped", n)
	}
}
