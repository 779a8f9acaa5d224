package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// simulate plays matches of k roles between players of known ratings.
// Each match seats k distinct players at random and ranks them by
// Plackett–Luce on strengths 10^(elo/400), which for k = 2 is exactly the
// Bradley–Terry model that Compute fits; the first ranked scores 100, the
// last 0.
func simulate(rng *rand.Rand, game string, elo []float64, k, matches int) []Result {
	var results []Result
	for m := 0; m < matches; m++ {
		seats := rng.Perm(len(elo))[:k]
		// Rank by drawing without replacement in proportion to strength.
		left := append([]int(nil), seats...)
		goalOf := make(map[int]int)
		for place := 0; place < k; place++ {
			total := 0.0
			for _, p := range left {
				total += math.Pow(10, elo[p]/400)
			}
			x := rng.Float64() * total
			pick := len(left) - 1
			for i, p := range left {
				x -= math.Pow(10, elo[p]/400)
				if x < 0 {
					pick = i
					break
				}
			}
			goalOf[left[pick]] = 100 * (k - 1 - place) / (k - 1)
			left = append(left[:pick], left[pick+1:]...)
		}
		r := Result{MatchID: fmt.Sprintf("%s.%04d", game, m), Game: game}
		for _, p := range seats {
			r.Players = append(r.Players, playerName(p))
			r.Goals = append(r.Goals, goalOf[p])
		}
		results = append(results, r)
	}
	return results
}

func playerName(i int) string { return fmt.Sprintf("p%02d", i) }

// spaced returns n ratings step apart, averaging Mean.
func spaced(n int, step float64) []float64 {
	elo := make([]float64, n)
	for i := range elo {
		elo[i] = Mean + step*(float64(i)-float64(n-1)/2)
	}
	return elo
}

func compute(t *testing.T, results []Result, opt Options) *Report {
	t.Helper()
	rep, err := Compute(results, opt)
	if err != nil {
		t.Fatalf("Compute: %v", err)
	}
	return rep
}

func rating(t *testing.T, tab *Table, player string) Rating {
	t.Helper()
	r, ok := tab.Player(player)
	if !ok {
		t.Fatalf("table %q has no player %s", tab.Game, player)
	}
	return r
}

// TestSimulatedPopulation generates matches from known strengths and checks
// that the fit recovers their order and that the intervals cover the true
// ratings at about the nominal rate.
func TestSimulatedPopulation(t *testing.T) {
	for _, tc := range []struct {
		name        string
		players     int
		step        float64 // rating points between neighbours
		roles       int
		matches     int
		seeds       int
		minKendall  float64 // least rank correlation with the truth, in every run
		checkCover  bool    // whether the model is exactly the fitted one
		minCoverage float64
		maxCoverage float64
	}{
		{name: "two-player, close", players: 8, step: 50, roles: 2, matches: 400, seeds: 40, minKendall: 0.5, checkCover: true, minCoverage: 0.91, maxCoverage: 0.985},
		{name: "two-player, spread", players: 10, step: 120, roles: 2, matches: 1000, seeds: 20, minKendall: 0.9, checkCover: true, minCoverage: 0.91, maxCoverage: 0.99},
		{name: "three-player", players: 8, step: 100, roles: 3, matches: 800, seeds: 10, minKendall: 0.85},
		{name: "four-player", players: 6, step: 150, roles: 4, matches: 400, seeds: 10, minKendall: 0.85},
	} {
		t.Run(tc.name, func(t *testing.T) {
			elo := spaced(tc.players, tc.step)
			covered, intervals := 0, 0
			for seed := 0; seed < tc.seeds; seed++ {
				rng := rand.New(rand.NewPCG(uint64(seed), 57))
				rep := compute(t, simulate(rng, "g", elo, tc.roles, tc.matches), Options{})
				if len(rep.Problems) != 0 {
					t.Fatalf("seed %d: problems %v", seed, rep.Problems)
				}
				got := make([]float64, tc.players)
				for i := range elo {
					r := rating(t, &rep.Overall, playerName(i))
					got[i] = r.Elo
					intervals++
					if r.Low <= elo[i] && elo[i] <= r.High {
						covered++
					}
				}
				if tau := kendall(elo, got); tau < tc.minKendall {
					t.Errorf("seed %d: rank correlation %.2f with the true order, want at least %.2f; ratings %.0f", seed, tau, tc.minKendall, got)
				}
			}
			rate := float64(covered) / float64(intervals)
			t.Logf("coverage %d/%d = %.3f", covered, intervals, rate)
			if tc.checkCover && (rate < tc.minCoverage || rate > tc.maxCoverage) {
				t.Errorf("95%% intervals covered the true rating %d times in %d (%.3f), want %.2f to %.3f", covered, intervals, rate, tc.minCoverage, tc.maxCoverage)
			}
		})
	}
}

