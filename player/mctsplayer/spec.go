package mctsplayer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/player/mcts"
)

// A specification of the mcts player is Kind, optionally followed by
// settings after colons, each a preset name or KEY=VALUE:
//
//	mcts
//	mcts:base
//	mcts:mast=off:c=0.4
//	mcts:base:workers=1
//
// Settings apply from left to right, so a preset can be adjusted. The
// settings of the mcts player are those of its searches (mcts.Config's
// and ismcts.Config's Settings) and of the player (Options.playerSettings);
// SettingsHelp lists them. Package player/players tells a specification
// from the other names of players.

// settings returns the table of every setting of the mcts player, bound
// to the fields of o: the GDL search's, the player's own, then the GDL-II
// search's, whose keys are also the GDL search's (c): a KEY=VALUE sets
// every setting of the key.
func (o *Options) settings() []mcts.Setting {
	return slices.Concat(o.gdlSettings(), o.GDLIISearch.Settings())
}

// gdlSettings returns the settings that apply in a GDL match: the GDL
// search's and the player's.
func (o *Options) gdlSettings() []mcts.Setting {
	return append(o.Search.Settings(), o.playerSettings()...)
}

// gdlIISettings returns the settings that apply in a GDL-II match, where
// the player searches with package ismcts: that search's, and of the
// player's own, fullclock.
func (o *Options) gdlIISettings() []mcts.Setting {
	return append(o.GDLIISearch.Settings(), o.fullClockSetting())
}

// playerSettings returns the settings of the mcts player that are not
// its searches', bound to the fields of o.
func (o *Options) playerSettings() []mcts.Setting {
	return []mcts.Setting{
		{Key: "ponder", Switch: &o.Ponder, Default: "on",
			Help: "search on between an answer and the next call of the match"},
		{Key: "played", Switch: &o.PonderPlayed, Default: "on",
			Help: "ponder: only below the move answered, where the game goes on"},
		o.fullClockSetting(),
	}
}

// fullClockSetting returns the setting fullclock, bound to o.FullClock:
// a setting of the player in a match of either kind.
func (o *Options) fullClockSetting() mcts.Setting {
	return mcts.Setting{Key: "fullclock", Switch: &o.FullClock, Default: "off", Host: true,
		Help: "answer START and PLAY only at the end of each clock, even when the move is settled sooner, to test a game master at long clocks"}
}

// A preset is a named way of playing, written as overrides of the
// table: a value for every setting but the host's (mcts.Setting.Host), so
// that it plays the same whatever the table's defaults become. Applying
// it first gives every setting but the host's its default, then the
// preset's values, so that no setting made before it survives. Each
// preset names every setting but the host's (a test checks it), so that
// a setting added to the table is a decision about every preset.
type preset struct {
	name, help string
	set        []string // KEY=VALUE, as a specification writes them
}

// presets are the presets of the mcts player.
var presets = []preset{
	{
		name: "base",
		help: "the plain UCT player: uniformly random playouts through Legal and Next, no knowledge learned or read from the rules, no search between its answer and the next call",
		set: []string{
			"mast=off", "nst=off", "fast=off", "wins=off", "winfacts=off", "prove=off", "resist=off",
			"heur=off", "hprior=off", "material=off", "minimax=off", "hcut=off", "grave=off", "chains=off", "factor=off",
			"ponder=off", "played=off", "maxback=off",
			"c=0.5", "eps=0.4", "decay=0.8", "hmin=0.35", "hvisits=10", "hdepth=8", "gravefirst=on", "ref=50", "gravec=0.05",
		},
	},
	{
		name: "learn",
		help: "the player that learns as it plays and reads nothing from the rules: MAST, NST and policy playouts, pondering over every move of the root; no wins, proofs, resisting, heuristic, material or GRAVE",
		set: []string{
			"mast=on", "nst=on", "fast=on", "ponder=on", "played=off",
			"wins=off", "winfacts=off", "prove=off", "resist=off",
			"heur=off", "hprior=off", "material=off", "minimax=off", "grave=off", "chains=off", "factor=off", "maxback=auto",
			"c=0.5", "eps=0.4", "decay=0.8", "hmin=0.15", "hvisits=10", "hcut=on", "hdepth=8", "gravefirst=on", "ref=50", "gravec=0.5",
		},
	},
}

// apply sets the settings of preset p: every setting but the host's to
// its default, then p's.
func (o *Options) apply(p preset) error {
	for _, s := range o.settings() {
		if !s.Host {
			if err := s.Set(s.Default); err != nil {
				return fmt.Errorf("%s: default: %w", s.Key, err)
			}
		}
	}
	for _, kv := range p.set {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q: want KEY=VALUE", kv)
		}
		if err := o.applySetting(key, value); err != nil {
			return fmt.Errorf("%s: %w", kv, err)
		}
	}
	return nil
}

