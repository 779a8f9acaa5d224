package mctsplayer

import (
	"context"
	"fmt"
	"log"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/mcts"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec string
		want mcts.Config // the settings that differ from the zero Config
		err  string      // part of the error, "" for none
	}{
		{spec: "mcts"},
		{spec: "random", err: `unknown player "random": want mcts`},
		{spec: "mcts:grave=off:workers=1", want: mcts.Config{GRAVE: mcts.Off, Workers: 1}},
		{spec: "mcts:grave=on:grave=auto", want: mcts.Config{GRAVE: mcts.Auto}},
		{spec: "mcts:workers=3:workers=auto", want: mcts.Config{}},
		{spec: "mcts:c=0.4:eps=0.2:decay=1:ref=20", want: mcts.Config{Exploration: 0.4, MASTEpsilon: 0.2, MASTDecay: 1, GRAVERef: 20}},
		{spec: "mcts:heur=on:hdepth=4", want: mcts.Config{Heuristic: mcts.On, HeuristicDepth: 4}},
		{spec: "mcts:heur=on:hcut=off:hvisits=5", want: mcts.Config{Heuristic: mcts.On, HeuristicCut: mcts.Off, HeuristicPriorVisits: 5}},
		{spec: "mcts:hprior=off", want: mcts.Config{HeuristicPrior: mcts.Off}},
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
		{spec: "mcts:", err: "setting 1 is empty"},
		{spec: "mcts:base::mast=off", err: "setting 2 is empty"},
		{spec: "minimax", err: `unknown player "minimax"`},
	}
	for _, tt := range tests {
		var opts Options
		err := parseSpec(tt.spec, &opts)
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
		if opts.Search != tt.want {
			t.Errorf("parseSpec(%q) = %+v; want %+v", tt.spec, opts.Search, tt.want)
		}
	}
}

// TestPresets checks what the presets play: base with every piece of
// knowledge off, as the plain UCT search; each preset its own values; and that settings after
// a preset adjust it, and settings before it are overridden, but the
// host's.
func TestPresets(t *testing.T) {
	parse := func(spec string) Options {
		t.Helper()
		var opts Options
		if err := parseSpec(spec, &opts); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		return opts
	}
	base := parse("mcts:base")
	for _, s := range base.gdlSettings() {
		// gravefirst says how GRAVE values a move, and GRAVE is off.
		if s.Switch != nil && !s.Host && s.Key != "gravefirst" && *s.Switch != mcts.Off {
			t.Errorf("base: %s is %v, want off", s.Key, *s.Switch)
		}
	}
	for _, p := range presets {
		opts := parse("mcts:" + p.name)
		for _, kv := range p.set {
			key, value, _ := strings.Cut(kv, "=")
			for _, s := range opts.settings() {
				if s.Key == key && s.String() != value {
					t.Errorf("preset %s: %s is %s, want %s", p.name, key, s, value)
				}
			}
		}
	}
	baseMAST := base
	baseMAST.Search.MAST = mcts.On
	baseOne := base
	baseOne.Search.Workers = 1
	for _, tt := range []struct {
		spec string
		want Options
	}{
		{"mcts:base:mast=on", baseMAST},
		{"mcts:mast=on:ponder=on:c=0.1:base", base},
		{"mcts:workers=1:base", baseOne},
		{"mcts:ponder=off:learn", parse("mcts:learn")},
	} {
		if got := parse(tt.spec); got.Search != tt.want.Search || got.GDLIISearch != tt.want.GDLIISearch || got.Ponder != tt.want.Ponder {
			t.Errorf("%s: %+v, ponder %v; want %+v, ponder %v", tt.spec, got.Search, got.Ponder, tt.want.Search, tt.want.Ponder)
		}
	}
}

