// Terms: the cache of facts and moves parsed into the engine's form, the
// current state and joint move fed to the natives, and the formatting of
// engine terms back into KIF.

package prolog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// parsedTerm is a fact or move in the engine's form, split into its
// arguments for the indexed natives, with its functor's slot.
type parsedTerm struct {
	term     engine.Term
	args     row
	trueSlot int // -1 when no true native looks such facts up
	doesSlot int // -1 when no does native looks such moves up
}

// maxTermCache bounds the cache of parsed facts and moves; it is cleared
// when full, which only costs re-parsing.
const maxTermCache = 1 << 18

// term returns the engine form of a fact or move in compact KIF.
func (r *Reasoner) term(text string) (parsedTerm, error) {
	if t, ok := r.terms[text]; ok {
		return t, nil
	}
	parsed, err := gdl.ParseTerm(text)
	if err != nil {
		return parsedTerm{}, err
	}
	t, ok := groundTerm(parsed)
	if !ok {
		return parsedTerm{}, fmt.Errorf("%q is not ground", text)
	}
	p := parsedTerm{term: t, args: splitArgs(t), trueSlot: -1, doesSlot: -1}
	if slot, ok := r.game.trueSlots.slots[keyOf(t)]; ok {
		p.trueSlot = slot
	}
	if slot, ok := r.game.doesSlots.slots[keyOf(t)]; ok {
		p.doesSlot = slot
	}
	if len(r.terms) >= maxTermCache {
		clear(r.terms)
	}
	r.terms[text] = p
	return p, nil
}

// setState loads the facts of s into the true natives' index.
func (r *Reasoner) setState(s *reasoner.State) error {
	if s == nil {
		return errors.New("nil state")
	}
	if r.stateOf == s {
		return nil
	}
	r.stateOf = nil
	r.state.reset()
	r.memo.reset()
	r.holds.reset()
	r.resetDerived(false)
	for _, f := range s.Facts() {
		t, err := r.term(string(f))
		if err != nil {
			return fmt.Errorf("state fact %s: %w", f, err)
		}
		r.state.all = append(r.state.all, t.term)
		if t.trueSlot >= 0 {
			r.state.slots[t.trueSlot] = append(r.state.slots[t.trueSlot], t.args)
		}
	}
	r.stateOf = s
	return nil
}

// setMoves loads a joint move into the does natives' index; nil clears it.
func (r *Reasoner) setMoves(joint []reasoner.Move) error {
	r.memo.clearMoves()
	r.holds.clearMoves()
	r.resetDerived(true)
	r.moves.reset()
	r.moveTerms = r.moveTerms[:0]
	for i, m := range joint {
		t, err := r.term(string(m))
		if err != nil {
			return fmt.Errorf("move %q of %s: %w", m, r.game.roles[i], err)
		}
		role := r.game.roleAtoms[i]
		r.moveTerms = append(r.moveTerms, atomDoes.Apply(role, t.term))
		if t.doesSlot >= 0 {
			r.moves.slots[t.doesSlot] = append(r.moves.slots[t.doesSlot], append(row{role}, t.args...))
		}
	}
	return nil
}

func keyOf(t engine.Term) functorKey {
	switch t := t.(type) {
	case engine.Atom:
		return functorKey{t, 0}
	case engine.Compound:
		return functorKey{t.Functor(), t.Arity()}
	}
	return functorKey{}
}

// format writes t, resolved under env, as compact KIF.
func (r *Reasoner) format(t engine.Term, env *engine.Env) string {
	r.buf = r.appendTerm(r.buf[:0], t, env)
	return string(r.buf)
}

func (r *Reasoner) appendTerm(b []byte, t engine.Term, env *engine.Env) []byte {
	switch t := env.Resolve(t).(type) {
	case engine.Atom:
		return append(b, r.game.atomName(t)...)
	case engine.Compound:
		b = append(b, '(')
		b = append(b, r.game.atomName(t.Functor())...)
		for i := 0; i < t.Arity(); i++ {
			b = append(b, ' ')
			b = r.appendTerm(b, t.Arg(i), env)
		}
		return append(b, ')')
	case engine.Variable:
		return append(b, "?_"+strconv.FormatInt(int64(t), 10)...)
	case engine.Integer:
		return strconv.AppendInt(b, int64(t), 10)
	default:
		var sb strings.Builder
		_ = t.WriteTerm(&sb, &engine.WriteOptions{}, env)
		return append(b, sb.String()...)
	}
}

// atomName returns the GDL name of an atom. Constants of the description
// are looked up without the engine's global lock.
func (g *game) atomName(a engine.Atom) string {
	if n, ok := g.names[a]; ok {
		return n
	}
	return a.String()
}
