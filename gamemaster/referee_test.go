package gamemaster

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// testFactory is the default backend, which the referee uses in the tests.
var testFactory = func() reasoner.Factory {
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		panic(err)
	}
	return f
}()

// fastReferee keeps the tests short: a play clock of 1 s and a grace of
// 200 ms.
func fastReferee() *Referee {
	return &Referee{Grace: 200 * time.Millisecond, StopTimeout: time.Second, NewReasoner: testFactory}
}

func newMatch(t *testing.T, rules string, players ...player.Player) *Match {
	return &Match{
		ID:         "pick.1",
		Game:       testGame("pick", rules),
		Players:    players,
		StartClock: time.Second,
		PlayClock:  time.Second,
		Record:     filepath.Join(t.TempDir(), "pick.1.json"),
	}
}

func reasonerFor(t *testing.T, rules string) reasoner.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile("test.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkRecord checks what every completed match must satisfy: the record
// on disk is the one returned, it replays against the rules (so every
// substituted move was legal), and the goals are those of the rules.
func checkRecord(t *testing.T, m *Match, rec *record.Record) {
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
	if !rec.IsCompleted || rec.IsAborted || len(rec.GoalValues) != 2 {
		t.Errorf("record: completed %v, aborted %v, goals %v", rec.IsCompleted, rec.IsAborted, rec.GoalValues)
	}
}

func codes(rec *record.Record, role int) []string {
	var c []string
	for _, e := range rec.Errors {
		c = append(c, e[role])
	}
	return c
}

// TestMisbehavingRemotePlayers plays white with an HTTP player that
// misbehaves on purpose against a well-behaved HTTP black.
func TestMisbehavingRemotePlayers(t *testing.T) {
	const slow = 1500 * time.Millisecond // beyond the play clock plus grace
	tests := []struct {
		name    string
		respond func(http.ResponseWriter, *http.Request, string, string, int) (string, bool)
		want    []string // white's error code per state of the record
	}{
		{
			name:    "well behaved",
			respond: wellBehaved,
			want:    []string{"", "", "", "", ""},
		},
		{
			name: "never answers",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				if verb == "STOP" || verb == "ABORT" {
					return "done", true
				}
				waitForClient(r)
				return "", false
			},
			want: []string{"TO", "TO", "TO", "TO", "TO"},
		},
		{
			name: "answers garbage",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				if verb == "PLAY" {
					return "))not a move((", true
				}
				return "ready", true
			},
			want: []string{"", "IL ))not a move((", "IL ))not a move((", "IL ))not a move((", "IL ))not a move(("},
		},
		{
			name: "answers illegal moves",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				if verb == "PLAY" {
					return "( pick 9 )", true
				}
				return "ready", true
			},
			want: []string{"", "IL (pick 9)", "IL (pick 9)", "IL (pick 9)", "IL (pick 9)"},
		},
		{
			name: "closes the connection",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				closeConnection(w)
				return "", false
			},
			want: []string{"CE", "CE", "CE", "CE", "CE"},
		},
		{
			name: "slow on some steps",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				if verb == "PLAY" && (step == 2 || step == 3) {
					select {
					case <-time.After(slow):
					case <-r.Context().Done():
						return "", false
					}
				}
				return wellBehaved(w, r, verb, role, step)
			},
			want: []string{"", "", "TO", "TO", ""},
		},
		{
			name: "huge answer",
			respond: func(w http.ResponseWriter, r *http.Request, verb, role string, step int) (string, bool) {
				if verb == "PLAY" {
					return "(pick " + strings.Repeat("1", remote.DefaultMaxResponseSize) + ")", true
				}
				return "ready", true
			},
			want: []string{"", "IL", "IL", "IL", "IL"}, // checked by prefix
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			white, whiteAddr := startServer(t, tt.respond)
			black, blackAddr := startServer(t, wellBehaved)
			pw, err := remote.New(whiteAddr)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := remote.New("http://" + blackAddr + "/")
			if err != nil {
				t.Fatal(err)
			}
			m := newMatch(t, pickGame, pw, pb)
			ref := fastReferee()
			var logged []string
			ref.Logf = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
			began := time.Now()
			rec, err := ref.Run(context.Background(), m)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if d := time.Since(began); d > 10*time.Second {
				t.Errorf("match took %v", d)
			}
			checkRecord(t, m, rec)
			got := codes(rec, 0)
			for i := range got {
				if i < len(tt.want) && strings.HasPrefix(tt.want[i], "IL") && tt.want[i] == "IL" {
					got[i] = got[i][:min(2, len(got[i]))]
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("white's errors = %q, want %q", got, tt.want)
			}
			if b := codes(rec, 1); !slices.Equal(b, []string{"", "", "", "", ""}) {
				t.Errorf("black's errors = %q, want none", b)
			}
			for step, code := range got {
				if code == "" {
					continue
				}
				found := false
				for _, l := range logged {
					found = found || strings.Contains(l, fmt.Sprintf("match pick.1: step %d: role white (player %s): %s", step, whiteAddr, code))
				}
				if !found {
					t.Errorf("no log line names step %d, role white, player %s and %s in %q", step, whiteAddr, code, logged)
				}
			}
			// The moves of white that were accepted are its own.
			for i, mv := range rec.Moves {
				if got[i+1] == "" && inTurn("white", i+1) && mv[0] != "(pick 2)" {
					t.Errorf("step %d: white's move %s, want its own (pick 2)", i+1, mv[0])
				}
			}
			msgs := black.log()
			want := []string{
				"( START pick.1 black (",
				"( PLAY pick.1 NIL )",
				"( PLAY pick.1 (" + rec.Moves[0][0] + " " + rec.Moves[0][1] + ") )",
			}
			for i, prefix := range want {
				if i >= len(msgs) || !strings.HasPrefix(msgs[i], prefix) {
					t.Errorf("message %d to black = %.60q, want prefix %q", i, msgs[i:min(i+1, len(msgs))], prefix)
				}
			}
			if !strings.HasSuffix(msgs[0], ") 1 1)") {
				t.Errorf("START message ends %q, want clocks 1 1", msgs[0][max(0, len(msgs[0])-20):])
			}
			last := rec.Moves[len(rec.Moves)-1]
			if stop := "( STOP pick.1 (" + last[0] + " " + last[1] + ") )"; msgs[len(msgs)-1] != stop {
				t.Errorf("last message to black = %q, want %q", msgs[len(msgs)-1], stop)
			}
			// White is asked at every step and told the end, however it
			// behaves.
			wm := white.log()
			plays := 0
			for _, msg := range wm {
				if strings.HasPrefix(msg, "( PLAY pick.1 ") {
					plays++
				}
			}
			if plays != pickSteps || !strings.HasPrefix(wm[0], "( START pick.1 white (") || !strings.HasPrefix(wm[len(wm)-1], "( STOP pick.1 (") {
				t.Errorf("white was sent %d PLAY messages, first %.30q, last %q; want %d, START and STOP", plays, wm[0], wm[len(wm)-1], pickSteps)
			}
		})
	}
}

