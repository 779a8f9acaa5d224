package players

import (
	"strings"
	"testing"

	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/player/seat"
)

func TestNew(t *testing.T) {
	for _, tt := range []struct {
		spec, name string
		human      bool
		remote     bool
	}{
		{"mcts", "mcts", false, false},
		{"mcts:base:workers=1", "mcts:base:workers=1", false, false},
		{"random", "random", false, false},
		{"legal", "legal", false, false},
		{"human", "human", true, false},
		{"127.0.0.1:9147", "127.0.0.1:9147", false, true},
		{"http://example.org/player", "http://example.org/player", false, true},
	} {
		p, err := New(tt.spec, nil)
		if err != nil {
			t.Errorf("New(%q): %v", tt.spec, err)
			continue
		}
		if p.Name() != tt.name {
			t.Errorf("New(%q): name %q, want %q", tt.spec, p.Name(), tt.name)
		}
		if _, ok := p.(seat.Player); ok != tt.human {
			t.Errorf("New(%q) = %T, want a seat.Player: %v", tt.spec, p, tt.human)
		}
		if _, ok := p.(*remote.Client); ok != tt.remote {
			t.Errorf("New(%q) = %T", tt.spec, p)
		}
		if err := Validate(tt.spec); err != nil {
			t.Errorf("Validate(%q): %v", tt.spec, err)
		}
	}
	for _, tt := range []struct{ spec, want string }{
		{"nobody", `unknown player "nobody"`},
		{"mcts:workers=0", "workers"},
		{"mcts:nosuch=1", "nosuch"},
		{"ftp://example.org/", "want host:port or an http URL"},
		{"", `unknown player ""`},
	} {
		if err := Validate(tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%q) = %v, want an error containing %q", tt.spec, err, tt.want)
		}
	}
}
