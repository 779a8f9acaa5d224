package tournament

import (
	"fmt"
	"math"
	"slices"
)

// Defaults of an SPRT's fields left zero.
const (
	DefaultSPRTError  = 0.05 // Alpha and Beta
	DefaultMinMatches = 8
)

// VarianceFloor is the least variance of a score that the SPRT assumes. A
// run of equal scores has a sample variance of zero, which would make the
// log-likelihood ratio infinite; at the floor, a standard deviation of a
// tenth of the score range, a run of wins or of draws decides the test as
// soon as the minimum number of matches allows.
const VarianceFloor = 0.01

// SPRT is a sequential probability ratio test of the first of two players
// against the second, which stops a tournament as soon as it decides.
//
// The score of a match is the first player's goal divided by 100 (its
// mean goal over the roles it held, if several), in the matches where
// both players held a role. The test decides between
//
//	H0: the mean score is μ0 = 0.5 (equal strength, in games whose goals sum to 100)
//	H1: the mean score is μ1 = 0.5 + Delta
//
// with a normal approximation whose variance σ² is estimated from the
// scores so far (the generalized SPRT): after n scores x,
//
//	LLR = Σ log N(x; μ1, σ²)/N(x; μ0, σ²) = (μ1−μ0)/σ² · (Σx − n(μ0+μ1)/2)
//
// where σ² is the sample variance, at least VarianceFloor (and 0.25, the
// largest a score in [0, 1] can have, after a single score). The test
// accepts H1 once LLR ≥ ln((1−β)/α), and H0 once LLR ≤ ln(β/(1−α)), but
// not before MinMatches scores. Rejecting H0 for H1 when the first player
// is no stronger happens with probability about α, and accepting H0 when
// it scores 0.5+Delta with probability about β; a first player weaker
// than the second leads to H0, a much stronger one to H1.
type SPRT struct {
	// Delta is the margin of H1 over H0, above 0 and at most 0.5.
	Delta float64

	// Alpha and Beta are the error probabilities, below 0.5; zero means
	// DefaultSPRTError.
	Alpha, Beta float64

	// MinMatches is the least number of scores the test decides on; zero
	// means DefaultMinMatches.
	MinMatches int
}

// Verdict is the decision of an SPRT.
type Verdict string

// The verdicts of an SPRT.
const (
	Undecided Verdict = "undecided"
	AcceptH0  Verdict = "H0"
	AcceptH1  Verdict = "H1"
)

