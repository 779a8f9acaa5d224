package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/reasoner"
)

// TestReadList decides how the list of a three-element PLAY is read, a
// joint move or percepts in the older GDL-II form, from small rules that
// make each reading possible, impossible or both.
func TestReadList(t *testing.T) {
	const (
		// Moves (mark X) and noop; the role sees (saw X) or (mark X).
		rulesII = "(role white) (role black) (<= (legal ?r (mark ?x)) (role ?r) (cell ?x)) (legal ?r noop)" +
			" (<= (sees ?r (saw ?x)) (does ?r (mark ?x))) (<= (sees white (mark ?x)) (does black (mark ?x)))"
		// As rulesII, without sees rules: GDL.
		rulesGDL = "(role white) (role black) (<= (legal ?r (mark ?x)) (role ?r) (cell ?x)) (legal ?r noop)"
		// The role random, without sees rules: GDL-II with nature seated.
		rulesRandom = "(role random) (role player) (legal random (roll 1)) (legal player (guess 1))"
	)
	tests := []struct {
		name    string
		rules   string
		settled form
		terms   []reasoner.Move
		want    form
		wantErr string // part of the error, if one is wanted
	}{
		{"joint move, GDL rules", rulesGDL, formUnsettled, []reasoner.Move{"(mark 1)", "noop"}, formMoves, ""},
		{"joint move in upper case", rulesGDL, formUnsettled, []reasoner.Move{"(MARK 1)", "NOOP"}, formMoves, ""},
		{"percepts, one per role but no moves", rulesII, formUnsettled, []reasoner.Move{"(saw 1)", "(saw 2)"}, formPercepts, ""},
		{"percepts, fewer than the roles", rulesII, formUnsettled, []reasoner.Move{"(saw 1)"}, formPercepts, ""},
		{"no percepts", rulesII, formUnsettled, []reasoner.Move{}, formPercepts, ""},
		{"no percepts, random without sees", rulesRandom, formUnsettled, []reasoner.Move{}, formPercepts, ""},
		{"joint move in GDL-II rules", rulesII, formUnsettled, []reasoner.Move{"noop", "(mark 2)"}, formMoves, ""},
		{"both, rules read as GDL-II decide", rulesII, formUnsettled, []reasoner.Move{"(mark 1)", "(mark 2)"}, formPercepts, ""},
		{"both, an earlier joint move decides", rulesII, formMoves, []reasoner.Move{"(mark 1)", "(mark 2)"}, formMoves, ""},
		{"neither", rulesII, formUnsettled, []reasoner.Move{"(saw 1)", "noop"},
			0, "neither a joint move (term 1, (saw 1), is no move of role white) nor percepts of role white (term 2, noop, is no percept of role white)"},
		{"no moves, GDL rules", rulesGDL, formUnsettled, []reasoner.Move{}, 0, "the rules are not GDL-II"},
		{"a variable", rulesII, formUnsettled, []reasoner.Move{"(saw ?x)"}, 0, "term 1 \"(saw ?x)\": not ground"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := gdl.ParseFile("t.kif", []byte(tt.rules))
			if err != nil {
				t.Fatal(err)
			}
			m := &serverMatch{start: &player.Match{Role: "white", Rules: d, GDLII: gdl.DecideMode(d, gdl.RulesAlone) == gdl.GDLII},
				spell: protocol.NewSpelling(d), form: tt.settled}
			if tt.name == "no percepts, random without sees" {
				m.start.Role = "player"
			}
			got, err := m.readList(tt.terms)
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("readList(%q) = %v, %v; want an error with %q", tt.terms, got, err, tt.wantErr)
				}
			case err != nil || got != tt.want:
				t.Errorf("readList(%q) = %v, %v; want %v", tt.terms, got, err, tt.want)
			}
		})
	}
}

// A refereeStep is one message a referee sends and what the player must
// make of it: the answer wanted (one of answers), and for a GDL-II match
// the turn the player is told.
type refereeStep struct {
	msg     string
	answers []string // "" for a STOP, answered done
	turn    *player.Turn
}

