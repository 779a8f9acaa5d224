package local

import (
	"fmt"
	"strconv"
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
		{spec: "mcts:grave=off:workers=1", kind: "mcts", want: mcts.Config{GRAVE: mcts.Off, Workers: 1}},
		{spec: "mcts:grave=on:grave=auto", kind: "mcts", want: mcts.Config{GRAVE: mcts.Auto}},
		{spec: "mcts:workers=3:workers=auto", kind: "mcts", want: mcts.Config{}},
		{spec: "mcts:c=0.4:eps=0.2:decay=1:ref=20", kind: "mcts", want: mcts.Config{Exploration: 0.4, MASTEpsilon: 0.2, MASTDecay: 1, GRAVERef: 20}},
		{spec: "mcts:heur=on:hdepth=4", kind: "mcts", want: mcts.Config{Heuristic: mcts.On, HeuristicDepth: 4}},
		{spec: "mcts:heur=on:hcut=off:hvisits=5", kind: "mcts", want: mcts.Config{Heuristic: mcts.On, HeuristicCut: mcts.Off, HeuristicPriorVisits: 5}},
		{spec: "mcts:hprior=off", kind: "mcts", want: mcts.Config{HeuristicPrior: mcts.Off}},
		{spec: "mcts:hprior=0", err: "want on or off"},
		{spec: "mcts:hvisits=0", err: "want a whole number from 1"},
		{spec: "mcts:hvisits=auto", err: "want a whole number"},
		{spec: "mcts:hmin=1.5", err: "want a number"},
		{spec: "mcts:quick", err: `unknown preset "quick"`},
		{spec: "mcts:mast=maybe", err: "want on or off"},
		{spec: "mcts:mast=auto", err: "want on or off"},
		{spec: "mcts:grave=maybe", err: "want on, off or auto"},
		{spec: "mcts:c=-1", err: "want a number"},
		{spec: "mcts:eps=2", err: "want a number"},
		{spec: "mcts:workers=0", err: "want a whole number from 1 to 1024 or auto"},
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

// TestPresets checks what the presets play: base the plain UCT search,
// with every piece of knowledge off, and 2026-11 the default player of
// its date, as its settings then were; and that settings after a preset
// adjust it, and settings before it are overridden.
func TestPresets(t *testing.T) {
	base := mcts.Config{
		Exploration: 0.5, MAST: mcts.Off, MASTEpsilon: 0.4, MASTDecay: 0.8, NST: mcts.Off,
		PolicyPlayouts: mcts.Off, Wins: mcts.Off, WinFacts: mcts.Off, ProveLeaves: mcts.Off, Resist: mcts.Off,
		Heuristic: mcts.Off, HeuristicQuality: 0.35, HeuristicPrior: mcts.Off, HeuristicPriorVisits: 10,
		Material: mcts.Off, Minimax: mcts.Off, HeuristicCut: mcts.Off, HeuristicDepth: 8,
		GRAVE: mcts.Off, GRAVEFirst: mcts.On, GRAVERef: 50, GRAVEExploration: 0.05,
	}
	baseMAST := base
	baseMAST.MAST = mcts.On
	baseOne := base
	baseOne.Workers = 1
	for _, tt := range []struct {
		spec   string
		want   mcts.Config
		ponder mcts.Switch
	}{
		{"mcts:base", base, mcts.Off},
		{"mcts:base:mast=on", baseMAST, mcts.Off},
		{"mcts:mast=on:ponder=on:base", base, mcts.Off},
		{"mcts:workers=1:base", baseOne, mcts.Off},
		{"mcts:2026-11", mcts.Config{
			Exploration: 0.5, MAST: mcts.On, MASTEpsilon: 0.4, MASTDecay: 0.8, NST: mcts.On,
			PolicyPlayouts: mcts.On, Wins: mcts.Off, WinFacts: mcts.Off, ProveLeaves: mcts.Off, Resist: mcts.Off,
			Heuristic: mcts.Off, HeuristicQuality: 0.15, HeuristicPrior: mcts.Off, HeuristicPriorVisits: 10,
			Material: mcts.Off, Minimax: mcts.Off, HeuristicCut: mcts.On, HeuristicDepth: 8,
			GRAVE: mcts.Off, GRAVEFirst: mcts.On, GRAVERef: 50, GRAVEExploration: 0.5,
		}, mcts.On},
	} {
		var opts Options
		if _, err := parseSpec(tt.spec, &opts); err != nil {
			t.Errorf("%s: %v", tt.spec, err)
			continue
		}
		if opts.Search != tt.want || opts.Ponder != tt.ponder {
			t.Errorf("%s: %+v, ponder %v; want %+v, ponder %v", tt.spec, opts.Search, opts.Ponder, tt.want, tt.ponder)
		}
	}
}

// TestPresetsPinEverySetting checks that every preset gives every setting
// a value, but the host's, which it leaves as they were: the same preset
// applied over two sets of settings, each setting different in them,
// gives the same way of playing.
func TestPresetsPinEverySetting(t *testing.T) {
	var a, b Options
	as, bs := a.settings(), b.settings()
	for i, s := range as {
		// Two values the setting takes, different from each other and
		// from the zero value.
		var va, vb string
		switch {
		case s.Switch != nil:
			va, vb = "on", "off"
		case s.Int != nil:
			va, vb = strconv.Itoa(int(s.Min)), strconv.Itoa(int(s.Max))
		default:
			va, vb = fmt.Sprint(s.Max), fmt.Sprint(s.Max/2)
		}
		if err := s.Set(va); err != nil {
			t.Fatalf("%s=%s: %v", s.Key, va, err)
		}
		if err := bs[i].Set(vb); err != nil {
			t.Fatalf("%s=%s: %v", s.Key, vb, err)
		}
	}
	for _, p := range presets {
		pa, pb := a, b
		if err := pa.applySettings(p.name); err != nil {
			t.Fatal(err)
		}
		if err := pb.applySettings(p.name); err != nil {
			t.Fatal(err)
		}
		sa, sb := pa.settings(), pb.settings()
		for i, s := range sa {
			switch {
			case s.Host && (s.String() != as[i].String() || sb[i].String() != bs[i].String()):
				t.Errorf("preset %s sets %s, a host's setting", p.name, s.Key)
			case !s.Host && s.String() != sb[i].String():
				t.Errorf("preset %s leaves %s as it was: %s after %s, %s after %s", p.name, s.Key, s, as[i], sb[i], bs[i])
			}
		}
	}
}

// TestSettingsHelp checks that the help lists every preset and every
// setting once, with its default.
func TestSettingsHelp(t *testing.T) {
	help := SettingsHelp()
	lines := strings.Split(help, "\n")[1:]
	var opts Options
	settings := opts.settings()
	if len(lines) != len(presets)+len(settings) {
		t.Errorf("%d lines of help for %d presets and %d settings:\n%s", len(lines), len(presets), len(settings), help)
	}
	for _, p := range presets {
		if n := strings.Count(help, "\n  "+p.name+" "); n != 1 {
			t.Errorf("preset %s listed %d times", p.name, n)
		}
	}
	for _, s := range settings {
		line := "\n  " + s.Key + "=" + s.Syntax() + " "
		if n := strings.Count(help, line); n != 1 {
			t.Errorf("setting %s listed %d times", s.Key, n)
			continue
		}
		rest := help[strings.Index(help, line):]
		if end := strings.Index(rest[1:], "\n"); end >= 0 {
			rest = rest[:end+1]
		}
		if !strings.Contains(rest, "(default "+s.Default) {
			t.Errorf("setting %s: %q, want its default %s", s.Key, rest, s.Default)
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
