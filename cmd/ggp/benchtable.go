package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// benchTable is the result of a corpus run of ggp bench, as saved by
// --save and read by --compare.
type benchTable struct {
	Seconds float64       `json:"seconds"` // measuring time per game
	Games   []benchResult `json:"games"`
}

// benchResult is the measurement of one game.
type benchResult struct {
	Game           string  `json:"game"`
	Rollouts       int     `json:"rollouts"`
	States         int     `json:"states"`
	Seconds        float64 `json:"seconds"`
	RolloutsPerSec float64 `json:"rollouts_per_s"`
	StatesPerSec   float64 `json:"states_per_s"`
	// CPUSeconds is the process's CPU time over the measurement, GC
	// included; states per CPU-second varies less than states per second
	// on a machine shared with other work. Zero when unknown.
	CPUSeconds      float64 `json:"cpu_seconds,omitempty"`
	StatesPerCPUSec float64 `json:"states_per_cpu_s,omitempty"`
	// Interpreted lists the relations the queries ask that ran in the
	// interpreter rather than the flat evaluator.
	Interpreted []string `json:"interpreted,omitempty"`
	// Network describes a grounded network: grounding time and size.
	Network string `json:"network,omitempty"`
	// Error says why the game was not measured; empty when it was.
	Error string `json:"error,omitempty"`
}

func benchHeader() string {
	return fmt.Sprintf("%-32s %10s %10s %10s  %s", "game", "rollouts/s", "states/s", "st/CPU-s", "in the interpreter")
}

func (r benchResult) line() string {
	if r.Error != "" {
		return fmt.Sprintf("%-32s %10s %10s %10s  error: %s", r.Game, "-", "-", "-", r.Error)
	}
	return fmt.Sprintf("%-32s %10.1f %10.0f %10.0f  %s", r.Game, r.RolloutsPerSec, r.StatesPerSec, r.StatesPerCPUSec, orDash(strings.Join(r.Interpreted, " ")))
}

// firstLineOf returns the first line of s, cut to a table cell's length.
func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	const max = 160
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}

// measured returns the games that were measured, without errors.
func (t *benchTable) measured() []benchResult {
	var out []benchResult
	for _, r := range t.Games {
		if r.Error == "" {
			out = append(out, r)
		}
	}
	return out
}

// printSummary prints how many games were measured, the medians, and the
// five slowest games by states per second.
func (t *benchTable) printSummary(w io.Writer) {
	ok := t.measured()
	fmt.Fprintf(w, "\n%d games: %d measured, %d failed", len(t.Games), len(ok), len(t.Games)-len(ok))
	interp := 0
	for _, r := range ok {
		if len(r.Interpreted) > 0 {
			interp++
		}
	}
	fmt.Fprintf(w, ", %d with relations in the interpreter\n", interp)
	if len(ok) == 0 {
		return
	}
	states := make([]float64, len(ok))
	rollouts := make([]float64, len(ok))
	for i, r := range ok {
		states[i], rollouts[i] = r.StatesPerSec, r.RolloutsPerSec
	}
	cpu := make([]float64, len(ok))
	for i, r := range ok {
		cpu[i] = r.StatesPerCPUSec
	}
	fmt.Fprintf(w, "median states/s %.0f, median rollouts/s %.1f, median states/CPU-s %.0f\n", median(states), median(rollouts), median(cpu))
	slices.SortStableFunc(ok, func(a, b benchResult) int { return cmp.Compare(a.StatesPerSec, b.StatesPerSec) })
	fmt.Fprintln(w, "slowest by states/s:")
	for _, r := range ok[:min(5, len(ok))] {
		fmt.Fprintln(w, "  "+r.line())
	}
}

func (t *benchTable) save(path string) error {
	data, err := json.MarshalIndent(t, "", "\t")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("saving the table: %w", err)
	}
	return nil
}

// maxTableFile bounds the size of a saved table read back.
const maxTableFile = 16 << 20

func loadTable(path string) (*benchTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTableFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxTableFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxTableFile)
	}
	var t benchTable
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("%s: not a table saved by ggp bench --save: %w", path, err)
	}
	return &t, nil
}

