package players

import (
	"strings"
	"testing"

	"github.com/ggp-go/ggp/player/human"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/player/seat"
)

// TestParse checks the kind each name is read as, and the player New
// makes of it.
func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name string
		kind Kind
		url  string
	}{
		{"mcts", MCTS, ""},
		{"mcts:base:workers=1", MCTS, ""},
		{"mcts:learn:c=0.3", MCTS, ""},
		{"random", Random, ""},
		{"legal", Legal, ""},
		{"human", Person, ""},
		{"127.0.0.1:9147", Remote, "http://127.0.0.1:9147/"},
		{"localhost:9147", Remote, "http://localhost:9147/"},
		{"[::1]:9147", Remote, "http://[::1]:9147/"},
		{"http://mcts:9147", Remote, "http://mcts:9147/"},
		{"http://example.org/player", Remote, "http://example.org/player"},
		{"https://example.org", Remote, "https://example.org/"},
	} {
		s, err := Parse(tt.name)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.name, err)
			continue
		}
		if s.Name != tt.name || s.Kind != tt.kind || s.URL != tt.url {
			t.Errorf("Parse(%q) = %+v, want kind %s, URL %q", tt.name, s, tt.kind, tt.url)
		}
		p, err := s.New(nil, 1)
		if err != nil {
			t.Errorf("%q: New: %v", tt.name, err)
			continue
		}
		if p.Name() != tt.name && tt.kind != Person {
			t.Errorf("%q: player named %q", tt.name, p.Name())
		}
		_, isSeat := p.(seat.Player)
		_, isRemote := p.(*remote.Client)
		if isSeat != (tt.kind == Person) || isRemote != (tt.kind == Remote) {
			t.Errorf("%q: New made a %T", tt.name, p)
		}
	}
}

// TestParseErrors checks that a name that is not one, near misses among
// them, gets an error naming what is wrong.
func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ name, err string }{
		{"", `unknown player ""`},
		{"mtcs", `unknown player "mtcs": want human, mcts, random, legal, HOST:PORT or an http or https URL`},
		{"Human", `unknown player "Human"`},
		{"mcts:", "setting 1 is empty"},
		{"mcts:depth=3", `unknown setting "depth"`},
		{"mcts:mast=maybe", "mast=maybe: want on or off"},
		{"mcts:quick", `unknown preset "quick"`},
		{"mcts:2026-11", `unknown preset "2026-11"`},
		{"mcts:workers=0", "workers"},
		{"mcts:9147", "a remote player on a host named mcts is written http://mcts:9147"},
		{"random:base", "random takes no settings"},
		{"human:foo", "human takes no settings"},
		{"host:", "no port after the colon"},
		{":9147", "no host before the port"},
		{"host:http", `port "http"`},
		{"http://", "no host after http://"},
		{"ftp://x", `scheme "ftp"`},
		{"http://host:9147/?x", "a query or fragment"},
	} {
		s, err := Parse(tt.name)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Parse(%q) = %+v, %v; want an error containing %q", tt.name, s, err, tt.err)
		}
		if _, newErr := New(tt.name, nil); newErr == nil || err != nil && newErr.Error() != err.Error() {
			t.Errorf("New(%q): %v, want Parse's error %v", tt.name, newErr, err)
		}
	}
}

// TestInProcessKinds checks that every in-process kind is read from its
// word, and made by NewInProcess as a player named as Spec or InProcess
// says; and that the other kinds are not made in process.
func TestInProcessKinds(t *testing.T) {
	for _, word := range InProcessKinds() {
		s, err := Parse(word)
		if err != nil || !s.Kind.InProcess() || string(s.Kind) != word {
			t.Errorf("Parse(%q) = %+v, %v; want an in-process kind", word, s, err)
			continue
		}
		for _, tt := range []struct{ name, want string }{{"", word}, {"tester", "tester"}} {
			p, err := s.NewInProcess(InProcess{Name: tt.name})
			if err != nil || p.Name() != tt.want {
				t.Errorf("%s: NewInProcess with name %q: %v, %v; want a player named %q", word, tt.name, p, err, tt.want)
			}
		}
	}
	for _, s := range []Spec{{Name: "human", Kind: Person}, {Name: "host:1", Kind: Remote, URL: "http://host:1/"}} {
		if s.Kind.InProcess() {
			t.Errorf("kind %s is in process", s.Kind)
		}
		if _, err := s.NewInProcess(InProcess{}); err == nil {
			t.Errorf("NewInProcess of kind %s succeeded", s.Kind)
		}
	}
}

// TestGDLIIWarning checks that a Spec warns of the settings its player's
// GDL-II search does without, and only then.
func TestGDLIIWarning(t *testing.T) {
	for _, tt := range []struct {
		name string
		warn bool
	}{
		{"mcts:mast=off:c=0.3", true},
		{"mcts:c=0.3", false},
		{"random", false},
		{"127.0.0.1:9147", false},
	} {
		s, err := Parse(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if (s.GDLIIWarning != "") != tt.warn || tt.warn && !strings.Contains(s.GDLIIWarning, "without mast=off;") {
			t.Errorf("Parse(%q): warning %q, want one naming mast=off: %v", tt.name, s.GDLIIWarning, tt.warn)
		}
	}
}

// TestHelp checks that the help names every kind of player.
func TestHelp(t *testing.T) {
	for _, word := range append(InProcessKinds(), human.Kind, "HOST:PORT", "http://") {
		if !strings.Contains(Help, "\n  "+word) {
			t.Errorf("Help does not name %s:\n%s", word, Help)
		}
	}
}
