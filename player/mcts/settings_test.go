package mcts

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestSettingsDefaults checks that the zero Config takes every setting's
// default from the table: each field of a setting holds, after
// withDefaults, what setting the table's default gives it, but a number
// whose default is auto, which the search chooses (workers: one per
// core); and that a setting given a value keeps it.
func TestSettingsDefaults(t *testing.T) {
	c := Config{}.withDefaults()
	var fromTable Config
	table := fromTable.Settings()
	for i, s := range c.Settings() {
		if s.isZero() {
			t.Errorf("%s: left at its zero value", s.Key)
		}
		if s.Key != table[i].Key {
			t.Fatalf("Settings lists %s then %s", table[i].Key, s.Key)
		}
		if err := table[i].Set(s.Default); err != nil {
			t.Fatalf("%s: default %q: %v", s.Key, s.Default, err)
		}
		if s.Default == "auto" && s.Switch == nil {
			continue // the search's choice, below
		}
		if got, want := s.String(), table[i].String(); got != want {
			t.Errorf("%s: %s, want its default %s", s.Key, got, want)
		}
	}
	if c.Workers != runtime.NumCPU() {
		t.Errorf("workers: %d, want one per core, %d", c.Workers, runtime.NumCPU())
	}
	// A setting given a value keeps it: each its other value, or its
	// largest.
	for _, s := range c.Settings() {
		var given Config
		g := settingOf(given.Settings(), s.Key)
		other := "off"
		switch {
		case s.Switch != nil && s.Default == "off":
			other = "on"
		case s.Switch == nil:
			other = number(s.Max)
		}
		if err := g.Set(other); err != nil {
			t.Fatalf("%s=%s: %v", s.Key, other, err)
		}
		kept := given.withDefaults()
		if got := settingOf(kept.Settings(), s.Key).String(); got != other {
			t.Errorf("%s=%s became %s", s.Key, other, got)
		}
	}
}

// settingOf returns the setting of key in settings.
func settingOf(settings []Setting, key string) Setting {
	for _, s := range settings {
		if s.Key == key {
			return s
		}
	}
	panic("no setting " + key)
}

// TestSettingsTable checks the table itself (CheckTable), and that
// every value String writes Set reads back the same, and that the syntax
// help shows says auto where the setting takes it.
func TestSettingsTable(t *testing.T) {
	var c Config
	if err := CheckTable(c.Settings()); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Settings() {
		if err := s.Set(s.String()); err != nil || s.String() != s.Default {
			t.Errorf("%s: %q does not read back: %v", s.Key, s, err)
		}
		if (s.Auto != "") != strings.Contains(s.Syntax(), "auto") {
			t.Errorf("%s: syntax %s, auto %q", s.Key, s.Syntax(), s.Auto)
		}
	}
	for _, tt := range []struct {
		table []Setting
		err   string
	}{
		{[]Setting{{Key: "a", Switch: new(Switch), Default: "on", Help: "h"}, {Key: "a", Switch: new(Switch), Default: "on", Help: "h"}}, "repeated key"},
		{[]Setting{{Key: "a", Default: "on", Help: "h"}}, "0 fields"},
		{[]Setting{{Key: "a", Switch: new(Switch), Int: new(int), Default: "on", Help: "h"}}, "2 fields"},
		{[]Setting{{Key: "a", Switch: new(Switch), Default: "maybe", Help: "h"}}, "default"},
		{[]Setting{{Key: "a", Float: new(float64), Max: 1, Default: "0.50", Help: "h"}}, `written back as "0.5"`},
		{[]Setting{{Key: "a", Switch: new(Switch), Default: "on"}}, "no help"},
	} {
		if err := CheckTable(tt.table); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("CheckTable(%+v) = %v, want an error containing %q", tt.table, err, tt.err)
		}
	}
}

// TestSettingSet checks the values each kind of setting takes, as a
// specification writes them, and how it writes them back.
func TestSettingSet(t *testing.T) {
	var c Config
	byKey := map[string]Setting{}
	for _, s := range c.Settings() {
		byKey[s.Key] = s
	}
	for _, tt := range []struct {
		key, value string
		want       string // as String writes it back; "" for an error
	}{
		{"mast", "on", "on"},
		{"mast", "off", "off"},
		{"mast", "auto", ""},
		{"mast", "yes", ""},
		{"grave", "auto", "auto"},
		{"grave", "on", "on"},
		{"ref", "20", "20"},
		{"ref", "0", ""},
		{"ref", "2.5", ""},
		{"ref", "auto", ""},
		{"workers", "4", "4"},
		{"workers", "auto", "auto"},
		{"workers", "1025", ""},
		{"eps", "1", "1"},
		{"eps", "0.25", "0.25"},
		{"eps", "0", ""},
		{"eps", "1.5", ""},
		{"eps", "NaN", ""},
		{"hvisits", "1048576", "1048576"},
	} {
		s := byKey[tt.key]
		before := s.String()
		err := s.Set(tt.value)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s=%s: no error", tt.key, tt.value)
		case tt.want == "" && s.String() != before:
			t.Errorf("%s=%s: %v, and the value changed to %s", tt.key, tt.value, err, s)
		case tt.want != "" && err != nil:
			t.Errorf("%s=%s: %v", tt.key, tt.value, err)
		case tt.want != "" && s.String() != tt.want:
			t.Errorf("%s=%s: reads back %s", tt.key, tt.value, s)
		}
	}
}

// TestNewChecksSettings checks that New refuses a Config whose setting
// holds a value its setting does not take, naming the setting.
func TestNewChecksSettings(t *testing.T) {
	for _, tt := range []struct {
		cfg Config
		key string
	}{
		{Config{MASTEpsilon: 2}, "eps"},
		{Config{GRAVERef: -1}, "ref"},
		{Config{Workers: -1}, "workers"},
		{Config{MAST: Auto}, "mast"},
		{Config{Resist: Switch(9)}, "resist"},
	} {
		_, err := New(context.Background(), nim(3), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), "setting "+tt.key+":") {
			t.Errorf("%+v: %v, want an error naming %s", tt.cfg, err, tt.key)
		}
	}
	s, err := New(context.Background(), nim(3), Config{Workers: 1, GRAVE: Auto, MASTEpsilon: 1})
	if err != nil {
		t.Fatalf("valid settings: %v", err)
	}
	s.Close()
}
