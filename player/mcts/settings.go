package mcts

import (
	"fmt"
	"strconv"
)

// A Switch turns a piece of search knowledge on or off. Its zero value,
// Default, stands for the setting's default (Setting.Default); Auto
// leaves the choice to the search, for the settings that allow it.
type Switch int8

// Values of Switch.
const (
	Default Switch = iota
	On
	Off
	Auto
)

// String returns "on", "off", "auto" or "default".
func (s Switch) String() string {
	switch s {
	case On:
		return "on"
	case Off:
		return "off"
	case Auto:
		return "auto"
	}
	return "default"
}

// A Setting is one setting of the search, or of a player that searches,
// as a player specification writes it (mcts:KEY=VALUE): the field it
// sets, the value the field's zero value stands for, the values it takes
// and a line of help. Config.Settings is the table of the search's
// settings: the defaults of Config, and in package player/mctsplayer the
// parsing of specifications, their presets and the settings ggp play -h
// lists, are all made from it.
//
// The field is a Switch for a piece of knowledge the search uses or not,
// and an int or a float64 for a number; a number never turns anything
// off. The zero value of the field stands for Default; a setting whose
// default the search decides from the game or the machine has the
// default "auto", which Auto describes.
type Setting struct {
	Key string
	// The field the setting sets: one of Switch, Int and Float.
	Switch *Switch
	Int    *int
	Float  *float64
	// Min and Max bound a number: an Int from Min to Max, a Float above
	// Min and up to Max.
	Min, Max float64
	// Default is the value the field's zero value stands for, as a
	// specification writes it: "on", "off", a number, or "auto".
	Default string
	// Auto says what the search chooses for "auto"; empty for a setting
	// that does not take it.
	Auto string
	Help string
	// Host marks a setting of the machine or of the harness the player
	// runs in, not of how it plays (workers, fullclock): presets, which
	// stand for a way of playing, leave it as it is.
	Host bool
}