// TestPresetsSayEverySetting checks that each preset names every setting
// of the table but the host's once, and no other: a
// setting added to the table fails it until each preset says what it
// plays with it.
func TestPresetsSayEverySetting(t *testing.T) {
	var opts Options
	for _, table := range [][]mcts.Setting{opts.gdlSettings(), opts.gdlIISettings()} {
		if err := mcts.CheckTable(table); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, s := range opts.settings() {
		if !s.Host {
			want[s.Key] = true
		}
	}
	for _, p := range presets {
		said := map[string]int{}
		for _, kv := range p.set {
			key, _, ok := strings.Cut(kv, "=")
			if !ok {
				t.Errorf("preset %s: %q is not KEY=VALUE", p.name, kv)
			}
			said[key]++
		}
		for key := range want {
			if said[key] != 1 {
				t.Errorf("preset %s says setting %s %d times, want once", p.name, key, said[key])
			}
		}
		for key := range said {
			if !want[key] {
				t.Errorf("preset %s says %s, not a setting but the host's", p.name, key)
			}
		}
		if err := opts.apply(p); err != nil {
			t.Errorf("preset %s: %v", p.name, err)
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
// setting once, those of a GDL match and those of a GDL-II match alone,
// with its default, and names the settings of a GDL-II match.
func TestSettingsHelp(t *testing.T) {
	help := SettingsHelp()
	var opts Options
	settings := append(opts.gdlSettings(), opts.gdlIIOnly()...)
	if len(opts.gdlIIOnly()) == 0 {
		t.Error("no setting of a GDL-II match alone; want maxback")
	}
	if n := strings.Count(help, "\n  "); n != len(presets)+len(settings) {
		t.Errorf("%d lines of help for %d presets and %d settings:\n%s", n, len(presets), len(settings), help)
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
	for _, s := range opts.gdlIISettings() {
		if !strings.Contains(help, "GDL-II match mcts takes") || !strings.Contains(help, s.Key+" (default "+s.Default+")") {
			t.Errorf("help does not say that %s applies in a GDL-II match:\n%s", s.Key, help)
		}
	}
}

// TestGDLOnly checks which settings of a specification are reported as
// unused in a GDL-II match: those the GDL-II search does without, set to
// a value other than their default.
func TestGDLOnly(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want []string
	}{
		{"mcts", nil},
		{"random", nil},
		{"mcts:c=0.3:fullclock=on", nil},
		{"mcts:mast=on", nil},
		{"mcts:mast=off:c=0.3", []string{"mast=off"}},
		{"mcts:workers=1:ponder=off", []string{"workers=1", "ponder=off"}},
		{"mcts:learn", []string{"wins=off", "winfacts=off", "prove=off", "resist=off", "heur=off", "hmin=0.15", "hprior=off", "material=off", "minimax=off", "factor=off", "grave=off", "gravec=0.5", "played=off"}},
	} {
		var opts Options
		parseSpec(tt.spec, &opts)
		if got := opts.gdlOnly(); !slices.Equal(got, tt.want) {
			t.Errorf("gdlOnly of %q = %q, want %q", tt.spec, got, tt.want)
		}
		warning := GDLIIWarning(tt.spec)
		if (warning != "") != (tt.want != nil) || tt.want != nil && !strings.Contains(warning, "does without "+strings.Join(tt.want, ", ")+";") {
			t.Errorf("GDLIIWarning(%q) = %q, want one naming %q", tt.spec, warning, tt.want)
		}
	}
}

// TestGDLIISearchSettings checks that the GDL-II search takes its
// settings from the specification, by the keys of the GDL search, with
// its own defaults, and that a GDL-II match of a player with settings it
// does without logs a warning naming them.
func TestGDLIISearchSettings(t *testing.T) {
	var opts Options
	if err := parseSpec("mcts:c=0.3", &opts); err != nil {
		t.Fatal(err)
	}
	if opts.Search.Exploration != 0.3 || opts.GDLIISearch.Exploration != 0.3 {
		t.Errorf("mcts:c=0.3: c %v in GDL and %v in GDL-II, want 0.3 in both", opts.Search.Exploration, opts.GDLIISearch.Exploration)
	}
	opts = Options{}
	if err := parseSpec("mcts:c=0.3:base", &opts); err != nil {
		t.Fatal(err)
	}
	// base pins c, in both searches, over the setting before it.
	if opts.Search.Exploration != 0.5 || opts.GDLIISearch.Exploration != 0.5 {
		t.Errorf("mcts:c=0.3:base: c %v in GDL and %v in GDL-II, want base's 0.5 in both", opts.Search.Exploration, opts.GDLIISearch.Exploration)
	}

	d := loadGame(t, "montyhall")
	for _, tt := range []struct {
		spec string
		warn bool
	}{
		{"mcts:mast=off:c=0.3", true},
		{"mcts:c=0.3", false},
	} {
		var logged strings.Builder
		p := newPlayer(t, tt.spec, Options{Log: log.New(&logged, "", 0)})
		m := &player.Match{ID: "m", Role: "candidate", Rules: d, StartClock: 50 * time.Millisecond, PlayClock: 50 * time.Millisecond, GDLII: true}
		if err := p.Start(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		if err := p.Abort(context.Background(), m.ID); err != nil {
			t.Fatal(err)
		}
		_, without, warned := strings.Cut(logged.String(), "does without ")
		without, _, _ = strings.Cut(without, ";")
		if warned != tt.warn || tt.warn && without != "mast=off" {
			t.Errorf("%s in a GDL-II match logged %q; want a warning naming mast=off alone: %v", tt.spec, logged.String(), tt.warn)
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
