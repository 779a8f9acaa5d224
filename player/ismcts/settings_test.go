package ismcts

import (
	"strings"
	"testing"

	"github.com/ggp-go/ggp/player/mcts"
)

// TestSettings checks the table of the search's settings
// (mcts.CheckTable), that the zero Config takes their defaults from it,
// and that New refuses a value a setting does not take, naming it.
func TestSettings(t *testing.T) {
	var table Config
	if err := mcts.CheckTable(table.Settings()); err != nil {
		t.Fatal(err) // and table now holds the defaults
	}
	c := Config{}.withDefaults()
	for i, s := range c.Settings() {
		if want := table.Settings()[i]; s.String() != want.String() || s.Key != want.Key {
			t.Errorf("%s: %s, want its default %s", s.Key, s, want)
		}
	}
	if c.Exploration != table.Exploration || c.Exploration == 0 {
		t.Errorf("exploration %v, want the default %v", c.Exploration, table.Exploration)
	}
	for _, cfg := range []Config{{Exploration: -1}, {Exploration: 101}} {
		if _, err := New(nil, 0, nil, cfg); err == nil || !strings.Contains(err.Error(), "setting c:") {
			t.Errorf("%+v: %v, want an error naming c", cfg, err)
		}
	}
}

// TestAgainstNature checks the games where maxback's auto is on: those of
// one role against nature, or alone.
func TestAgainstNature(t *testing.T) {
	for _, tt := range []struct {
		roles []string
		role  int
		want  bool
	}{
		{[]string{"guesser", "random"}, 0, true},
		{[]string{"random", "candidate"}, 1, true},
		{[]string{"solo"}, 0, true},
		{[]string{"xplayer", "oplayer"}, 0, false},
		{[]string{"banker", "thief", "random"}, 0, false},
	} {
		if got := againstNature(tt.roles, tt.role); got != tt.want {
			t.Errorf("againstNature(%q, %d) = %v, want %v", tt.roles, tt.role, got, tt.want)
		}
	}
}
