package puzzle

import (
	"context"
	"maps"
	"math/rand/v2"

	"github.com/ggp-go/ggp/reasoner"
)

// The probe that starts the puzzle search: it finds the step counters,
// whether moves can be undone, and the goal state of the backward search.

// A probe is what the first task of the puzzle search learns about the
// game by walking a random line.
type probe struct {
	ignore     map[string]bool // counters
	reversible bool            // every move sampled could be undone
}

// maxProbeChecks is the number of states with a choice that the probe
// examines.
const maxProbeChecks = 6

// probeGame walks a random line from st. It returns as counters the
// relations whose facts, at every state checked, are the same in all
// successors and differ from those of the state itself, such as step
// counters, and none when it cannot check two states with a choice. It
// also checks, on the abstract states, whether a move played can be undone
// by a move of the next state.
func probeGame(ctx context.Context, r reasoner.Reasoner, st *reasoner.State, rng *rand.Rand) probe {
	var cand map[string]bool
	checks := 0
	reversible := true
	joint := make([]reasoner.Move, 1)
	var kids []*reasoner.State
	for step := 0; step < 40 && checks < maxProbeChecks; step++ {
		term, err := r.Terminal(ctx, st)
		if err != nil || term {
			break
		}
		legal, err := r.Legal(ctx, st, 0)
		if err != nil || len(legal) == 0 {
			break
		}
		if len(legal) >= 2 {
			picks := []int{0, len(legal) - 1, rng.IntN(len(legal)), rng.IntN(len(legal))}
			var sets []map[string]string
			kids = kids[:0]
			for _, i := range picks {
				joint[0] = legal[i]
				c, err := r.Next(ctx, st, joint)
				if err != nil {
					return probe{}
				}
				kids = append(kids, c)
				sets = append(sets, relationSets(c))
			}
			own := relationSets(st)
			uniform := map[string]bool{}
			for rel, facts := range sets[0] {
				if facts == own[rel] {
					continue
				}
				ok := true
				for _, k := range sets[1:] {
					if k[rel] != facts {
						ok = false
						break
					}
				}
				uniform[rel] = ok
			}
			if cand == nil {
				cand = map[string]bool{}
				for rel, ok := range uniform {
					if ok {
						cand[rel] = true
					}
				}
			} else {
				maps.DeleteFunc(cand, func(rel string, _ bool) bool { return !uniform[rel] })
			}
			checks++
			if reversible && checks <= 3 {
				reversible = canUndo(ctx, r, st, kids[rng.IntN(len(kids))], cand)
			}
		}
		joint[0] = legal[rng.IntN(len(legal))]
		if st, err = r.Next(ctx, st, joint); err != nil {
			break
		}
	}
	if checks < 2 || len(cand) == 0 {
		return probe{}
	}
	return probe{ignore: cand, reversible: reversible}
}

// canUndo reports whether some move of c leads back to st, counters aside.
func canUndo(ctx context.Context, r reasoner.Reasoner, st, c *reasoner.State, ignore map[string]bool) bool {
	if term, err := r.Terminal(ctx, c); err != nil || term {
		return false
	}
	legal, err := r.Legal(ctx, c, 0)
	if err != nil {
		return false
	}
	p := &Search{ignore: ignore}
	for _, m := range legal {
		back, err := r.Next(ctx, c, []reasoner.Move{m})
		if err != nil {
			return false
		}
		if p.same(back, st) {
			return true
		}
	}
	return false
}

// relationSets maps each relation of st to its facts, joined.
func relationSets(st *reasoner.State) map[string]string {
	m := map[string]string{}
	for _, f := range st.Facts() {
		rel := relation(f)
		m[rel] += string(f) + " "
	}
	return m
}

// goalState builds the state the backward search starts from: the goal
// facts without counters and the counters of root. It returns nil unless
// those facts have, relation by relation, as many facts as root has, so
// that they plausibly name a whole state.
func goalState(facts []reasoner.Fact, root *reasoner.State, ignore map[string]bool) *reasoner.State {
	if len(facts) == 0 {
		return nil
	}
	count := map[string]int{}
	var out []reasoner.Fact
	for _, f := range root.Facts() {
		if rel := relation(f); ignore[rel] {
			out = append(out, f)
		} else {
			count[rel]++
		}
	}
	for _, f := range facts {
		if rel := relation(f); !ignore[rel] {
			count[rel]--
			out = append(out, f)
		}
	}
	for _, n := range count {
		if n != 0 {
			return nil
		}
	}
	return reasoner.NewState(out)
}
