package gamemaster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/reasoner"
)

// ParseState reads a state as a record stores it, a list of facts such as
// "((cell 1 1 b) (control xplayer))" or ggp-base's "( ( cell 1 1 b ) )",
// and returns the state.
func ParseState(s string) (*reasoner.State, error) {
	e, err := gdl.ReadExpr([]byte(s))
	if err != nil {
		return nil, err
	}
	if !e.IsList {
		return nil, fmt.Errorf("state %s is not a list of facts", protocol.Quote(s, 80))
	}
	facts := make([]reasoner.Fact, len(e.List))
	for i, f := range e.List {
		facts[i] = reasoner.Fact(f.String())
	}
	return reasoner.NewState(facts), nil
}

// A ReplayError is the first disagreement between a record and the rules.
type ReplayError struct {
	MatchID string
	Step    int    // 0 for the initial state, i for the move that led to state i
	Role    string // the role concerned, if any
	Msg     string
}

func (e *ReplayError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "match %s: step %d: ", e.MatchID, e.Step)
	if e.Role != "" {
		fmt.Fprintf(&b, "role %s: ", e.Role)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// A ReplayStep is one state of a replayed match, and the joint move played
// in it.
type ReplayStep struct {
	Step   int             // index of the state in the record: 0 is the initial state
	State  *reasoner.State // the state, checked against the rules
	Moves  []reasoner.Move // the joint move played in State; nil in the last state
	Errors []string        // the errors recorded for Moves, one per role; nil if none
}

// Replay plays the moves of rec with the rules of r and checks the record
// against them: the roles, the initial state, that every move is legal in
// its state, that every state follows from the one before, that the match
// ends where the rules say and with the goals they give. A GDL-II record
// is checked for the percepts of every role as well, r being a
// reasoner.Perceiver, and nature's goal is not. It calls visit, if
// not nil, with every state once it is checked, and returns the first
// disagreement as a *ReplayError. A record of a match that did not end is
// checked as far as it goes.
func Replay(ctx context.Context, rec *record.Record, r reasoner.Reasoner, visit func(*ReplayStep)) error {
	if err := rec.Check(); err != nil {
		return err
	}
	var fail replayFail = func(step int, role, format string, args ...any) error {
		return &ReplayError{MatchID: rec.MatchID, Step: step, Role: role, Msg: fmt.Sprintf(format, args...)}
	}
	roles := r.Roles()
	if rec.Roles != nil && !slices.Equal(rec.Roles, roles) {
		return fail(0, "", "recorded roles %v differ from the roles of the rules %v", rec.Roles, roles)
	}
	for i, m := range rec.Moves {
		if len(m) != len(roles) {
			return fail(i+1, "", "%d moves for %d roles", len(m), len(roles))
		}
	}
	var seer reasoner.Perceiver
	if rec.GDLII {
		var ok bool
		if seer, ok = r.(reasoner.Perceiver); !ok {
			return fail(0, "", "a GDL-II record, and the reasoner %T gives no percepts", r)
		}
	}
	state, err := r.Initial(ctx)
	if err != nil {
		return fail(0, "", "initial state: %v", err)
	}
	for step := 0; ; step++ {
		recorded, err := ParseState(rec.States[step])
		if err != nil {
			return fail(step, "", "recorded state: %v", err)
		}
		if !recorded.Equal(state) {
			what := "next state"
			if step == 0 {
				what = "initial state"
			}
			return fail(step, "", "recorded state differs from the %s of the rules: %s", what, stateDiff(recorded, state))
		}
		terminal, err := r.Terminal(ctx, state)
		if err != nil {
			return fail(step, "", "terminal: %v", err)
		}
		rs := &ReplayStep{Step: step, State: state}
		if step+1 < len(rec.Errors) && step < len(rec.Moves) {
			rs.Errors = rec.Errors[step+1]
		}
		if step == len(rec.Moves) {
			if visit != nil {
				visit(rs)
			}
			if rec.IsCompleted {
				return checkGoals(ctx, rec, r, state, terminal, fail)
			}
			return nil
		}
		if terminal {
			return fail(step+1, "", "the match goes on from a terminal state")
		}
		joint, err := checkMoves(ctx, rec, r, state, step, fail)
		if err != nil {
			return err
		}
		rs.Moves = joint
		if seer != nil {
			if err := checkPercepts(ctx, rec, roles, seer, state, joint, step, fail); err != nil {
				return err
			}
		}
		if visit != nil {
			visit(rs)
		}
		state, err = r.Next(ctx, state, joint)
		if err != nil {
			return fail(step+1, "", "next state: %v", err)
		}
	}
}

// replayFail builds the *ReplayError of a step of a replay, naming the
// role where one is at fault.
type replayFail func(step int, role, format string, args ...any) error

// checkMoves parses the joint move recorded in the state of step and
// checks that each role's move is legal there.
func checkMoves(ctx context.Context, rec *record.Record, r reasoner.Reasoner, state *reasoner.State, step int, fail replayFail) ([]reasoner.Move, error) {
	roles := r.Roles()
	joint := make([]reasoner.Move, len(roles))
	for i, text := range rec.Moves[step] {
		m, err := NormalizeMove(text)
		if err != nil {
			return nil, fail(step+1, roles[i], "recorded move %s: %v", protocol.Quote(text, 80), err)
		}
		legal, err := r.Legal(ctx, state, i)
		if err != nil {
			return nil, fail(step+1, roles[i], "legal moves: %v", err)
		}
		if !slices.Contains(legal, m) {
			return nil, fail(step+1, roles[i], "move %s is not legal in state %d", m, step)
		}
		joint[i] = m
	}
	return joint, nil
}

// checkPercepts checks the percepts recorded for every role but nature
// after joint in the state of step against those the rules give.
func checkPercepts(ctx context.Context, rec *record.Record, roles []string, seer reasoner.Perceiver, state *reasoner.State, joint []reasoner.Move, step int, fail replayFail) error {
	for i, role := range roles {
		if role == rec.Nature {
			continue
		}
		ps, err := seer.Sees(ctx, state, joint, i)
		if err != nil {
			return fail(step+1, role, "percepts: %v", err)
		}
		got := make([]string, len(ps))
		for k, p := range ps {
			got[k] = string(p)
		}
		if want := rec.Percepts[step][i]; !slices.Equal(got, want) {
			return fail(step+1, role, "recorded percepts %v differ from those of the rules %v", want, got)
		}
	}
	return nil
}

func checkGoals(ctx context.Context, rec *record.Record, r reasoner.Reasoner, state *reasoner.State, terminal bool, fail replayFail) error {
	step := len(rec.Moves)
	if !terminal {
		return fail(step, "", "the match is recorded as completed in a state that is not terminal")
	}
	goals, err := r.Goals(ctx, state)
	var ge *reasoner.GoalError
	if err != nil && !errors.As(err, &ge) {
		return fail(step, "", "goals: %v", err)
	}
	if ge != nil && rec.GDLII && rec.GameRules != "" {
		// Settled as the referee settled them.
		if d, perr := gdl.ParseFile("record", []byte(rec.GameRules)); perr == nil {
			goals, _, _ = FirstGoals(ctx, d, state, r.Roles(), goals, ge)
		}
	}
	roles := r.Roles()
	for i, g := range goals {
		if rec.GDLII && roles[i] == rec.Nature {
			continue // nature's goal is not played for
		}
		if i < len(rec.GoalValues) && rec.GoalValues[i] != g {
			return fail(step, roles[i], "recorded goal %d, the rules give %d", rec.GoalValues[i], g)
		}
	}
	return nil
}

// stateDiff describes how got differs from want.
func stateDiff(got, want *reasoner.State) string {
	var missing, extra []string
	for _, f := range want.Facts() {
		if _, ok := slices.BinarySearch(got.Facts(), f); !ok {
			missing = append(missing, string(f))
		}
	}
	for _, f := range got.Facts() {
		if _, ok := slices.BinarySearch(want.Facts(), f); !ok {
			extra = append(extra, string(f))
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(cut(missing, 5), " "))
	}
	if len(extra) > 0 {
		parts = append(parts, "extra "+strings.Join(cut(extra, 5), " "))
	}
	return strings.Join(parts, "; ")
}

func cut(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}
