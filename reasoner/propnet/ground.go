package propnet

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/ggp-go/ggp/gdl"
)

// Grounding instantiates every rule to the ground atoms that may arise in
// some reachable state. It computes a relaxed fixpoint: true holds of every
// fact that init or next may hold of, does of every move legal may allow,
// and negation is ignored, so the atoms found over-approximate those that
// can ever hold. Each rule instance found on the way is recorded, with its
// positive and negative ground literals; the network is built from them.
//
// Evaluation is semi-naive, component by component of the relation
// dependency graph in topological order, so a long chain of derivations (a
// step counter, a successor relation) costs one pass per new atom rather
// than one pass over everything per round.
//
// Before grounding, the rules are rewritten so that their instances follow
// the size of the ground game rather than the product of the domains: a
// relation called by one rule only, that does not need all its arguments,
// is unfolded into it (unfold.go), rules joining several dynamic literals
// are split by eliminating variables (split.go), and relations are derived
// only for the arguments their callers ask about (demand.go).

// relKey names a relation by its name and arity, across attempts.
type relKey struct {
	name  string
	arity int
}

// maxWholeStatic bounds the atoms of a static relation derived whole;
// past it grounding starts again with the relation derived on demand.
const maxWholeStatic = 1 << 18

// maxDemand bounds the atoms of a relation's demand: a demand is meant to
// be small, and one that is not is usually the product of arguments its
// callers bind independently, each call asking for every combination.
// Past it grounding starts again with the relation derived whole.
const maxDemand = 1 << 15

// maxAbstractedDemand bounds the demand of a relation whose argument was
// abstracted (abstract.go) instead: derived whole, such a relation is the
// product of its other arguments' atoms and the abstracted argument's
// values, which its demand, however large, can only be smaller than.
const maxAbstractedDemand = 1 << 20

// demandBound returns the bound on the demand of relation r.
func (g *grounder) demandBound(r int) int {
	if g.abstracted[r] {
		return maxAbstractedDemand
	}
	return maxDemand
}

// maxAttempts bounds the attempts at grounding a game.
const maxAttempts = 8

var errTooLarge = errors.New("a relation's derivation must change")

// groundRules compiles and grounds d, as written when that fits small
// limits, else rewritten (split.go, demand.go). Rewritten, it starts again when a static
// relation derived whole, or the demand for a relation derived on demand,
// grows too large, with the way those relations are derived changed, at
// most maxAttempts times.
func groundRules(ctx context.Context, d *gdl.Description, limits Limits, mem *memoryBudget) (*grounder, error) {
	if limits.noDemand && limits.noSplit || limits.rewriteAlways {
		return groundRewritten(ctx, d, limits, mem)
	}
	// The rules as written first, within small limits: a game that grounds
	// so keeps the network it always had (the rewriting changes its shape,
	// and so its speed, both ways); a larger one is rewritten.
	plain := limits
	plain.noDemand, plain.noSplit = true, true
	plain.MaxTerms = min(plain.MaxTerms, plainMaxTerms)
	plain.MaxLinks = min(plain.MaxLinks, plainMaxLinks)
	plain.maxSteps = plainMaxSteps
	gr, err := groundRewritten(ctx, d, plain, newMemoryBudget(limits.MaxMemory/2))
	if err == nil || !errors.Is(err, ErrBudget) || ctx.Err() != nil {
		return gr, err
	}
	gr = nil
	runtime.GC() // the failed attempt's garbage would count against mem
	return groundRewritten(ctx, d, limits, mem)
}

// plainMaxTerms, plainMaxLinks and plainMaxSteps bound the attempt at
// grounding the rules as written, before they are rewritten. The join
// steps bound the work that finds no instance: racer's rules as written
// took 32M steps (8 s on a loaded machine) to fail, rewritten they ground
// in 0.5M, while the largest game grounded as written that we measured,
// kalaha_2009, takes 2.2M.
const (
	plainMaxTerms = 1 << 20
	plainMaxLinks = 1 << 22
	plainMaxSteps = 1 << 23
)

