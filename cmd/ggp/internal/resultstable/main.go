// Command resultstable turns tournament folders into the markdown tables
// the documentation links to, so that no figure of a match is typed by
// hand:
//
//	go run ./cmd/ggp/internal/resultstable [-games] [-title TITLE] [-o FILE] DIR...
//
// Each DIR is a folder written by ggp tournament --out, whose results.json
// it reads. A row sums up the tournament's first player (the first of
// --players, the one a comparison measures) over its matches of one game
// (with -games) or of all games: the completed matches in which it held a
// role, its mean goal with the 95% interval (its mean over the roles it
// held, when it held several), its wins, draws and losses against the one
// other player of a match, its timeouts, connection errors and illegal
// moves, and the verdict of the sequential test when the tournament ran
// one (--sprt).
//
// With -o the page is written to FILE, and a DIR that has no results.json
// keeps the rows FILE already has for it, marked recorded: the figures of
// a tournament whose folder is not at hand are carried over as they were,
// never typed again, until the tournament is played again. Without -o the
// page goes to standard output, and every DIR must have results.json.
//
// With -pool NAME the folders are sittings of one measurement, played
// one after another (a suite too long for one sitting, say): their
// matches are summed up together, as one run named NAME. The sittings
// must share their first player, name and all, so that no row mixes two
// versions of it; peer-tournament.sh names our player after the commit it
// was built from for that reason. A pooled row is computed from all the
// folders or, when none of them is at hand, kept as recorded: never from
// some of them.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/cmd/ggp/internal/resultspage"
	"github.com/ggp-go/ggp/gamemaster/tournament"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "resultstable:", err)
		os.Exit(1)
	}
}

// The sources of a row.
const (
	sourceResults  = "results.json"
	sourceRecorded = "recorded"
)

// header names the columns of the table, in order.
var header = []string{"run", "game", "player", "against", "matches", "mean goal", "won, drawn, lost", "TO, CE, IL", "against's TO, CE, IL", "SPRT", "source"}

// againstErrorsColumn is the column of header that pages written before it
// was added lack; their rows are read with "-" there.
const againstErrorsColumn = 8

// maxResultsBytes bounds the results.json read: a tournament of 100,000
// matches writes about 40 MB.
const maxResultsBytes = 256 << 20

// run is the command with its arguments, writing to stdout when no -o is
// given.
func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("resultstable", flag.ContinueOnError)
	out := flags.String("o", "", "write the page to `FILE`, keeping its rows of the folders without results.json")
	perGame := flags.Bool("games", false, "a row per game besides the row of all games")
	title := flags.String("title", "Tournament results", "the page's heading")
	pool := flags.String("pool", "", "sum up the folders as the sittings of one run named `NAME`")
	if err := flags.Parse(args); err != nil {
		return err
	}
	dirs := flags.Args()
	if len(dirs) == 0 {
		return errors.New("no tournament folder given")
	}
	var old []tableRow
	if *out != "" {
		text, err := os.ReadFile(*out)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if old, err = parseRows(string(text)); err != nil {
			return fmt.Errorf("%s: %w", *out, err)
		}
	}
	var rows []tableRow
	if *pool != "" {
		pooled, err := poolRows(*pool, dirs, old, *out != "", *perGame)
		if err != nil {
			return err
		}
		rows = pooled
		dirs = nil
	}
	for _, dir := range dirs {
		res, err := readResults(dir)
		name := runName(dir)
		switch {
		case err == nil:
			rows = append(rows, rowsOf(name, res, *perGame)...)
		case errors.Is(err, fs.ErrNotExist) && *out != "":
			kept := recordedRows(old, name)
			if len(kept) == 0 {
				return fmt.Errorf("%s: no %s, and %s has no row of the run %s to keep", dir, tournament.ResultsFile, *out, name)
			}
			rows = append(rows, kept...)
		default:
			return err
		}
	}
	var page bytes.Buffer
	writePage(&page, *title, resultspage.Command("./cmd/ggp/internal/resultstable", args), rows)
	if *out == "" {
		_, err := stdout.Write(page.Bytes())
		return err
	}
	return os.WriteFile(*out, page.Bytes(), 0o644)
}

// readResults reads the results.json of the tournament folder dir.
func readResults(dir string) (*tournament.Results, error) {
	path := filepath.Join(dir, tournament.ResultsFile)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxResultsBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxResultsBytes)
	}
	var res tournament.Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(res.Players) == 0 {
		return nil, fmt.Errorf("%s: no players", path)
	}
	return &res, nil
}

