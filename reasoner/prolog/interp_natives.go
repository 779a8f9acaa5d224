package prolog

import (
	"context"
	"fmt"

	"github.com/ichiban/prolog/engine"

	"github.com/ggp-go/ggp/reasoner"
)

// nativeFunc is a native predicate of any arity.
type nativeFunc func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise

// register installs fn as the predicate name/arity in vm. The engine offers
// one registration method per arity, up to maxNativeArity.
func register(vm *engine.VM, name engine.Atom, arity int, fn nativeFunc) {
	type (
		T = engine.Term
		K = engine.Cont
		E = engine.Env
		P = engine.Promise
		V = engine.VM
	)
	switch arity {
	case 0:
		vm.Register0(name, func(_ *V, k K, env *E) *P { return fn(nil, k, env) })
	case 1:
		vm.Register1(name, func(_ *V, a T, k K, env *E) *P { return fn([]T{a}, k, env) })
	case 2:
		vm.Register2(name, func(_ *V, a, b T, k K, env *E) *P { return fn([]T{a, b}, k, env) })
	case 3:
		vm.Register3(name, func(_ *V, a, b, c T, k K, env *E) *P { return fn([]T{a, b, c}, k, env) })
	case 4:
		vm.Register4(name, func(_ *V, a, b, c, d T, k K, env *E) *P { return fn([]T{a, b, c, d}, k, env) })
	case 5:
		vm.Register5(name, func(_ *V, a, b, c, d, e T, k K, env *E) *P { return fn([]T{a, b, c, d, e}, k, env) })
	case 6:
		vm.Register6(name, func(_ *V, a, b, c, d, e, f T, k K, env *E) *P { return fn([]T{a, b, c, d, e, f}, k, env) })
	case 7:
		vm.Register7(name, func(_ *V, a, b, c, d, e, f, g T, k K, env *E) *P {
			return fn([]T{a, b, c, d, e, f, g}, k, env)
		})
	case 8:
		vm.Register8(name, func(_ *V, a, b, c, d, e, f, g, h T, k K, env *E) *P {
			return fn([]T{a, b, c, d, e, f, g, h}, k, env)
		})
	default:
		panic(fmt.Sprintf("native predicate %s/%d: arity above %d", name, arity, maxNativeArity))
	}
}

// registerNatives installs the native predicates of one instance in its VM.
func (r *Reasoner) registerNatives() {
	vm := &r.vm
	g := r.game
	register(vm, atomFail, 0, func(_ []engine.Term, _ engine.Cont, _ *engine.Env) *engine.Promise {
		return engine.Bool(false)
	})
	register(vm, atomDistinct, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		if identical(args[0], args[1], env) {
			return engine.Bool(false)
		}
		return k(env)
	})
	maxDepth := engine.Integer(g.opts.MaxDepth)
	register(vm, atomDeeper, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		d, _ := env.Resolve(args[0]).(engine.Integer)
		if d >= maxDepth {
			return engine.Error(fmt.Errorf("%w of %d", reasoner.ErrDepth, maxDepth))
		}
		e, _ := env.Unify(args[1], d+1)
		return k(e)
	})
	for slot, key := range g.trueSlots.keys {
		register(vm, g.trueSlots.names[slot], key.arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			if t := r.state.indexed(slot); t != nil {
				return t.call(args, k, env)
			}
			return matchRows(args, r.state.slots[slot], k, env)
		})
	}
	for slot, key := range g.doesSlots.keys {
		// does:f/n takes the role first, then the move's arguments.
		register(vm, g.doesSlots.names[slot], key.arity+1, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			return matchRows(args, r.moves.slots[slot], k, env)
		})
	}
	for _, m := range g.memos {
		arity := m.arity
		if m.depth {
			arity++
		}
		register(vm, m.name, arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			return r.memoCall(m, args, k, env)
		})
	}
	// Templates standing for the arguments of a native, as they are.
	argTemplates := make([]template, maxNativeArity)
	for i := range argTemplates {
		argTemplates[i] = template{slot: i}
	}
	for _, d := range g.derived {
		for _, rel := range d.rels {
			if rel.native == 0 {
				continue
			}
			arity := rel.sig.arity
			if rel.depth {
				arity++
			}
			register(vm, rel.native, arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
				var mask uint64
				var key []engine.Term
				// The partition binding the most of the arguments the
				// call binds, else all rows, or the interpreter when they
				// are too many.
				for _, m := range d.masks {
					// A nil key (an argument unbound) leaves the buffer as
					// it was, for the next mask and call to reuse.
					if k := partitionKey(m, argTemplates[:rel.sig.arity], args, env, r.keyBuf); k != nil {
						r.keyBuf, mask, key = k, m, k
						break
					}
				}
				if key == nil && d.partOnly {
					return r.vm.Arrive(rel.fallback, args, k, env)
				}
				t, err := r.derivedTable(r.ctx, rel, mask, key)
				if err != nil {
					return engine.Error(err)
				}
				return t.call(args[:rel.sig.arity], k, env)
			})
		}
	}
	for _, f := range g.fused {
		register(vm, f.name, f.arity, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
			ok, err := r.evalTests(f.tests, args, env)
			if err != nil {
				return engine.Error(err)
			}
			if !ok {
				return engine.Bool(false)
			}
			return k(env)
		})
	}
	register(vm, atomTrue, 1, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		return matchTerms(args[0], r.state.all, k, env)
	})
	register(vm, atomDoes, 2, func(args []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
		return matchTerms(atomDoes.Apply(args[0], args[1]), r.moveTerms, k, env)
	})
	for s, t := range g.tables {
		register(vm, engine.NewAtom(relationAtom(s.name)), s.arity, t.call)
	}
}

// matchTerms calls k for every term among candidates that unifies with x.
func matchTerms(x engine.Term, candidates []engine.Term, k engine.Cont, env *engine.Env) *engine.Promise {
	var ks []func(context.Context) *engine.Promise
	for _, c := range candidates {
		ks = append(ks, func(context.Context) *engine.Promise {
			e, ok := env.Unify(x, c)
			if !ok {
				return engine.Bool(false)
			}
			return k(e)
		})
	}
	return engine.Delay(ks...)
}

// identical reports whether x and y are the same term under env, without
// binding anything: the meaning of GDL's distinct on ground terms.
func identical(x, y engine.Term, env *engine.Env) bool {
	x, y = env.Resolve(x), env.Resolve(y)
	switch x := x.(type) {
	case engine.Compound:
		y, ok := y.(engine.Compound)
		if !ok || x.Functor() != y.Functor() || x.Arity() != y.Arity() {
			return false
		}
		for i := 0; i < x.Arity(); i++ {
			if !identical(x.Arg(i), y.Arg(i), env) {
				return false
			}
		}
		return true
	default:
		return x == y
	}
}
