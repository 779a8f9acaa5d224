package tournament

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
)

// Comparison sums up how one player, A, fared against another, B, over the
// completed matches in which both held a role: per game, and over all
// games pooled, every match weighing the same.
//
// The score of a match for A is A's goal, or its mean goal over the roles
// it held when it held several (in games of more roles than players). A
// match is a win for A when that score is above B's, computed the same
// way, a draw when equal and a loss when below. Matches of a game that
// only one of them plays at a time, such as a single-player game, do not
// count.
type Comparison struct {
	A, B  string
	Games []ComparisonRow // one per game, in the order of Results.Games
	Total ComparisonRow   // every match of every game, pooled
}

// ComparisonRow is one line of a Comparison: A's results in the matches of
// one game, or of all games.
type ComparisonRow struct {
	Game    string  // the game's key; empty in the total
	Matches int     // completed matches in which both players held a role
	Mean    float64 // A's mean score, on the goals' scale of 0 to 100
	// CI95 is the half-width of the 95% confidence interval of Mean
	// (Student's t), or -1 with fewer than two matches.
	CI95                float64
	Wins, Draws, Losses int // A's score above, equal to, below B's
}

// Compare returns the comparison of player a against player b, both labels
// of res.Players.
func (res *Results) Compare(a, b string) (*Comparison, error) {
	for _, p := range []string{a, b} {
		if !slices.Contains(res.Players, p) {
			return nil, fmt.Errorf("tournament: compare %s with %s: no player %s in %s", a, b, p, res.Name)
		}
	}
	if a == b {
		return nil, fmt.Errorf("tournament: compare %s with itself", a)
	}
	c := &Comparison{A: a, B: b}
	games := slices.Clone(res.Games)
	for _, m := range res.Matches {
		if !slices.Contains(games, m.Game) {
			games = append(games, m.Game)
		}
	}
	var all []float64
	for _, g := range games {
		row := ComparisonRow{Game: g}
		var xs []float64
		for i := range res.Matches {
			m := &res.Matches[i]
			if m.Game != g {
				continue
			}
			sa, sb, ok := m.scores(a, b)
			if !ok {
				continue
			}
			xs = append(xs, sa)
			row.count(sa, sb)
			c.Total.count(sa, sb)
		}
		row.Matches = len(xs)
		row.Mean, row.CI95 = meanCI95(xs)
		c.Games = append(c.Games, row)
		all = append(all, xs...)
	}
	c.Total.Matches = len(all)
	c.Total.Mean, c.Total.CI95 = meanCI95(all)
	return c, nil
}

func (r *ComparisonRow) count(a, b float64) {
	switch {
	case a > b:
		r.Wins++
	case a < b:
		r.Losses++
	default:
		r.Draws++
	}
}

// scores returns the scores of players a and b in m, each its mean goal
// over the roles it held, if m completed with both in it.
func (m *MatchResult) scores(a, b string) (sa, sb float64, ok bool) {
	if !m.Completed || len(m.Goals) != len(m.Players) {
		return 0, 0, false
	}
	var na, nb int
	for i, p := range m.Players {
		switch p {
		case a:
			sa += float64(m.Goals[i])
			na++
		case b:
			sb += float64(m.Goals[i])
			nb++
		}
	}
	if na == 0 || nb == 0 {
		return 0, 0, false
	}
	return sa / float64(na), sb / float64(nb), true
}

// WriteTable writes the comparison as a table under a line that says what
// it shows: per game and for all games, the matches, A's mean score with
// its 95% confidence interval, and A's wins, draws and losses.
func (c *Comparison) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%s against %s: %s's goal per match (its mean over the roles it held); all: pooled over matches\n", c.A, c.B, c.A); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "game\tmatches\tmean goal\t95% CI\twins\tdraws\tlosses\t")
	for _, r := range append(slices.Clone(c.Games), c.Total) {
		game := r.Game
		if game == "" {
			game = "all"
		}
		mean, ci := "-", "-"
		if r.Matches > 0 {
			mean = fmt.Sprintf("%.1f", r.Mean)
		}
		if r.CI95 >= 0 {
			ci = fmt.Sprintf("±%.1f", r.CI95)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t%d\t\n", game, r.Matches, mean, ci, r.Wins, r.Draws, r.Losses)
	}
	return tw.Flush()
}
