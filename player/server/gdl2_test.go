package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/reasoner"
)

// turnRecorder records the turns a GDL-II player is told.
type turnRecorder struct {
	player.GDLIIPlayer
	mu    sync.Mutex
	turns []player.Turn
}

func (p *turnRecorder) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	p.mu.Lock()
	p.turns = append(p.turns, t)
	p.mu.Unlock()
	return p.GDLIIPlayer.PlayTurn(ctx, id, t)
}

func (p *turnRecorder) StopTurn(ctx context.Context, id string, t player.Turn) error {
	p.mu.Lock()
	p.turns = append(p.turns, t)
	p.mu.Unlock()
	return p.GDLIIPlayer.StopTurn(ctx, id, t)
}

// postDresden posts msg as the Dresden GameController does, over
// HTTP/1.0, and reads the reply until the server closes the connection.
func postDresden(t *testing.T, base, msg string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second)) // only so that a server that keeps the connection fails
	req := "POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: GAMEMASTER\r\nReceiver: GAMEPLAYER\r\nContent-type: text/acl\r\nContent-length: " +
		strconv.Itoa(len(msg)) + "\r\n\r\n" + msg
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	all, err := io.ReadAll(c) // until the server closes the connection
	if err != nil {
		t.Fatalf("%s: reading the reply to the close: %v", msg, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(all))), nil)
	if err != nil {
		t.Fatalf("%s: %v", msg, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", msg, resp.Status)
	}
	return strings.TrimSpace(string(body))
}

// TestServerDresdenMontyhall plays the messages of a recorded Dresden
// match of montyhall, with the rules sent as written and in upper case:
// the player is told its own move and percepts in the rules' spelling, its
// answers are legal moves, and STOP is answered done.
func TestServerDresdenMontyhall(t *testing.T) {
	file, src := gamestest.ReadGameII(t, "montyhall")
	d, err := gdl.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, upper := range []bool{false, true} {
		rules, role := rulesText(t, d), "candidate"
		if upper {
			rules, role = strings.ToUpper(rules), "CANDIDATE"
		}
		rec := &turnRecorder{GDLIIPlayer: newBaseline(t, baseline.Random, "").(player.GDLIIPlayer)}
		_, base := testServer(t, rec)
		expect(t, "START", postDresden(t, base, "(START m "+role+" ("+rules+") 10 10)"), "ready")
		answers := []string{
			postDresden(t, base, "(PLAY m 0 NIL NIL)"),
			postDresden(t, base, "(PLAY m 1 (CHOOSE 1) ((DOES CANDIDATE (CHOOSE 1)) ))"),
			postDresden(t, base, "(PLAY m 2 NOOP ((DOES CANDIDATE NOOP) (OPEN_DOOR 3) ))"),
		}
		expect(t, "STOP", postDresden(t, base, "(STOP m 3 SWITCH ((DOES CANDIDATE SWITCH) ))"), "done")
		wantAnswers := [][]string{{"(choose 1)", "(choose 2)", "(choose 3)"}, {"noop"}, {"switch", "noop"}}
		for i, a := range answers {
			if !upper {
				if !slices.Contains(wantAnswers[i], a) {
					t.Errorf("answer %d = %q, want one of %q", i, a, wantAnswers[i])
				}
			} else if !slices.ContainsFunc(wantAnswers[i], func(w string) bool { return strings.ToUpper(w) == a }) {
				t.Errorf("answer %d (rules in upper case) = %q, want one of %q in upper case", i, a, wantAnswers[i])
			}
		}
		sp := func(s string) string {
			if upper {
				return strings.ToUpper(s)
			}
			return s
		}
		want := []player.Turn{
			{},
			{Number: 1, Move: reasoner.Move(sp("(choose 1)")), Percepts: []reasoner.Percept{reasoner.Percept("(does " + sp("candidate (choose 1)") + ")")}},
			{Number: 2, Move: reasoner.Move(sp("noop")), Percepts: []reasoner.Percept{reasoner.Percept("(does " + sp("candidate noop") + ")"), reasoner.Percept(sp("(open_door 3)"))}},
			{Number: 3, Move: reasoner.Move(sp("switch")), Percepts: []reasoner.Percept{reasoner.Percept("(does " + sp("candidate switch") + ")")}},
		}
		if len(rec.turns) != len(want) {
			t.Fatalf("upper %v: the player was told %d turns, want %d: %+v", upper, len(rec.turns), len(want), rec.turns)
		}
		for i, w := range want {
			got := rec.turns[i]
			if got.Number != w.Number || got.Move != w.Move || !slices.Equal(got.Percepts, w.Percepts) {
				t.Errorf("upper %v: turn %d told %+v, want %+v", upper, i, got, w)
			}
		}
	}
}
