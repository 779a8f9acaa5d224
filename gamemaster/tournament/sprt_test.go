package tournament

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
)

// repeat returns pattern repeated to n scores.
func repeat(n int, pattern ...float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = pattern[i%len(pattern)]
	}
	return xs
}

func TestSPRT(t *testing.T) {
	// The bounds at α = β = 0.05: ln(0.05/0.95) and ln(0.95/0.05).
	const lower, upper = -2.9444389791664403, 2.9444389791664403
	tests := []struct {
		name    string
		sprt    SPRT
		scores  []float64
		verdict Verdict
		matches int
		llr     float64 // NaN: not checked
	}{
		// Equal scores have the variance floor 0.01: each win adds
		// 0.1/0.01 * (1 - 0.55) = 4.5, each draw 10 * (0.5 - 0.55) = -0.5,
		// and the minimum of 8 matches decides.
		{"all wins", SPRT{Delta: 0.1}, repeat(20, 1), AcceptH1, 8, 36},
		{"all wins, too few", SPRT{Delta: 0.1}, repeat(7, 1), Undecided, 7, 31.5},
		{"all wins, minimum 2", SPRT{Delta: 0.1, MinMatches: 2}, repeat(20, 1), AcceptH1, 2, 9},
		// One score alone has the variance 0.25: 0.1/0.25 * (1 - 0.55).
		{"one win", SPRT{Delta: 0.1, MinMatches: 1}, repeat(1, 1), Undecided, 1, 0.18},
		{"all draws", SPRT{Delta: 0.1}, repeat(20, 0.5), AcceptH0, 8, -4},
		{"all losses", SPRT{Delta: 0.1}, repeat(20, 0), AcceptH0, 8, -44},
		// Wins and losses in turn: after an even n, the mean is 0.5 and
		// the variance n/(4(n-1)), so LLR = 0.1 * 4(n-1)/n * (-0.05n)
		// = -0.02(n-1): -2.94 at n = 148, -2.98 at 150; at n = 149 the
		// mean is 75/149 and LLR = 0.4*149/150 * (75 - 0.55*149) = -2.76.
		{"wins and losses, 20", SPRT{Delta: 0.1}, repeat(20, 1, 0), Undecided, 20, -0.38},
		{"wins and losses, 149", SPRT{Delta: 0.1}, repeat(149, 1, 0), Undecided, 149, 0.4 * 149 / 150 * (75 - 0.55*149)},
		{"wins and losses", SPRT{Delta: 0.1}, repeat(400, 1, 0), AcceptH0, 150, -0.02 * 149},
		// Three wins, a loss: the ratio peaks after the third win of
		// each four, at n = 4k+3 with 3k+3 wins and the variance
		// (wins - wins²/n)/(n-1). At n = 19: 0.1/0.1754 * (15 - 10.45)
		// = 2.59; at n = 22, after a loss then a win, 2.66; at n = 23,
		// 0.1/0.1779 * (18 - 12.65) = 3.01.
		{"three wins in four", SPRT{Delta: 0.1}, repeat(100, 1, 1, 1, 0), AcceptH1, 23, 0.1 / ((18 - 18.0*18/23) / 22) * (18 - 0.55*23)},
		{"three wins in four, 22", SPRT{Delta: 0.1}, repeat(22, 1, 1, 1, 0), Undecided, 22, 0.1 / ((17 - 17.0*17/22) / 21) * (17 - 0.55*22)},
		// A wider margin: 0.2/var * (wins - 0.6n), 2.93 at n = 11 (9
		// wins), just short of 2.94, and 3.5 at n = 15 (12 wins).
		{"three wins in four, margin 0.2, 11", SPRT{Delta: 0.2}, repeat(11, 1, 1, 1, 0), Undecided, 11, 0.2 / ((9 - 81.0/11) / 10) * (9 - 0.6*11)},
		{"three wins in four, margin 0.2", SPRT{Delta: 0.2}, repeat(100, 1, 1, 1, 0), AcceptH1, 15, 0.2 / ((12 - 144.0/15) / 14) * (12 - 0.6*15)},
		{"no scores", SPRT{Delta: 0.1}, nil, Undecided, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.sprt.Test(tt.scores)
			if r.Verdict != tt.verdict || r.Matches != tt.matches {
				t.Errorf("verdict %s after %d matches, want %s after %d (LLR %v)", r.Verdict, r.Matches, tt.verdict, tt.matches, r.LLR)
			}
			if math.Abs(r.LLR-tt.llr) > 1e-9 {
				t.Errorf("LLR %v, want %v", r.LLR, tt.llr)
			}
			if math.Abs(r.Lower-lower) > 1e-12 || math.Abs(r.Upper-upper) > 1e-12 || r.Alpha != 0.05 || r.Beta != 0.05 {
				t.Errorf("bounds %v, %v at α %v, β %v", r.Lower, r.Upper, r.Alpha, r.Beta)
			}
		})
	}
}