// kendall is Kendall's rank correlation of x and y.
func kendall(x, y []float64) float64 {
	concordant, pairs := 0, 0
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			pairs++
			if (x[i]-x[j])*(y[i]-y[j]) > 0 {
				concordant++
			}
		}
	}
	return float64(2*concordant-pairs) / float64(pairs)
}

func match(id string, players string, goals ...int) Result {
	return Result{MatchID: id, Game: "g", Players: strings.Fields(players), Goals: goals}
}

// TestSymmetricResults checks that players whose results mirror each other
// get equal ratings at Mean, with equal intervals.
func TestSymmetricResults(t *testing.T) {
	for _, tc := range []struct {
		name    string
		results []Result
	}{
		{"one win each", []Result{match("1", "a b", 100, 0), match("2", "b a", 100, 0)}},
		{"roles swapped", []Result{match("1", "a b", 100, 0), match("2", "a b", 0, 100)}},
		{"draw", []Result{match("1", "a b", 50, 50)}},
		{"draw at zero", []Result{match("1", "a b", 0, 0)}},
		{"cycle of three", []Result{match("1", "a b", 100, 0), match("2", "b c", 100, 0), match("3", "c a", 100, 0)}},
		{"three-player rotation", []Result{match("1", "a b c", 100, 50, 0), match("2", "b c a", 100, 50, 0), match("3", "c a b", 100, 50, 0)}},
		{"three-player tie", []Result{match("1", "a b c", 30, 30, 30)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := compute(t, tc.results, Options{}).Overall
			first := tab.Ratings[0]
			for _, r := range tab.Ratings {
				if !r.Rated || math.Abs(r.Elo-Mean) > 1e-6 || math.Abs((r.High-r.Low)-(first.High-first.Low)) > 1e-6 {
					t.Errorf("%s: rated %v, %.9f [%.3f, %.3f], want rated at %d with the interval of %s [%.3f, %.3f]",
						r.Player, r.Rated, r.Elo, r.Low, r.High, Mean, first.Player, first.Low, first.High)
				}
				if math.Abs(r.Score-0.5) > 1e-12 {
					t.Errorf("%s: score %v, want 0.5", r.Player, r.Score)
				}
			}
		})
	}
}

// TestOrderInvariance checks that shuffling the results, bad and duplicate
// ones included, changes nothing in the ratings.
func TestOrderInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var results []Result
	results = append(results, simulate(rng, "g1", spaced(6, 80), 2, 200)...)
	results = append(results, simulate(rng, "g2", spaced(6, 80), 3, 150)...)
	results = append(results,
		results[3], // an exact repeat
		Result{MatchID: "bad", Game: "g1", Players: []string{"p00"}, Goals: []int{101}},
		Result{MatchID: "g1.0007", Game: "g1", Players: []string{"p00", "p01"}, Goals: []int{1, 2}}, // conflicts, unless p00 p01 1 2
		Result{MatchID: "ab", Game: "g2", Players: []string{"p03", "p04"}, Status: Aborted},
	)
	want := compute(t, results, Options{})
	if len(want.Problems) != 4 {
		t.Fatalf("problems %v, want 4: a repeat, a goal out of range and two conflicting results", want.Problems)
	}
	for trial := 0; trial < 5; trial++ {
		shuffled := append([]Result(nil), results...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := compute(t, shuffled, Options{})
		if !reflect.DeepEqual(got.Overall, want.Overall) {
			t.Errorf("trial %d: overall table differs after shuffling:\n got %+v\nwant %+v", trial, got.Overall, want.Overall)
		}
		if !reflect.DeepEqual(got.Games, want.Games) {
			t.Errorf("trial %d: game tables differ after shuffling", trial)
		}
		if len(got.Problems) != len(want.Problems) {
			t.Errorf("trial %d: %d problems, want %d", trial, len(got.Problems), len(want.Problems))
		}
	}
}

