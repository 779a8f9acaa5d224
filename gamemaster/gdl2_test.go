package gamemaster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner"
)

// gameII opens a public GDL-II game, or skips the test without them.
func gameII(t testing.TB, key string) *games.Game {
	t.Helper()
	file, src := gamestest.ReadGameII(t, key)
	return &games.Game{Key: key, Name: key, Filename: file, Rules: src}
}

// baselinePlayer returns a baseline player made by newPlayer
// (baseline.Random or baseline.Legal), seeded with seed.
func baselinePlayer(newPlayer func(baseline.Options) player.Player, seed uint64) player.Player {
	return newPlayer(baseline.Options{NewReasoner: testFactory, Seed: seed})
}

// checkClean fails the test if any player's move was replaced.
func checkClean(t *testing.T, rec *record.Record) {
	t.Helper()
	for i, errs := range rec.Errors {
		for r, e := range errs {
			if e != "" {
				t.Errorf("step %d: role %s: error %s", i, rec.Roles[r], e)
			}
		}
	}
	if !rec.IsCompleted {
		t.Errorf("match not completed: %s", rec.AbortReason)
	}
}

// checkRecordII checks the record of a GDL-II match: the same on disk,
// consistent, and replayed by the rules, percepts included.
func checkRecordII(t *testing.T, m *Match, rec *record.Record) {
	t.Helper()
	onDisk, err := record.ReadFile(m.Record)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(onDisk, rec) {
		t.Errorf("record on disk differs from the record returned")
	}
	if err := rec.Check(); err != nil {
		t.Error(err)
	}
	if err := Replay(context.Background(), rec, reasonerFor(t, string(m.Game.Rules)), nil); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// wire is one message a player's server received.
type wire struct {
	proto string
	close bool
	body  string
}

// wiretap serves h, recording every message it receives.
type wiretap struct {
	h    http.Handler
	mu   sync.Mutex
	msgs []wire
}

func (w *wiretap) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.mu.Lock()
	w.msgs = append(w.msgs, wire{r.Proto, r.Close, string(body)})
	w.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	w.h.ServeHTTP(rw, r)
}

var (
	dresdenPlay  = regexp.MustCompile(`^\((PLAY|STOP) (\S+) (\d+) (.*)\)$`)
	lowerLetters = regexp.MustCompile(`[a-z]`)
)

