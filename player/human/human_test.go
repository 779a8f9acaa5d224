package human_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/local"
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
	opp, err := local.New("legal", local.Options{NewReasoner: f})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var shown [][]string // the legal moves shown at each turn of h
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
	if !slices.Equal(turn.State, stateFacts(rec.States[len(rec.States)-1])) {
		t.Errorf("final state shown %v, recorded %s", turn.State, rec.States[len(rec.States)-1])
	}
}

func stateFacts(s string) []string {
	// "((cell 1 1 b) (control x))": facts are the top-level lists.
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
			if depth == 2 {
				start = i
			}
		case ')':
			if depth == 2 {
				out = append(out, s[start:i+1])
			}
			depth--
		}
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