// TestServerRefereeForms plays, over HTTP/1.0 as the Dresden
// GameController and its forks post them, the messages of each public
// referee's form, exactly as each sends them, and checks each answer and
// what the player is told: its own move and its percepts, in the spelling
// of the rules, so that in montyhall it knows which door was opened. The
// player answers the first legal move in sorted order, so the matches
// below follow its answers.
func TestServerRefereeForms(t *testing.T) {
	_, montyhall := gamestest.ReadGameII(t, "montyhall")
	_, guessSix := gamestest.ReadGameII(t, "guessSix")
	mh := strings.ToUpper(rulesOf(t, montyhall))
	ttt := rulesText(t, playertest.LoadGame(t, "ticTacToe"))
	turn := func(n int, move string, percepts ...string) *player.Turn {
		t := &player.Turn{Number: n, Move: reasoner.Move(move)}
		for _, p := range percepts {
			t.Percepts = append(t.Percepts, reasoner.Percept(p))
		}
		return t
	}
	// Both Dresden forms tell the candidate the same of the same match
	// of montyhall: it chose door 1, door 3 was opened, and the car is
	// behind door 1, which it kept.
	mhTurns := []*player.Turn{
		turn(0, ""),
		turn(1, "(CHOOSE 1)", "(does CANDIDATE (CHOOSE 1))"),
		turn(2, "NOOP", "(does CANDIDATE NOOP)", "(OPEN_DOOR 3)"),
		turn(3, "NOOP", "(does CANDIDATE NOOP)", "(CAR 1)"),
	}
	mhAnswers := [][]string{{"(CHOOSE 1)"}, {"NOOP"}, {"NOOP"}, nil}
	montyhallSteps := func(msgs ...string) []refereeStep {
		steps := make([]refereeStep, len(msgs))
		for i, msg := range msgs {
			steps[i] = refereeStep{msg, mhAnswers[i], mhTurns[i]}
		}
		return steps
	}
	tests := []struct {
		name  string
		start string
		steps []refereeStep
	}{
		{
			// The Dresden GameController's final form:
			// lwthatcher/ggpserver-gamecontroller,
			// src/tud/gamecontroller/players/RemotePlayer.java,
			// constructPlayOrStopMessage (and docs/gdl2.md, a
			// recorded match).
			"Dresden GameController, montyhall",
			"(START m CANDIDATE (" + mh + ") 10 10)",
			montyhallSteps(
				"(PLAY m 0 NIL NIL)",
				"(PLAY m 1 (CHOOSE 1) ((DOES CANDIDATE (CHOOSE 1)) ))",
				"(PLAY m 2 NOOP ((DOES CANDIDATE NOOP) (OPEN_DOOR 3) ))",
				"(STOP m 3 NOOP ((DOES CANDIDATE NOOP) (CAR 1) ))"),
		},
		{
			// The older form, which the UWA fork sends:
			// SafetyInObscurity/ggp-gamecontroller,
			// java/tud/gamecontroller/players/RemotePlayer.java,
			// constructPlayOrStopMessage, as arnaudsj/ggpserver's
			// gamecontroller/java/tud/gamecontroller/players/RemotePlayer.java
			// did. The turn and the player's move are not sent: the
			// server counts the PLAYs and keeps its answer.
			"UWA fork, montyhall",
			"(START m CANDIDATE (" + mh + ") 10 10)",
			montyhallSteps(
				"(PLAY m NIL)",
				"(PLAY m ((DOES CANDIDATE (CHOOSE 1)) ))",
				"(PLAY m ((DOES CANDIDATE NOOP) (OPEN_DOOR 3) ))",
				"(STOP m ((DOES CANDIDATE NOOP) (CAR 1) ))"),
		},
		{
			// The UWA fork seats a player that reads GDL-II in a GDL
			// game with a sees rule added (Game.DEFAULT_SEES_RULES in
			// java/tud/gamecontroller/game/impl/Game.java): one percept
			// per role, which are no moves.
			"UWA fork, ticTacToe to a GDL-II player",
			"(START m XPLAYER (" + strings.ToUpper(ttt+" (<= (sees ?p (did ?p2 ?m)) (role ?p) (does ?p2 ?m) )") + ") 10 10)",
			[]refereeStep{
				{"(PLAY m NIL)", []string{"(MARK 1 1)"}, turn(0, "")},
				{"(PLAY m ((DID XPLAYER (MARK 1 1)) (DID OPLAYER NOOP) ))", []string{"NOOP"},
					turn(1, "(MARK 1 1)", "(DID XPLAYER (MARK 1 1))", "(DID OPLAYER NOOP)")},
			},
		},
		{
			// The older form in rules that name the role random
			// without sees rules, read as GDL at START: its first
			// list, (), is no joint move of the two roles but no
			// percepts, and the match is started again as GDL-II.
			"UWA fork, guessSix",
			"(START m PLAYER (" + strings.ToUpper(rulesOf(t, guessSix)) + ") 10 10)",
			[]refereeStep{
				{"(PLAY m NIL)", []string{"(GUESSNUMBER 1)"}, nil},
				{"(PLAY m ())", []string{"(GUESSNUMBER 1)"}, turn(1, "(GUESSNUMBER 1)")},
				{"(STOP m ())", nil, turn(2, "(GUESSNUMBER 1)")},
			},
		},
		{
			// ggp-base's GameServer, as every referee of GDL, sends
			// joint moves (ggp-org/ggp-base,
			// src/main/java/org/ggp/base/server/request/RequestBuilder.java,
			// getPlayRequest): rules with sees rules are played as
			// GDL once the second PLAY shows a joint move of both
			// roles, the first having been played as GDL-II.
			"GDL referee, montyhall",
			"(START m candidate (" + strings.ToLower(mh) + ") 10 10)",
			[]refereeStep{
				{"(PLAY m NIL)", []string{"(choose 1)"}, turn(0, "")},
				{"(PLAY m ((choose 1) (hide_car 2)))", []string{"noop"}, nil},
				{"(PLAY m (noop (open_door 3)))", []string{"noop"}, nil},
				{"(STOP m (noop noop))", nil, nil},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &turnRecorder{GDLIIPlayer: newBaseline(t, baseline.Legal, "").(player.GDLIIPlayer)}
			_, base := testServer(t, rec)
			expect(t, "START", postDresden(t, base, tt.start), "ready")
			var want []player.Turn
			for _, st := range tt.steps {
				got := postDresden(t, base, st.msg)
				switch {
				case st.answers == nil:
					expect(t, st.msg, got, "done")
				case !slices.Contains(st.answers, got):
					t.Errorf("%s: answered %q, want one of %q", st.msg, got, st.answers)
				}
				if st.turn != nil {
					want = append(want, *st.turn)
				}
			}
			if len(rec.turns) != len(want) {
				t.Fatalf("the player was told %d turns, want %d: %+v", len(rec.turns), len(want), rec.turns)
			}
			for i, w := range want {
				if got := rec.turns[i]; got.Number != w.Number || got.Move != w.Move || !slices.Equal(got.Percepts, w.Percepts) {
					t.Errorf("turn %d: told %+v, want %+v", i, got, w)
				}
			}
		})
	}
}