// poolRows returns the rows of the run name that sums up the sittings
// dirs, or, with keep, its rows of old when none of the folders is at
// hand.
func poolRows(name string, dirs []string, old []tableRow, keep, perGame bool) ([]tableRow, error) {
	var sittings []*tournament.Results
	var missing []string
	for _, dir := range dirs {
		res, err := readResults(dir)
		switch {
		case err == nil:
			sittings = append(sittings, res)
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, dir)
		default:
			return nil, err
		}
	}
	if len(sittings) == 0 && keep {
		kept := recordedRows(old, name)
		if len(kept) == 0 {
			return nil, fmt.Errorf("no sitting of the run %s has %s, and the page has no row of it to keep", name, tournament.ResultsFile)
		}
		return kept, nil
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("run %s: %s: no %s: a run is summed up from all its sittings or kept as recorded, never from some", name, strings.Join(missing, ", "), tournament.ResultsFile)
	}
	res, err := pooled(sittings)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", name, err)
	}
	return rowsOf(name, res, perGame), nil
}

// pooled returns the results of the sittings as those of one tournament:
// their games and players in the order they first appear, their matches
// one sitting after another. The sittings must share their first player
// under the same name, and none may have run a sequential test, whose
// verdict belongs to its own sitting.
func pooled(sittings []*tournament.Results) (*tournament.Results, error) {
	first := sittings[0]
	sum := &tournament.Results{Standings: first.Standings}
	for i, res := range sittings {
		if res.Players[0] != first.Players[0] || firstName(res) != firstName(first) {
			return nil, fmt.Errorf("sitting %d plays %s named %q, sitting 1 %s named %q: not one player", i+1, res.Players[0], firstName(res), first.Players[0], firstName(first))
		}
		if res.SPRT != nil {
			return nil, fmt.Errorf("sitting %d ran a sequential test, whose verdict is its own", i+1)
		}
		for _, p := range res.Players {
			if !slices.Contains(sum.Players, p) {
				sum.Players = append(sum.Players, p)
			}
		}
		for _, g := range res.Games {
			if !slices.Contains(sum.Games, g) {
				sum.Games = append(sum.Games, g)
			}
		}
		sum.Matches = append(sum.Matches, res.Matches...)
	}
	return sum, nil
}

// firstName is the name the first player of res gave INFO, or "".
func firstName(res *tournament.Results) string {
	for _, s := range res.Standings {
		if s.Player == res.Players[0] {
			return s.Name
		}
	}
	return ""
}

// runName is the name of a tournament folder in the table: its last
// element, as the documentation's commands name it (--out $RUNS/NAME).
func runName(dir string) string { return filepath.Base(filepath.Clean(dir)) }

// A tableRow is one row of the table, its cells in the order of header.
type tableRow []string

type rowKey struct{ run, game string }

func (r tableRow) key() rowKey { return rowKey{r[0], r[1]} }

// rowsOf returns the rows of the tournament res, named run: one per game
// with perGame, then the row of all games.
func rowsOf(run string, res *tournament.Results, perGame bool) []tableRow {
	player := res.Players[0]
	shown := player
	if len(res.Standings) > 0 && res.Standings[0].Player == player && res.Standings[0].Name != "" {
		shown += " (" + res.Standings[0].Name + ")"
	}
	against := "-"
	if len(res.Players) > 1 {
		against = strings.Join(res.Players[1:], ", ")
	}
	var games []string
	if perGame {
		games = slices.Clone(res.Games)
		for _, m := range res.Matches {
			if !slices.Contains(games, m.Game) {
				games = append(games, m.Game)
			}
		}
	}
	var rows []tableRow
	for _, game := range append(games, "") {
		s := summarize(res.Matches, player, game)
		name, sprt := game, "-"
		if game == "" {
			name = "all"
			if res.SPRT != nil {
				sprt = fmt.Sprintf("%s after %d", res.SPRT.Verdict, res.SPRT.Matches)
			}
		}
		rows = append(rows, tableRow{
			run, name, shown, against,
			fmt.Sprint(len(s.scores)), s.meanCell(), s.outcomeCell(),
			fmt.Sprintf("%d, %d, %d", s.errors.TO, s.errors.CE, s.errors.IL),
			fmt.Sprintf("%d, %d, %d", s.against.TO, s.against.CE, s.against.IL),
			sprt, sourceResults,
		})
	}
	return rows
}

// A summary is a player's results over some matches.
type summary struct {
	scores              []float64 // per completed match: its mean goal over the roles it held
	wins, draws, losses int       // against the one other player of a match
	errors              tournament.ErrorCounts
	// against counts the errors of the other players of the matches: a
	// match in which they erred measures their failures, not their play.
	against tournament.ErrorCounts
}