// TestCases checks small sets of results against what they must give.
func TestCases(t *testing.T) {
	many := func(n int, r Result) []Result {
		var rs []Result
		for i := 0; i < n; i++ {
			r.MatchID = fmt.Sprintf("%s%d", r.MatchID, i)
			rs = append(rs, r)
		}
		return rs
	}
	disconnected := []Result{
		match("1", "a b", 100, 0), match("2", "a b", 100, 0), match("3", "a b", 0, 100),
		match("4", "c d", 100, 0), match("5", "c d", 100, 0), match("6", "c d", 0, 100),
	}
	for _, tc := range []struct {
		name    string
		results []Result
		opt     Options
		check   func(t *testing.T, rep *Report)
	}{
		{
			name: "no matches",
			check: func(t *testing.T, rep *Report) {
				if len(rep.Overall.Ratings) != 0 || len(rep.Games) != 0 || rep.Overall.Matches != 0 || rep.Overall.Components != 0 {
					t.Errorf("report %+v, want empty", rep)
				}
			},
		},
		{
			name:    "single player in self-play",
			results: []Result{match("1", "a a", 100, 0), match("2", "a a", 50, 50)},
			check: func(t *testing.T, rep *Report) {
				a := rating(t, &rep.Overall, "a")
				if a.Rated || a.Matches != 2 || len(rep.Overall.Ratings) != 1 || rep.Overall.Matches != 2 {
					t.Errorf("table %+v, want a unrated with 2 matches", rep.Overall)
				}
			},
		},
		{
			name:    "single-role game",
			results: []Result{match("1", "a", 100), match("2", "b", 0)},
			check: func(t *testing.T, rep *Report) {
				for _, r := range rep.Overall.Ratings {
					if r.Rated || r.Matches != 1 {
						t.Errorf("%+v, want unrated with 1 match", r)
					}
				}
			},
		},
		{
			name:    "all wins and all losses",
			results: many(30, match("m", "a b", 100, 0)),
			check: func(t *testing.T, rep *Report) {
				a, b := rating(t, &rep.Overall, "a"), rating(t, &rep.Overall, "b")
				for _, r := range []Rating{a, b} {
					if math.IsInf(r.Elo, 0) || math.IsNaN(r.Elo) || !(r.Low < r.Elo && r.Elo < r.High) || math.IsInf(r.High-r.Low, 0) {
						t.Errorf("%+v, want a finite rating inside a finite interval", r)
					}
				}
				if !(a.Elo-b.Elo > 400) || math.Abs(a.Elo+b.Elo-2*Mean) > 1e-6 {
					t.Errorf("a %.1f, b %.1f: want a more than 400 above b, averaging %d", a.Elo, b.Elo, Mean)
				}
				if a.Score != 1 || b.Score != 0 || a.Matches != 30 {
					t.Errorf("a %+v, b %+v: want scores 1 and 0 over 30 matches", a, b)
				}
			},
		},
		{
			name:    "a weak prior yields to evidence",
			results: many(30, match("m", "a b", 100, 0)),
			opt:     Options{PriorSD: 100},
			check: func(t *testing.T, rep *Report) {
				strong := compute(t, many(30, match("m", "a b", 100, 0)), Options{})
				gap := rating(t, &rep.Overall, "a").Elo - rating(t, &rep.Overall, "b").Elo
				wider := rating(t, &strong.Overall, "a").Elo - rating(t, &strong.Overall, "b").Elo
				if !(0 < gap && gap < wider) {
					t.Errorf("gap %.1f with prior SD 100, %.1f with the default: want the narrower prior to pull harder", gap, wider)
				}
			},
		},
		{
			name:    "disconnected groups",
			results: disconnected,
			check: func(t *testing.T, rep *Report) {
				tab := &rep.Overall
				a, b, c, d := rating(t, tab, "a"), rating(t, tab, "b"), rating(t, tab, "c"), rating(t, tab, "d")
				if tab.Components != 2 || a.Component != 1 || b.Component != 1 || c.Component != 2 || d.Component != 2 {
					t.Errorf("components %d, a %d b %d c %d d %d: want a, b in 1 and c, d in 2", tab.Components, a.Component, b.Component, c.Component, d.Component)
				}
				if math.Abs(a.Elo-c.Elo) > 1e-6 || math.Abs(b.Elo-d.Elo) > 1e-6 || !(a.Elo > b.Elo) {
					t.Errorf("a %.3f b %.3f c %.3f d %.3f: want a = c > b = d", a.Elo, b.Elo, c.Elo, d.Elo)
				}
				joined := compute(t, append(append([]Result(nil), disconnected...), match("7", "a c", 50, 50), match("8", "b d", 50, 50)), Options{})
				ja := rating(t, &joined.Overall, "a")
				if !(ja.High-ja.Low < a.High-a.Low) || joined.Overall.Components != 1 {
					t.Errorf("a's interval %.1f wide apart, %.1f joined with %d components: want joining the groups to narrow it",
						a.High-a.Low, ja.High-ja.Low, joined.Overall.Components)
				}
			},
		},
		{
			name: "three-player order",
			results: []Result{
				match("1", "a b c", 100, 50, 0), match("2", "c a b", 0, 100, 50), match("3", "b c a", 50, 0, 100),
				match("4", "a b c", 100, 50, 0),
			},
			check: func(t *testing.T, rep *Report) {
				got := []string{rep.Overall.Ratings[0].Player, rep.Overall.Ratings[1].Player, rep.Overall.Ratings[2].Player}
				if !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
					t.Errorf("order %v, want a b c", got)
				}
				if a := rating(t, &rep.Overall, "a"); a.Score != 1 || a.Matches != 4 {
					t.Errorf("a %+v: want score 1 in 4 matches", a)
				}
				if b := rating(t, &rep.Overall, "b"); b.Score != 0.5 {
					t.Errorf("b %+v: want score 0.5", b)
				}
			},
		},
		{
			name:    "a three-player match weighs as much per role as a two-player one",
			results: []Result{match("1", "a b c", 100, 0, 0), match("2", "c a b", 0, 100, 0)},
			check: func(t *testing.T, rep *Report) {
				// Two three-player matches give a half-weighted win over b
				// and over c in each, and a half-weighted b-c draw in each:
				// one two-player match of each kind.
				pairwise := compute(t, []Result{match("1", "a b", 100, 0), match("2", "a c", 100, 0), match("3", "b c", 50, 50)}, Options{})
				for _, p := range []string{"a", "b", "c"} {
					got, want := rating(t, &rep.Overall, p), rating(t, &pairwise.Overall, p)
					if math.Abs(got.Elo-want.Elo) > 1e-6 || math.Abs(got.Low-want.Low) > 1e-6 || got.Score != want.Score {
						t.Errorf("%s: %+v from three-player matches, %+v from two-player ones: want equal", p, got, want)
					}
				}
			},
		},
		{
			name: "aborted and errored matches",
			results: []Result{
				match("1", "a b", 100, 0),
				{MatchID: "2", Game: "g", Players: []string{"a", "c"}, Status: Aborted},
				{MatchID: "3", Game: "g", Players: []string{"b", "a"}, Goals: []int{100, 0}, Status: Errored},
			},
			check: func(t *testing.T, rep *Report) {
				a, b, c := rating(t, &rep.Overall, "a"), rating(t, &rep.Overall, "b"), rating(t, &rep.Overall, "c")
				if a.Matches != 2 || a.Aborted != 1 || c.Rated || c.Aborted != 1 || c.Matches != 0 || math.Abs(a.Elo-b.Elo) > 1e-6 {
					t.Errorf("a %+v\nb %+v\nc %+v\nwant a and b equal over 2 matches, c unrated with 1 aborted", a, b, c)
				}
			},
		},
		{
			name: "errored matches skipped",
			opt:  Options{SkipErrored: true},
			results: []Result{
				match("1", "a b", 100, 0),
				{MatchID: "3", Game: "g", Players: []string{"b", "a"}, Goals: []int{100, 0}, Status: Errored},
			},
			check: func(t *testing.T, rep *Report) {
				a, b := rating(t, &rep.Overall, "a"), rating(t, &rep.Overall, "b")
				if a.Matches != 1 || a.Aborted != 1 || !(a.Elo > b.Elo) || rep.Overall.Matches != 1 {
					t.Errorf("a %+v, b %+v: want a above b on 1 match, the errored one skipped", a, b)
				}
			},
		},
		{
			name: "per-game tables",
			results: []Result{
				{MatchID: "1", Game: "chess", Players: []string{"a", "b"}, Goals: []int{100, 0}},
				{MatchID: "2", Game: "go", Players: []string{"b", "a"}, Goals: []int{100, 0}},
				{MatchID: "3", Game: "go", Players: []string{"b", "c"}, Goals: []int{100, 0}},
			},
			check: func(t *testing.T, rep *Report) {
				if len(rep.Games) != 2 || rep.Games[0].Game != "chess" || rep.Games[1].Game != "go" {
					t.Fatalf("games %+v, want chess then go", rep.Games)
				}
				chess, _ := rep.Game("chess")
				goTab, _ := rep.Game("go")
				if _, ok := chess.Player("c"); ok || chess.Matches != 1 || goTab.Matches != 2 || rep.Overall.Matches != 3 {
					t.Errorf("chess %+v, go %+v: want c only in go, 1 and 2 matches", chess, goTab)
				}
				if !(rating(t, chess, "a").Elo > rating(t, chess, "b").Elo) || !(rating(t, goTab, "b").Elo > rating(t, goTab, "a").Elo) {
					t.Errorf("want a above b in chess and below in go")
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := compute(t, tc.results, tc.opt)
			if len(rep.Problems) != 0 {
				t.Errorf("problems %v, want none", rep.Problems)
			}
			tc.check(t, rep)
		})
	}
}