// Settings returns the table of the search's settings, bound to the
// fields of c: setting one sets its field of c.
func (c *Config) Settings() []Setting {
	return []Setting{
		{Key: "c", Float: &c.Exploration, Min: 0, Max: 100, Default: "0.5",
			Help: "UCB1 exploration constant, goals scaled to [0,1], where GRAVE is off"},
		{Key: "mast", Switch: &c.MAST, Default: "on",
			Help: "move-average sampling in playouts (MAST)"},
		{Key: "eps", Float: &c.MASTEpsilon, Min: 0, Max: 1, Default: "0.4",
			Help: "MAST: probability of a random playout move"},
		{Key: "decay", Float: &c.MASTDecay, Min: 0, Max: 1, Default: "0.8",
			Help: "MAST: factor the averages keep at each turn"},
		{Key: "nst", Switch: &c.NST, Default: "on",
			Help: "MAST ranks moves by the pairs and triples of moves ending in them too (NST)"},
		{Key: "fast", Switch: &c.PolicyPlayouts, Default: "on",
			Help: "playouts through the reasoner's own allocation-free loop when it has one"},
		{Key: "wins", Switch: &c.Wins, Default: "on",
			Help: "fast playouts play a move the rules show wins at once wherever it is played, and take back one that lets another role play such a move"},
		{Key: "winfacts", Switch: &c.WinFacts, Default: "on",
			Help: "fast playouts play a move the rules show wins at once where a few facts of the state hold (connect four's fourth disc), and take back one that lets another role play such a move"},
		{Key: "prove", Switch: &c.ProveLeaves, Default: "on",
			Help: "a state the tree grows below is proven won when its mover has a move that wins at once"},
		{Key: "resist", Switch: &c.Resist, Default: "on",
			Help: "in a state proven lost, answer the move searched most rather than the first proven lost"},
		{Key: "heur", Switch: &c.Heuristic, Default: "on",
			Help: "learn a heuristic from the rules before the first search, used as hprior and hcut say where it predicts the goals"},
		{Key: "hmin", Float: &c.HeuristicQuality, Min: 0, Max: 1, Default: "0.35",
			Help: "heur: the correlation with held-out goals a heuristic needs to be kept"},
		{Key: "hprior", Switch: &c.HeuristicPrior, Default: "on",
			Help: "heur: when the tree grows below a state, each move gets hvisits visits of the heuristic's value of the state it reaches"},
		{Key: "hvisits", Int: &c.HeuristicPriorVisits, Min: 1, Max: 1 << 20, Default: "10",
			Help: "heur: the visits hprior gives a move"},
		{Key: "material", Switch: &c.Material, Default: "on",
			Help: "heur: where no heuristic fits a game of two roles, find each role's pieces and give the moves that change them a prior, as hprior"},
		{Key: "minimax", Switch: &c.Minimax, Default: "on",
			Help: "material: selection mixes a move's mean with the minimax value of the pieces in the tree below it (implicit minimax backups)"},
		{Key: "hcut", Switch: &c.HeuristicCut, Default: "on",
			Help: "heur: playouts are cut after hdepth moves and scored by the heuristic, in games whose random games last 6 times hdepth or more"},
		{Key: "hdepth", Int: &c.HeuristicDepth, Min: 1, Max: 1 << 20, Default: "8",
			Help: "heur: moves a playout plays before the heuristic scores it"},
		{Key: "chains", Switch: &c.Chains, Default: "off",
			Help: "a move after which the same role moves again is credited with the mean of that role's most visited move there, not the playout's result"},
		{Key: "factor", Switch: &c.Factor, Default: "on",
			Help: "a game that falls into factors, such as two boards played side by side, is searched one factor at a time, with the other factors' facts held"},
		{Key: "grave", Switch: &c.GRAVE, Default: "auto",
			Auto: "on in placement games, where a move is open until played and never after, as hex",
			Help: "GRAVE: all-moves-as-first values in tree selection"},
		{Key: "gravefirst", Switch: &c.GRAVEFirst, Default: "on",
			Help: "GRAVE: a move not yet visited is valued as one visit of its all-moves-as-first mean, not tried before all visited ones"},
		{Key: "ref", Int: &c.GRAVERef, Min: 1, Max: 1 << 30, Default: "50",
			Help: "GRAVE: visits a node needs to lend its values"},
		{Key: "gravec", Float: &c.GRAVEExploration, Min: 0, Max: 100, Default: "0.05",
			Help: "GRAVE: the exploration constant where GRAVE is on, in place of c"},
		{Key: "workers", Int: &c.Workers, Min: 1, Max: 1024, Default: "auto", Auto: "one per core", Host: true,
			Help: "search goroutines"},
	}
}

// Set sets the setting's field to v, written as a specification writes
// it.
func (s Setting) Set(v string) error {
	switch {
	case v == "auto" && s.Auto != "":
		s.setAuto()
		return nil
	case s.Switch != nil:
		switch v {
		case "on":
			*s.Switch = On
			return nil
		case "off":
			*s.Switch = Off
			return nil
		}
	case s.Int != nil:
		if x, err := strconv.Atoi(v); err == nil && s.inRange(float64(x)) {
			*s.Int = x
			return nil
		}
	case s.Float != nil:
		if x, err := strconv.ParseFloat(v, 64); err == nil && s.inRange(x) {
			*s.Float = x
			return nil
		}
	}
	return fmt.Errorf("want %s, not %q", s.want(), v)
}

// setAuto leaves the choice to the search: Auto for a switch, the zero
// value for a number.
func (s Setting) setAuto() {
	switch {
	case s.Switch != nil:
		*s.Switch = Auto
	case s.Int != nil:
		*s.Int = 0
	case s.Float != nil:
		*s.Float = 0
	}
}

