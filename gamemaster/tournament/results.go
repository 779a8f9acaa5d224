package tournament

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ggp-go/ggp/gamemaster/record"
)

// Results are the outcome of a tournament, as written to ResultsFile.
type Results struct {
	Name    string   `json:"name"`
	Games   []string `json:"games"`
	Players []string `json:"players"` // labels, as Labels returns them
	// Matches are in the order of Schedule: all of them, but for those
	// left unplayed because the SPRT decided.
	Matches   []MatchResult `json:"matches"`
	Standings []Standing    `json:"standings"`
	// SPRT is the state of the tournament's sequential test, if it has
	// one.
	SPRT *SPRTResult `json:"sprt,omitempty"`
}

// MatchResult is the outcome of one match.
type MatchResult struct {
	ID      string   `json:"matchId"`
	Game    string   `json:"game"`
	Round   int      `json:"round"`
	Players []string `json:"players"` // labels, in role order
	// Names are the names the record gives the players, in role order: a
	// remote player's is the one it gave INFO.
	Names     []string      `json:"names,omitempty"`
	Roles     []string      `json:"roles,omitempty"`
	Completed bool          `json:"completed"`
	Goals     []int         `json:"goals,omitempty"` // in role order, when completed
	Steps     int           `json:"steps"`
	Errors    []ErrorCounts `json:"errors,omitempty"` // in role order
	Record    string        `json:"record,omitempty"` // path relative to the tournament folder
	Error     string        `json:"error,omitempty"`  // why the match did not complete
}

// ErrorCounts counts the errors of a player by kind: timeouts, connection
// errors and illegal moves.
type ErrorCounts struct {
	TO int `json:"TO"`
	CE int `json:"CE"`
	IL int `json:"IL"`
}

func (e *ErrorCounts) add(f ErrorCounts) {
	e.TO += f.TO
	e.CE += f.CE
	e.IL += f.IL
}

// Standing sums up the results of one player over the completed matches.
// A player that takes several roles of a match counts once per role.
type Standing struct {
	Player string `json:"player"`
	// Name is the name the player gave INFO, when it differs from Player:
	// Player is the address of a remote player.
	Name    string `json:"name,omitempty"`
	Matches int    `json:"matches"` // completed matches played
	// Incomplete counts the matches of the player that did not complete:
	// aborted, failed, or not played yet.
	Incomplete int     `json:"incomplete"`
	GoalMean   float64 `json:"goalMean"`
	// GoalCI95 is the half-width of the 95% confidence interval of the
	// mean goal (Student's t), or -1 with fewer than two matches.
	GoalCI95 float64 `json:"goalCI95"`
	// Wins, Draws and Losses count the completed two-player matches by
	// comparing the player's goal with the other's.
	Wins      int         `json:"wins"`
	Draws     int         `json:"draws"`
	Losses    int         `json:"losses"`
	TwoPlayer int         `json:"twoPlayerMatches"`
	Errors    ErrorCounts `json:"errors"`
}

// resultOf reads the outcome of a scheduled match from its record.
func resultOf(m *Scheduled, rec *record.Record, dir string) MatchResult {
	r := MatchResult{
		ID: m.ID, Game: m.Game.Key, Round: m.Round, Players: m.players,
		Names:     rec.PlayerNamesFromHost,
		Roles:     rec.Roles,
		Completed: rec.IsCompleted,
		Steps:     rec.Steps(),
	}
	if rel, err := filepath.Rel(dir, m.Record); err == nil {
		r.Record = filepath.ToSlash(rel)
	}
	if rec.IsCompleted {
		r.Goals = rec.GoalValues
	}
	if rec.IsAborted {
		r.Error = rec.AbortReason
	}
	r.Errors = CountErrors(rec.Errors, len(rec.Roles))
	// The record lists nature among the roles of a GDL-II match, where
	// no player sits: the result lists the players' roles only, in the
	// order of Players.
	if nature := slices.Index(rec.Roles, rec.Nature); rec.GDLII && rec.Nature != "" && nature >= 0 {
		r.Names = without(r.Names, nature)
		r.Roles = without(r.Roles, nature)
		r.Goals = without(r.Goals, nature)
		r.Errors = without(r.Errors, nature)
	}
	return r
}

// without returns xs without its element i, if it has one.
func without[T any](xs []T, i int) []T {
	if i >= len(xs) {
		return xs
	}
	return slices.Delete(slices.Clone(xs), i, i+1)
}

