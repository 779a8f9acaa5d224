package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// definedRelations returns the arities of each relation that the rules of d
// define, with true and does, which the state and the moves define.
func definedRelations(d *gdl.Description) map[string][]int {
	rels := map[string][]int{gdl.KeyTrue: {1}, gdl.KeyDoes: {2}}
	for _, r := range d.Rules {
		name, n := r.Head.Name.Name, len(r.Head.Args)
		if !slices.Contains(rels[name], n) {
			rels[name] = append(rels[name], n)
		}
	}
	return rels
}

// A querySession is the state of one ggp query session: the game, the
// states played through and where the output goes.
type querySession struct {
	ctx       context.Context
	out       io.Writer
	r         reasoner.Reasoner
	asker     reasoner.Asker // answers ask, on the same rules
	roles     []string
	timeout   time.Duration // the limit of each question to the reasoner
	rng       *rand.Rand
	relations map[string][]int // the arities of the relations the rules define
	steps     []queryStep      // steps[0] holds the initial state, the last one the current state
}

// A queryStep is one state of the session and what the rules say of it.
type queryStep struct {
	state *reasoner.State
	joint []reasoner.Move // the joint move that led to state; nil for the initial state

	// Filled in by analyse; known stays false after a failure, so that a
	// later command tries again.
	known    bool
	terminal bool
	legal    [][]reasoner.Move // of each role, when not terminal
}

// newQuerySession starts a session at the initial state of the game whose
// rules d the reasoner r has loaded, its random command seeded with seed.
func newQuerySession(ctx context.Context, out io.Writer, r reasoner.Reasoner, d *gdl.Description, timeout time.Duration, seed uint64) (*querySession, error) {
	// ask answers any query; a backend that cannot, such as a network
	// grounded for the game's queries alone, leaves it to the reference.
	asker, ok := r.(reasoner.Asker)
	if !ok {
		ref, err := backend.New(backend.Prolog, backend.Options{})
		if err != nil {
			return nil, err
		}
		pr, err := ref(ctx, d)
		if err != nil {
			return nil, err
		}
		asker = pr.(reasoner.Asker)
	}
	s := &querySession{
		ctx:       ctx,
		out:       out,
		r:         r,
		asker:     asker,
		roles:     r.Roles(),
		timeout:   timeout,
		rng:       rand.New(rand.NewPCG(seed, 0)),
		relations: definedRelations(d),
	}
	var initial *reasoner.State
	err := s.ask("initial state", func(ctx context.Context) (err error) {
		initial, err = r.Initial(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.steps = []queryStep{{state: initial}}
	return s, nil
}

func (s *querySession) current() *queryStep { return &s.steps[len(s.steps)-1] }

// ask runs f, a question to the reasoner, with the session's time limit.
// A question that runs out of time gets an error that says so in words.
func (s *querySession) ask(what string, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	err := f(ctx)
	if err != nil && s.ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: no answer within %v; the rules may loop (-timeout sets the limit)", what, s.timeout)
	}
	return err
}

// analyse finds out whether the current state is terminal and, if not, the
// legal moves of every role.
func (s *querySession) analyse() (*queryStep, error) {
	st := s.current()
	if st.known {
		return st, nil
	}
	err := s.ask("terminal", func(ctx context.Context) (err error) {
		st.terminal, err = s.r.Terminal(ctx, st.state)
		return err
	})
	if err != nil {
		return st, err
	}
	st.legal = nil
	if !st.terminal {
		legal := make([][]reasoner.Move, len(s.roles))
		for i := range s.roles {
			err := s.ask("legal moves", func(ctx context.Context) (err error) {
				legal[i], err = s.r.Legal(ctx, st.state, i)
				return err
			})
			if err != nil {
				return st, err
			}
		}
		st.legal = legal
	}
	st.known = true
	return st, nil
}

// exec carries out one command. A command that fails leaves the session as
// it was, but for a move played whose new state the rules then fail to
// describe: the error is reported and the move stands, to undo or go on from.
func (s *querySession) exec(cmd queryCommand) error {
	switch cmd.verb {
	case "":
		return nil
	case "help":
		writeQueryHelp(s.out)
		return nil
	case "state":
		s.printState()
		return nil
	case "history":
		if len(s.steps) == 1 {
			fmt.Fprintln(s.out, "no moves played")
		}
		for i := 1; i < len(s.steps); i++ {
			s.printJoint(i)
		}
		return nil
	case "terminal":
		st, err := s.analyse()
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "terminal: %s\n", yesNo(st.terminal))
		return nil
	case "goals":
		return s.printGoals()
	case "legal":
		return s.legal(cmd.role)
	case "play":
		return s.play(cmd.moves)
	case "random":
		return s.random()
	case "undo":
		if len(s.steps) == 1 {
			return errors.New("nothing to undo: this is the initial state")
		}
		fmt.Fprint(s.out, "undone ")
		s.printJoint(len(s.steps) - 1)
		s.steps = s.steps[:len(s.steps)-1]
		return s.show()
	case "ask":
		return s.query(cmd.query)
	}
	// quit is the caller's to handle.
	return fmt.Errorf("unknown command %q", cmd.verb)
}

// show prints the current state, whether it is terminal, and its goals if
// it is or else the legal moves.
func (s *querySession) show() error {
	s.printState()
	st, err := s.analyse()
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "terminal: %s\n", yesNo(st.terminal))
	if st.terminal {
		return s.printGoals()
	}
	fmt.Fprintln(s.out, "legal moves:")
	for i, role := range s.roles {
		printMoves(s.out, role, st.legal[i])
	}
	return nil
}