// TestGDLIIOverHTTP plays whole GDL-II matches between the referee and
// random players each served by package server, as `ggp play` serves
// them: every message is sent as the Dresden GameController sends it
// (HTTP/1.0, connection closed, upper case, five-element PLAY and STOP),
// and each tells its player only its own move and percepts, those the
// record holds for its role.
func TestGDLIIOverHTTP(t *testing.T) {
	for _, key := range []string{"montyhall", "kriegTTT_4x4"} {
		t.Run(key, func(t *testing.T) {
			g := gameII(t, key)
			r := reasonerFor(t, string(g.Rules))
			roles := r.Roles()
			nature := reasoner.NatureIndex(roles)
			var players []player.Player
			taps := map[int]*wiretap{}
			for i := range roles {
				if i == nature {
					continue
				}
				s := server.New(baselinePlayer(baseline.Random, uint64(i+1)))
				tap := &wiretap{h: s}
				ts := httptest.NewServer(tap)
				t.Cleanup(ts.Close)
				p, err := remote.New(ts.URL)
				if err != nil {
					t.Fatal(err)
				}
				players = append(players, p)
				taps[i] = tap
			}
			m := &Match{ID: key + ".1", Game: g, Players: players, StartClock: 10 * time.Second, PlayClock: 10 * time.Second,
				Record: filepath.Join(t.TempDir(), key+".json")}
			rec, err := fastReferee().Run(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			checkRecordII(t, m, rec)
			checkClean(t, rec)
			if !rec.GDLII || len(rec.Percepts) != rec.Steps() {
				t.Fatalf("record: gdlII %v, percepts of %d steps of %d", rec.GDLII, len(rec.Percepts), rec.Steps())
			}
			for i, tap := range taps {
				msgs := tap.msgs
				if len(msgs) != rec.Steps()+3 { // INFO, START, a PLAY per step, STOP
					t.Fatalf("%s: %d messages for %d steps", roles[i], len(msgs), rec.Steps())
				}
				for k, w := range msgs[1:] {
					if w.proto != "HTTP/1.0" || !w.close {
						t.Errorf("%s: message %d sent over %s, connection close %v", roles[i], k+1, w.proto, w.close)
					}
					if k == 0 {
						if !strings.HasPrefix(w.body, "( START "+m.ID+" "+strings.ToUpper(roles[i])+" ((ROLE ") {
							t.Errorf("%s: START %.60q, want the role and rules in upper case", roles[i], w.body)
						}
						continue
					}
					sub := dresdenPlay.FindStringSubmatch(w.body)
					if sub == nil || sub[2] != m.ID || lowerLetters.MatchString(sub[4]) {
						t.Errorf("%s: message %q is not a Dresden PLAY or STOP of match %s in upper case", roles[i], w.body, m.ID)
						continue
					}
					turn := k - 1
					wantType := "PLAY"
					if turn == rec.Steps() {
						wantType = "STOP"
					}
					if turn == 0 {
						if w.body != "(PLAY "+m.ID+" 0 NIL NIL)" {
							t.Errorf("%s: first PLAY %q", roles[i], w.body)
						}
						continue
					}
					msg, err := protocol.Parse([]byte(w.body))
					if err != nil {
						t.Fatalf("%s: %q: %v", roles[i], w.body, err)
					}
					want := "(" + wantType + " " + m.ID + " " + fmt.Sprint(turn) + " " + strings.ToUpper(rec.Moves[turn-1][i]) + " ("
					for _, p := range rec.Percepts[turn-1][i] {
						want += strings.ToUpper(p) + " "
					}
					want += "))"
					if w.body != want || msg.Turn != turn {
						t.Errorf("%s: turn %d: sent %q, want its own move and percepts %q", roles[i], turn, w.body, want)
					}
				}
			}
		})
	}
}

// spy is an in-process GDL-II player that records what it is told and
// fails on any call that would tell it the joint move.
type spy struct {
	player.GDLIIPlayer
	t     *testing.T
	role  string
	turns []player.Turn
}

func (p *spy) Start(ctx context.Context, m *player.Match) error {
	p.role = m.Role
	if !m.GDLII {
		p.t.Errorf("%s: START of a GDL-II match without GDLII", m.Role)
	}
	return p.GDLIIPlayer.Start(ctx, m)
}

func (p *spy) Play(context.Context, string, []reasoner.Move) (reasoner.Move, error) {
	p.t.Errorf("%s: Play, with the joint move, in a GDL-II match", p.role)
	return "", errors.New("Play in a GDL-II match")
}

func (p *spy) Stop(context.Context, string, []reasoner.Move) error {
	p.t.Errorf("%s: Stop, with the joint move, in a GDL-II match", p.role)
	return nil
}

func (p *spy) PlayTurn(ctx context.Context, id string, turn player.Turn) (reasoner.Move, error) {
	p.turns = append(p.turns, turn)
	return p.GDLIIPlayer.PlayTurn(ctx, id, turn)
}

func (p *spy) StopTurn(ctx context.Context, id string, turn player.Turn) error {
	p.turns = append(p.turns, turn)
	return p.GDLIIPlayer.StopTurn(ctx, id, turn)
}

// TestGDLIIPlayersToldOwnView checks, in process, that each player of a
// GDL-II match is told at every turn exactly its own move and its own
// percepts of the step before, as the record holds them, and is never
// called with the joint move.
func TestGDLIIPlayersToldOwnView(t *testing.T) {
	for _, key := range []string{"montyhall", "kriegTTT_4x4", "meier"} {
		t.Run(key, func(t *testing.T) {
			g := gameII(t, key)
			roles := reasonerFor(t, string(g.Rules)).Roles()
			nature := reasoner.NatureIndex(roles)
			spies := map[int]*spy{}
			var players []player.Player
			for i := range roles {
				if i != nature {
					s := &spy{GDLIIPlayer: baselinePlayer(baseline.Random, uint64(i+7)).(player.GDLIIPlayer), t: t}
					spies[i] = s
					players = append(players, s)
				}
			}
			m := &Match{ID: key + ".2", Game: g, Players: players, StartClock: 10 * time.Second, PlayClock: 10 * time.Second,
				Record: filepath.Join(t.TempDir(), key+".json"), Seed: 3}
			rec, err := fastReferee().Run(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			checkRecordII(t, m, rec)
			checkClean(t, rec)
			if rec.Seed != 3 {
				t.Errorf("recorded seed %d, want 3", rec.Seed)
			}
			for i, s := range spies {
				if len(s.turns) != rec.Steps()+1 {
					t.Fatalf("%s told %d turns for %d steps", roles[i], len(s.turns), rec.Steps())
				}
				for n, turn := range s.turns {
					want := player.Turn{Number: n}
					if n > 0 {
						want.Move = reasoner.Move(rec.Moves[n-1][i])
						for _, p := range rec.Percepts[n-1][i] {
							want.Percepts = append(want.Percepts, reasoner.Percept(p))
						}
					}
					if turn.Number != want.Number || turn.Move != want.Move || !slices.Equal(turn.Percepts, want.Percepts) {
						t.Errorf("%s: turn %d told %+v, want its own view %+v", roles[i], n, turn, want)
					}
				}
			}
		})
	}
}

// TestGDLIISeedReplaysChance checks that the seed of a match plays nature's
// moves again: two matches of legal players with the same seed are the
// same, and some other seed changes them.
func TestGDLIISeedReplaysChance(t *testing.T) {
	g := gameII(t, "montyhall")
	run := func(seed uint64) [][]string {
		m := &Match{ID: "montyhall.3", Game: g, Players: []player.Player{baselinePlayer(baseline.Legal, 1)},
			StartClock: 10 * time.Second, PlayClock: 10 * time.Second, Seed: seed}
		rec, err := fastReferee().Run(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		checkClean(t, rec)
		return rec.Moves
	}
	first := run(11)
	if again := run(11); !slices.EqualFunc(first, again, slices.Equal) {
		t.Errorf("seed 11 played %v, then %v", first, again)
	}
	for seed := uint64(12); ; seed++ {
		if !slices.EqualFunc(first, run(seed), slices.Equal) {
			break
		}
		if seed == 30 {
			t.Fatal("nineteen other seeds all played the moves of seed 11")
		}
	}
}

// TestNatureUniform checks with a chi-square test that nature's first
// move in montyhall, where it hides the car behind one of three doors, is
// drawn uniformly over matches: the first draw of 3,000 seeds, as the
// referee draws it.
func TestNatureUniform(t *testing.T) {
	g := gameII(t, "montyhall")
	r := reasonerFor(t, string(g.Rules))
	s, err := r.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	legal, err := r.Legal(context.Background(), s, reasoner.NatureIndex(r.Roles()))
	if err != nil {
		t.Fatal(err)
	}
	if len(legal) != 3 {
		t.Fatalf("nature's first moves %v, want three hide_car moves", legal)
	}
	const n = 3000
	count := map[reasoner.Move]int{}
	for seed := uint64(1); seed <= n; seed++ {
		count[NatureMove(newChance(seed), legal)]++
	}
	chi2 := 0.0
	for _, m := range legal {
		d := float64(count[m]) - n/3.0
		chi2 += d * d / (n / 3.0)
	}
	// 13.82 is the 0.999 quantile of chi-square with 2 degrees of freedom.
	if chi2 > 13.82 {
		t.Errorf("nature's draws %v: chi-square %.2f > 13.82", count, chi2)
	}
	// The same seed draws the same moves: a match played again.
	a, b := newChance(1), newChance(1)
	for range 100 {
		if NatureMove(a, legal) != NatureMove(b, legal) {
			t.Fatal("seed 1 drew differently twice")
		}
	}
}

// gdlOnly hides a player's GDL-II methods.
type gdlOnly struct{ player.Player }

// TestGDLIIRefusals checks that a GDL-II match with a player in nature's
// role, or with a player that cannot be told turns, is refused with an
// error that says why.
func TestGDLIIRefusals(t *testing.T) {
	mh, krieg := gameII(t, "montyhall"), gameII(t, "kriegTTT_4x4")
	for _, tt := range []struct {
		game    *games.Game
		players []player.Player
		want    string
	}{
		{mh, []player.Player{baselinePlayer(baseline.Random, 1), baselinePlayer(baseline.Random, 2)}, "one for each role but random, which nature plays: 1 (candidate)"},
		{krieg, []player.Player{baselinePlayer(baseline.Random, 1)}, "1 players for the 2 roles (xplayer, oplayer)"},
		{krieg, []player.Player{baselinePlayer(baseline.Random, 1), gdlOnly{baselinePlayer(baseline.Random, 2)}}, "role oplayer: player random cannot play GDL-II games"},
	} {
		m := &Match{ID: "r.1", Game: tt.game, Players: tt.players, StartClock: time.Second, PlayClock: time.Second}
		_, err := fastReferee().Run(context.Background(), m)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Run = %v, want an error saying %q", tt.game.Key, err, tt.want)
		}
	}
}
