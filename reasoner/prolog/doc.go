// Package prolog is the reasoner backend that compiles a game description
// into Prolog clauses and answers queries with the embedded interpreter
// github.com/ichiban/prolog.
//
// The interpreter starts empty: no built-in predicate, file, stream or
// operator is registered, so a game's rules can reach nothing but their own
// relations and the few natives this package installs. The current state and
// joint move are fed from Go through native predicates indexed by functor,
// and relations that do not depend on the state are computed once, at load
// time, into indexed tables.
//
// # Three engines
//
// A query is answered by one of three engines, chosen per relation when
// the game is loaded; they share the tables, the state's facts and the
// ground tests, and call one another:
//
//   - The interpreter (files interp_*.go): rules compiled into clauses,
//     one version per binding pattern of the callers, bodies planned by
//     estimated fan-out (interp_compile.go); the native predicates that
//     read the state, the joint move and the tables (interp_natives.go);
//     per-state answer tables of the calls that repeat (interp_memo.go).
//     It answers every relation the other two cannot.
//   - The flat evaluator (files flat_*.go): relations whose rules are
//     joins of the state, the joint move, tables, ground tests and other
//     flat relations, run by nested loops in Go without the interpreter.
//     flat_compile.go decides which relations are flat and compiles their
//     rules into steps, flat_eval.go runs them, flat_memo.go keeps the
//     answers of the ground tests of flat relations per state.
//   - Bottom-up derivation (derive.go): recursive relations of the state
//     whose rules are flat but for their calls into their own component,
//     derived semi-naively once per state and then read as tables.
//
// Shared by the three: the analysis of the rules into relations,
// dependencies and components, and the planner of rule bodies
// (program.go); loading a game and evaluating the static relations
// (load.go); the tables and the index of a state's facts (table.go); the
// ground tests fused into one check (groundtest.go); terms and the state
// in the engine's form (terms.go); and the reasoner.Reasoner methods
// (reasoner.go).
//
// Options.Plain turns off every load-time step but the interpreter, as a
// second opinion on the others.
//
// # GDL-II
//
// A GDL-II description is compiled as gdl.Repair reads it, the Dresden
// dialect's tolerated mistakes rewritten into plain GDL, and refused when
// gdl.Validate finds an error in it. The Reasoner is a
// reasoner.Perceiver: Sees queries the sees relation like next, with the
// state and the joint move fed in, so that a sees rule may read next too.
package prolog