// TestInProcessPlayers covers in-process players that misbehave, and mixes
// them with remote ones.
func TestInProcessPlayers(t *testing.T) {
	tests := []struct {
		name     string
		move     func(ctx context.Context, role string, step int) (reasoner.Move, error)
		want     []string
		maxTime  time.Duration
		fallback Fallback
		moves    []string // white's recorded moves, if checked
	}{
		{
			name: "spaced moves are accepted",
			move: func(_ context.Context, role string, step int) (reasoner.Move, error) {
				if inTurn(role, step) {
					return "( pick   3 )", nil
				}
				return " noop ", nil
			},
			want:  []string{"", "", "", "", ""},
			moves: []string{"(pick 3)", "noop", "(pick 3)", "noop"},
		},
		{
			name: "ignores its context",
			move: func(ctx context.Context, role string, step int) (reasoner.Move, error) {
				if step == 1 {
					time.Sleep(3 * time.Second)
				}
				return goodMove(1)(ctx, role, step)
			},
			// Step 1 is late; step 2 is late as the player is still busy.
			// It is then told of step 2 all the same, so that by step 4
			// it plays in step again.
			want:    []string{"", "TO", "TO", "*", ""},
			moves:   []string{"*", "*", "*", "noop"},
			maxTime: 7 * time.Second,
		},
		{
			name: "panics",
			move: func(context.Context, string, int) (reasoner.Move, error) {
				panic("player bug")
			},
			want: []string{"", "CE", "CE", "CE", "CE"},
		},
		{
			name: "fails, first legal move substituted",
			move: func(context.Context, string, int) (reasoner.Move, error) {
				return "", errors.New("out of memory")
			},
			want:     []string{"", "CE", "CE", "CE", "CE"},
			fallback: FallbackFirst,
			moves:    []string{"(pick 1)", "noop", "(pick 1)", "noop"},
		},
		{
			name: "returns after the deadline with the context's error",
			move: func(ctx context.Context, role string, step int) (reasoner.Move, error) {
				<-ctx.Done()
				return "", ctx.Err()
			},
			want: []string{"", "TO", "TO", "TO", "TO"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			white := &scripted{name: "white-player", move: tt.move}
			_, blackAddr := startServer(t, wellBehaved)
			black, err := remote.New(blackAddr)
			if err != nil {
				t.Fatal(err)
			}
			m := newMatch(t, pickGame, white, black)
			ref := fastReferee()
			ref.Fallback = tt.fallback
			began := time.Now()
			rec, err := ref.Run(context.Background(), m)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if tt.maxTime > 0 && time.Since(began) > tt.maxTime {
				t.Errorf("match took %v, want at most %v", time.Since(began), tt.maxTime)
			}
			checkRecord(t, m, rec)
			got := codes(rec, 0)
			for i, w := range tt.want {
				if w != "*" && got[i] != w {
					t.Errorf("white's errors = %q, want %q", got, tt.want)
					break
				}
			}
			if tt.moves != nil {
				var mv []string
				for _, j := range rec.Moves {
					mv = append(mv, j[0])
				}
				for i, w := range tt.moves {
					if w == "*" {
						mv[i] = w
					}
				}
				if !slices.Equal(mv, tt.moves) {
					t.Errorf("white's moves = %q, want %q", mv, tt.moves)
				}
			}
			if n := white.overlaps.Load(); n != 0 {
				t.Errorf("player called %d times while a call was running", n)
			}
			// The remote player is recorded under the name it gives INFO.
			if !reflect.DeepEqual(rec.PlayerNamesFromHost, []string{"white-player", "tester"}) {
				t.Errorf("player names %q", rec.PlayerNamesFromHost)
			}
		})
	}
}

