package local

import (
	"strings"
	"testing"

	"github.com/ggp-go/ggp/player/mcts"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec string
		kind string
		want mcts.Config // the settings that differ from the zero Config
		err  string      // part of the error, "" for none
	}{
		{spec: "mcts", kind: "mcts"},
		{spec: "random", kind: "random"},
		{spec: "mcts:base", kind: "mcts", want: mcts.Config{MAST: mcts.Off, GRAVE: mcts.Off, NST: mcts.Off, PolicyPlayouts: mcts.Off}},
		{spec: "mcts:base:mast=on", kind: "mcts", want: mcts.Config{MAST: mcts.On, GRAVE: mcts.Off, NST: mcts.Off, PolicyPlayouts: mcts.Off}},
		{spec: "mcts:mast=on:base", kind: "mcts", want: mcts.Config{MAST: mcts.Off, GRAVE: mcts.Off, NST: mcts.Off, PolicyPlayouts: mcts.Off}},
		{spec: "mcts:base:fast=on", kind: "mcts", want: mcts.Config{MAST: mcts.Off, GRAVE: mcts.Off, NST: mcts.Off, PolicyPlayouts: mcts.On}},
		{spec: "mcts:grave=off:workers=1", kind: "mcts", want: mcts.Config{GRAVE: mcts.Off, Workers: 1}},
		{spec: "mcts:c=0.4:eps=0.2:decay=1:ref=20", kind: "mcts", want: mcts.Config{Exploration: 0.4, MASTEpsilon: 0.2, MASTDecay: 1, GRAVERef: 20}},
		{spec: "mcts:2026-11", kind: "mcts", want: mcts.Config{MAST: mcts.On, NST: mcts.On, GRAVE: mcts.Off, PolicyPlayouts: mcts.On, MASTEpsilon: 0.4, MASTDecay: 0.8, Exploration: 0.5, GRAVEExploration: 0.5, GRAVERef: 50, Heuristic: mcts.Off, HeuristicCut: mcts.On, HeuristicPrior: -1, HeuristicQuality: 0.15, ProveLeaves: mcts.Off, Resist: mcts.Off, Wins: mcts.Off, WinFacts: mcts.Off}},
		{spec: "mcts:heur=on:hdepth=4", kind: "mcts", want: mcts.Config{Heuristic: mcts.On, HeuristicDepth: 4}},
		{spec: "mcts:heur=on:hcut=off:hprior=10", kind: "mcts", want: mcts.Config{Heuristic: mcts.On, HeuristicCut: mcts.Off, HeuristicPrior: 10}},
		{spec: "mcts:hprior=-1", err: "want a whole number"},
		{spec: "mcts:hprior=0", kind: "mcts", want: mcts.Config{HeuristicPrior: -1}},
		{spec: "mcts:hmin=1.5", err: "want a number"},
		{spec: "mcts:quick", err: `unknown preset "quick"`},
		{spec: "mcts:mast=maybe", err: "want on or off"},
		{spec: "mcts:c=-1", err: "want a number"},
		{spec: "mcts:eps=2", err: "want a number"},
		{spec: "mcts:workers=0", err: "want a whole number"},
		{spec: "mcts:depth=3", err: `unknown setting "depth"`},
		{spec: "random:base", err: "takes no settings"},
		{spec: "minimax", err: `unknown player "minimax"`},
	}
	for _, tt := range tests {
		var opts Options
		kind, err := parseSpec(tt.spec, &opts)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseSpec(%q): error %v, want one containing %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseSpec(%q): %v", tt.spec, err)
			continue
		}
		if kind != tt.kind || opts.Search != tt.want {
			t.Errorf("parseSpec(%q) = %q, %+v; want %q, %+v", tt.spec, kind, opts.Search, tt.kind, tt.want)
		}
	}
}

func TestIsSpec(t *testing.T) {
	tests := []struct {
		spec string
		want bool
	}{
		{"mcts", true},
		{"legal", true},
		{"mcts:base", true},
		{"mcts:mast=off:workers=1", true},
		{"mcts:9147", false}, // a host named mcts
		{"mcts:9147/ggp", false},
		{"localhost:9147", false},
		{"http://127.0.0.1:9147", false},
		{"human", false},
	}
	for _, tt := range tests {
		if got := IsSpec(tt.spec); got != tt.want {
			t.Errorf("IsSpec(%q) = %v, want %v", tt.spec, got, tt.want)
		}
	}
}

// TestSpecName checks that a player built from settings is named by its
// whole specification, so that match records and tournament tables tell
// two configurations apart.
func TestSpecName(t *testing.T) {
	p, err := New("mcts:base:workers=1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Name(); got != "mcts:base:workers=1" {
		t.Errorf("Name() = %q, want the specification", got)
	}
}

// TestDatedPreset checks that the dated preset pins pondering on, as the
// default player of its date played, whatever the default becomes.
func TestDatedPreset(t *testing.T) {
	opts := Options{Ponder: mcts.Off}
	if _, err := parseSpec("mcts:ponder=off:2026-11", &opts); err != nil {
		t.Fatal(err)
	}
	if opts.Ponder != mcts.On {
		t.Errorf("mcts:ponder=off:2026-11 ponders %v, want on", opts.Ponder)
	}
}