// TestServerUnreadableList answers a PLAY whose list is neither a joint
// move nor percepts with an error that says why, not with a move chosen
// blind.
func TestServerUnreadableList(t *testing.T) {
	_, montyhall := gamestest.ReadGameII(t, "montyhall")
	mh := strings.ToUpper(rulesOf(t, montyhall))
	_, base := testServer(t, newBaseline(t, baseline.Legal, ""))
	expect(t, "START", postDresden(t, base, "(START m CANDIDATE ("+mh+") 10 10)"), "ready")
	expect(t, "first PLAY", postDresden(t, base, "(PLAY m NIL)"), "(CHOOSE 1)")
	got := postDresden(t, base, "(PLAY m ((SAW 1) (OPEN_DOOR 3)))")
	want := `(error "PLAY m cannot be read: 2 terms that are neither a joint move [term 1, [SAW 1], is no move of role CANDIDATE] nor percepts of role CANDIDATE [term 1, [SAW 1], is no percept of role CANDIDATE]")`
	expect(t, "unreadable PLAY", got, want)
}

func rulesOf(t *testing.T, src []byte) string {
	t.Helper()
	d, err := gdl.ParseFile("rules.kif", src)
	if err != nil {
		t.Fatal(err)
	}
	return rulesText(t, d)
}