// inRange reports whether the number x is one the setting takes.
func (s Setting) inRange(x float64) bool {
	if s.Int != nil {
		return x >= s.Min && x <= s.Max
	}
	return x > s.Min && x <= s.Max
}

// want describes the values the setting takes, for an error.
func (s Setting) want() string {
	auto := ""
	if s.Auto != "" {
		auto = " or auto"
	}
	switch {
	case s.Switch != nil && s.Auto != "":
		return "on, off or auto"
	case s.Switch != nil:
		return "on or off"
	case s.Int != nil:
		return fmt.Sprintf("a whole number from %s to %s%s", number(s.Min), number(s.Max), auto)
	}
	return fmt.Sprintf("a number in (%s, %s]%s", number(s.Min), number(s.Max), auto)
}

// number formats x as a specification writes it, without an exponent.
func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// isZero reports whether the setting's field holds its zero value, which
// stands for the default.
func (s Setting) isZero() bool {
	switch {
	case s.Switch != nil:
		return *s.Switch == Default
	case s.Int != nil:
		return *s.Int == 0
	case s.Float != nil:
		return *s.Float == 0
	}
	return true
}

// String returns the value of the setting's field as a specification
// writes it: the default for the zero value, and auto for a number the
// search chooses.
func (s Setting) String() string {
	switch {
	case s.isZero():
		return s.Default
	case s.Switch != nil:
		return s.Switch.String()
	case s.Int != nil:
		return strconv.Itoa(*s.Int)
	default:
		return number(*s.Float)
	}
}

// Syntax returns the values the setting takes, for help: on|off for a
// switch, N for a whole number and F for a number, with auto where the
// setting takes it.
func (s Setting) Syntax() string {
	syntax := "F"
	switch {
	case s.Switch != nil:
		syntax = "on|off"
	case s.Int != nil:
		syntax = "N"
	}
	if s.Auto != "" {
		syntax += "|auto"
	}
	return syntax
}

// SetDefault sets the setting's field to its default if it holds its zero
// value.
func (s Setting) SetDefault() {
	if s.isZero() {
		// The table's defaults are checked by its tests (CheckTable).
		if err := s.Set(s.Default); err != nil {
			panic(fmt.Sprintf("mcts: setting %s: default: %v", s.Key, err))
		}
	}
}

// Check reports a value of the setting's field that Set would not have
// given it; the zero value is always valid.
func (s Setting) Check() error {
	ok := s.isZero()
	switch {
	case ok:
	case s.Switch != nil:
		v := *s.Switch
		ok = v == On || v == Off || v == Auto && s.Auto != ""
	case s.Int != nil:
		ok = s.inRange(float64(*s.Int))
	case s.Float != nil:
		ok = s.inRange(*s.Float)
	}
	if !ok {
		return fmt.Errorf("setting %s: want %s, not %s", s.Key, s.want(), s.String())
	}
	return nil
}

// CheckTable reports a table of settings that is not one: a key empty or
// repeated, a setting without exactly one field, or a default the setting
// does not take or does not write back as given. It sets the fields of
// the table to their defaults. The tests of each table call it.
func CheckTable(settings []Setting) error {
	seen := map[string]bool{}
	for _, s := range settings {
		fields := 0
		for _, set := range []bool{s.Switch != nil, s.Int != nil, s.Float != nil} {
			if set {
				fields++
			}
		}
		switch {
		case s.Key == "" || seen[s.Key]:
			return fmt.Errorf("setting %q: empty or repeated key", s.Key)
		case fields != 1:
			return fmt.Errorf("setting %s: %d fields, want one", s.Key, fields)
		case s.Help == "":
			return fmt.Errorf("setting %s: no help", s.Key)
		}
		seen[s.Key] = true
		if err := s.Set(s.Default); err != nil {
			return fmt.Errorf("setting %s: default: %w", s.Key, err)
		}
		if s.String() != s.Default {
			return fmt.Errorf("setting %s: default %q written back as %q", s.Key, s.Default, s)
		}
	}
	return nil
}
