package propnet

import (
	"fmt"
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

// memoryBudget watches the heap's growth since grounding began.
type memoryBudget struct {
	start, limit uint64
	sample       []metrics.Sample
}

func newMemoryBudget(limit int64) *memoryBudget {
	m := &memoryBudget{limit: uint64(limit), sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	m.start = m.heap()
	return m
}

func (m *memoryBudget) heap() uint64 {
	metrics.Read(m.sample)
	if m.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m.sample[0].Value.Uint64()
}

// check reports an error when the heap has grown past the limit.
func (m *memoryBudget) check() error {
	if h := m.heap(); h > m.start && h-m.start > m.limit {
		return fmt.Errorf("%w: the heap grew by more than %d MiB", ErrBudget, m.limit>>20)
	}
	return nil
}