// TestRecordAfterEveryStep reads the record file at every step.
func TestRecordAfterEveryStep(t *testing.T) {
	m := newMatch(t, pickGame, &scripted{name: "a", move: goodMove(3)}, &scripted{name: "b", move: goodMove(1)})
	ref := fastReferee()
	var seen []int
	ref.OnStep = func(r *record.Record) {
		onDisk, err := record.ReadFile(m.Record)
		if err != nil {
			t.Error(err)
			return
		}
		if len(onDisk.States) != len(r.States) || onDisk.IsCompleted != r.IsCompleted {
			t.Errorf("record on disk has %d states, completed %v; want %d, %v", len(onDisk.States), onDisk.IsCompleted, len(r.States), r.IsCompleted)
		}
		if err := onDisk.Check(); err != nil && len(onDisk.Errors) == len(onDisk.States) {
			t.Error(err)
		}
		seen = append(seen, len(onDisk.States))
	}
	rec, err := ref.Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	checkRecord(t, m, rec)
	// Before START, after START, after each step, completed.
	if want := []int{1, 1, 2, 3, 4, 5, 5}; !slices.Equal(seen, want) {
		t.Errorf("states on disk at each write: %v, want %v", seen, want)
	}
	// Black picked 1 last: black wins.
	if !slices.Equal(rec.GoalValues, []int{0, 100}) {
		t.Errorf("goals %v, want [0 100]", rec.GoalValues)
	}
	if rec.StartClock != 1 || rec.PlayClock != 1 || rec.PreviewClock != -1 || rec.GameRules != pickGame || rec.GameRulesheetHash != record.RulesheetHash([]byte(pickGame)) {
		t.Errorf("record fields: %+v", rec)
	}
	if !slices.Equal(rec.Roles, []string{"white", "black"}) {
		t.Errorf("roles %v", rec.Roles)
	}
	for i, p := range m.Players {
		if got := p.(*scripted).log(); !slices.Equal(got, []string{"START", "PLAY", "PLAY", "PLAY", "PLAY", "STOP"}) {
			t.Errorf("player %d was sent %v", i, got)
		}
	}
}