func (s *querySession) printState() {
	st := s.current()
	fmt.Fprintf(s.out, "state %d:\n", len(s.steps)-1)
	for _, f := range st.state.Facts() {
		fmt.Fprintf(s.out, "    %s\n", f)
	}
}

// printJoint prints the joint move that led to step i.
func (s *querySession) printJoint(i int) {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d:", i)
	for r, m := range s.steps[i].joint {
		if r > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s", s.roles[r], m)
	}
	fmt.Fprintln(s.out, b.String())
}

func printMoves(w io.Writer, role string, moves []reasoner.Move) {
	if len(moves) == 0 {
		fmt.Fprintf(w, "    %s: none\n", role)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "    %s:", role)
	for _, m := range moves {
		b.WriteByte(' ')
		b.WriteString(string(m))
	}
	fmt.Fprintln(w, b.String())
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *querySession) printGoals() error {
	st := s.current()
	var goals []int
	err := s.ask("goals", func(ctx context.Context) (err error) {
		goals, err = s.r.Goals(ctx, st.state)
		return err
	})
	var ge *reasoner.GoalError
	if err != nil && !errors.As(err, &ge) || len(goals) != len(s.roles) {
		return err
	}
	parts := make([]string, len(s.roles))
	for i, role := range s.roles {
		if goals[i] < 0 {
			parts[i] = role + " ?"
		} else {
			parts[i] = fmt.Sprintf("%s %d", role, goals[i])
		}
	}
	fmt.Fprintf(s.out, "goals: %s\n", strings.Join(parts, ", "))
	// The values that are defined are worth showing; the others are an
	// error of the rules, reported as one.
	return err
}

func (s *querySession) legal(role string) error {
	i := -1
	if role != "" {
		if i = slices.Index(s.roles, role); i < 0 {
			return fmt.Errorf("unknown role %q; the roles are %s", role, strings.Join(s.roles, ", "))
		}
	}
	st, err := s.analyse()
	if err != nil {
		return err
	}
	if st.terminal {
		fmt.Fprintln(s.out, "no legal moves: the state is terminal")
		return nil
	}
	fmt.Fprintln(s.out, "legal moves:")
	for r, name := range s.roles {
		if i < 0 || r == i {
			printMoves(s.out, name, st.legal[r])
		}
	}
	return nil
}

// playable returns the legal moves of every role in the current state, or
// an error if no joint move can be played there.
func (s *querySession) playable() ([][]reasoner.Move, error) {
	st, err := s.analyse()
	if err != nil {
		return nil, err
	}
	if st.terminal {
		return nil, errors.New("the game is over: the state is terminal (undo takes back the last move)")
	}
	for i, ms := range st.legal {
		if len(ms) == 0 {
			return nil, fmt.Errorf("%s has no legal move in this state, which the rules should not allow", s.roles[i])
		}
	}
	return st.legal, nil
}

