// Package conform checks a reasoner against reference traces: random
// playouts recorded with ggp-base's prover, as described in the shared
// data's README.
package conform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Trace is one reference trace file.
type Trace struct {
	Game     string    `json:"game"`
	Rules    string    `json:"rules"`
	Roles    []string  `json:"roles"`
	Playouts []Playout `json:"playouts"`
}

// Playout is one recorded random playout.
type Playout struct {
	Steps    []Step   `json:"steps"`
	Terminal []string `json:"terminal"`
	Goals    []int    `json:"goals"` // -1: the reference found no single goal
}

// Step is one non-terminal state of a playout and the joint move played.
type Step struct {
	State []string   `json:"state"`
	Legal [][]string `json:"legal"`
	Move  []string   `json:"move"`
}

// MaxTraceSize bounds the size of a trace file.
const MaxTraceSize = 256 << 20

// ReadFile reads a trace file.
func ReadFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var t Trace
	dec := json.NewDecoder(io.LimitReader(f, MaxTraceSize))
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

// A Mismatch is the first disagreement between a reasoner and a trace.
type Mismatch struct {
	Playout int // 0-based
	Step    int // 0-based; len(Steps) for the terminal state
	What    string
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("playout %d step %d: %s", m.Playout+1, m.Step, m.What)
}

// Check replays every playout of t on a reasoner built by load and returns
// the first disagreement as a *Mismatch, or another error when the rules
// cannot be loaded or a query fails. filename names the trace in errors.
func Check(ctx context.Context, filename string, t *Trace, load reasoner.Factory) error {
	d, err := gdl.ParseFile(filename+":rules", []byte(t.Rules))
	if err != nil {
		return err
	}
	r, err := load(ctx, d)
	if err != nil {
		return err
	}
	if !slices.Equal(r.Roles(), t.Roles) {
		return &Mismatch{What: fmt.Sprintf("roles %v, reference %v", r.Roles(), t.Roles)}
	}
	for i, p := range t.Playouts {
		if err := checkPlayout(ctx, r, i, &p); err != nil {
			return err
		}
	}
	return nil
}

func checkPlayout(ctx context.Context, r reasoner.Reasoner, pi int, p *Playout) error {
	miss := func(step int, format string, args ...any) error {
		return &Mismatch{Playout: pi, Step: step, What: fmt.Sprintf(format, args...)}
	}
	s, err := r.Initial(ctx)
	if err != nil {
		return err
	}
	for i, step := range p.Steps {
		if d := diff("state", facts(s), step.State); d != "" {
			return miss(i, "%s", d)
		}
		terminal, err := r.Terminal(ctx, s)
		if err != nil {
			return miss(i, "terminal: %v", err)
		}
		if terminal {
			return miss(i, "terminal, reference says not")
		}
		if len(step.Legal) != len(r.Roles()) || len(step.Move) != len(r.Roles()) {
			return miss(i, "reference has %d legal lists and %d moves for %d roles", len(step.Legal), len(step.Move), len(r.Roles()))
		}
		for role, want := range step.Legal {
			got, err := r.Legal(ctx, s, role)
			if err != nil {
				return miss(i, "%v", err)
			}
			if d := diff("legal moves of "+r.Roles()[role], moves(got), want); d != "" {
				return miss(i, "%s", d)
			}
		}
		joint := make([]reasoner.Move, len(step.Move))
		for j, m := range step.Move {
			joint[j] = reasoner.Move(m)
		}
		if s, err = r.Next(ctx, s, joint); err != nil {
			return miss(i, "%v", err)
		}
	}
	end := len(p.Steps)
	if d := diff("terminal state", facts(s), p.Terminal); d != "" {
		return miss(end, "%s", d)
	}
	terminal, err := r.Terminal(ctx, s)
	if err != nil {
		return miss(end, "terminal: %v", err)
	}
	if !terminal {
		return miss(end, "not terminal, reference says terminal")
	}
	goals, err := r.Goals(ctx, s)
	var ge *reasoner.GoalError
	if err != nil && !errors.As(err, &ge) {
		return miss(end, "%v", err)
	}
	if !slices.Equal(goals, p.Goals) {
		return miss(end, "goals %v, reference %v", goals, p.Goals)
	}
	return nil
}

func facts(s *reasoner.State) []string {
	out := make([]string, len(s.Facts()))
	for i, f := range s.Facts() {
		out[i] = string(f)
	}
	return out
}

func moves(ms []reasoner.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

// diff compares two sets of compact-KIF strings and describes the first
// differences, or returns "" when they are equal as sets.
func diff(what string, got, want []string) string {
	g := slices.Clone(got)
	w := slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	g, w = slices.Compact(g), slices.Compact(w)
	if slices.Equal(g, w) {
		return ""
	}
	var extra, missing []string
	for _, x := range g {
		if _, found := slices.BinarySearch(w, x); !found {
			extra = append(extra, x)
		}
	}
	for _, x := range w {
		if _, found := slices.BinarySearch(g, x); !found {
			missing = append(missing, x)
		}
	}
	var parts []string
	if len(extra) > 0 {
		parts = append(parts, "extra "+short(extra))
	}
	if len(missing) > 0 {
		parts = append(parts, "missing "+short(missing))
	}
	return what + " differ: " + strings.Join(parts, ", ")
}

func short(xs []string) string {
	const most = 5
	if len(xs) <= most {
		return strings.Join(xs, " ")
	}
	return strings.Join(xs[:most], " ") + fmt.Sprintf(" and %d more", len(xs)-most)
}
