package protocol

import (
	"errors"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// TestParseGDLII reads the PLAY and STOP messages of a GDL-II match as the
// Dresden GameController sent them in a recorded match of montyhall.
func TestParseGDLII(t *testing.T) {
	for _, tt := range []struct {
		msg      string
		typ      Type
		turn     int
		last     reasoner.Move
		percepts []reasoner.Percept
	}{
		{"(PLAY m 0 NIL NIL)", TypePlay, 0, "", nil},
		{"(PLAY m 1 (CHOOSE 1) ((DOES CANDIDATE (CHOOSE 1)) ))", TypePlay, 1, "(CHOOSE 1)", []reasoner.Percept{"(does CANDIDATE (CHOOSE 1))"}},
		{"(PLAY m 2 NOOP ((DOES CANDIDATE NOOP) (OPEN_DOOR 3) ))", TypePlay, 2, "NOOP", []reasoner.Percept{"(does CANDIDATE NOOP)", "(OPEN_DOOR 3)"}},
		{"(PLAY m 3 NOOP ())", TypePlay, 3, "NOOP", []reasoner.Percept{}},
		{"(STOP m 3 SWITCH ((DOES CANDIDATE SWITCH) ))", TypeStop, 3, "SWITCH", []reasoner.Percept{"(does CANDIDATE SWITCH)"}},
	} {
		m, err := Parse([]byte(tt.msg))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.msg, err)
			continue
		}
		if m.Type != tt.typ || m.MatchID != "m" || !m.GDLII || m.Turn != tt.turn || m.LastMove != tt.last ||
			!slices.Equal(m.Percepts, tt.percepts) || (m.Percepts == nil) != (tt.percepts == nil) || m.Moves != nil {
			t.Errorf("Parse(%q) = %+v", tt.msg, m)
		}
	}
	for _, bad := range []string{
		"(PLAY m x NIL NIL)", "(PLAY m -1 NIL NIL)", "(PLAY m (1) NIL NIL)", "(PLAY m 1 NIL NIL NIL)",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) = nil error", bad)
		}
	}
	if m, err := Parse([]byte("(PLAY m 2 ?x ())")); !errors.Is(err, ErrMoves) || m == nil || m.MatchID != "m" {
		t.Errorf("Parse of a variable as the last move = %+v, %v; want the match and ErrMoves", m, err)
	}
}

// TestStringGDLII writes GDL-II messages in the Dresden GameController's
// form, and reads them back.
func TestStringGDLII(t *testing.T) {
	for _, tt := range []struct {
		m    Message
		want string
	}{
		{Message{Type: TypePlay, MatchID: "m", GDLII: true, Upper: true}, "(PLAY m 0 NIL NIL)"},
		{Message{Type: TypePlay, MatchID: "m", GDLII: true, Upper: true, Turn: 1, LastMove: "(choose 1)", Percepts: []reasoner.Percept{"(does candidate (choose 1))"}},
			"(PLAY m 1 (CHOOSE 1) ((DOES CANDIDATE (CHOOSE 1)) ))"},
		{Message{Type: TypeStop, MatchID: "m", GDLII: true, Upper: true, Turn: 3, LastMove: "switch"}, "(STOP m 3 SWITCH ())"},
		{Message{Type: TypePlay, MatchID: "m", GDLII: true, Turn: 2, LastMove: "noop", Percepts: []reasoner.Percept{"(open_door 3)"}}, "(PLAY m 2 noop ((open_door 3) ))"},
	} {
		got := tt.m.String()
		if got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		back, err := Parse([]byte(got))
		if err != nil || back.Turn != tt.m.Turn || !back.GDLII || len(back.Percepts) != len(tt.m.Percepts) {
			t.Errorf("Parse(%q) = %+v, %v", got, back, err)
		}
	}
	d, err := gdl.ParseFile("t.kif", []byte("(role candidate) (init (closed 1)) (<= (legal candidate (choose ?d)) (true (closed ?d)))"))
	if err != nil {
		t.Fatal(err)
	}
	start := (&Message{Type: TypeStart, MatchID: "m", Role: "candidate", Rules: d, StartClock: 1e9, PlayClock: 1e9, Upper: true}).String()
	if want := "( START m CANDIDATE ((ROLE CANDIDATE) (INIT (CLOSED 1)) (<= (LEGAL CANDIDATE (CHOOSE ?D)) (TRUE (CLOSED ?D)))) 1 1)"; start != want {
		t.Errorf("START in upper case = %q, want %q", start, want)
	}
}

// TestSpelling maps symbols sent in upper case back to the rules'.
func TestSpelling(t *testing.T) {
	d, err := gdl.ParseFile("t.kif", []byte("(role candidate) (role random) (<= (sees ?r (does ?r ?m)) (does ?r ?m) (role ?r)) (<= (sees candidate (open_door ?d)) (does random (Open ?d)))"))
	if err != nil {
		t.Fatal(err)
	}
	sp := NewSpelling(d)
	for in, want := range map[string]string{
		"(DOES CANDIDATE (CHOOSE 1))": "(does candidate (CHOOSE 1))",
		"(OPEN_DOOR 3)":               "(open_door 3)",
		"(OPEN 2)":                    "(Open 2)",
		"NOOP":                        "NOOP",
		"RANDOM":                      "random",
	} {
		if got := sp.Respell(in); got != want {
			t.Errorf("Respell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParseOlderGDLII reads the PLAY and STOP of the older GDL-II form, as
// the UWA fork of the Dresden GameController sent them in a match of
// montyhall (SafetyInObscurity/ggp-gamecontroller,
// java/tud/gamecontroller/players/RemotePlayer.java,
// constructPlayOrStopMessage): they have GDL's shape, and their list is
// kept in Moves as written, NIL as nil and () as no terms, for the
// player's server to decide what it is.
func TestParseOlderGDLII(t *testing.T) {
	for _, tt := range []struct {
		msg   string
		typ   Type
		terms []reasoner.Move
	}{
		{"(PLAY uwa-mh NIL)", TypePlay, nil},
		{"(PLAY uwa-mh ((DOES CANDIDATE (CHOOSE 3)) ))", TypePlay, []reasoner.Move{"(does CANDIDATE (CHOOSE 3))"}},
		{"(PLAY uwa-mh ((DOES CANDIDATE NOOP) (OPEN_DOOR 1) ))", TypePlay, []reasoner.Move{"(does CANDIDATE NOOP)", "(OPEN_DOOR 1)"}},
		{"(PLAY uwa-mh ())", TypePlay, []reasoner.Move{}},
		{"(STOP uwa-mh ((DOES CANDIDATE SWITCH) (CAR 2) ))", TypeStop, []reasoner.Move{"(does CANDIDATE SWITCH)", "(CAR 2)"}},
	} {
		m, err := Parse([]byte(tt.msg))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.msg, err)
			continue
		}
		if m.Type != tt.typ || m.MatchID != "uwa-mh" || m.GDLII || !slices.Equal(m.Moves, tt.terms) || (m.Moves == nil) != (tt.terms == nil) {
			t.Errorf("Parse(%q) = %+v, want moves %q", tt.msg, m, tt.terms)
		}
	}
}
