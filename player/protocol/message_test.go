package protocol

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

const rules = "(role x) (role o) (init (cell 1 b)) (<= (legal ?r (mark ?c)) (true (cell ?c b)) (role ?r))"

// TestParse checks what Parse reads from messages as game masters write
// them, in any case and spacing.
func TestParse(t *testing.T) {
	tests := []struct {
		msg  string
		want Message
	}{
		{"(INFO)", Message{Type: TypeInfo}},
		{" ( info ) \r\n", Message{Type: TypeInfo}},
		{"(PREVIEW (" + rules + ") 10)", Message{Type: TypePreview}},
		{"( START m1 x (" + rules + ") 30 10)", Message{Type: TypeStart, MatchID: "m1", Role: "x", StartClock: 30 * time.Second, PlayClock: 10 * time.Second}},
		{"(start m.2_b o (" + rules + ") 1 1 extra)", Message{Type: TypeStart, MatchID: "m.2_b", Role: "o", StartClock: time.Second, PlayClock: time.Second}},
		{"( PLAY m1 NIL )", Message{Type: TypePlay, MatchID: "m1"}},
		{"(play m1 nil)", Message{Type: TypePlay, MatchID: "m1"}},
		{"(PLAY m1 (( mark  1 ) noop))", Message{Type: TypePlay, MatchID: "m1", Moves: []reasoner.Move{"(mark 1)", "noop"}}},
		{"(STOP m1 ((mark 3) noop))", Message{Type: TypeStop, MatchID: "m1", Moves: []reasoner.Move{"(mark 3)", "noop"}}},
		{"(ABORT m1)", Message{Type: TypeAbort, MatchID: "m1"}},
	}
	for _, tt := range tests {
		m, err := Parse([]byte(tt.msg))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.msg, err)
			continue
		}
		if tt.want.Type == TypeStart {
			if m.Rules == nil || len(m.Rules.Rules) != 4 || gdl.Format(m.Rules.Rules[3]) != "(<= (legal ?r (mark ?c)) (true (cell ?c b)) (role ?r))" {
				t.Errorf("Parse(%q): rules %v", tt.msg, m.Rules)
			}
			m.Rules = nil
		}
		if !equal(m, &tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.msg, *m, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"", "empty message"},
		{"(INFO", "unreadable message"},
		{"INFO", "not a list headed by its type"},
		{"((INFO))", "not a list headed by its type"},
		{"(INFO) (INFO)", "unreadable message"},
		{"(DANCE m1)", `unknown message type "DANCE"`},
		{"(INFO now)", "INFO takes 0 arguments, not 1"},
		{"(PLAY m1)", "PLAY takes 2 arguments, not 1"},
		{"(STOP m1 NIL extra)", "STOP takes 2 arguments, not 3"},
		{"(ABORT)", "ABORT takes 1 arguments, not 0"},
		{"(PREVIEW)", "PREVIEW takes 2 arguments, not 0"},
		{"(START m1 x (" + rules + ") 10)", "START takes at least 5 arguments, not 4"},
		{"(START m1 x (" + rules + ") ten 1)", `START m1: start clock "ten" is not a positive number of seconds`},
		{"(START m1 x (" + rules + ") 10 0)", `START m1: play clock "0" is not a positive number of seconds`},
		{"(START m1 x (" + rules + ") 10 9999999)", `START m1: play clock "9999999" is not a positive number of seconds`},
		{"(START m1 (x) (" + rules + ") 10 1)", "START m1: role is a list, not an atom"},
		{"(START (m1) x (" + rules + ") 10 1)", "START: match id is a list, not an atom"},
		{"(START m1 x rules 10 1)", "START m1: the rules are not a list"},
		{"(START m1 x () 10 1)", "START m1: rules: no rules"},
		{"(START m1 x ((<= (role ?x) (f (g)) ())) 10 1)", "START m1: rules:"},
		{"(PLAY (m1) NIL)", "PLAY: match id is a list, not an atom"},
		{"(INFO \x01)", "unreadable message"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.msg))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q): error %v, want one containing %q", tt.msg, err, tt.want)
		}
		if errors.Is(err, ErrMoves) {
			t.Errorf("Parse(%q): error %v wraps ErrMoves", tt.msg, err)
		}
	}
}

// TestParseBadMoves checks that a joint move that cannot be read leaves
// the rest of the message readable.
func TestParseBadMoves(t *testing.T) {
	for _, msg := range []string{"(STOP m1 ((mark 1) ((a) b)))", "(PLAY m1 (() noop))"} {
		m, err := Parse([]byte(msg))
		if !errors.Is(err, ErrMoves) {
			t.Errorf("Parse(%q): error %v, want ErrMoves", msg, err)
		}
		if m == nil || m.MatchID != "m1" || m.Moves != nil {
			t.Errorf("Parse(%q) = %+v, want the match id and no moves", msg, m)
		}
	}
}

// TestString checks the messages as ggp-base's game server writes them.
func TestString(t *testing.T) {
	d, err := gdl.ParseFile("t.kif", []byte("(role x)\n; a comment\n(<= (legal x (mark ?a)) (index ?a))\n(index 1)"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		m    Message
		want string
	}{
		{Message{Type: TypeInfo}, "( INFO )"},
		{Message{Type: TypeStart, MatchID: "m1", Role: "x", Rules: d, StartClock: 10 * time.Second, PlayClock: 1500 * time.Millisecond},
			"( START m1 x ((role x) (<= (legal x (mark ?a)) (index ?a)) (index 1)) 10 2)"},
		{Message{Type: TypePreview, Rules: d, PlayClock: 3 * time.Second}, "( PREVIEW ((role x) (<= (legal x (mark ?a)) (index ?a)) (index 1)) 3 )"},
		{Message{Type: TypePlay, MatchID: "m1"}, "( PLAY m1 NIL )"},
		{Message{Type: TypePlay, MatchID: "m1", Moves: []reasoner.Move{"(mark 1 1)", "noop"}}, "( PLAY m1 ((mark 1 1) noop) )"},
		{Message{Type: TypeStop, MatchID: "m1", Moves: []reasoner.Move{"noop"}}, "( STOP m1 (noop) )"},
		{Message{Type: TypeAbort, MatchID: "m1"}, "( ABORT m1 )"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.m.Type, got, tt.want)
		}
	}
}

