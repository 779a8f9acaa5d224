package mcts

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestSettingsDefaults checks that the zero Config takes every setting's
// default from the table: each switch on or off as its default says, or
// Auto where the search decides, and each number its default.
func TestSettingsDefaults(t *testing.T) {
	c := Config{}.withDefaults()
	want := map[string]string{
		"c": "0.5", "mast": "on", "eps": "0.4", "decay": "0.8", "nst": "on",
		"fast": "on", "wins": "on", "winfacts": "on", "prove": "on", "resist": "on",
		"heur": "on", "hmin": "0.35", "hprior": "on", "hvisits": "10", "material": "on", "minimax": "on", "hcut": "on", "hdepth": "8",
		"grave": "auto", "gravefirst": "on", "ref": "50", "gravec": "0.05",
	}
	for _, s := range c.Settings() {
		if s.Key == "workers" {
			if c.Workers != runtime.NumCPU() {
				t.Errorf("workers: %d, want one per core, %d", c.Workers, runtime.NumCPU())
			}
			continue
		}
		if s.isZero() {
			t.Errorf("%s: left at its zero value", s.Key)
		}
		if got := s.String(); got != want[s.Key] {
			t.Errorf("%s: %s, want %s", s.Key, got, want[s.Key])
		}
	}
	if c.GRAVE != Auto || c.MAST != On || c.HeuristicPriorVisits != 10 || c.MASTEpsilon != 0.4 {
		t.Errorf("fields %v %v %v %v, want auto, on, 10 and 0.4", c.GRAVE, c.MAST, c.HeuristicPriorVisits, c.MASTEpsilon)
	}
	// A setting given a value keeps it.
	if c := (Config{MAST: Off, GRAVERef: 7}).withDefaults(); c.MAST != Off || c.GRAVERef != 7 {
		t.Errorf("mast off and ref 7 became %v and %d", c.MAST, c.GRAVERef)
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