// SPRTResult is the state of an SPRT after some scores: the decision, or
// the lack of one, and the numbers it rests on.
type SPRTResult struct {
	// Player and Opponent are the labels of the first and the second
	// player, when the test ran on a tournament.
	Player   string `json:"player,omitempty"`
	Opponent string `json:"opponent,omitempty"`

	Delta float64 `json:"delta"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`

	Verdict Verdict `json:"verdict"`
	// Matches is the number of scores the test counted: up to the one
	// that decided it, or all of them.
	Matches int `json:"matches"`
	// Mean and Variance are the mean score of those matches and the
	// variance the ratio used.
	Mean     float64 `json:"mean"`
	Variance float64 `json:"variance"`
	// LLR is the log-likelihood ratio of H1 to H0; Lower and Upper are
	// the bounds at which the test accepts H0 and H1.
	LLR   float64 `json:"llr"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// Validate reports whether the fields of s are in range.
func (s *SPRT) Validate() error {
	switch {
	case !(s.Delta > 0 && s.Delta <= 0.5):
		return fmt.Errorf("SPRT margin %v: want above 0 and at most 0.5", s.Delta)
	case !(s.Alpha >= 0 && s.Alpha < 0.5) || !(s.Beta >= 0 && s.Beta < 0.5):
		return fmt.Errorf("SPRT error probabilities %v and %v: want below 0.5", s.Alpha, s.Beta)
	case s.MinMatches < 0:
		return fmt.Errorf("SPRT minimum of %d matches: want at least 0", s.MinMatches)
	}
	return nil
}

func (s *SPRT) errors() (alpha, beta float64) {
	alpha, beta = s.Alpha, s.Beta
	if alpha == 0 {
		alpha = DefaultSPRTError
	}
	if beta == 0 {
		beta = DefaultSPRTError
	}
	return alpha, beta
}

func (s *SPRT) minMatches() int {
	if s.MinMatches == 0 {
		return DefaultMinMatches
	}
	return s.MinMatches
}

// Test runs the test over scores, each in [0, 1], in order, and returns
// its state at the first score that decides it, or after the last.
func (s *SPRT) Test(scores []float64) SPRTResult {
	return s.test(scores, s.minMatches())
}

// test is Test with the least number of scores to decide on given.
func (s *SPRT) test(scores []float64, least int) SPRTResult {
	alpha, beta := s.errors()
	r := SPRTResult{
		Delta: s.Delta, Alpha: alpha, Beta: beta,
		Verdict: Undecided,
		Lower:   math.Log(beta / (1 - alpha)),
		Upper:   math.Log((1 - beta) / alpha),
	}
	const mu0 = 0.5
	mu1 := mu0 + s.Delta
	var mean, m2 float64 // Welford's running mean and sum of squared deviations
	for i, x := range scores {
		n := float64(i + 1)
		d := x - mean
		mean += d / n
		m2 += d * (x - mean)
		variance := 0.25
		if i > 0 {
			variance = max(m2/(n-1), VarianceFloor)
		}
		r.Matches, r.Mean, r.Variance = i+1, mean, variance
		r.LLR = (mu1 - mu0) / variance * (n*mean - n*(mu0+mu1)/2)
		if i+1 < least {
			continue
		}
		if r.LLR >= r.Upper {
			r.Verdict = AcceptH1
			break
		}
		if r.LLR <= r.Lower {
			r.Verdict = AcceptH0
			break
		}
	}
	return r
}

// String describes the verdict, such as "H1 accepted: mcts scores ≥ 0.60
// against mcts:base (LLR 3.01 ≥ 2.94 after 24 matches, mean score 0.71)".
func (r SPRTResult) String() string {
	a, b := r.Player, r.Opponent
	if a == "" {
		a, b = "the first player", "the second"
	}
	mu1 := 0.5 + r.Delta
	switch r.Verdict {
	case AcceptH1:
		return fmt.Sprintf("H1 accepted: %s scores ≥ %.2f against %s (LLR %.2f ≥ %.2f after %d matches, mean score %.2f)",
			a, mu1, b, r.LLR, r.Upper, r.Matches, r.Mean)
	case AcceptH0:
		return fmt.Sprintf("H0 accepted: %s scores ≤ 0.50 against %s, not %.2f (LLR %.2f ≤ %.2f after %d matches, mean score %.2f)",
			a, b, mu1, r.LLR, r.Lower, r.Matches, r.Mean)
	}
	return fmt.Sprintf("undecided after %d matches whether %s scores 0.50 or %.2f against %s (LLR %.2f, between %.2f and %.2f; mean score %.2f)",
		r.Matches, a, mu1, b, r.LLR, r.Lower, r.Upper, r.Mean)
}

// sprtStatus runs the test s on the tournament of two players res: over
// the scores of the first player in the completed matches, in the order
// of the schedule, up to the first match still pending, if any. The test
// decides on no fewer scores than s's minimum, nor before it has a score
// of every game and assignment of players to roles. As it stops at the
// first score that decides it, matches completed after that do not
// change the verdict: a tournament run again on the same folder reaches
// the same one without playing.
func sprtStatus(s *SPRT, res *Results, pending []bool) SPRTResult {
	a, b := res.Players[0], res.Players[1]
	key := func(m *MatchResult) string { return fmt.Sprintf("%s %q", m.Game, m.Players) }
	need := map[string]bool{} // every game and assignment that gives a score
	for i := range res.Matches {
		m := &res.Matches[i]
		if hasBoth(m, a, b) {
			need[key(m)] = true
		}
	}
	var scores []float64
	least := -1
	seen := map[string]bool{}
	for i := range res.Matches {
		if pending != nil && pending[i] {
			break
		}
		m := &res.Matches[i]
		x, _, ok := m.scores(a, b)
		if !ok {
			continue
		}
		scores = append(scores, x/100)
		if least < 0 {
			seen[key(m)] = true
			if len(seen) == len(need) {
				least = max(s.minMatches(), len(scores))
			}
		}
	}
	if least < 0 {
		least = len(scores) + 1 // not every assignment played yet
	}
	r := s.test(scores, least)
	r.Player, r.Opponent = a, b
	return r
}

// hasBoth reports whether players a and b both hold a role in m.
func hasBoth(m *MatchResult, a, b string) bool {
	return slices.Contains(m.Players, a) && slices.Contains(m.Players, b)
}