// TestCancel cancels the match while the players think: the match is
// aborted, the record says so, and the players are sent ABORT.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	block := func(ctx context.Context, role string, step int) (reasoner.Move, error) {
		if step == 2 {
			cancel()
			<-ctx.Done()
			return "", ctx.Err()
		}
		return goodMove(1)(ctx, role, step)
	}
	a, b := &scripted{name: "a", move: block}, &scripted{name: "b", move: goodMove(1)}
	m := newMatch(t, pickGame, a, b)
	rec, err := fastReferee().Run(ctx, m)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: err = %v, want context.Canceled", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.MatchID != "pick.1" || e.Step != 2 {
		t.Errorf("error %#v, want an *Error for match pick.1 at step 2", err)
	}
	onDisk, rerr := record.ReadFile(m.Record)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !onDisk.IsAborted || onDisk.IsCompleted || onDisk.AbortReason == "" || !reflect.DeepEqual(onDisk, rec) {
		t.Errorf("record on disk: aborted %v, completed %v, reason %q", onDisk.IsAborted, onDisk.IsCompleted, onDisk.AbortReason)
	}
	// Said in words, not as "context canceled".
	if want := "match pick.1: step 2: the match was interrupted"; onDisk.AbortReason != want {
		t.Errorf("abort reason %q, want %q", onDisk.AbortReason, want)
	}
	for _, p := range []*scripted{a, b} {
		if log := p.log(); log[len(log)-1] != "ABORT" {
			t.Errorf("player %s was sent %v, want ABORT last", p.name, log)
		}
	}
}