// summarize sums up player's matches of game, or of every game when game
// is empty.
func summarize(matches []tournament.MatchResult, player, game string) summary {
	var s summary
	for _, m := range matches {
		if game != "" && m.Game != game {
			continue
		}
		var mine, theirs []int // seats
		for i, p := range m.Players {
			if p == player {
				mine = append(mine, i)
			} else {
				theirs = append(theirs, i)
			}
		}
		if len(mine) == 0 {
			continue
		}
		for _, i := range mine {
			if i < len(m.Errors) {
				addErrors(&s.errors, m.Errors[i])
			}
		}
		for _, i := range theirs {
			if i < len(m.Errors) {
				addErrors(&s.against, m.Errors[i])
			}
		}
		if !m.Completed || len(m.Goals) != len(m.Players) {
			continue
		}
		score := meanGoal(m.Goals, mine)
		s.scores = append(s.scores, score)
		if len(theirs) == 0 || !onePlayer(m.Players, theirs) {
			continue
		}
		switch other := meanGoal(m.Goals, theirs); {
		case score > other:
			s.wins++
		case score < other:
			s.losses++
		default:
			s.draws++
		}
	}
	return s
}

// addErrors adds the counts of e to sum.
func addErrors(sum *tournament.ErrorCounts, e tournament.ErrorCounts) {
	sum.TO += e.TO
	sum.CE += e.CE
	sum.IL += e.IL
}

// meanGoal returns the mean of the goals of the seats.
func meanGoal(goals []int, seats []int) float64 {
	sum := 0
	for _, i := range seats {
		sum += goals[i]
	}
	return float64(sum) / float64(len(seats))
}

// onePlayer reports whether the seats are all held by one player.
func onePlayer(players []string, seats []int) bool {
	for _, i := range seats[1:] {
		if players[i] != players[seats[0]] {
			return false
		}
	}
	return true
}

// meanCell writes the mean goal and its interval.
func (s summary) meanCell() string {
	if len(s.scores) == 0 {
		return "-"
	}
	mean, half := tournament.MeanCI95(s.scores)
	if half < 0 {
		return fmt.Sprintf("%.1f", mean)
	}
	return fmt.Sprintf("%.1f ± %.1f", mean, half)
}

// outcomeCell writes the wins, draws and losses, or "-" without a match
// against one other player.
func (s summary) outcomeCell() string {
	if s.wins+s.draws+s.losses == 0 {
		return "-"
	}
	return fmt.Sprintf("%d, %d, %d", s.wins, s.draws, s.losses)
}

// recordedRows returns the rows of old of the run, marked recorded, in
// their order.
func recordedRows(old []tableRow, run string) []tableRow {
	var rows []tableRow
	for _, r := range old {
		if r[0] == run {
			r = slices.Clone(r)
			r[len(r)-1] = sourceRecorded
			rows = append(rows, r)
		}
	}
	return rows
}

// writePage writes the page: the heading, how it was made, the legend and
// the table.
func writePage(w io.Writer, title, cmd string, rows []tableRow) {
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintf(w, "<!-- Written by resultstable: change the tournaments, not this file. -->\n\n")
	fmt.Fprintf(w, "Written by\n\n```\n%s\n```\n\n", cmd)
	fmt.Fprintf(w, "from the results.json of each tournament folder (`ggp tournament --out DIR`). A row is the first player of the tournament over its matches of a game, or of all games: its mean goal with the 95%% interval, its wins, draws and losses against the other player, its timeouts, connection errors and illegal moves, those of the players it met (a match they did not play in full measures their failures, not their play; - where a row was recorded before they were counted), and the sequential test's verdict. Source `%s`: computed from the folder; `%s`: the folder was not at hand when the page was written, and the row is carried over from the page as it was.\n\n", sourceResults, sourceRecorded)
	resultspage.WriteHeader(w, header)
	for _, r := range rows {
		resultspage.WriteRow(w, r)
	}
}

// parseRows reads the rows of a page writePage wrote, in order; a run and
// game have one row at most.
func parseRows(text string) ([]tableRow, error) {
	var rows []tableRow
	seen := map[rowKey]bool{}
	seenHeader := false
	older := false // the page has no column againstErrorsColumn
	for n, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := splitCells(line)
		switch {
		case !seenHeader:
			older = slices.Equal(cells, slices.Delete(slices.Clone(header), againstErrorsColumn, againstErrorsColumn+1))
			if !older && !slices.Equal(cells, header) {
				return nil, fmt.Errorf("line %d: a table whose columns are not %s", n+1, strings.Join(header, ", "))
			}
			seenHeader = true
			continue
		case strings.Trim(strings.Join(cells, ""), "-") == "":
			continue // the separator
		case older:
			cells = slices.Insert(cells, againstErrorsColumn, "-")
		}
		switch {
		case len(cells) != len(header):
			return nil, fmt.Errorf("line %d: %d cells, want %d", n+1, len(cells), len(header))
		}
		r := tableRow(cells)
		if seen[r.key()] {
			return nil, fmt.Errorf("line %d: a second row of run %s, game %s", n+1, r[0], r[1])
		}
		seen[r.key()] = true
		rows = append(rows, r)
	}
	return rows, nil
}

// splitCells returns the cells of a table's line, unescaped.
func splitCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}