// SettingsHelp describes the settings of the mcts player, for the help of
// the commands that name players.
func SettingsHelp() string {
	var opts Options
	settings := append(opts.gdlSettings(), opts.gdlIIOnly()...)
	width := 0 // of the widest KEY=VALUES, and a space
	for _, s := range settings {
		width = max(width, len(s.Key)+1+len(s.Syntax())+1)
	}
	var b strings.Builder
	b.WriteString("mcts settings (mcts:KEY=VALUE:...):\n")
	for _, p := range presets {
		fmt.Fprintf(&b, "  %-*s preset: %s\n", width, p.name, p.help)
	}
	for _, s := range settings {
		def := s.Default
		if s.Auto != "" && def == "auto" {
			def = "auto: " + s.Auto
		}
		fmt.Fprintf(&b, "  %-*s %s (default %s)\n", width, s.Key+"="+s.Syntax(), s.Help, def)
	}
	fmt.Fprintf(&b, "In a GDL-II match mcts takes %s alone; the others apply to\nGDL matches, and ggp match and ggp play warn of them in a GDL-II match.", gdlIISummary())
	return b.String()
}

// CheckSpec reports whether spec is a specification of an in-process
// player New makes, and if not, why, as New would.
func CheckSpec(spec string) error {
	var opts Options
	return parseSpec(spec, &opts)
}

// parseSpec checks that spec names the mcts player and applies its
// settings to opts.
func parseSpec(spec string, opts *Options) error {
	kind, rest, found := strings.Cut(spec, ":")
	if kind != Kind {
		return fmt.Errorf("unknown player %q: want %s", kind, Kind)
	}
	if !found {
		return nil
	}
	if err := opts.applySettings(rest); err != nil {
		return fmt.Errorf("player %q: %w", spec, err)
	}
	return nil
}

// applySettings applies colon-separated settings to o: presets and
// KEY=VALUE settings.
func (o *Options) applySettings(settings string) error {
	for i, s := range strings.Split(settings, ":") {
		if s == "" {
			return fmt.Errorf("setting %d is empty", i+1)
		}
		key, value, found := strings.Cut(s, "=")
		if !found {
			i := slices.IndexFunc(presets, func(p preset) bool { return p.name == s })
			if i < 0 {
				return fmt.Errorf("unknown preset %q (want a preset or KEY=VALUE)", s)
			}
			if err := o.apply(presets[i]); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			continue
		}
		if err := o.applySetting(key, value); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// applySetting sets every setting of o of the key to value.
func (o *Options) applySetting(key, value string) error {
	found := false
	for _, s := range o.settings() {
		if s.Key != key {
			continue
		}
		if err := s.Set(value); err != nil {
			return err
		}
		found = true
	}
	if !found {
		return fmt.Errorf("unknown setting %q", key)
	}
	return nil
}

// GDLIIWarning returns the warning of a player of the specification spec
// in a GDL-II match when its settings include some its GDL-II search does
// without (those of a GDL match alone, set to other than their default),
// and "" when they do not or New refuses spec. A command that plays a
// GDL-II match shows it; the player logs it at the START of one.
func GDLIIWarning(spec string) string {
	var opts Options
	if err := parseSpec(spec, &opts); err != nil {
		return ""
	}
	return opts.gdlIIWarning(spec)
}

// gdlIIWarning returns the warning of GDLIIWarning for the player named
// name with the settings of o.
func (o *Options) gdlIIWarning(name string) string {
	only := o.gdlOnly()
	if len(only) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: a GDL-II match does without %s; its search takes %s alone", name, strings.Join(only, ", "), gdlIISummary())
}

// gdlIIOnly returns the settings of o that apply in a GDL-II match alone.
func (o *Options) gdlIIOnly() []mcts.Setting {
	gdl := o.gdlSettings()
	var only []mcts.Setting
	for _, s := range o.gdlIISettings() {
		if !slices.ContainsFunc(gdl, func(t mcts.Setting) bool { return t.Key == s.Key }) {
			only = append(only, s)
		}
	}
	return only
}

// gdlIISummary names the settings that apply in a GDL-II match, with
// their defaults there.
func gdlIISummary() string {
	var opts Options
	var each []string
	for _, s := range opts.gdlIISettings() {
		each = append(each, fmt.Sprintf("%s (default %s)", s.Key, s.Default))
	}
	last := len(each) - 1
	return strings.Join(each[:last], ", ") + " and " + each[last]
}

// gdlOnly returns the settings of o that apply in a GDL match alone and
// are not at their default, as KEY=VALUE.
func (o *Options) gdlOnly() []string {
	gdlII := o.gdlIISettings()
	var only []string
	for _, s := range o.gdlSettings() {
		used := slices.ContainsFunc(gdlII, func(t mcts.Setting) bool { return t.Key == s.Key })
		if !used && s.String() != s.Default {
			only = append(only, s.Key+"="+s.String())
		}
	}
	return only
}

// GDLIISearch returns the configuration of the GDL-II search of a player
// of the specification spec, as New makes it, or New's error: for a tool
// that runs the player's search by itself, as the player would.
func GDLIISearch(spec string) (ismcts.Config, error) {
	var opts Options
	if err := parseSpec(spec, &opts); err != nil {
		return ismcts.Config{}, err
	}
	return opts.GDLIISearch, nil
}