// TestRoundTrip checks that what the game master's side writes, the
// player's side reads back as sent.
func TestRoundTrip(t *testing.T) {
	d, err := gdl.ParseFile("t.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*Message{
		{Type: TypeInfo},
		{Type: TypeStart, MatchID: "tournament.m-1", Role: "o", Rules: d, StartClock: 180 * time.Second, PlayClock: 60 * time.Second},
		{Type: TypePlay, MatchID: "m1"},
		{Type: TypePlay, MatchID: "m1", Moves: []reasoner.Move{"(mark 1)", "noop"}},
		{Type: TypeStop, MatchID: "m1", Moves: []reasoner.Move{"(move (a 1) (b 2))", "noop"}},
		{Type: TypeStop, MatchID: "m1", Moves: []reasoner.Move{}},
		{Type: TypeAbort, MatchID: "m1"},
	} {
		got, err := Parse([]byte(m.String()))
		if err != nil {
			t.Errorf("Parse(%q): %v", m, err)
			continue
		}
		if !equal(got, m) {
			t.Errorf("Parse(%q) = %+v, want %+v", m, *got, *m)
		}
	}
}

func TestParseMove(t *testing.T) {
	for _, tt := range []struct{ answer, want string }{
		{"( mark  1 1 )", "(mark 1 1)"},
		{"noop", "noop"},
		{"(move (a  1) b)", "(move (a 1) b)"},
	} {
		if got, err := ParseMove(tt.answer); err != nil || string(got) != tt.want {
			t.Errorf("ParseMove(%q) = %q, %v; want %q", tt.answer, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "(mark 1", "a b", "(a))"} {
		if got, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) = %q, want an error", bad, got)
		}
	}
}

// FuzzParse checks that Parse never panics, and that a message it reads
// is written back into one it reads the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"(INFO)", "(PLAY m1 NIL)", "(PLAY m1 ((mark 1 1) noop))", "(STOP m1 (a b))", "(ABORT m1)",
		"(START m1 x (" + rules + ") 10 1)", "(PREVIEW (" + rules + ") 5)", "(start M R ((role R)) 1 2 3)",
		"(PLAY m1 (() noop))", "(STOP m1 ((f ?x)))",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		m, err := Parse(msg)
		if err != nil {
			if m != nil && !errors.Is(err, ErrMoves) {
				t.Fatalf("Parse(%q) returned a message with error %v", msg, err)
			}
			return
		}
		again, err := Parse([]byte(m.String()))
		if err != nil {
			t.Fatalf("Parse(%q) = %q, which does not parse: %v", msg, m, err)
		}
		if !equal(again, m) {
			t.Fatalf("Parse(%q) = %q, read back as %q", msg, m, again)
		}
	})
}

// equal compares two messages, rules by their text.
func equal(a, b *Message) bool {
	return a.Type == b.Type && a.MatchID == b.MatchID && a.Role == b.Role &&
		a.StartClock == b.StartClock && a.PlayClock == b.PlayClock &&
		slices.Equal(a.Moves, b.Moves) && (a.Moves == nil) == (b.Moves == nil) &&
		rulesText(a.Rules) == rulesText(b.Rules)
}

func rulesText(d *gdl.Description) string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	writeRules(&b, d, func(s string) string { return s })
	return b.String()
}

// TestInfoRoundTrip checks the answer to INFO as the server writes it and
// the game master reads it, names made one atom.
func TestInfoRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		info Info
		text string
		back Info
	}{
		{Info{Name: "gopher", Status: "available", Species: "bot"}, "((name gopher) (status available) (species bot))", Info{Name: "gopher", Status: "available", Species: "bot"}},
		{Info{Name: "my player (2)", Status: "busy"}, "((name my_player__2_) (status busy) (species _))", Info{Name: "my_player__2_", Status: "busy", Species: "_"}},
	} {
		if got := tt.info.String(); got != tt.text {
			t.Errorf("%+v: String = %q, want %q", tt.info, got, tt.text)
		}
		if got, err := ParseInfo(tt.text); err != nil || got != tt.back {
			t.Errorf("ParseInfo(%q) = %+v, %v; want %+v", tt.text, got, err, tt.back)
		}
	}
	for _, tt := range []struct {
		text string
		want Info
	}{
		{"AVAILABLE", Info{Status: "available"}},
		{"((Name x) (version 2 3) (status BUSY) junk)", Info{Name: "x", Status: "busy"}},
		{"( ( name Sancho 1.61c ) ( status available ) )", Info{Name: "Sancho 1.61c", Status: "available"}},
		{"((name (x y)) (status (a b)) (species bot))", Info{Species: "bot"}},
		{"((name " + strings.Repeat("n", 150) + "))", Info{Name: strings.Repeat("n", MaxNameLength)}},
	} {
		if got, err := ParseInfo(tt.text); err != nil || got != tt.want {
			t.Errorf("ParseInfo(%q) = %+v, %v; want %+v", tt.text, got, err, tt.want)
		}
	}
	if _, err := ParseInfo("((name x)"); err == nil {
		t.Error("ParseInfo of an unbalanced answer: no error")
	}
}