// TestProblems checks that each kind of bad result is reported with the
// reason, and that the good results are rated as if it were absent.
func TestProblems(t *testing.T) {
	good := []Result{match("1", "a b", 100, 0), match("2", "b c", 50, 50)}
	for _, tc := range []struct {
		name string
		bad  []Result
		want []string // one reason per problem, by index
		// counted is the results that must be rated besides good
		counted []Result
	}{
		{name: "no match ID", bad: []Result{match("", "a b", 0, 100)}, want: []string{"no match ID"}},
		{name: "no game", bad: []Result{{MatchID: "x", Players: []string{"a", "b"}, Goals: []int{0, 100}}}, want: []string{"no game"}},
		{name: "no players", bad: []Result{{MatchID: "x", Game: "g"}}, want: []string{"no players"}},
		{name: "more goals than roles", bad: []Result{match("x", "a", 0, 100)}, want: []string{"2 goals for 1 roles"}},
		{name: "unnamed role", bad: []Result{{MatchID: "x", Game: "g", Players: []string{"a", ""}, Goals: []int{0, 100}}}, want: []string{"role 1 has no player"}},
		{name: "goals missing", bad: []Result{match("x", "a b c", 0, 100)}, want: []string{"2 goals for 3 roles"}},
		{name: "goal above 100", bad: []Result{match("x", "a b", 101, 0)}, want: []string{"role 0: goal 101 outside 0..100"}},
		{name: "negative goal", bad: []Result{match("x", "a b", 0, -1)}, want: []string{"role 1: goal -1 outside 0..100"}},
		{name: "unknown status", bad: []Result{{MatchID: "x", Game: "g", Players: []string{"a", "b"}, Goals: []int{0, 100}, Status: 7}}, want: []string{"unknown status 7"}},
		{name: "repeat", bad: []Result{match("1", "a b", 100, 0)}, want: []string{"repeats result 0; counted once"}},
		{
			name: "conflict",
			bad:  []Result{match("x", "a c", 100, 0), match("x", "a c", 0, 100)},
			want: []string{"conflicts with a later result", "conflicts with result 2"},
		},
		{
			name:    "bad and good share an ID",
			bad:     []Result{match("x", "a c", 100, 0), match("x", "a c", 100)},
			want:    []string{"1 goals for 2 roles"},
			counted: []Result{match("x", "a c", 100, 0)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := compute(t, append(append([]Result(nil), good...), tc.bad...), Options{})
			if len(rep.Problems) != len(tc.want) {
				t.Fatalf("problems %v, want %d", rep.Problems, len(tc.want))
			}
			for i, p := range rep.Problems {
				if !strings.Contains(p.Error(), tc.want[i]) || !strings.Contains(p.Error(), fmt.Sprintf("result %d", p.Index)) {
					t.Errorf("problem %q, want it to name its result and say %q", p.Error(), tc.want[i])
				}
			}
			want := compute(t, append(append([]Result(nil), good...), tc.counted...), Options{})
			if !reflect.DeepEqual(rep.Overall, want.Overall) {
				t.Errorf("overall table\n got %+v\nwant %+v", rep.Overall, want.Overall)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	for _, sd := range []float64{-1, 0.5, 1e-300, 1e6, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Compute(nil, Options{PriorSD: sd}); err == nil || !strings.Contains(err.Error(), "prior standard deviation") {
			t.Errorf("PriorSD %v: error %v, want one about the prior standard deviation", sd, err)
		}
	}
	// The ends of the range work, even on results that push the
	// arithmetic: one player winning everything.
	var wins []Result
	for i := range 50 {
		wins = append(wins, match(fmt.Sprint(i), "a b c", 100, 0, 0))
	}
	for _, sd := range []float64{minPriorSD, maxPriorSD} {
		rep, err := Compute(wins, Options{PriorSD: sd})
		if err != nil {
			t.Fatalf("PriorSD %v: %v", sd, err)
		}
		for _, r := range rep.Overall.Ratings {
			if math.IsNaN(r.Low) || math.IsInf(r.Low, 0) || math.IsNaN(r.High) || math.IsInf(r.High, 0) {
				t.Errorf("PriorSD %v: %+v, want finite", sd, r)
			}
		}
		if a := rep.Overall.Ratings[0]; a.Player != "a" {
			t.Errorf("PriorSD %v: first %+v, want a", sd, a)
		}
	}
}