// TestGameFailures covers games that misbehave and matches that cannot
// start.
func TestGameFailures(t *testing.T) {
	ok := func() player.Player { return &scripted{name: "p", move: goodMove(1)} }
	flip := func() player.Player {
		return &scripted{name: "f", move: func(context.Context, string, int) (reasoner.Move, error) { return "flip", nil }}
	}
	tests := []struct {
		name    string
		rules   string
		players []player.Player
		id      string
		want    string // in the error
		record  bool   // whether a record is returned
	}{
		{"endless game", endlessGame, []player.Player{flip()}, "endless.1", "match endless.1: step 11: the game has not ended after 10 steps", true},
		{"unparsable rules", "(role", []player.Player{ok()}, "bad.1", "match bad.1: step 0: rules of pick", false},
		{"too few players", pickGame, []player.Player{ok()}, "few.1", "1 players for the 2 roles", false},
		{"bad match id", pickGame, []player.Player{ok(), ok()}, "has space", `match id "has space"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, tt.rules, tt.players...)
			m.ID = tt.id
			ref := fastReferee()
			ref.MaxSteps = 10
			rec, err := ref.Run(context.Background(), m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run: err = %v, want it to contain %q", err, tt.want)
			}
			if (rec != nil) != tt.record {
				t.Fatalf("record returned: %v, want %v", rec != nil, tt.record)
			}
			if rec != nil && (!rec.IsAborted || rec.IsCompleted) {
				t.Errorf("record: aborted %v, completed %v", rec.IsAborted, rec.IsCompleted)
			}
		})
	}
}

// heedlessReasoner wraps a reasoner whose Next ignores its context and
// returns only once release is closed.
type heedlessReasoner struct {
	reasoner.Reasoner
	release chan struct{}
}

func (r heedlessReasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	<-r.release
	return r.Reasoner.Next(context.Background(), s, joint)
}

// abortSignal is a scripted player that closes aborted when it is sent
// ABORT.
type abortSignal struct {
	*scripted
	once    sync.Once
	aborted chan struct{}
}

func (p *abortSignal) Abort(ctx context.Context, id string) error {
	defer p.once.Do(func() { close(p.aborted) })
	return p.scripted.Abort(ctx, id)
}

// TestRulesTimeout: a reasoner that takes too long aborts the match at
// its RulesTimeout, even when it ignores its context; Run returns only
// once the reasoner's call has, so that no goroutine of the match
// outlives it.
func TestRulesTimeout(t *testing.T) {
	ref := fastReferee()
	ref.RulesTimeout = 300 * time.Millisecond
	release := make(chan struct{})
	ref.NewReasoner = func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := prolog.New(d)
		return heedlessReasoner{r, release}, err
	}
	a := &abortSignal{scripted: &scripted{name: "a", move: goodMove(1)}, aborted: make(chan struct{})}
	m := newMatch(t, pickGame, a, &scripted{name: "b", move: goodMove(1)})
	type result struct {
		rec *record.Record
		err error
	}
	ran := make(chan result, 1)
	go func() {
		rec, err := ref.Run(context.Background(), m)
		ran <- result{rec, err}
	}()
	select {
	case <-a.aborted:
	case r := <-ran:
		close(release)
		t.Fatalf("Run returned (%v) while the reasoner was still busy", r.err)
	}
	select {
	case r := <-ran:
		close(release)
		t.Fatalf("Run returned (%v) before the reasoner's call did", r.err)
	default:
	}
	close(release)
	r := <-ran
	if r.err == nil || !strings.Contains(r.err.Error(), "match pick.1: step 1: next state: the rules took too long") {
		t.Fatalf("Run: err = %v", r.err)
	}
	if !r.rec.IsAborted {
		t.Error("record not aborted")
	}
}

func TestParseFallback(t *testing.T) {
	for _, f := range []Fallback{FallbackRandom, FallbackFirst} {
		g, err := ParseFallback(f.String())
		if err != nil || g != f {
			t.Errorf("ParseFallback(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := ParseFallback("best"); err == nil {
		t.Error("ParseFallback(best) succeeded")
	}
}

// failingLegal fails to give black's legal moves at the second step.
type failingLegal struct{ reasoner.Reasoner }

func (r failingLegal) Legal(ctx context.Context, s *reasoner.State, role int) ([]reasoner.Move, error) {
	if role == 1 && strings.Contains(s.Key(), "(step 1)") {
		return nil, errors.New("stack overflow")
	}
	return r.Reasoner.Legal(ctx, s, role)
}

func TestRulesErrorNamesRole(t *testing.T) {
	ref := fastReferee()
	ref.NewReasoner = func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := prolog.New(d)
		return failingLegal{r}, err
	}
	a, b := &scripted{name: "a", move: goodMove(1)}, &scripted{name: "b", move: goodMove(1)}
	m := newMatch(t, pickGame, a, b)
	rec, err := ref.Run(context.Background(), m)
	var e *Error
	if !errors.As(err, &e) || e.Step != 2 || e.Role != "black" || err.Error() != "match pick.1: step 2: role black: legal moves: stack overflow" {
		t.Fatalf("Run: err = %v", err)
	}
	if !rec.IsAborted || rec.AbortReason != err.Error() || rec.Steps() != 1 {
		t.Errorf("record: aborted %v, reason %q, %d steps", rec.IsAborted, rec.AbortReason, rec.Steps())
	}
	if log := b.log(); log[len(log)-1] != "ABORT" {
		t.Errorf("black was sent %v, want ABORT last", log)
	}
}

// TestPlayersAskedInParallel: two players that each take most of the play
// clock are both in time, which they could not be if asked one after the
// other.
func TestPlayersAskedInParallel(t *testing.T) {
	slow := func(ctx context.Context, role string, step int) (reasoner.Move, error) {
		time.Sleep(700 * time.Millisecond)
		return goodMove(1)(ctx, role, step)
	}
	m := newMatch(t, pickGame, &scripted{name: "a", move: slow}, &scripted{name: "b", move: slow})
	began := time.Now()
	rec, err := fastReferee().Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []int{0, 1} {
		if c := codes(rec, role); !slices.Equal(c, []string{"", "", "", "", ""}) {
			t.Errorf("role %d errors %q, want none", role, c)
		}
	}
	if d := time.Since(began); d > pickSteps*1200*time.Millisecond {
		t.Errorf("match took %v", d)
	}
}

// TestRecordNamesRemotePlayersByInfo checks that the record names a remote
// player by the name it gives INFO, and by its address when it gives none
// in time: no answer, an answer without a name, a connection closed, or
// an answer after InfoTimeout. A player slow to answer INFO delays START
// by InfoTimeout at most.
func TestRecordNamesRemotePlayersByInfo(t *testing.T) {
	const infoTimeout = 300 * time.Millisecond
	tests := []struct {
		name string
		info func(s *protocolServer) // changes the server's answer to INFO
		want func(addr string) string
	}{
		{"name given", func(s *protocolServer) { s.info = "((name gopher) (status available) (species bot))" }, func(string) string { return "gopher" }},
		{"name in lower and upper case", func(s *protocolServer) { s.info = "( ( NAME Gopher-2 ) ( STATUS available ) )" }, func(string) string { return "Gopher-2" }},
		{"long name cut", func(s *protocolServer) { s.info = "((name " + strings.Repeat("n", 300) + "))" }, func(string) string { return strings.Repeat("n", remote.MaxNameLength) }},
		{"no name", func(s *protocolServer) { s.info = "((status available))" }, func(addr string) string { return addr }},
		{"an atom", func(s *protocolServer) { s.info = "available" }, func(addr string) string { return addr }},
		{"garbage", func(s *protocolServer) { s.info = "((name" }, func(addr string) string { return addr }},
		{"connection closed", func(s *protocolServer) { s.info = infoClose }, func(addr string) string { return addr }},
		{"no answer in time", func(s *protocolServer) { s.info = infoHang }, func(addr string) string { return addr }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, addr := startServer(t, wellBehaved)
			tt.info(srv)
			p, err := remote.New(addr)
			if err != nil {
				t.Fatal(err)
			}
			m := newMatch(t, pickGame, p, &scripted{name: "black", move: goodMove(2)})
			ref := fastReferee()
			ref.InfoTimeout = infoTimeout
			var logged []string
			ref.Logf = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
			began := time.Now()
			rec, err := ref.Run(context.Background(), m)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkRecord(t, m, rec)
			if srv.info == infoHang {
				// The match waited for INFO no longer than InfoTimeout (the
				// server would hold it for 30 s).
				if waited := time.UnixMilli(rec.StartTime).Sub(began); waited > infoTimeout+2*time.Second {
					t.Errorf("the match began %v after Run, want about InfoTimeout %v", waited, infoTimeout)
				}
			}
			if want := []string{tt.want(addr), "black"}; !slices.Equal(rec.PlayerNamesFromHost, want) {
				t.Errorf("player names %q, want %q", rec.PlayerNamesFromHost, want)
			}
			if tt.want(addr) == addr && (len(logged) == 0 || !strings.Contains(logged[0], "match pick.1: role white (player "+addr+"): INFO")) {
				t.Errorf("log %q does not say why the player is recorded under its address", logged)
			}
			srv.mu.Lock()
			infos := srv.infos
			srv.mu.Unlock()
			if infos != 1 {
				t.Errorf("%d INFO messages, want 1", infos)
			}
		})
	}
}