// groundRewritten grounds d with the rewriting limits asks for.
func groundRewritten(ctx context.Context, d *gdl.Description, limits Limits, mem *memoryBudget) (*grounder, error) {
	flipped, settled := map[relKey]bool{}, map[relKey]bool{}
	for attempt := 1; ; attempt++ {
		gr := &grounder{ctx: ctx, limits: limits, ts: newTermStore(), relIDs: map[[2]int32]int{}, mem: mem, flipped: flipped, settled: settled,
			noDemand: limits.noDemand, noSplit: limits.noSplit, noUnfold: limits.noUnfold}
		if err := gr.compile(d); err != nil {
			return nil, err
		}
		err := gr.ground()
		if !errors.Is(err, errTooLarge) {
			return gr, err
		}
		if attempt == maxAttempts {
			return nil, fmt.Errorf("%w: relations still too large after %d attempts (%s/%d)", ErrBudget, attempt, gr.flip[0].name, gr.flip[0].arity)
		}
		// Every relation on its way past a bound changes now, rather
		// than one per attempt.
		for r, rel := range gr.rels {
			if q := gr.demandFor(r); q >= 0 && len(rel.atoms) >= gr.demandBound(q)/2 {
				gr.flip = append(gr.flip, relKey{gr.rels[q].name, gr.rels[q].arity})
			} else if gr.wholeStatic(r) && len(rel.atoms) >= maxWholeStatic/2 {
				gr.flip = append(gr.flip, relKey{rel.name, rel.arity})
			}
		}
		for _, k := range gr.flip {
			if flipped[k] {
				// Too large both ways: derived whole, for good.
				settled[k] = true
			}
			flipped[k] = true
		}
	}
}

// demandFor returns the relation whose demand relation r is, or -1.
func (g *grounder) demandFor(r int) int {
	if r < len(g.demandOf) {
		return g.demandOf[r]
	}
	return -1
}

// wholeStatic reports whether relation r is static and derived whole,
// though it could be derived on demand.
func (g *grounder) wholeStatic(r int) bool {
	return r < len(g.demandable) && !g.demanded[r] && g.demandable[r]
}

// ErrBudget is wrapped by every error that reports a game too large to
// ground within its limits.
var ErrBudget = errors.New("grounding budget exceeded")

const (
	patGround patKind = iota // a ground term, compared by id
	patVar                   // a variable slot
	patFunc                  // a function with some variable inside
)

// Limits bound grounding.
type Limits struct {
	// MaxMemory bounds the growth of the heap while a game is grounded
	// and its network built, in bytes: the process's heap, so another
	// goroutine's allocations count too. Default 768 MiB, which keeps the
	// process under 1 GiB with the garbage not yet collected.
	MaxMemory int64
	// MaxTerms bounds the ground terms and atoms interned. Default 2^22.
	MaxTerms int
	// MaxLinks bounds the literals of all rule instances together: the
	// size of the network before optimisation. Default 2^24.
	MaxLinks int
	// MaxDepth bounds the nesting of a ground term. Default 64.
	MaxDepth int

	// noDemand, noSplit and noUnfold turn off deriving relations on
	// demand (demand.go), splitting rules (split.go) and unfolding them
	// (unfold.go), for tests; rewriteAlways rewrites the rules even of a
	// game that grounds as written.
	noDemand, noSplit, noUnfold, rewriteAlways bool
	// noAbstract leaves pass-through arguments as written (abstract.go).
	noAbstract bool
	// maxSteps bounds the join steps (0: no bound).
	maxSteps int
}

func (l Limits) withDefaults() Limits {
	if l.MaxTerms <= 0 {
		l.MaxTerms = 1 << 22
	}
	if l.MaxLinks <= 0 {
		l.MaxLinks = 1 << 24
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = 64
	}
	if l.MaxMemory <= 0 {
		l.MaxMemory = 768 << 20
	}
	return l
}

