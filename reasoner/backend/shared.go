package backend

import (
	"context"
	"sync"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Shared returns a factory that builds the reasoner of a game description
// once, with f, and gives every caller an independent fork of it. The
// referee of a match and its in-process players, who are all handed the
// same *gdl.Description, then ground the rules once between them: the
// players start at once, and grounding runs alone, within its memory
// budget, rather than three times side by side in one heap, where each
// grounding counts the others' growth against its own budget.
//
// Shared keeps the reasoners of the last keep descriptions (at least 1).
// A build cut short by its context is not kept, so the next caller builds
// again; any other failure is, for the same rules fail the same way.
func Shared(f reasoner.Factory, keep int) reasoner.Factory {
	c := &sharedCache{build: f, keep: max(keep, 1)}
	return c.get
}

// A sharedCache holds the reasoners Shared built, the most recent last.
type sharedCache struct {
	build reasoner.Factory
	keep  int

	mu      sync.Mutex
	entries []*sharedEntry
}

// A sharedEntry is the reasoner of one description: being built until
// done is closed, then r or err.
type sharedEntry struct {
	d    *gdl.Description
	done chan struct{}
	r    reasoner.Reasoner
	err  error
	// retry means the build was cut short by its caller's context and
	// dropped: a caller that waited for it builds again.
	retry bool

	forkMu sync.Mutex // Fork may not be called from several goroutines at once
}

func (c *sharedCache) get(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
	for {
		e, builder := c.entry(d)
		if builder {
			e.r, e.err = c.build(ctx, d)
			if e.err != nil && ctx.Err() != nil {
				e.retry = true
				c.drop(e)
			}
			close(e.done)
		} else {
			select {
			case <-e.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if e.err != nil {
			if !builder && e.retry {
				continue
			}
			return nil, e.err
		}
		e.forkMu.Lock()
		r, err := e.r.Fork()
		e.forkMu.Unlock()
		return r, err
	}
}

// entry returns the entry of d, and whether the caller must build it.
func (c *sharedCache) entry(d *gdl.Description) (*sharedEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.d == d {
			// Most recently used last.
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e, false
		}
	}
	e := &sharedEntry{d: d, done: make(chan struct{})}
	c.entries = append(c.entries, e)
	if len(c.entries) > c.keep {
		c.entries = append([]*sharedEntry(nil), c.entries[len(c.entries)-c.keep:]...)
	}
	return e, true
}

// drop forgets e.
func (c *sharedCache) drop(e *sharedEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.entries {
		if x == e {
			c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
			return
		}
	}
}
