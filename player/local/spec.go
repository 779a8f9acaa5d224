package local

import (
	"fmt"
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
// settings of the mcts player are listed by SettingsHelp; random and
// legal take none.

// presets are named groups of mcts settings.
var presets = map[string]string{
	// base is the search this project's strength work started from:
	// UCT with uniformly random playouts played through the reasoner's
	// Legal and Next, no knowledge learned during the match, no search
	// between its answer and the next call.
	"base": "mast=off:nst=off:grave=off:fast=off:ponder=off",
	// 2026-11 is the default player of November 2026: MAST learning
	// off-policy, NST, policy playouts, pondering and the
	// settled-decision clock; GRAVE off. Every setting is pinned, so the
	// preset keeps playing that player when the defaults change.
	"2026-11": "mast=on:nst=on:grave=off:fast=on:ponder=on:eps=0.4:decay=0.8:c=0.5:gravec=0.5:ref=50:heur=off:hcut=on:hprior=0:hmin=0.15:prove=off:resist=off:wins=off:winfacts=off",
}

// SettingsHelp describes the settings of the mcts player.
const SettingsHelp = `mcts settings (mcts:KEY=VALUE:...):
  base                preset: the plain UCT player, no MAST, NST, GRAVE, fast playouts or pondering
  2026-11             preset: the default player of November 2026, every setting pinned
  mast=on|off         move-average sampling in playouts (default on)
  eps=F               MAST: probability of a random playout move (default 0.4)
  decay=F             MAST: factor the averages keep at each turn (default 0.8)
  nst=on|off          MAST ranks moves by the pairs and triples of moves ending in them too (default on)
  wins=on|off         policy playouts play a move the rules show wins at once wherever it is played, and take back one that lets another role play such a move (default on)
  winfacts=on|off     policy playouts play a move the rules show wins at once where a few facts of the state hold (connect four's fourth disc), and take back one that lets another role play such a move (default on)
  prove=on|off        a state the tree grows below is proven won when its mover has a move that wins at once (default on)
  heur=on|off         learn a heuristic from the rules before the first search, used as hprior and hcut say where it predicts the goals (default on)
  hprior=N            heur: a move gets N visits of the heuristic's value of the state it reaches when the tree grows below its state (default 10; 0 off)
  hcut=on|off         heur: playouts are cut after hdepth moves and scored by the heuristic (default on)
  hdepth=N            heur: moves a playout plays before the heuristic scores it (default 8)
  hmin=F              heur: the correlation with held-out goals a heuristic needs to be kept; (default 0.35)
  fast=on|off         playouts through the reasoner's own allocation-free loop when it has one (default on)
  grave=on|off        GRAVE: all-moves-as-first values in tree selection (default: on in placement games, where a move is open until played and never after, as hex)
  gravefirst=on|off   GRAVE: a move not yet visited is valued as one visit of its all-moves-as-first mean, not tried before all visited ones (default on)
  ref=N               GRAVE: visits a node needs to lend its values (default 50)
  c=F                 UCB1 exploration constant, goals scaled to [0,1], where GRAVE is off (default 0.5)
  gravec=F            GRAVE: the exploration constant where GRAVE is on, in place of c (default 0.05)
  resist=on|off       in a state proven lost, answer the move searched most rather than the first proven lost (default on)
  ponder=on|off       search on between an answer and the next call of the match (default on)
  workers=N           search goroutines (default: one per core)
  fullclock=on|off    answer START and PLAY only at the end of each clock, even when the move is settled sooner, to test a game master at long clocks (default off)`

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
	if err := applySettings(rest, opts); err != nil {
		return "", fmt.Errorf("player %q: %w", spec, err)
	}
	return kind, nil
}

// applySettings applies colon-separated settings to opts: presets, which
// stand for KEY=VALUE settings, and KEY=VALUE settings.
func applySettings(settings string, opts *Options) error {
	for _, s := range strings.Split(settings, ":") {
		if s == "" {
			continue
		}
		pairs := []string{s}
		if !strings.Contains(s, "=") {
			p, ok := presets[s]
			if !ok {
				return fmt.Errorf("unknown preset %q (want a preset or KEY=VALUE)", s)
			}
			pairs = strings.Split(p, ":")
		}
		for _, pair := range pairs {
			key, value, _ := strings.Cut(pair, "=")
			if err := applySetting(key, value, opts); err != nil {
				return fmt.Errorf("%s: %w", pair, err)
			}
		}
	}
	return nil
}

func applySetting(key, value string, opts *Options) error {
	cfg := &opts.Search
	switch key {
	case "ponder":
		return parseSwitch(value, &opts.Ponder)
	case "fullclock":
		return parseSwitch(value, &opts.FullClock)
	case "mast":
		return parseSwitch(value, &cfg.MAST)
	case "grave":
		return parseSwitch(value, &cfg.GRAVE)
	case "gravefirst":
		return parseSwitch(value, &cfg.GRAVEFirst)
	case "wins":
		return parseSwitch(value, &cfg.Wins)
	case "winfacts":
		return parseSwitch(value, &cfg.WinFacts)
	case "resist":
		return parseSwitch(value, &cfg.Resist)
	case "prove":
		return parseSwitch(value, &cfg.ProveLeaves)
	case "heur":
		return parseSwitch(value, &cfg.Heuristic)
	case "hcut":
		return parseSwitch(value, &cfg.HeuristicCut)
	case "hprior":
		if err := parseInt(value, 0, 1<<20, &cfg.HeuristicPrior); err != nil {
			return err
		}
		if cfg.HeuristicPrior == 0 {
			cfg.HeuristicPrior = -1 // off, not the default
		}
		return nil
	case "hdepth":
		return parseInt(value, 1, 1<<20, &cfg.HeuristicDepth)
	case "hmin":
		return parseFloat(value, 0, 1, &cfg.HeuristicQuality)
	case "nst":
		return parseSwitch(value, &cfg.NST)
	case "fast":
		return parseSwitch(value, &cfg.PolicyPlayouts)
	case "eps":
		return parseFloat(value, 0, 1, &cfg.MASTEpsilon)
	case "decay":
		return parseFloat(value, 0, 1, &cfg.MASTDecay)
	case "c":
		return parseFloat(value, 0, 100, &cfg.Exploration)
	case "gravec":
		return parseFloat(value, 0, 100, &cfg.GRAVEExploration)
	case "ref":
		return parseInt(value, 1, 1<<30, &cfg.GRAVERef)
	case "workers":
		return parseInt(value, 1, 1024, &cfg.Workers)
	}
	return fmt.Errorf("unknown setting %q", key)
}

func parseSwitch(v string, s *mcts.Switch) error {
	switch v {
	case "on":
		*s = mcts.On
	case "off":
		*s = mcts.Off
	default:
		return fmt.Errorf("want on or off, not %q", v)
	}
	return nil
}

func parseFloat(v string, lo, hi float64, f *float64) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || x <= lo || x > hi {
		return fmt.Errorf("want a number in (%g, %g], not %q", lo, hi, v)
	}
	*f = x
	return nil
}

func parseInt(v string, lo, hi int, n *int) error {
	x, err := strconv.Atoi(v)
	if err != nil || x < lo || x > hi {
		return fmt.Errorf("want a whole number from %d to %d, not %q", lo, hi, v)
	}
	*n = x
	return nil
}