func TestSPRTErrorRates(t *testing.T) {
	// α = 0.01, β = 0.1: ln(0.1/0.99) and ln(0.9/0.01).
	r := (&SPRT{Delta: 0.1, Alpha: 0.01, Beta: 0.1}).Test(nil)
	if math.Abs(r.Lower-math.Log(0.1/0.99)) > 1e-12 || math.Abs(r.Upper-math.Log(90)) > 1e-12 {
		t.Errorf("bounds %v, %v", r.Lower, r.Upper)
	}
}

func TestSPRTValidate(t *testing.T) {
	tests := []struct {
		sprt SPRT
		ok   bool
	}{
		{SPRT{Delta: 0.1}, true},
		{SPRT{Delta: 0.5, Alpha: 0.01, Beta: 0.2, MinMatches: 20}, true},
		{SPRT{}, false},
		{SPRT{Delta: -0.1}, false},
		{SPRT{Delta: 0.6}, false},
		{SPRT{Delta: math.NaN()}, false},
		{SPRT{Delta: 0.1, Alpha: 0.5}, false},
		{SPRT{Delta: 0.1, Beta: -0.1}, false},
		{SPRT{Delta: 0.1, MinMatches: -1}, false},
	}
	for _, tt := range tests {
		if err := tt.sprt.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", tt.sprt, err, tt.ok)
		}
	}
}

