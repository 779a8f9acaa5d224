package propnet

import (
	"fmt"
	"runtime"
	"runtime/metrics"
)

// The limits grounding keeps to: terms, literals, memory and the clock.

// checkBudget is called at every join step; it looks at the clock now and
// then.
func (g *grounder) checkBudget() error {
	g.steps++
	if g.steps&4095 == 0 || g.expired {
		if err := g.ctx.Err(); err != nil {
			return fmt.Errorf("%w: time limit reached after %d terms and %d rule instances (%v)", ErrBudget, len(g.ts.terms), g.ninst, err)
		}
	}
	if g.steps&65535 == 0 {
		if err := g.mem.check(); err != nil {
			return err
		}
	}
	if g.limits.maxSteps > 0 && g.steps > g.limits.maxSteps {
		return fmt.Errorf("%w: more than %d join steps", ErrBudget, g.limits.maxSteps)
	}
	if len(g.flip) > 0 {
		return errTooLarge
	}
	if len(g.ts.terms) > g.limits.MaxTerms {
		return fmt.Errorf("%w: more than %d ground terms", ErrBudget, g.limits.MaxTerms)
	}
	if g.links > g.limits.MaxLinks {
		return fmt.Errorf("%w: rule instances with more than %d literals", ErrBudget, g.limits.MaxLinks)
	}
	return nil
}

// memoryBudget watches the growth of the live heap since grounding began.
//
// The heap's size counts garbage not yet collected as well, and ggp runs
// the collector at GOGC 400 (cmd/ggp's tuneGC), where the heap may hold
// four times as much garbage as live data: alexChess, 500 MiB live, passed
// a 768 MiB bound in garbage alone. So past the limit, check collects and
// judges what is live. Live data cannot grow by more than is allocated,
// so after a collection that left room r under the limit, check collects
// again only once r more bytes have been allocated (or an eighth of the
// limit, whichever is more, so that it does not collect at every call near
// the limit, letting the heap pass the limit by at most that eighth).
type memoryBudget struct {
	start, limit uint64
	// collected tells that check collected: live is the live heap it
	// found and allocs the bytes allocated until then.
	collected    bool
	live, allocs uint64
	sample       [3]metrics.Sample // the heap, bytes allocated, the live heap
}

func newMemoryBudget(limit int64) *memoryBudget {
	m := &memoryBudget{limit: uint64(limit)}
	m.sample[0].Name = "/memory/classes/heap/objects:bytes"
	m.sample[1].Name = "/gc/heap/allocs:bytes"
	m.sample[2].Name = "/gc/heap/live:bytes"
	m.read()
	m.start = m.value(0)
	return m
}

func (m *memoryBudget) read() { metrics.Read(m.sample[:]) }

func (m *memoryBudget) value(i int) uint64 {
	if m.sample[i].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[i].Value.Uint64()
}

// check reports an error when the live heap has grown past the limit.
func (m *memoryBudget) check() error {
	m.read()
	bound := m.start + m.limit
	if m.value(0) <= bound {
		return nil
	}
	if m.collected && m.value(1)-m.allocs < max(bound-min(m.live, bound), m.limit/8) {
		return nil
	}
	runtime.GC()
	m.read()
	m.collected, m.live, m.allocs = true, m.value(2), m.value(1)
	if m.live > bound {
		return fmt.Errorf("%w: the heap grew by more than %d MiB", ErrBudget, m.limit>>20)
	}
	return nil
}
