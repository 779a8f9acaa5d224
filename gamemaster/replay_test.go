package gamemaster

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/record"
)

func playedRecord(t *testing.T) *record.Record {
	t.Helper()
	m := newMatch(t, pickGame, &scripted{name: "a", move: goodMove(3)}, &scripted{name: "b", move: goodMove(2)})
	m.Record = ""
	rec, err := fastReferee().Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestReplay(t *testing.T) {
	base := playedRecord(t)
	tests := []struct {
		name   string
		modify func(r *record.Record)
		step   int // of the *ReplayError; -1 for none
		role   string
	}{
		{"as played", func(*record.Record) {}, -1, ""},
		{"ggp-base spacing", func(r *record.Record) {
			r.States[1] = "( ( control black ) ( last 3 ) ( step 1 ) )"
			r.Moves[0][0] = "( pick 3 )"
		}, -1, ""},
		{"incomplete match", func(r *record.Record) {
			r.IsCompleted, r.GoalValues = false, nil
			r.States, r.Moves, r.StateTimes, r.Errors = r.States[:3], r.Moves[:2], r.StateTimes[:3], r.Errors[:3]
		}, -1, ""},
		{"illegal move", func(r *record.Record) { r.Moves[2][0] = "(pick 4)" }, 3, "white"},
		{"move out of turn", func(r *record.Record) { r.Moves[1][0] = "(pick 1)" }, 2, "white"},
		{"unreadable move", func(r *record.Record) { r.Moves[1][1] = "(pick" }, 2, "black"},
		{"wrong initial state", func(r *record.Record) { r.States[0] = "((control black) (step 0))" }, 0, ""},
		{"wrong next state", func(r *record.Record) { r.States[2] = "((control white) (last 1) (step 2))" }, 2, ""},
		{"wrong goal", func(r *record.Record) { r.GoalValues = []int{0, 0} }, 4, "black"},
		{"wrong roles", func(r *record.Record) { r.Roles = []string{"black", "white"} }, 0, ""},
		{"completed too early", func(r *record.Record) {
			r.States, r.Moves, r.StateTimes, r.Errors = r.States[:3], r.Moves[:2], r.StateTimes[:3], r.Errors[:3]
		}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := base.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			tt.modify(rec)
			var visited []int
			err = Replay(context.Background(), rec, reasonerFor(t, pickGame), func(s *ReplayStep) {
				visited = append(visited, s.Step)
				if s.Step < len(rec.Moves) && len(s.Moves) != 2 {
					t.Errorf("step %d: moves %v", s.Step, s.Moves)
				}
			})
			if tt.step < 0 {
				if err != nil {
					t.Fatalf("Replay: %v", err)
				}
				if want := len(rec.States); len(visited) != want || !slices.IsSorted(visited) {
					t.Errorf("visited %v, want %d states in order", visited, want)
				}
				return
			}
			var re *ReplayError
			if !errors.As(err, &re) {
				t.Fatalf("Replay: err = %v, want a *ReplayError", err)
			}
			if re.Step != tt.step || re.Role != tt.role || re.MatchID != "pick.1" {
				t.Errorf("Replay: %v; want step %d, role %q", err, tt.step, tt.role)
			}
		})
	}
}

func TestParseState(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"()", nil, true},
		{"( )", nil, true},
		{"((cell 1 1 b) (control x))", []string{"(cell 1 1 b)", "(control x)"}, true},
		{"( ( control x ) ( cell 1 1 b ) step )", []string{"(cell 1 1 b)", "(control x)", "step"}, true},
		{"step", nil, false},
		{"((cell 1", nil, false},
	}
	for _, tt := range tests {
		s, err := ParseState(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseState(%q): err = %v", tt.in, err)
			continue
		}
		if err != nil {
			continue
		}
		var got []string
		for _, f := range s.Facts() {
			got = append(got, string(f))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ParseState(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