func TestSPRTString(t *testing.T) {
	s := SPRT{Delta: 0.1}
	tests := []struct {
		r    SPRTResult
		want string
	}{
		{s.Test(repeat(8, 1)), "H1 accepted: the first player scores ≥ 0.60 against the second (LLR 36.00 ≥ 2.94 after 8 matches, mean score 1.00)"},
		{s.Test(repeat(8, 0)), "H0 accepted: the first player scores ≤ 0.50 against the second, not 0.60 (LLR -44.00 ≤ -2.94 after 8 matches, mean score 0.00)"},
		{s.Test(repeat(20, 1, 0)), "undecided after 20 matches whether the first player scores 0.50 or 0.60 against the second (LLR -0.38, between -2.94 and 2.94; mean score 0.50)"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// sprtResults is a tournament of a against b over g1 and g2, two rounds,
// in the order of Schedule, with a's goals given; -1 is a match that did
// not complete.
func sprtResults(goals ...int) *Results {
	res := &Results{Games: []string{"g1", "g2"}, Players: []string{"a", "b"}}
	seats := [][]string{{"a", "b"}, {"b", "a"}}
	for i, g := range goals {
		m := MatchResult{Game: []string{"g1", "g2"}[i/2%2], Players: seats[i%2]}
		if g >= 0 {
			m.Completed = true
			m.Goals = []int{g, 100 - g}
			if i%2 == 1 {
				m.Goals = []int{100 - g, g}
			}
		}
		res.Matches = append(res.Matches, m)
	}
	return res
}

func TestSPRTStatus(t *testing.T) {
	s := &SPRT{Delta: 0.1, MinMatches: 2}
	tests := []struct {
		name    string
		res     *Results
		pending []int
		verdict Verdict
		matches int
	}{
		// MinMatches 2 would decide at 2 (LLR 9), but not before every
		// game and assignment has a score: 4.
		{"all wins", sprtResults(100, 100, 100, 100, 100, 100, 100, 100), nil, AcceptH1, 4},
		{"losses after the verdict", sprtResults(100, 100, 100, 100, 0, 0, 0, 0), nil, AcceptH1, 4},
		{"an assignment missing", sprtResults(100, 100, 100, -1, 100, 100, 100, -1), nil, Undecided, 6},
		{"incomplete, later completed", sprtResults(100, 100, 100, -1, 100, 100, 100, 100), nil, AcceptH1, 7},
		// The test stops at the first pending match.
		{"pending", sprtResults(100, 100, 100, -1, 100, 100, 100, 100), []int{3}, Undecided, 3},
		{"pending after", sprtResults(100, 100, 100, 100, -1, 100, 100, 100), []int{4}, AcceptH1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pending []bool
			if tt.pending != nil {
				pending = make([]bool, len(tt.res.Matches))
				for _, i := range tt.pending {
					pending[i] = true
				}
			}
			r := sprtStatus(s, tt.res, pending)
			if r.Verdict != tt.verdict || r.Matches != tt.matches || r.Player != "a" || r.Opponent != "b" {
				t.Errorf("%s after %d matches (%s against %s), want %s after %d", r.Verdict, r.Matches, r.Player, r.Opponent, tt.verdict, tt.matches)
			}
		})
	}
}

// TestSPRTTournament plays legal against random at breakthrough, where
// legal (always the first legal move, which runs a pawn to the far row)
// nearly always wins, with at most 50 rounds: the test accepts H1 long
// before, and a second run on the folder plays nothing.
func TestSPRTTournament(t *testing.T) {
	dir := t.TempDir()
	const rounds = 50
	newT := func(log *startLog) *Tournament {
		return &Tournament{
			Dir:        dir,
			Games:      bundled(t, "breakthrough"),
			Players:    []string{"legal", "random"},
			Rounds:     rounds,
			Parallel:   2,
			StartClock: 5 * time.Second,
			PlayClock:  time.Second,
			NewPlayer:  testPlayers(log),
			Referee:    &gamemaster.Referee{NewReasoner: testFactory},
			SPRT:       &SPRT{Delta: 0.1},
		}
	}
	var log startLog
	tr := newT(&log)
	var last Progress
	atVerdict := -1 // matches finished when the test decided
	tr.Progress = func(p Progress) {
		last = p
		if atVerdict < 0 && p.SPRT != nil && p.SPRT.Verdict != Undecided {
			atVerdict = p.Done
		}
	}
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := res.SPRT
	if st == nil || st.Verdict != AcceptH1 || st.Player != "legal" || st.Opponent != "random" {
		t.Fatalf("SPRT %+v, want H1 for legal against random", st)
	}
	t.Logf("%s; %d matches played", st, len(res.Matches))
	if len(res.Matches) >= 2*rounds || last.Total != 2*rounds {
		t.Errorf("%d matches in the results, %d scheduled: want fewer than %d played", len(res.Matches), last.Total, 2*rounds)
	}
	// No match starts after the verdict, so with Parallel 2 at most the
	// one playing beside the deciding match finishes after it. (The
	// verdict itself may count fewer matches than had finished: the test
	// reads them in schedule order, and a later match may finish first.)
	if st.Matches < DefaultMinMatches || st.Matches > res.Completed() || atVerdict < 0 || res.Completed() > atVerdict+1 {
		t.Errorf("test decided after %d matches, with %d finished; %d completed in all", st.Matches, atVerdict, res.Completed())
	}
	if len(log.ids) != len(res.Matches) {
		t.Errorf("%d matches started, %d in the results", len(log.ids), len(res.Matches))
	}
	records := completedRecords(t, dir)
	if len(records) != res.Completed() {
		t.Errorf("%d completed records, results say %d", len(records), res.Completed())
	}
	// Balanced: each assignment played in turn.
	seats := map[string]int{}
	for _, m := range res.Matches {
		seats[strings.Join(m.Players, ",")]++
	}
	if d := seats["legal,random"] - seats["random,legal"]; d < -1 || d > 1 {
		t.Errorf("assignments played %v", seats)
	}
	onDisk := readResults(t, dir)
	if onDisk.SPRT == nil || *onDisk.SPRT != *st || len(onDisk.Matches) != len(res.Matches) {
		t.Errorf("results file: SPRT %+v, %d matches; want %+v, %d", onDisk.SPRT, len(onDisk.Matches), st, len(res.Matches))
	}

	// Run again on the folder: the same verdict, nothing played.
	var again startLog
	res2, err := newT(&again).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(again.ids) != 0 || res2.SPRT == nil || *res2.SPRT != *st || res2.Completed() != res.Completed() {
		t.Errorf("second run: %d matches played, SPRT %+v; want none and %+v", len(again.ids), res2.SPRT, st)
	}
}

func TestSPRTTournamentErrors(t *testing.T) {
	tests := []struct {
		players []string
		sprt    SPRT
		want    string
	}{
		{[]string{"legal", "random", "random"}, SPRT{Delta: 0.1}, "compares two players, not 3"},
		{[]string{"legal", "random"}, SPRT{Delta: 0.7}, "margin 0.7"},
	}
	for _, tt := range tests {
		tr := newTournament(t, t.TempDir(), nil)
		tr.Players = tt.players
		tr.SPRT = &tt.sprt
		if _, err := tr.Run(context.Background()); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("players %q, %+v: err = %v, want %q", tt.players, tt.sprt, err, tt.want)
		}
	}
}