// CountErrors counts, for each of roles roles, the errors of a record's
// steps (record.Record.Errors) by kind: an error is its kind's code,
// followed for an illegal move by a space and the move.
func CountErrors(steps [][]string, roles int) []ErrorCounts {
	counts := make([]ErrorCounts, roles)
	for _, step := range steps {
		for i, e := range step {
			if i >= roles {
				break
			}
			code, _, _ := strings.Cut(e, " ")
			switch code {
			case record.ErrTimeout:
				counts[i].TO++
			case record.ErrConnection:
				counts[i].CE++
			case record.ErrIllegal:
				counts[i].IL++
			}
		}
	}
	return counts
}

// summarize computes the standings from the matches.
func (res *Results) summarize() {
	goals := make(map[string][]float64)
	st := make(map[string]*Standing)
	for _, p := range res.Players {
		st[p] = &Standing{Player: p}
	}
	for _, m := range res.Matches {
		for i, p := range m.Players {
			s := st[p]
			if s == nil {
				continue
			}
			if i < len(m.Names) && m.Names[i] != "" && m.Names[i] != p && !strings.HasPrefix(p, m.Names[i]+"#") {
				s.Name = m.Names[i] // the latest name a remote player gave
			}
			if i < len(m.Errors) {
				s.Errors.add(m.Errors[i])
			}
			if !m.Completed || i >= len(m.Goals) {
				s.Incomplete++
				continue
			}
			s.Matches++
			goals[p] = append(goals[p], float64(m.Goals[i]))
			if len(m.Goals) == 2 {
				s.TwoPlayer++
				switch mine, theirs := m.Goals[i], m.Goals[1-i]; {
				case mine > theirs:
					s.Wins++
				case mine < theirs:
					s.Losses++
				default:
					s.Draws++
				}
			}
		}
	}
	res.Standings = res.Standings[:0]
	for _, p := range res.Players {
		s := st[p]
		s.GoalMean, s.GoalCI95 = meanCI95(goals[p])
		res.Standings = append(res.Standings, *s)
	}
}

// meanCI95 returns the mean of xs and the half-width of its 95% confidence
// interval by Student's t, or -1 for the half-width with fewer than two
// values.
func meanCI95(xs []float64) (mean, half float64) {
	n := len(xs)
	if n == 0 {
		return 0, -1
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, -1
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	return mean, tQuantile975(n-1) * sd / math.Sqrt(float64(n))
}

// t975 holds the 0.975 quantiles of Student's t distribution for 1 to 30
// degrees of freedom.
var t975 = [...]float64{
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
}

// tQuantile975 returns the 0.975 quantile of Student's t with df degrees
// of freedom, rounded up to the nearest tabulated value beyond 30.
func tQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= len(t975):
		return t975[df-1]
	case df < 40:
		return 2.042
	case df < 60:
		return 2.021
	case df < 120:
		return 2.000
	case df < 1000:
		return 1.980
	}
	return 1.960
}

// WriteTable writes the standings as a table: per player the matches, the
// mean goal with its 95% confidence interval, wins, draws and losses in
// two-player games, and errors by kind.
func (res *Results) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "player\tmatches\tmean goal\t95% CI\twins\tdraws\tlosses\tTO\tCE\tIL\tincomplete\t")
	for _, s := range res.Standings {
		ci := "-"
		if s.GoalCI95 >= 0 {
			ci = fmt.Sprintf("±%.1f", s.GoalCI95)
		}
		mean := "-"
		if s.Matches > 0 {
			mean = fmt.Sprintf("%.1f", s.GoalMean)
		}
		wins, draws, losses := "-", "-", "-"
		if s.TwoPlayer > 0 {
			wins, draws, losses = fmt.Sprint(s.Wins), fmt.Sprint(s.Draws), fmt.Sprint(s.Losses)
		}
		player := s.Player
		if s.Name != "" {
			player += " (" + s.Name + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t\n", player, s.Matches, mean, ci, wins, draws, losses, s.Errors.TO, s.Errors.CE, s.Errors.IL, s.Incomplete)
	}
	return tw.Flush()
}

// Completed returns the number of completed matches.
func (res *Results) Completed() int {
	n := 0
	for _, m := range res.Matches {
		if m.Completed {
			n++
		}
	}
	return n
}
