package human_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

func factory(t *testing.T) reasoner.Factory {
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// play runs ticTacToe with h as xplayer against the legal player, while
// decide, called at every turn where h is to move, chooses the move (or
// returns "" to let the clock run out).
func play(t *testing.T, h *human.Player, clock time.Duration, decide func(human.Turn) string) (*record.Record, [][]string) {
	t.Helper()
	f := factory(t)
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	opp := baseline.Legal(baseline.Options{NewReasoner: f})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var shown [][]string // the legal moves shown at each turn of h
	h.Seat("test")
	defer h.Attach()()
	done := make(chan struct{})
	go func() {
		defer close(done)
		seen := -1
		for {
			turn, changed := h.Turn()
			if turn.Status == human.Over {
				return
			}
			if turn.Status == human.ToMove && turn.Version != seen {
				seen = turn.Version
				shown = append(shown, turn.Legal)
				if m := decide(turn); m != "" {
					if err := h.Choose(turn.Step, m); err != nil {
						t.Errorf("Choose: %v", err)
					}
				}
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return
			}
		}
	}()
	ref := &gamemaster.Referee{NewReasoner: f, Grace: 50 * time.Millisecond, Fallback: gamemaster.FallbackFirst}
	rec, err := ref.Run(ctx, &gamemaster.Match{ID: "t1", Game: g, Players: []player.Player{h, opp}, StartClock: 5 * time.Second, PlayClock: clock})
	if err != nil {
		t.Fatal(err)
	}
	<-done
	return rec, shown
}

func TestHumanPlaysChosenMoves(t *testing.T) {
	h := human.New("", factory(t))
	if h.Name() != "human" {
		t.Errorf("Name() = %q, want human", h.Name())
	}
	rec, shown := play(t, h, 5*time.Second, func(turn human.Turn) string { return turn.Legal[len(turn.Legal)-1] })
	if !rec.IsCompleted {
		t.Fatalf("match not completed: %+v", rec)
	}
	k := 0
	for step, joint := range rec.Moves {
		if joint[0] == "noop" {
			continue
		}
		if k >= len(shown) {
			t.Fatalf("step %d: xplayer played %s but was never asked", step+1, joint[0])
		}
		if want := shown[k][len(shown[k])-1]; joint[0] != want {
			t.Errorf("step %d: xplayer played %s, the person chose %s", step+1, joint[0], want)
		}
		if e := rec.Errors[step+1][0]; e != "" {
			t.Errorf("step %d: error %q for a move chosen in time", step+1, e)
		}
		k++
	}
	if k != len(shown) {
		t.Errorf("asked %d times, played %d moves", len(shown), k)
	}
	turn, _ := h.Turn()
	if turn.Status != human.Over || turn.Step != rec.Steps() {
		t.Errorf("after the match: status %s at step %d, want over at step %d", turn.Status, turn.Step, rec.Steps())
	}
	if !slices.Equal(turn.State, stateFacts(t, rec.States[len(rec.States)-1])) {
		t.Errorf("final state shown %v, recorded %s", turn.State, rec.States[len(rec.States)-1])
	}
}

// stateFacts returns the facts of a recorded state, sorted.
func stateFacts(t *testing.T, s string) []string {
	t.Helper()
	e, err := gdl.ReadExpr([]byte(s))
	if err != nil || !e.IsList {
		t.Fatalf("recorded state %s: %v", s, err)
	}
	var out []string
	for _, f := range e.List {
		out = append(out, f.String())
	}
	slices.Sort(out)
	return out
}

func TestHumanTimeoutIsRecorded(t *testing.T) {
	h := human.New("slow", factory(t))
	asked := 0
	rec, _ := play(t, h, 300*time.Millisecond, func(turn human.Turn) string {
		asked++
		if asked == 1 {
			return "" // let the first turn time out
		}
		return turn.Legal[0]
	})
	if !rec.IsCompleted {
		t.Fatalf("match not completed")
	}
	if got := rec.Errors[1][0]; got != record.ErrTimeout {
		t.Errorf("step 1: xplayer error %q, want %s", got, record.ErrTimeout)
	}
	for step := 2; step < len(rec.Errors); step++ {
		if e := rec.Errors[step][0]; e != "" {
			t.Errorf("step %d: error %q for a move chosen in time", step, e)
		}
	}
}

func TestChooseRefusesWrongStepAndIllegalMove(t *testing.T) {
	h := human.New("", factory(t))
	tried := false
	play(t, h, 5*time.Second, func(turn human.Turn) string {
		if !tried {
			tried = true
			if err := h.Choose(turn.Step+1, turn.Legal[0]); err == nil {
				t.Error("Choose for the next step succeeded")
			}
			if err := h.Choose(turn.Step, "(mark 9 9)"); err == nil {
				t.Error("Choose of an illegal move succeeded")
			}
		}
		return turn.Legal[0]
	})
	if err := h.Choose(0, "(mark 1 1)"); err == nil {
		t.Error("Choose after the match succeeded")
	}
}

func TestTimeoutAndFallbackStayInHistory(t *testing.T) {
	h := human.New("slow", factory(t))
	asked := 0
	rec, _ := play(t, h, 300*time.Millisecond, func(turn human.Turn) string {
		asked++
		if asked == 1 {
			return ""
		}
		if len(turn.Effects) != len(turn.Legal) {
			t.Errorf("step %d: effects of %d moves, %d legal", turn.Step+1, len(turn.Effects), len(turn.Legal))
		}
		return turn.Legal[0]
	})
	turn, _ := h.Turn()
	if len(turn.History) != rec.Steps() {
		t.Fatalf("history of %d steps, the match had %d", len(turn.History), rec.Steps())
	}
	first := turn.History[0]
	if !first.Asked || !first.TimedOut || first.Chosen != "" || first.Step != 1 {
		t.Errorf("step 1 in the history: %+v, want asked and timed out", first)
	}
	if !slices.Equal(first.Moves, rec.Moves[0]) {
		t.Errorf("step 1: history has the joint move %v, recorded %v", first.Moves, rec.Moves[0])
	}
	for i, st := range turn.History[1:] {
		if st.TimedOut {
			t.Errorf("step %d timed out", i+2)
		}
		if st.Asked && st.Chosen != rec.Moves[i+1][0] {
			t.Errorf("step %d: chose %q, played %q", i+2, st.Chosen, rec.Moves[i+1][0])
		}
	}
	if !slices.Equal(turn.Goals, rec.GoalValues) {
		t.Errorf("goals shown %v, recorded %v", turn.Goals, rec.GoalValues)
	}
	if want := human.Outcome(rec.GoalValues, rec.Roles, 0); turn.Outcome != want || want == "" {
		t.Errorf("outcome %q, want %q", turn.Outcome, want)
	}
}

func TestEffects(t *testing.T) {
	h := human.New("", factory(t))
	checked := false
	play(t, h, 5*time.Second, func(turn human.Turn) string {
		if !checked {
			checked = true
			for _, e := range turn.Effects {
				// (mark X Y) turns (cell X Y b) into (cell X Y x).
				var x, y string
				if _, err := fmt.Sscanf(e.Move, "(mark %1s %1s)", &x, &y); err != nil {
					t.Fatalf("move %q: %v", e.Move, err)
				}
				cell := fmt.Sprintf("(cell %s %s ", x, y)
				if !slices.Contains(e.Added, cell+"x)") || !slices.Contains(e.Removed, cell+"b)") {
					t.Errorf("%s: added %v, removed %v", e.Move, e.Added, e.Removed)
				}
			}
		}
		return turn.Legal[0]
	})
	if !checked {
		t.Fatal("never asked")
	}
}

func TestOutcome(t *testing.T) {
	roles := []string{"x", "o", "z"}
	for _, c := range []struct {
		goals []int
		role  int
		want  string
	}{
		{[]int{100, 0}, 0, "you won 100–0"},
		{[]int{100, 0}, 1, "you lost 0–100"},
		{[]int{50, 50}, 1, "a draw 50–50"},
		{[]int{75}, 0, "you scored 75"},
		{[]int{50, 100, 0}, 0, "you lost 50 (o 100, z 0)"},
		{[]int{50, 50, 0}, 2, "you lost 0 (x 50, o 50)"},
		{[]int{100, 50, 0}, 0, "you won 100 (o 50, z 0)"},
	} {
		if got := human.Outcome(c.goals, roles, c.role); got != c.want {
			t.Errorf("Outcome(%v, role %d) = %q, want %q", c.goals, c.role, got, c.want)
		}
	}
}

func TestReady(t *testing.T) {
	h := human.New("", factory(t))
	if err := h.Ready(context.Background()); !errors.Is(err, human.ErrNoSeat) {
		t.Errorf("Ready without a seat: %v, want ErrNoSeat", err)
	}
	h.Seat("/seat?id=0")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := h.Ready(ctx); err == nil || !strings.Contains(err.Error(), "nobody opened the seat page /seat?id=0") {
		t.Errorf("Ready with no page open: %v", err)
	}
	detach := h.Attach()
	if err := h.Ready(context.Background()); err != nil {
		t.Errorf("Ready with a page open: %v", err)
	}
	detach()
	detach() // twice is once
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if err := h.Ready(ctx2); err == nil {
		t.Error("Ready after the page closed succeeded")
	}
}

// TestForcedMovesAndTheWinningLine plays the third row as xplayer against
// the legal player, who fills the first: the steps where xplayer had one
// legal move are marked forced, and the end names the line that won.
func TestForcedMovesAndTheWinningLine(t *testing.T) {
	h := human.New("", factory(t))
	var side []string
	rec, _ := play(t, h, 5*time.Second, func(turn human.Turn) string {
		if side == nil {
			side = turn.Side
		}
		return fmt.Sprintf("(mark 3 %d)", turn.Step/2+1)
	})
	if rec.GoalValues[0] != 100 {
		t.Fatalf("xplayer did not win: %v %v", rec.Moves, rec.GoalValues)
	}
	turn, _ := h.Turn()
	for i, st := range turn.History {
		noop := rec.Moves[i][0] == "noop"
		if st.Forced != noop || st.Asked == noop {
			t.Errorf("step %d (%s): forced %v, asked %v; want forced exactly when xplayer had one move", i+1, rec.Moves[i][0], st.Forced, st.Asked)
		}
	}
	var decisive []string
	for _, f := range turn.Decisive {
		if strings.HasPrefix(f, "(cell ") {
			decisive = append(decisive, f)
		}
	}
	slices.Sort(decisive)
	if want := []string{"(cell 3 1 x)", "(cell 3 2 x)", "(cell 3 3 x)"}; !slices.Equal(decisive, want) {
		t.Errorf("decisive facts %v, want the line %v", decisive, want)
	}
	// xplayer's side: its first moves mark any cell of the board.
	for _, f := range []string{"(cell 1 1 b)", "(cell 1 1 x)", "(cell 3 3 b)", "(cell 3 3 x)"} {
		if !slices.Contains(side, f) {
			t.Errorf("side %v lacks %s", side, f)
		}
	}
}

// TestInterruptedIsNotATimeout stops the match during the person's turn,
// as Ctrl-C does: the seat says that the match was interrupted, not that
// the clock ran out.
func TestInterruptedIsNotATimeout(t *testing.T) {
	f := factory(t)
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	h := human.New("", f)
	opp := baseline.Legal(baseline.Options{NewReasoner: f})
	h.Seat("test")
	defer h.Attach()()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := (&gamemaster.Referee{NewReasoner: f}).Run(ctx, &gamemaster.Match{ID: "t1", Game: g, Players: []player.Player{h, opp}, StartClock: 5 * time.Second, PlayClock: time.Minute})
		done <- err
	}()
	wait := func(s human.Status) human.Turn {
		t.Helper()
		limit := time.After(20 * time.Second)
		for {
			turn, changed := h.Turn()
			if turn.Status == s {
				return turn
			}
			select {
			case <-changed:
			case <-limit:
				t.Fatalf("status %s, want %s", turn.Status, s)
			}
		}
	}
	wait(human.ToMove)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v, want the match interrupted", err)
	}
	turn := wait(human.Over)
	if !turn.Aborted || !strings.Contains(turn.Message, "interrupted") || strings.Contains(turn.Message, "in time") {
		t.Errorf("interrupted seat: aborted %v, message %q", turn.Aborted, turn.Message)
	}
}

