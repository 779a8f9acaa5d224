package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func sample() *Record {
	return &Record{
		MatchID:     "ticTacToe.1",
		RandomToken: "abcdefghijklmnopqrstuvwxyzABCDEF",
		StartTime:   1700000000000,
		GameMetaURL: "",
		IsCompleted: true,
		States: []string{
			"((cell 1 1 b) (control xplayer))",
			"((cell 1 1 x) (control oplayer))",
		},
		Moves:                  [][]string{{"(mark 1 1)", "noop"}},
		StateTimes:             []int64{1700000000001, 1700000000002},
		Errors:                 [][]string{{"", ""}, {"", "TO"}},
		GoalValues:             []int{100, 0},
		PreviewClock:           -1,
		StartClock:             10,
		PlayClock:              2,
		PlayerNamesFromHost:    []string{"mcts", "random"},
		TournamentNameFromHost: "t",
		GameRulesheetHash:      RulesheetHash([]byte("(role xplayer)")),
		GameKey:                "ticTacToe",
		GameName:               "Tic-Tac-Toe",
		GameRules:              "(role xplayer)",
		Roles:                  []string{"xplayer", "oplayer"},
	}
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		rec  *Record
	}{
		{"completed", sample()},
		{"fresh", &Record{MatchID: "m", States: []string{"()"}, StateTimes: []int64{1}, PreviewClock: -1}},
		{"aborted", func() *Record {
			r := sample()
			r.IsCompleted, r.IsAborted, r.GoalValues, r.AbortReason = false, true, nil, "rules failed"
			return r
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.rec.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			got, err := Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			want := *tt.rec
			if want.Moves == nil {
				want.Moves = [][]string{}
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, &want)
			}
			if err := got.Check(); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

// TestGGPBaseFields checks the names and JSON types of the fields that
// ggp-base's Match reader requires.
func TestGGPBaseFields(t *testing.T) {
	data, err := (&Record{MatchID: "m", States: []string{"()"}, StateTimes: []int64{5}, PreviewClock: -1}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"matchId": "string", "randomToken": "string", "startTime": "number",
		"gameMetaURL": "string", "isCompleted": "bool", "isAborted": "bool",
		"states": "array", "moves": "array", "stateTimes": "array",
		"previewClock": "number", "startClock": "number", "playClock": "number",
		"scrambled": "bool",
	}
	for k, typ := range want {
		v, ok := m[k]
		if !ok {
			t.Errorf("field %s missing", k)
			continue
		}
		var got string
		switch v.(type) {
		case string:
			got = "string"
		case float64:
			got = "number"
		case bool:
			got = "bool"
		case []any:
			got = "array"
		default:
			got = "null or object"
		}
		if got != typ {
			t.Errorf("field %s is %s, want %s", k, got, typ)
		}
	}
	for _, k := range []string{"goalValues", "errors", "playerNamesFromHost", "gameRules"} {
		if _, ok := m[k]; ok {
			t.Errorf("empty field %s written", k)
		}
	}
}

// TestReadGGPBase reads a record as ggp-base writes it: spaced KIF, states
// as strings, no extension fields.
func TestReadGGPBase(t *testing.T) {
	const src = `{"matchId":"Base.ticTacToe.1","randomToken":"x","startTime":1,"gameMetaURL":"http://games.ggp.org/base/games/ticTacToe/v0/","isCompleted":false,"isAborted":false,"states":["( ( cell 1 1 b ) ( control xplayer ) )"],"moves":[],"stateTimes":[1],"errors":[["",""]],"previewClock":-1,"startClock":30,"playClock":15,"playerNamesFromHost":["a","b"],"scrambled":false}`
	r, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.States[0] != "( ( cell 1 1 b ) ( control xplayer ) )" || r.StartClock != 30 || r.PlayClock != 15 || len(r.Errors) != 1 {
		t.Errorf("read %+v", r)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Record)
		ok     bool
	}{
		{"valid", func(*Record) {}, true},
		{"no id", func(r *Record) { r.MatchID = "" }, false},
		{"no states", func(r *Record) { r.States, r.StateTimes = nil, nil }, false},
		{"states vs moves", func(r *Record) { r.Moves = append(r.Moves, []string{"a", "b"}) }, false},
		{"state times", func(r *Record) { r.StateTimes = r.StateTimes[:1] }, false},
		{"short joint move", func(r *Record) { r.Moves[0] = r.Moves[0][:1] }, false},
		{"short errors", func(r *Record) { r.Errors[1] = r.Errors[1][:1] }, false},
		{"goals", func(r *Record) { r.GoalValues = r.GoalValues[:1] }, false},
		{"player names", func(r *Record) { r.PlayerNamesFromHost = r.PlayerNamesFromHost[:1] }, false},
		{"incomplete without goals", func(r *Record) { r.IsCompleted, r.GoalValues = false, nil }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sample()
			tt.modify(r)
			if err := r.Check(); (err == nil) != tt.ok {
				t.Errorf("Check() = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestFormatState(t *testing.T) {
	tests := []struct {
		facts []string
		want  string
	}{
		{nil, "()"},
		{[]string{"(cell 1 1 b)"}, "((cell 1 1 b))"},
		{[]string{"(cell 1 1 b)", "(control x)", "step"}, "((cell 1 1 b) (control x) step)"},
	}
	for _, tt := range tests {
		if got := FormatState(tt.facts); got != tt.want {
			t.Errorf("FormatState(%q) = %q, want %q", tt.facts, got, tt.want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "m.json")
	r := sample()
	if err := WriteFile(name, r); err != nil {
		t.Fatal(err)
	}
	r.Moves = append(r.Moves, []string{"noop", "(mark 2 2)"})
	r.States = append(r.States, "((cell 2 2 o))")
	r.StateTimes = append(r.StateTimes, 3)
	r.Errors = append(r.Errors, []string{"", ""})
	if err := WriteFile(name, r); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("ReadFile after overwrite:\n got %+v\nwant %+v", got, r)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("folder holds %q, want only m.json", names)
	}
}

// TestWriteFileFailureKeepsNothing makes the final rename fail: the
// temporary file must be gone and the error must name the match.
func TestWriteFileFailureKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "m.json")
	if err := os.MkdirAll(filepath.Join(target, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(target, sample())
	if err == nil || !strings.Contains(err.Error(), "ticTacToe.1") {
		t.Fatalf("WriteFile over a folder: err = %v, want an error naming the match", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, TempPattern)); len(left) != 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// TestWriteFileAtomic reads the record while it is rewritten with records
// of very different sizes: every read must see one whole record.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "m.json")
	small := sample()
	big := sample()
	big.GameRules = strings.Repeat("(role x) ", 50000)
	if err := WriteFile(name, small); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads, bad atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			data, err := os.ReadFile(name)
			if err != nil {
				bad.Add(1)
				continue
			}
			reads.Add(1)
			r, err := Unmarshal(data)
			if err != nil || (r.GameRules != small.GameRules && r.GameRules != big.GameRules) {
				bad.Add(1)
			}
		}
	}()
	for i := range 60 {
		r := small
		if i%2 == 0 {
			r = big
		}
		if err := WriteFile(name, r); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if bad.Load() != 0 {
		t.Errorf("%d of %d reads saw a partial or missing record", bad.Load(), reads.Load()+bad.Load())
	}
	if reads.Load() == 0 {
		t.Error("reader never ran")
	}
}

func TestRemoveTemp(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "m.json")
	os.WriteFile(keep, []byte("{}"), 0o644)
	f, err := os.CreateTemp(dir, TempPattern)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := RemoveTemp(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(f.Name()); !os.IsNotExist(err) {
		t.Errorf("temporary file still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("record removed: %v", err)
	}
}

func TestReadTooLarge(t *testing.T) {
	data, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readLimited(bytes.NewReader(data), int64(len(data))); err != nil {
		t.Errorf("record of exactly the limit: %v", err)
	}
	if _, err := readLimited(bytes.NewReader(data), int64(len(data)-1)); err == nil {
		t.Error("record one byte over the limit was read")
	}
}
