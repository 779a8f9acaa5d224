package rating

import (
	"reflect"
	"testing"

	"github.com/ggp-go/ggp/gamemaster/record"
)

func TestFromRecord(t *testing.T) {
	base := func() *record.Record {
		return &record.Record{
			MatchID:             "ticTacToe.1",
			IsCompleted:         true,
			Errors:              [][]string{{"", ""}, {"", ""}},
			GoalValues:          []int{100, 0},
			PlayerNamesFromHost: []string{"mcts", "random"},
			GameKey:             "ticTacToe",
			GameName:            "Tic-Tac-Toe",
			Roles:               []string{"xplayer", "oplayer"},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(r *record.Record)
		want   Result
		done   bool
	}{
		{
			name: "completed",
			want: Result{MatchID: "ticTacToe.1", Game: "ticTacToe", Players: []string{"mcts", "random"}, Goals: []int{100, 0}},
			done: true,
		},
		{
			name:   "with errors",
			change: func(r *record.Record) { r.Errors[1][1] = record.ErrTimeout },
			want:   Result{MatchID: "ticTacToe.1", Game: "ticTacToe", Players: []string{"mcts", "random"}, Goals: []int{100, 0}, Status: Errored},
			done:   true,
		},
		{
			name:   "aborted",
			change: func(r *record.Record) { r.IsCompleted, r.IsAborted, r.GoalValues = false, true, nil },
			want:   Result{MatchID: "ticTacToe.1", Game: "ticTacToe", Players: []string{"mcts", "random"}, Status: Aborted},
			done:   true,
		},
		{
			name:   "under way",
			change: func(r *record.Record) { r.IsCompleted, r.GoalValues = false, nil },
		},
		{
			name:   "named by game name",
			change: func(r *record.Record) { r.GameKey = "" },
			want:   Result{MatchID: "ticTacToe.1", Game: "Tic-Tac-Toe", Players: []string{"mcts", "random"}, Goals: []int{100, 0}},
			done:   true,
		},
		{
			name: "nature left out",
			change: func(r *record.Record) {
				r.Roles = []string{"random", "p1", "p2"}
				r.Nature = "random"
				r.PlayerNamesFromHost = []string{record.NatureName, "a", "b"}
				r.GoalValues = []int{0, 50, 50}
				r.Errors = [][]string{{"", "", ""}, {"IL (x)", "", ""}}
			},
			want: Result{MatchID: "ticTacToe.1", Game: "ticTacToe", Players: []string{"a", "b"}, Goals: []int{50, 50}},
			done: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := base()
			if tc.change != nil {
				tc.change(r)
			}
			got, done := FromRecord(r)
			if done != tc.done || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FromRecord = %+v, %v; want %+v, %v", got, done, tc.want, tc.done)
			}
		})
	}
}