func TestStartingUntilTheStartClock(t *testing.T) {
	// From START until the person is first asked, the seat says that the
	// match is starting, until the start clock runs out; a seat asked to
	// move, or a seat whose START had no deadline, says nothing of it.
	g, err := games.Lookup("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	m := &player.Match{ID: "s1", Role: "xplayer", Rules: d, StartClock: 10 * time.Second, PlayClock: 10 * time.Second}
	for _, withDeadline := range []bool{true, false} {
		h := human.New("", factory(t))
		deadline := time.Now().Add(10 * time.Second)
		ctx, cancel := context.WithCancel(context.Background())
		if withDeadline {
			cancel()
			ctx, cancel = context.WithDeadline(context.Background(), deadline)
		}
		if err := h.Start(ctx, m); err != nil {
			t.Fatal(err)
		}
		cancel()
		turn, _ := h.Turn()
		if want := map[bool]time.Time{true: deadline}[withDeadline]; !turn.StartsBy.Equal(want) || turn.Status != human.Others {
			t.Errorf("deadline %v: after START the seat is %s, starting until %v; want others, until %v", withDeadline, turn.Status, turn.StartsBy, want)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
		asked := make(chan struct{})
		go func() {
			defer close(asked)
			for {
				turn, changed := h.Turn()
				if turn.Status == human.ToMove {
					if !turn.StartsBy.IsZero() {
						t.Errorf("asked to move, the seat still says the match is starting until %v", turn.StartsBy)
					}
					h.Choose(turn.Step, turn.Legal[0])
					return
				}
				select {
				case <-changed:
				case <-ctx.Done():
					return
				}
			}
		}()
		if _, err := h.Play(ctx, "s1", nil); err != nil {
			t.Error(err)
		}
		<-asked
		cancel()
	}
}
