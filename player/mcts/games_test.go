package mcts

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// grounded returns the propositional network of rules, a game written in
// GDL for a test, parsed as the file name.
func grounded(t *testing.T, name, rules string) *propnet.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile(name, []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	r, err := propnet.New(context.Background(), d, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// toyGame is a game written in Go for the tests: its states are facts of
// the form (key value), read and written as a map.
type toyGame struct {
	roles    []string
	init     map[string]string
	legal    func(s map[string]string, role int) []string
	next     func(s map[string]string, joint []string) map[string]string
	terminal func(s map[string]string) bool
	goals    func(s map[string]string) []int

	// Faults, for the tests of robustness.
	nextDelay time.Duration // every Next sleeps, ignoring ctx
	// release, if not nil, holds every Next, ignoring ctx, until the
	// test closes it: a reasoner call that outlasts whatever bound the
	// test sets, however slow the machine.
	release chan struct{}
	panicAt int64 // Next panics on every call whose number is a multiple
	calls   atomic.Int64
	forks   atomic.Int32

	// nexting, if not nil, is closed when Next is first called: the
	// search is under way.
	nexting chan struct{}
}

func (g *toyGame) state(m map[string]string) *reasoner.State {
	facts := make([]reasoner.Fact, 0, len(m))
	for k, v := range m {
		facts = append(facts, reasoner.Fact("("+k+" "+v+")"))
	}
	return reasoner.NewState(facts)
}

func (g *toyGame) read(s *reasoner.State) map[string]string {
	m := map[string]string{}
	for _, f := range s.Facts() {
		kv := strings.TrimSuffix(strings.TrimPrefix(string(f), "("), ")")
		k, v, _ := strings.Cut(kv, " ")
		m[k] = v
	}
	return m
}

func (g *toyGame) Roles() []string { return slices.Clone(g.roles) }

func (g *toyGame) Initial(ctx context.Context) (*reasoner.State, error) {
	return g.state(g.init), nil
}

func (g *toyGame) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ms []reasoner.Move
	for _, m := range g.legal(g.read(s), role) {
		ms = append(ms, reasoner.Move(m))
	}
	slices.Sort(ms)
	return ms, nil
}

func (g *toyGame) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	n := g.calls.Add(1)
	if n == 1 && g.nexting != nil {
		close(g.nexting)
	}
	if g.panicAt > 0 && n%g.panicAt == 0 {
		panic("toy reasoner failure")
	}
	if g.nextDelay > 0 {
		time.Sleep(g.nextDelay)
	}
	if g.release != nil {
		<-g.release
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	js := make([]string, len(joint))
	for i, m := range joint {
		js[i] = string(m)
	}
	return g.state(g.next(g.read(s), js)), nil
}

func (g *toyGame) Terminal(ctx context.Context, s *reasoner.State) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return g.terminal(g.read(s)), nil
}

func (g *toyGame) Goals(ctx context.Context, s *reasoner.State) ([]int, error) {
	return g.goals(g.read(s)), nil
}