func (s *querySession) play(typed []reasoner.Move) error {
	legal, err := s.playable()
	if err != nil {
		return err
	}
	joint, err := jointMove(s.roles, legal, typed)
	if err != nil {
		return err
	}
	return s.advance(joint)
}

func (s *querySession) random() error {
	legal, err := s.playable()
	if err != nil {
		return err
	}
	joint := make([]reasoner.Move, len(legal))
	for i, ms := range legal {
		joint[i] = ms[s.rng.IntN(len(ms))]
	}
	return s.advance(joint)
}

// advance plays joint, a legal joint move, and shows where it leads.
func (s *querySession) advance(joint []reasoner.Move) error {
	var next *reasoner.State
	err := s.ask("next state", func(ctx context.Context) (err error) {
		next, err = s.r.Next(ctx, s.current().state, joint)
		return err
	})
	if err != nil {
		return err
	}
	s.steps = append(s.steps, queryStep{state: next, joint: joint})
	s.printJoint(len(s.steps) - 1)
	return s.show()
}

// jointMove matches the moves typed for play to the roles and checks that
// each is legal. The moves are one per role, in role order, or one per role
// with a choice, the roles with a single legal move playing that move.
func jointMove(roles []string, legal [][]reasoner.Move, typed []reasoner.Move) ([]reasoner.Move, error) {
	var choosing []int // the roles with more than one legal move
	for i, ms := range legal {
		if len(ms) != 1 {
			choosing = append(choosing, i)
		}
	}
	joint := make([]reasoner.Move, len(roles))
	switch len(typed) {
	case len(roles):
		copy(joint, typed)
	case len(choosing):
		for i, ms := range legal {
			if len(ms) == 1 {
				joint[i] = ms[0]
			}
		}
		for k, i := range choosing {
			joint[i] = typed[k]
		}
	default:
		all := fmt.Sprintf("%d, one per role: %s", len(roles), strings.Join(roles, ", "))
		if len(choosing) == len(roles) {
			return nil, fmt.Errorf("got %s; play wants %s", countMoves(len(typed)), all)
		}
		names := make([]string, len(choosing))
		for k, i := range choosing {
			names[k] = roles[i]
		}
		some := "none, as every role has a single legal move"
		if len(choosing) > 0 {
			some = fmt.Sprintf("%d, for %s, as the other roles have a single legal move", len(choosing), strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("got %s; play wants %s; or %s", countMoves(len(typed)), some, all)
	}
	for i, m := range joint {
		if !slices.Contains(legal[i], m) {
			return nil, fmt.Errorf("%s is not a legal move for %s (legal %s lists them)", m, roles[i], roles[i])
		}
	}
	return joint, nil
}

func countMoves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// query answers an ask command: the instances of q that hold, one a line.
func (s *querySession) query(q *gdl.Sentence) error {
	st := s.current()
	var answers []string
	what := "ask " + gdl.Format(q)
	err := s.ask(what, func(ctx context.Context) (err error) {
		if answers, err = s.asker.Ask(ctx, st.state, q); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, a := range answers {
		fmt.Fprintln(s.out, a)
	}
	if len(answers) == 0 {
		fmt.Fprintf(s.out, "no answers%s\n", s.noAnswerHint(q))
	}
	return nil
}

// noAnswerHint explains a query without answers when the likely reason is
// a slip: a relation the rules do not define, or a fact of the state asked
// without true.
func (s *querySession) noAnswerHint(q *gdl.Sentence) string {
	name, n := q.Name.Name, len(q.Args)
	arities := s.relations[name]
	if slices.Contains(arities, n) {
		return ""
	}
	hint := fmt.Sprintf(" (no rule defines %s/%d", name, n)
	if len(arities) > 0 {
		parts := make([]string, len(arities))
		for i, a := range arities {
			parts[i] = fmt.Sprintf("%s/%d", name, a)
		}
		hint += ", only " + strings.Join(parts, ", ")
	}
	for _, f := range s.current().state.Facts() {
		if string(f) == name || strings.HasPrefix(string(f), "("+name+" ") {
			hint += fmt.Sprintf("; facts of the state are asked as (true %s)", gdl.Format(q))
			break
		}
	}
	return hint + ")"
}
