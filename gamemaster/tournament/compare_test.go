package tournament

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// compareResults is a tournament of players a and b over g1 (two roles),
// g2 (three roles) and g3 (one role, so they never meet).
var compareResults = &Results{
	Name:    "cmp",
	Games:   []string{"g1", "g2", "g3"},
	Players: []string{"a", "b"},
	Matches: []MatchResult{
		{Game: "g1", Players: []string{"a", "b"}, Completed: true, Goals: []int{100, 0}},          // a 100: win
		{Game: "g1", Players: []string{"b", "a"}, Completed: true, Goals: []int{50, 50}},          // a 50: draw
		{Game: "g1", Players: []string{"a", "b"}, Completed: false, Error: "aborted"},             // not counted
		{Game: "g1", Players: []string{"b", "a"}, Completed: true, Goals: []int{100, 0}},          // a 0: loss
		{Game: "g2", Players: []string{"a", "a", "b"}, Completed: true, Goals: []int{30, 60, 90}}, // a 45, b 90: loss
		{Game: "g2", Players: []string{"b", "a", "a"}, Completed: true, Goals: []int{0, 100, 50}}, // a 75, b 0: win
		{Game: "g3", Players: []string{"a"}, Completed: true, Goals: []int{100}},                  // b absent
		{Game: "g3", Players: []string{"b"}, Completed: true, Goals: []int{0}},                    // a absent
	},
}

// ci95 is the half-width of the 95% interval of the mean of xs, by the
// formula: t(0.975, n-1) * s / sqrt(n), with the quantile given.
func ci95(t975 float64, xs ...float64) float64 {
	n := float64(len(xs))
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return t975 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b  string
		games []ComparisonRow
		total ComparisonRow
	}{
		{"a", "b",
			[]ComparisonRow{
				// a scores 100, 50, 0.
				{Game: "g1", Matches: 3, Mean: 50, CI95: ci95(4.303, 100, 50, 0), Wins: 1, Draws: 1, Losses: 1},
				// a scores 45 (mean of 30 and 60), 75 (of 100 and 50).
				{Game: "g2", Matches: 2, Mean: 60, CI95: ci95(12.706, 45, 75), Wins: 1, Losses: 1},
				{Game: "g3", CI95: -1},
			},
			// Pooled over the five matches: (100+50+0+45+75)/5 = 54.
			ComparisonRow{Matches: 5, Mean: 54, CI95: ci95(2.776, 100, 50, 0, 45, 75), Wins: 2, Draws: 1, Losses: 2},
		},
		{"b", "a",
			[]ComparisonRow{
				{Game: "g1", Matches: 3, Mean: 50, CI95: ci95(4.303, 0, 50, 100), Wins: 1, Draws: 1, Losses: 1},
				{Game: "g2", Matches: 2, Mean: 45, CI95: ci95(12.706, 90, 0), Wins: 1, Losses: 1},
				{Game: "g3", CI95: -1},
			},
			ComparisonRow{Matches: 5, Mean: 48, CI95: ci95(2.776, 0, 50, 100, 90, 0), Wins: 2, Draws: 1, Losses: 2},
		},
	}
	for _, tt := range tests {
		c, err := compareResults.Compare(tt.a, tt.b)
		if err != nil {
			t.Fatalf("Compare(%s, %s): %v", tt.a, tt.b, err)
		}
		if c.A != tt.a || c.B != tt.b || len(c.Games) != len(tt.games) {
			t.Fatalf("Compare(%s, %s) = %+v", tt.a, tt.b, c)
		}
		for i, want := range append(tt.games, tt.total) {
			got := c.Total
			if i < len(c.Games) {
				got = c.Games[i]
			}
			if !rowsEqual(got, want) {
				t.Errorf("Compare(%s, %s) row %d = %+v, want %+v", tt.a, tt.b, i, got, want)
			}
		}
	}
}

func rowsEqual(a, b ComparisonRow) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	return a.Game == b.Game && a.Matches == b.Matches && near(a.Mean, b.Mean) && near(a.CI95, b.CI95) &&
		a.Wins == b.Wins && a.Draws == b.Draws && a.Losses == b.Losses
}

func TestCompareErrors(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"a", "c", "no player c"},
		{"x", "b", "no player x"},
		{"a", "a", "with itself"},
	}
	for _, tt := range tests {
		if _, err := compareResults.Compare(tt.a, tt.b); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compare(%s, %s): err = %v, want %q", tt.a, tt.b, err, tt.want)
		}
	}
}

func TestComparisonTable(t *testing.T) {
	c, err := compareResults.Compare("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := [][]string{
		{"a", "against", "b:", "pooled over matches"},
		{"game", "matches", "mean goal", "95% CI", "wins", "draws", "losses"},
		{"g1", "3", "50.0", "±124.2", "1", "1", "1"},
		{"g2", "2", "60.0", "±190.6", "1", "0", "1"},
		{"g3", "0", "-", "-", "0", "0", "0"},
		{"all", "5", "54.0", "±46.3", "2", "1", "2"},
	}
	if len(lines) != len(want) {
		t.Fatalf("table has %d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, fields := range want {
		for _, f := range fields {
			if !strings.Contains(lines[i], f) {
				t.Errorf("line %d %q lacks %q", i, lines[i], f)
			}
		}
	}
}