func (g *toyGame) Fork() (reasoner.Reasoner, error) {
	g.forks.Add(1)
	return g, nil // the toy games keep no per-instance state
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// nim is a pile of stones from which the players, in turn, take 1 or 2;
// who takes the last stone wins. The player to move loses exactly when the
// pile is a multiple of 3.
func nim(pile int) *toyGame {
	return &toyGame{
		roles: []string{"first", "second"},
		init:  map[string]string{"pile": strconv.Itoa(pile), "control": "first"},
		legal: func(s map[string]string, role int) []string {
			if s["control"] != []string{"first", "second"}[role] {
				return []string{"noop"}
			}
			if atoi(s["pile"]) >= 2 {
				return []string{"(take 1)", "(take 2)"}
			}
			return []string{"(take 1)"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			mover, other := 0, "second"
			if s["control"] == "second" {
				mover, other = 1, "first"
			}
			take := atoi(strings.TrimSuffix(strings.TrimPrefix(joint[mover], "(take "), ")"))
			last := s["control"]
			return map[string]string{"pile": strconv.Itoa(atoi(s["pile"]) - take), "control": other, "last": last}
		},
		terminal: func(s map[string]string) bool { return s["pile"] == "0" },
		goals: func(s map[string]string) []int {
			if s["pile"] != "0" {
				return []int{50, 50}
			}
			if s["last"] == "first" {
				return []int{100, 0}
			}
			return []int{0, 100}
		},
	}
}

// dominant is a one-shot simultaneous game: row scores 100 for up whatever
// column plays, and column scores 100 for matching row's move.
func dominant() *toyGame {
	return &toyGame{
		roles: []string{"row", "column"},
		init:  map[string]string{"turn": "0"},
		legal: func(s map[string]string, role int) []string {
			if role == 0 {
				return []string{"up", "down"}
			}
			return []string{"up", "down", "left"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			return map[string]string{"turn": "1", "row": joint[0], "column": joint[1]}
		},
		terminal: func(s map[string]string) bool { return s["turn"] == "1" },
		goals: func(s map[string]string) []int {
			g := []int{0, 0}
			if s["row"] == "up" {
				g[0] = 100
			}
			if s["row"] == s["column"] {
				g[1] = 100
			}
			return g
		},
	}
}

// indifferent is a game whose goals do not sum to a constant, with two
// one-move roles, host then guest. host chooses first among the moves of
// first, each ending the game with its goals, or "go" (when first offers
// it), after which guest chooses among its moves of "kind", ending the
// game with host 100 and guest 50, and "spite", ending it with host 0 and
// guest 50: guest is indifferent, host is not.
func indifferent(first map[string][2]int) *toyGame {
	hostMoves := slices.Sorted(maps.Keys(first))
	second := map[string][2]int{"kind": {100, 50}, "spite": {0, 50}}
	return &toyGame{
		roles: []string{"host", "guest"},
		init:  map[string]string{"turn": "host"},
		legal: func(s map[string]string, role int) []string {
			switch {
			case s["turn"] == "host" && role == 0:
				return hostMoves
			case s["turn"] == "guest" && role == 1:
				return []string{"kind", "spite"}
			}
			return []string{"noop"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			if s["turn"] == "host" {
				if joint[0] == "go" {
					return map[string]string{"turn": "guest"}
				}
				return map[string]string{"turn": "end", "by": joint[0]}
			}
			return map[string]string{"turn": "end", "by": joint[1]}
		},
		terminal: func(s map[string]string) bool { return s["turn"] == "end" },
		goals: func(s map[string]string) []int {
			if g, ok := first[s["by"]]; ok {
				return g[:]
			}
			if g, ok := second[s["by"]]; ok {
				return g[:]
			}
			return []int{0, 0}
		},
	}
}

// walk is a puzzle in the manner of the eight puzzle: a token starts at 0
// on a line and each step moves it left, right or not at all. The game ends
// when the token reaches target or after 3*target steps, and scores 100
// for reaching target in exactly target steps, 50 for reaching it later
// and 0 otherwise. Random play almost never scores 100.
func walk(target int) *toyGame {
	return &toyGame{
		roles: []string{"walker"},
		init:  map[string]string{"step": "0", "at": "0"},
		legal: func(s map[string]string, role int) []string {
			return []string{"left", "right", "stay"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			at := atoi(s["at"])
			switch joint[0] {
			case "left":
				at--
			case "right":
				at++
			}
			return map[string]string{"step": strconv.Itoa(atoi(s["step"]) + 1), "at": strconv.Itoa(at)}
		},
		terminal: func(s map[string]string) bool {
			return atoi(s["at"]) == target || atoi(s["step"]) == 3*target
		},
		goals: func(s map[string]string) []int {
			switch {
			case atoi(s["at"]) != target:
				return []int{0}
			case atoi(s["step"]) == target:
				return []int{100}
			}
			return []int{50}
		},
	}
}

// endless is a two-player game whose states cycle and whose playouts only
// end at the depth limit.
func endless() *toyGame {
	return &toyGame{
		roles: []string{"a", "b"},
		init:  map[string]string{"pos": "0"},
		legal: func(s map[string]string, role int) []string {
			return []string{"x", "y"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			p := atoi(s["pos"])
			if joint[0] == joint[1] {
				p = (p + 1) % 5
			}
			return map[string]string{"pos": strconv.Itoa(p)}
		},
		terminal: func(s map[string]string) bool { return false },
		goals: func(s map[string]string) []int {
			p := atoi(s["pos"])
			return []int{p * 25, 100 - p*25}
		},
	}
}

// lopsided is a two-player game in which the first role chooses good or
// bad, which decides the result, and then both roles play 40 simultaneous
// turns of ten moves each that change nothing but the state: the search
// cannot prove the choice in time, but the visits to good soon dwarf those to bad.
func lopsided() *toyGame {
	coins := make([]string, 10)
	for i := range coins {
		coins[i] = fmt.Sprintf("(coin %d)", i)
	}
	return &toyGame{
		roles: []string{"chooser", "other"},
		init:  map[string]string{"step": "0"},
		legal: func(s map[string]string, role int) []string {
			switch {
			case s["step"] != "0":
				return coins
			case role == 0:
				return []string{"good", "bad"}
			}
			return []string{"noop"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			n := map[string]string{"step": strconv.Itoa(atoi(s["step"]) + 1), "choice": s["choice"], "coins": s["coins"]}
			if s["step"] == "0" {
				n["choice"] = joint[0]
			} else {
				// The coins played are part of the state, so that
				// states do not merge and the search cannot prove them.
				n["coins"] += joint[0] + joint[1]
			}
			return n
		},
		terminal: func(s map[string]string) bool { return atoi(s["step"]) > 40 },
		goals: func(s map[string]string) []int {
			if s["choice"] == "good" {
				return []int{100, 0}
			}
			return []int{0, 100}
		},
	}
}

func (g *toyGame) String() string { return fmt.Sprintf("toy%v", g.roles) }

// hurry is a game where a, to move, wins at once ("win") or waits, after
// which b passes and a may win again; the sixth step ends the game drawn.
// Both of a's first moves win, "win" the sooner.
func hurry() *toyGame {
	return &toyGame{
		roles: []string{"a", "b"},
		init:  map[string]string{"step": "0", "turn": "a", "won": "no"},
		legal: func(s map[string]string, role int) []string {
			if role == 0 && s["turn"] == "a" {
				return []string{"wait", "win"}
			}
			return []string{"pass"}
		},
		next: func(s map[string]string, joint []string) map[string]string {
			n := map[string]string{"step": strconv.Itoa(atoi(s["step"]) + 1), "turn": "a", "won": s["won"]}
			if s["turn"] == "a" {
				n["turn"] = "b"
			}
			if joint[0] == "win" {
				n["won"] = "a"
			}
			return n
		},
		terminal: func(s map[string]string) bool { return s["won"] == "a" || atoi(s["step"]) >= 6 },
		goals: func(s map[string]string) []int {
			if s["won"] == "a" {
				return []int{100, 0}
			}
			return []int{50, 50}
		},
	}
}