type grounder struct {
	ctx    context.Context
	limits Limits
	ts     *termStore
	rels   []*relation
	relIDs map[[2]int32]int // (symbol, arity) -> index
	rules  []*clause

	possible []bool // by termID: the atom is derived
	valBuf   []int32
	pathBuf  []int
	keyBuf   []byte
	plans    map[planKey]*cachedPlan
	stats    map[statKey]*pathStats
	// statSeen marks, by term, the parts a count of pathStats has seen
	// with its number, statMark.
	statSeen []uint32
	statMark uint32
	inComp   []bool // by relation: in the component being evaluated
	expired  bool   // an index or statistics build saw the deadline pass
	// certain marks the relations whose derived atoms all hold: they
	// depend on no true, does or negation, so the relaxation is exact.
	// Their atoms are the constant true in the network, left out of
	// instances.
	certain []bool
	mem     *memoryBudget
	// noDemand derives every relation whole, as far as the relaxation
	// allows, instead of as far as the queries ask (demand.go).
	noDemand bool
	// noSplit leaves the rules as written (split.go), noUnfold leaves
	// the calls as written (unfold.go).
	noSplit, noUnfold bool
	// flipped names the relations a previous attempt found too large to
	// derive as first chosen: static relations derived on demand rather
	// than whole, dynamic ones whole rather than on demand. flip lists
	// those this attempt found.
	flipped map[relKey]bool
	flip    []relKey
	// settled names the relations too large both ways: derived whole.
	settled map[relKey]bool
	// abstracted marks the relations whose arguments were abstracted,
	// and their tied parts (abstract.go).
	abstracted map[int]bool
	// auxRels holds the relations added by projecting and splitting
	// rules, by their definitions (auxRelation).
	auxRels map[string]int
	// disjunctionRels names the relations standing for disjunctions, by
	// the disjunction and the variables it shares (rules.go).
	disjunctionRels map[string]string
	// demandOf holds, for each demand relation, the relation it asks for;
	// -1 for the others.
	demandOf []int
	// demanded marks the relations derived on demand, demandable the
	// static ones that could be.
	demanded, demandable []bool
	// instances holds every rule instance recorded, flat: head, the
	// number of positive and of negative literals, then their atoms.
	instances []termID
	ninst     int
	links     int
	steps     int

	// exceptRules holds, by relation, the except rule (except.go) whose
	// instances are recorded once its component is complete; exist and
	// cutLevel are the join's state for such rules.
	exceptRules map[int]*clause
	exist       bool
	cutLevel    int

	// join state
	env    []termID // variable bindings, -1 unbound
	trail  []int
	ranges [][2]int // per body literal: the range of atoms it joins
	posOf  []termID // per body literal: the atom it matched
}

func (g *grounder) relation(name string, arity int) int {
	sym := g.ts.symbol(name)
	k := [2]int32{sym, int32(arity)}
	if i, ok := g.relIDs[k]; ok {
		return i
	}
	r := &relation{sym: sym, arity: arity, name: name, indexes: map[string]*compIndex{}}
	g.rels = append(g.rels, r)
	g.relIDs[k] = len(g.rels) - 1
	return len(g.rels) - 1
}

// ground runs the relaxed fixpoint and records every rule instance.
func (g *grounder) ground() error {
	g.certain = g.certainRelations()
	need := g.needed()
	byHead := make([][]*clause, len(g.rels))
	for _, c := range g.rules {
		if need[c.head.rel] {
			byHead[c.head.rel] = append(byHead[c.head.rel], c)
		}
	}
	inComp := make([]bool, len(g.rels))
	g.inComp = inComp
	lo := make([]int, len(g.rels))
	hi := make([]int, len(g.rels))
	for _, comp := range g.components(need) {
		for _, r := range comp {
			inComp[r] = true
		}
		var clauses, recursive []*clause
		for _, r := range comp {
			for _, c := range byHead[r] {
				rec := false
				for _, l := range c.body {
					if l.kind == litPos && inComp[l.rel] {
						rec = true
					}
				}
				if rec {
					recursive = append(recursive, c)
				} else {
					clauses = append(clauses, c)
				}
			}
		}
		for _, c := range clauses {
			if err := g.join(c, -1, nil, nil); err != nil {
				return err
			}
		}
		for _, r := range comp {
			lo[r], hi[r] = 0, len(g.rels[r].atoms)
		}
		for len(recursive) > 0 {
			progress := false
			for _, r := range comp {
				if hi[r] > lo[r] {
					progress = true
				}
			}
			if !progress {
				break
			}
			for _, c := range recursive {
				for i, l := range c.body {
					if l.kind == litPos && inComp[l.rel] && hi[l.rel] > lo[l.rel] {
						if err := g.join(c, i, lo, hi); err != nil {
							return err
						}
					}
				}
			}
			for _, r := range comp {
				lo[r], hi[r] = hi[r], len(g.rels[r].atoms)
			}
		}
		for _, r := range comp {
			if c := g.exceptRules[r]; c != nil {
				if err := g.recordExcept(c); err != nil {
					return err
				}
			}
		}
		for _, r := range comp {
			inComp[r] = false
		}
	}
	return nil
}