// compareTables prints, for every game measured in both saved tables, the
// states per second of each and their ratio, then the median and geometric
// mean ratio and the five games that lost most.
func compareTables(w io.Writer, oldPath, newPath string) error {
	old, err := loadTable(oldPath)
	if err != nil {
		return err
	}
	cur, err := loadTable(newPath)
	if err != nil {
		return err
	}
	before := map[string]benchResult{}
	for _, r := range old.Games {
		before[r.Game] = r
	}
	type row struct {
		game     string
		old, new float64
		ratio    float64
	}
	var rows []row
	var onlyOld, onlyNew, failed []string
	seen := map[string]bool{}
	// States per CPU-second when both tables have them: they vary less.
	perCPU := hasCPU(old) && hasCPU(cur)
	unit := "st/s"
	if perCPU {
		unit = "st/CPU-s"
	}
	fmt.Fprintf(w, "%-32s %10s %10s %7s  %s\n", "game", "old "+unit, "new "+unit, "ratio", "in the interpreter (new)")
	for _, r := range cur.Games {
		seen[r.Game] = true
		o, ok := before[r.Game]
		switch {
		case !ok:
			onlyNew = append(onlyNew, r.Game)
			continue
		case o.Error != "" || r.Error != "":
			failed = append(failed, r.Game)
			fmt.Fprintf(w, "%-32s %10s %10s %7s  old: %s; new: %s\n", r.Game, "-", "-", "-", orDash(o.Error), orDash(r.Error))
			continue
		}
		x := row{game: r.Game, old: o.StatesPerSec, new: r.StatesPerSec}
		if perCPU {
			x.old, x.new = o.StatesPerCPUSec, r.StatesPerCPUSec
		}
		x.ratio = ratio(x.new, x.old)
		rows = append(rows, x)
		fmt.Fprintf(w, "%-32s %10.0f %10.0f %6.2fx  %s\n", x.game, x.old, x.new, x.ratio, orDash(strings.Join(r.Interpreted, " ")))
	}
	for _, r := range old.Games {
		if !seen[r.Game] {
			onlyOld = append(onlyOld, r.Game)
		}
	}
	fmt.Fprintf(w, "\n%d games in both tables", len(rows))
	if len(failed) > 0 {
		fmt.Fprintf(w, "; failed in one or both: %s", strings.Join(failed, " "))
	}
	if len(onlyOld) > 0 {
		fmt.Fprintf(w, "; only in %s: %s", oldPath, strings.Join(onlyOld, " "))
	}
	if len(onlyNew) > 0 {
		fmt.Fprintf(w, "; only in %s: %s", newPath, strings.Join(onlyNew, " "))
	}
	fmt.Fprintln(w)
	if len(rows) == 0 {
		return nil
	}
	olds, news, ratios := make([]float64, len(rows)), make([]float64, len(rows)), make([]float64, len(rows))
	logSum := 0.0
	for i, x := range rows {
		olds[i], news[i], ratios[i] = x.old, x.new, x.ratio
		logSum += math.Log(x.ratio)
	}
	fmt.Fprintf(w, "median %s %.0f -> %.0f; ratio median %.2fx, geometric mean %.2fx\n",
		unit, median(olds), median(news), median(ratios), math.Exp(logSum/float64(len(rows))))
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(a.ratio, b.ratio) })
	fmt.Fprintln(w, "most slowed down:")
	for _, x := range rows[:min(5, len(rows))] {
		fmt.Fprintf(w, "  %-30s %10.0f %10.0f %6.2fx\n", x.game, x.old, x.new, x.ratio)
	}
	return nil
}

// hasCPU reports whether every measured game of t has its CPU time.
func hasCPU(t *benchTable) bool {
	for _, r := range t.measured() {
		if r.StatesPerCPUSec == 0 {
			return false
		}
	}
	return len(t.measured()) > 0
}

// ratio returns new/old, with a game measured at 0 states/s on both sides
// counting as unchanged; the tiny floor keeps a zero from becoming an
// infinity that would wreck the geometric mean.
func ratio(cur, old float64) float64 {
	const floor = 1e-3
	return math.Max(cur, floor) / math.Max(old, floor)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
