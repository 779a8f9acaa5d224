package local

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ggp-go/ggp/player/mcts"
)

// A player specification is a kind of player, optionally followed by
// settings after colons, each a preset name or KEY=VALUE:
//
//	mcts
//	mcts:base
//	mcts:mast=off:c=0.4
//	mcts:base:workers=1
//
// Settings apply from left to right, so a preset can be adjusted. The
// settings of the mcts player are those of its search (mcts.Config.Settings)
// and of the player (Options.settings); SettingsHelp lists them. Random
// and legal take none.

// settings returns the table of every setting of the mcts player, bound
// to the fields of o: the search's, then the player's own.
func (o *Options) settings() []mcts.Setting {
	return append(o.Search.Settings(), o.playerSettings()...)
}

// playerSettings returns the settings of the mcts player that are not
// its search's, bound to the fields of o.
func (o *Options) playerSettings() []mcts.Setting {
	return []mcts.Setting{
		{Key: "ponder", Switch: &o.Ponder, Default: "on",
			Help: "search on between an answer and the next call of the match"},
		{Key: "played", Switch: &o.PonderPlayed, Default: "on",
			Help: "ponder: only below the move answered, where the game goes on"},
		{Key: "fullclock", Switch: &o.FullClock, Default: "off", Host: true,
			Help: "answer START and PLAY only at the end of each clock, even when the move is settled sooner, to test a game master at long clocks"},
	}
}

// A preset is a named way of playing: a value for every setting but the
// host's (mcts.Setting.Host), so that it plays the same whatever the
// defaults are and whatever settings came before it.
type preset struct {
	name, help string
	values     map[string]string
}

// presets are the presets of the mcts player. Each must give every
// setting but the host's a value, which init checks.
var presets = []preset{
	{
		name: "base",
		help: "the plain UCT player: uniformly random playouts through Legal and Next, no knowledge learned or read from the rules, no search between its answer and the next call",
		values: map[string]string{
			"c": "0.5", "mast": "off", "eps": "0.4", "decay": "0.8", "nst": "off",
			"fast": "off", "wins": "off", "winfacts": "off", "prove": "off", "resist": "off",
			"heur": "off", "hmin": "0.35", "hprior": "off", "hvisits": "10", "material": "off", "minimax": "off", "hcut": "off", "hdepth": "8",
			"grave": "off", "gravefirst": "on", "ref": "50", "gravec": "0.05",
			"ponder": "off", "played": "off",
		},
	},
	{
		// The default player of November 2026: MAST learning
		// off-policy, NST, policy playouts, pondering and the
		// settled-decision clock; GRAVE, the heuristic, proofs at the
		// leaves, the wins read from the rules and resisting off.
		name: "2026-11",
		help: "the default player of November 2026",
		values: map[string]string{
			"c": "0.5", "mast": "on", "eps": "0.4", "decay": "0.8", "nst": "on",
			"fast": "on", "wins": "off", "winfacts": "off", "prove": "off", "resist": "off",
			"heur": "off", "hmin": "0.15", "hprior": "off", "hvisits": "10", "material": "off", "minimax": "off", "hcut": "on", "hdepth": "8",
			"grave": "off", "gravefirst": "on", "ref": "50", "gravec": "0.5",
			"ponder": "on", "played": "off",
		},
	},
}

// Every preset gives a value to every setting but the host's, and only
// those, and each value is one its setting takes.
func init() {
	for _, p := range presets {
		var opts Options
		want := map[string]bool{}
		for _, s := range opts.settings() {
			if !s.Host {
				want[s.Key] = true
			}
		}
		for key := range p.values {
			if !want[key] {
				panic(fmt.Sprintf("local: preset %s sets %q, not a setting presets set", p.name, key))
			}
		}
		for key := range want {
			if _, ok := p.values[key]; !ok {
				panic(fmt.Sprintf("local: preset %s leaves setting %s out", p.name, key))
			}
		}
		if err := opts.apply(p); err != nil {
			panic(fmt.Sprintf("local: preset %s: %v", p.name, err))
		}
	}
}

// apply sets the settings of preset p.
func (o *Options) apply(p preset) error {
	for _, key := range slices.Sorted(maps.Keys(p.values)) {
		if err := o.applySetting(key, p.values[key]); err != nil {
			return fmt.Errorf("%s=%s: %w", key, p.values[key], err)
		}
	}
	return nil
}

// SettingsHelp describes the settings of the mcts player, for the help of
// the commands that name players.
func SettingsHelp() string {
	var opts Options
	settings := opts.settings()
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
	return strings.TrimSuffix(b.String(), "\n")
}

// IsSpec reports whether spec names an in-process player: a kind of
// Kinds, alone or followed by settings. "mcts:9147" is not one: a number
// after the colon makes it a remote player's host and port.
func IsSpec(spec string) bool {
	kind, rest, found := strings.Cut(spec, ":")
	if !slices.Contains(Kinds(), kind) {
		return false
	}
	if !found {
		return true
	}
	_, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
	return err != nil
}

// parseSpec splits spec into its kind and applies its settings to opts.
func parseSpec(spec string, opts *Options) (kind string, err error) {
	kind, rest, found := strings.Cut(spec, ":")
	if !slices.Contains(Kinds(), kind) {
		return "", fmt.Errorf("unknown player %q: want one of %s", kind, strings.Join(Kinds(), ", "))
	}
	if !found {
		return kind, nil
	}
	if kind != "mcts" {
		return "", fmt.Errorf("player %q: %s takes no settings", spec, kind)
	}
	if err := opts.applySettings(rest); err != nil {
		return "", fmt.Errorf("player %q: %w", spec, err)
	}
	return kind, nil
}

// applySettings applies colon-separated settings to o: presets and
// KEY=VALUE settings.
func (o *Options) applySettings(settings string) error {
	for _, s := range strings.Split(settings, ":") {
		if s == "" {
			continue
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

// applySetting sets the setting key of o to value.
func (o *Options) applySetting(key, value string) error {
	for _, s := range o.settings() {
		if s.Key == key {
			return s.Set(value)
		}
	}
	return fmt.Errorf("unknown setting %q", key)
}
