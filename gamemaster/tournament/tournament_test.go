package tournament

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

func TestAssignments(t *testing.T) {
	tests := []struct {
		players, roles int
		want           [][]int
	}{
		{2, 2, [][]int{{0, 1}, {1, 0}}},
		{3, 2, [][]int{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}}},
		{3, 1, [][]int{{0}, {1}, {2}}},
		{2, 3, [][]int{{0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 0, 1}, {1, 1, 0}}},
		{1, 2, [][]int{{0, 0}}},
		{0, 2, nil},
	}
	for _, tt := range tests {
		if got := Assignments(tt.players, tt.roles); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Assignments(%d, %d) = %v, want %v", tt.players, tt.roles, got, tt.want)
		}
	}
	if n := len(Assignments(4, 2)); n != 12 {
		t.Errorf("4 players, 2 roles: %d assignments, want 12", n)
	}
}

func TestLabels(t *testing.T) {
	got := Labels([]string{"random", "mcts", "random", "random", "host:1"})
	want := []string{"random", "mcts", "random#2", "random#3", "host:1"}
	if !slices.Equal(got, want) {
		t.Errorf("Labels = %q, want %q", got, want)
	}
}

func TestMeanCI95(t *testing.T) {
	tests := []struct {
		xs         []float64
		mean, half float64
	}{
		{nil, 0, -1},
		{[]float64{50}, 50, -1},
		{[]float64{0, 100}, 50, 12.706 * math.Sqrt(5000) / math.Sqrt(2)},
		{[]float64{10, 20, 30}, 20, 4.303 * 10 / math.Sqrt(3)},
		{[]float64{50, 50, 50, 50}, 50, 0},
	}
	for _, tt := range tests {
		mean, half := meanCI95(tt.xs)
		if math.Abs(mean-tt.mean) > 1e-9 || math.Abs(half-tt.half) > 1e-9 {
			t.Errorf("meanCI95(%v) = %v ± %v, want %v ± %v", tt.xs, mean, half, tt.mean, tt.half)
		}
	}
	if got := tQuantile975(1000); got != 1.96 {
		t.Errorf("t(1000) = %v", got)
	}
}

func TestSummarize(t *testing.T) {
	res := &Results{
		Players: []string{"a", "b", "c"},
		Matches: []MatchResult{
			{Players: []string{"a", "b"}, Completed: true, Goals: []int{100, 0}, Errors: []ErrorCounts{{}, {TO: 2, IL: 1}}},
			{Players: []string{"b", "a"}, Completed: true, Goals: []int{50, 50}, Errors: []ErrorCounts{{CE: 1}, {}}},
			{Players: []string{"a", "c"}, Completed: false, Errors: []ErrorCounts{{}, {TO: 1}}},
			{Players: []string{"c", "b", "a"}, Completed: true, Goals: []int{10, 20, 30}, Names: []string{"gopher", "b", "a"}},
		},
	}
	res.summarize()
	want := []Standing{
		{Player: "a", Matches: 3, Incomplete: 1, GoalMean: 60, Wins: 1, Draws: 1, TwoPlayer: 2},
		{Player: "b", Matches: 3, GoalMean: 70.0 / 3, Losses: 1, Draws: 1, TwoPlayer: 2, Errors: ErrorCounts{TO: 2, CE: 1, IL: 1}},
		{Player: "c", Name: "gopher", Matches: 1, Incomplete: 1, GoalMean: 10, GoalCI95: -1, Errors: ErrorCounts{TO: 1}},
	}
	for i := range want {
		got := res.Standings[i]
		got.GoalCI95 = math.Round(got.GoalCI95*1000) / 1000
		if i < 2 {
			_, h := meanCI95(map[int][]float64{0: {100, 50, 30}, 1: {0, 50, 20}}[i])
			want[i].GoalCI95 = math.Round(h*1000) / 1000
		}
		if math.Abs(got.GoalMean-want[i].GoalMean) < 1e-9 {
			got.GoalMean = want[i].GoalMean
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("standing %d = %+v, want %+v", i, got, want[i])
		}
	}
	var b bytes.Buffer
	if err := res.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "player") || !strings.Contains(lines[3], "10.0") || !strings.HasPrefix(lines[3], "c (gopher) ") || !strings.Contains(lines[3], " - ") {
		t.Errorf("table:\n%s", b.String())
	}
}

// loggedPlayer is an in-process player of package player that notes the
// matches it is started in.
type loggedPlayer struct {
	player.Player
	started *startLog
}

type startLog struct {
	mu  sync.Mutex
	ids map[string]int
}

func (l *startLog) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil {
		l.ids = map[string]int{}
	}
	l.ids[id]++
}

func (p loggedPlayer) Start(ctx context.Context, m *player.Match) error {
	if p.started != nil {
		p.started.add(m.ID)
	}
	return p.Player.Start(ctx, m)
}

// testFactory is the default backend.
var testFactory = func() reasoner.Factory {
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		panic(err)
	}
	return f
}()

// testPlayers makes the in-process players random and legal.
func testPlayers(log *startLog) func(spec string) (player.Player, error) {
	return func(spec string) (player.Player, error) {
		if spec != "random" && spec != "legal" {
			return nil, fmt.Errorf("unknown player %q", spec)
		}
		p, err := players.New(spec, testFactory)
		return loggedPlayer{p, log}, err
	}
}

func bundled(t testing.TB, keys ...string) []*games.Game {
	t.Helper()
	gs, err := openBundled(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

func openBundled(keys ...string) ([]*games.Game, error) {
	var gs []*games.Game
	for _, k := range keys {
		g, err := games.Open(k)
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// resumeGames are the games of the resume tests.
var resumeGames = []string{"ticTacToe", "connectFour"}

// newTournament is the tournament of the resume tests: four players, two
// of each kind, over resumeGames: 2 games x 12 assignments.
func newTournament(t testing.TB, dir string, log *startLog) *Tournament {
	return resumeTournament(dir, bundled(t, resumeGames...), log)
}

func resumeTournament(dir string, gs []*games.Game, log *startLog) *Tournament {
	return &Tournament{
		Dir:        dir,
		Games:      gs,
		Players:    []string{"random", "legal", "random", "legal"},
		Parallel:   2,
		StartClock: 5 * time.Second,
		PlayClock:  time.Second,
		NewPlayer:  testPlayers(log),
		Referee:    &gamemaster.Referee{NewReasoner: testFactory},
	}
}

const resumeTotal = 24

func TestSchedule(t *testing.T) {
	tr := newTournament(t, t.TempDir(), nil)
	tr.Rounds = 2
	ms, err := tr.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2*resumeTotal {
		t.Fatalf("%d matches, want %d", len(ms), 2*resumeTotal)
	}
	ids := map[string]bool{}
	for _, m := range ms {
		if ids[m.ID] || !gamemaster.ValidMatchID(m.ID) {
			t.Errorf("match id %q repeated or invalid", m.ID)
		}
		ids[m.ID] = true
	}
	if ms[0].ID != "ticTacToe.r1.0-1" || ms[len(ms)-1].ID != "connectFour.r2.3-2" {
		t.Errorf("first and last ids %s, %s", ms[0].ID, ms[len(ms)-1].ID)
	}
	if !slices.Equal(ms[1].players, []string{"random", "random#2"}) {
		t.Errorf("players of %s: %q", ms[1].ID, ms[1].players)
	}
	// Round by round, each round every game and assignment once: a
	// tournament stopped early by its SPRT has a balanced sample.
	for r := range 2 {
		seen := map[string]bool{}
		for _, m := range ms[r*resumeTotal : (r+1)*resumeTotal] {
			key := fmt.Sprint(m.Game.Key, m.Seats)
			if m.Round != r+1 || seen[key] {
				t.Errorf("match %s at round %d of the schedule", m.ID, r+1)
			}
			seen[key] = true
		}
	}
}

// completedRecords returns the content of the completed records in dir by
// match id, and checks that every record there is whole.
func completedRecords(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, MatchesDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if rec.IsCompleted {
			if err := rec.Check(); err != nil {
				t.Errorf("%s: %v", f, err)
			}
			out[rec.MatchID] = data
		}
	}
	return out
}

// checkResumed runs the tournament again after an interruption that left
// before (completed records by id), and checks that it completes every
// match, replays none of those completed and leaves their records alone.
func checkResumed(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	var log startLog
	tr := newTournament(t, dir, &log)
	var first *Progress
	tr.Progress = func(p Progress) {
		if first == nil {
			first = &p
		}
	}
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	if first == nil || first.Skipped != len(before) || first.Done != len(before) || first.Total != resumeTotal {
		t.Errorf("first progress report %+v, want %d skipped of %d", first, len(before), resumeTotal)
	}
	after := completedRecords(t, dir)
	if len(after) != resumeTotal || res.Completed() != resumeTotal {
		t.Errorf("%d completed records, results say %d; want %d", len(after), res.Completed(), resumeTotal)
	}
	for id, data := range before {
		if !bytes.Equal(after[id], data) {
			t.Errorf("completed record %s was rewritten", id)
		}
	}
	for id, n := range log.ids {
		if _, ok := before[id]; ok {
			t.Errorf("match %s completed before was played again", id)
		}
		if n != 2 {
			t.Errorf("match %s: %d players started, want 2", id, n)
		}
	}
	if got, want := len(log.ids), resumeTotal-len(before); got != want {
		t.Errorf("%d matches played on resume, want %d", got, want)
	}
	onDisk := readResults(t, dir)
	if onDisk.Completed() != resumeTotal || len(onDisk.Standings) != 4 {
		t.Errorf("results file: %d completed, %d standings", onDisk.Completed(), len(onDisk.Standings))
	}
	total := 0
	for _, s := range onDisk.Standings {
		total += s.Matches
		if s.Wins+s.Draws+s.Losses != s.Matches || s.Matches != 12 {
			t.Errorf("standing %+v: want 12 matches, each a win, draw or loss", s)
		}
	}
	if total != 2*resumeTotal {
		t.Errorf("standings count %d seats, want %d", total, 2*resumeTotal)
	}
}

// TestResumeAfterCancel cancels the tournament at a random point and
// resumes it.
func TestResumeAfterCancel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAfter := 1 + rand.IntN(resumeTotal-2)
	tr := newTournament(t, dir, nil)
	tr.Progress = func(p Progress) {
		if p.Done-p.Skipped >= stopAfter {
			// Cancel a little later, at a random moment of the matches
			// then running.
			time.AfterFunc(time.Duration(rand.IntN(50))*time.Millisecond, cancel)
		}
	}
	res, err := tr.Run(ctx)
	if err != context.Canceled {
		// A run that finishes before the cancellation is not what this
		// test is about; the seed makes it rare.
		t.Fatalf("first run: err = %v, want context.Canceled", err)
	}
	before := completedRecords(t, dir)
	t.Logf("cancelled after %d matches, %d completed records", stopAfter, len(before))
	if res.Completed() != len(before) || len(before) >= resumeTotal || len(before) < stopAfter {
		t.Errorf("first run: results say %d completed, %d records", res.Completed(), len(before))
	}
	checkResumed(t, dir, before)

	// A third run has nothing left to do.
	var log startLog
	tr = newTournament(t, dir, &log)
	if _, err := tr.Run(context.Background()); err != nil || len(log.ids) != 0 {
		t.Errorf("third run: err %v, %d matches played", err, len(log.ids))
	}
}

// childDir, in the environment, makes the test binary the child process
// of TestResumeAfterKill: it runs the tournament in that folder instead
// of the tests (TestMain).
const childDir = "GGP_TOURNAMENT_CHILD"

// TestMain runs the tournament of TestResumeAfterKill when the binary is
// its child process, and the tests otherwise.
func TestMain(m *testing.M) {
	if dir := os.Getenv(childDir); dir != "" {
		if err := runChildTournament(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Lines the child tournament prints as it goes.
const (
	childPlayed = "match played"
	childMove   = "move asked"
)

// runChildTournament runs the resume tests' tournament in dir, a match at
// a time, and prints childPlayed as each match ends and childMove as each
// player is asked for a move, so that its parent kills it when it
// chooses.
func runChildTournament(dir string) error {
	gs, err := openBundled(resumeGames...)
	if err != nil {
		return err
	}
	tr := resumeTournament(dir, gs, nil)
	tr.Parallel = 1
	tr.NewPlayer = func(spec string) (player.Player, error) {
		p, err := testPlayers(nil)(spec)
		return slowPlayer{p}, err
	}
	tr.Progress = func(p Progress) {
		if p.Match != nil {
			fmt.Println(childPlayed)
		}
	}
	_, err = tr.Run(context.Background())
	return err
}

// slowPlayer tells of every move it is asked for and takes 10 ms to
// answer, so that the kill of TestResumeAfterKill lands in the middle of
// a match.
type slowPlayer struct{ player.Player }

func (p slowPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	fmt.Println(childMove)
	time.Sleep(10 * time.Millisecond)
	return p.Player.Play(ctx, id, last)
}

// TestResumeAfterKill runs the tournament in another process, kills it
// with SIGKILL at a random moment, some moves into a match after some
// matches have completed, and resumes it here.
func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childDir+"="+dir)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A match of either game asks for at least 10 moves.
	wantPlayed, wantMoves := 1+rand.IntN(resumeTotal/2), rand.IntN(10)
	lines := bufio.NewScanner(stdout)
	for played, moves := 0, 0; played < wantPlayed || moves < wantMoves; {
		if !lines.Scan() {
			cmd.Wait()
			t.Fatalf("child ended after %d matches, before the kill:\n%s", played, errOut.String())
		}
		switch lines.Text() {
		case childPlayed:
			played, moves = played+1, 0
		case childMove:
			moves++
		}
	}
	cmd.Process.Kill()
	io.Copy(io.Discard, stdout)
	cmd.Wait()
	before := completedRecords(t, dir)
	t.Logf("killed with %d completed records", len(before))
	if len(before) == 0 || len(before) == resumeTotal {
		t.Fatalf("child completed %d matches before the kill:\n%s", len(before), errOut.String())
	}
	checkResumed(t, dir, before)
}

func TestManifestMismatch(t *testing.T) {
	dir := t.TempDir()
	tr := newTournament(t, dir, nil)
	tr.Games = tr.Games[:1]
	tr.Players = []string{"random", "legal"}
	if _, err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		modify func(*Tournament)
		want   string
	}{
		{"other players", func(tr *Tournament) { tr.Players = []string{"legal", "random"} }, "players random,legal"},
		{"other clocks", func(tr *Tournament) { tr.PlayClock = 2 * time.Second }, "clocks"},
		{"changed rules", func(tr *Tournament) {
			g := *tr.Games[0]
			g.Rules = append(slices.Clone(g.Rules), "\n; changed\n"...)
			tr.Games = []*games.Game{&g}
		}, "rules of ticTacToe changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTournament(t, dir, nil)
			tr.Games = tr.Games[:1]
			tr.Players = []string{"random", "legal"}
			tt.modify(tr)
			_, err := tr.Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	// More rounds on the same folder is fine, and plays only the new ones.
	var log startLog
	tr = newTournament(t, dir, &log)
	tr.Games = tr.Games[:1]
	tr.Players = []string{"random", "legal"}
	tr.Rounds = 2
	res, err := tr.Run(context.Background())
	if err != nil || res.Completed() != 4 || len(log.ids) != 2 {
		t.Errorf("second round: err %v, %d completed, %d played; want 4 and 2", err, res.Completed(), len(log.ids))
	}
}

// TestSecondRunOnFolder runs a tournament whose players wait until
// released, and checks that a second run on the same folder fails at once
// with an error naming the folder, and that the folder is free again once
// the first run is over.
func TestSecondRunOnFolder(t *testing.T) {
	dir := t.TempDir()
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	first := newTournament(t, dir, nil)
	first.Games = first.Games[:1]
	first.Players = []string{"random", "legal"}
	first.NewPlayer = func(spec string) (player.Player, error) {
		p, err := testPlayers(nil)(spec)
		return heldPlayer{p, started, release}, err
	}
	errc := make(chan error, 1)
	go func() {
		_, err := first.Run(context.Background())
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the first tournament did not start a match")
	}
	second := newTournament(t, dir, nil)
	second.Games = second.Games[:1]
	second.Players = []string{"random", "legal"}
	_, err := second.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "in use by another ggp tournament") || !strings.Contains(err.Error(), dir) {
		t.Errorf("second run while the first runs: err = %v, want the folder in use", err)
	}
	close(release)
	if err := <-errc; err != nil {
		t.Fatalf("first run: %v", err)
	}
	if _, err := second.Run(context.Background()); err != nil {
		t.Errorf("run after the first finished: %v", err)
	}
}

// heldPlayer waits for release before its first move.
type heldPlayer struct {
	player.Player
	started chan<- struct{}
	release <-chan struct{}
}

func (p heldPlayer) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	select {
	case p.started <- struct{}{}:
	default:
	}
	<-p.release
	return p.Player.Play(ctx, id, last)
}

// readResults reads the results file of the tournament in dir.
func readResults(t *testing.T, dir string) Results {
	t.Helper()
	var res Results
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// timedPlayer notes when each of its matches starts and ends.
type timedPlayer struct {
	player.Player
	log *timeLog
}

type timeLog struct {
	mu           sync.Mutex
	starts, ends map[string]time.Time // by match id: the first START, the last STOP or ABORT
}

func (l *timeLog) note(m map[string]time.Time, id string, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := m[id]; ok && first {
		return
	}
	m[id] = time.Now()
}

func (p timedPlayer) Start(ctx context.Context, m *player.Match) error {
	p.log.note(p.log.starts, m.ID, true)
	return p.Player.Start(ctx, m)
}

func (p timedPlayer) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	defer p.log.note(p.log.ends, id, false)
	return p.Player.Stop(ctx, id, last)
}

func (p timedPlayer) Abort(ctx context.Context, id string) error {
	defer p.log.note(p.log.ends, id, false)
	return p.Player.Abort(ctx, id)
}

// TestGap checks that matches played one at a time start no sooner than
// Gap after the end of the one before.
func TestGap(t *testing.T) {
	const gap = 300 * time.Millisecond
	log := &timeLog{starts: map[string]time.Time{}, ends: map[string]time.Time{}}
	tr := newTournament(t, t.TempDir(), nil)
	tr.Games = tr.Games[:1]
	tr.Players = []string{"random", "legal"}
	tr.Rounds = 2
	tr.Parallel = 1
	tr.Gap = gap
	tr.NewPlayer = func(spec string) (player.Player, error) {
		p, err := testPlayers(nil)(spec)
		return timedPlayer{p, log}, err
	}
	res, err := tr.Run(context.Background())
	if err != nil || res.Completed() != 4 {
		t.Fatalf("Run: err %v, %d of 4 matches completed", err, res.Completed())
	}
	ms, err := tr.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(ms); k++ {
		prev, cur := ms[k-1].ID, ms[k].ID
		end, start := log.ends[prev], log.starts[cur]
		if end.IsZero() || start.IsZero() {
			t.Fatalf("match %s or %s neither started nor ended", prev, cur)
		}
		if d := start.Sub(end); d < gap {
			t.Errorf("%s started %v after %s ended, want at least %v", cur, d, prev, gap)
		}
	}
}

// TestGapEnds checks that there is no pause after the last match, and that
// cancelling the run ends a pause at once: with a gap of an hour, both
// runs return once their one match is played.
func TestGapEnds(t *testing.T) {
	tests := []struct {
		name    string
		players []string // one player takes both roles: one match
		cancel  bool     // cancel after the first match
		played  int
	}{
		{"after the last match", []string{"random"}, false, 1},
		{"cancelled during the pause", []string{"random", "legal"}, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var log startLog
			tr := newTournament(t, t.TempDir(), &log)
			tr.Games = tr.Games[:1]
			tr.Players = tt.players
			tr.Parallel = 1
			tr.Gap = time.Hour
			if tt.cancel {
				tr.Progress = func(p Progress) {
					if p.Match != nil {
						cancel()
					}
				}
			}
			type outcome struct {
				res *Results
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := tr.Run(ctx)
				done <- outcome{res, err}
			}()
			var o outcome
			select {
			case o = <-done:
			case <-time.After(time.Minute):
				t.Fatal("Run still pausing a minute after its match")
			}
			if tt.cancel != (o.err != nil) || o.res.Completed() != tt.played || len(log.ids) != tt.played {
				t.Errorf("Run: err %v, %d matches completed, %d started; want %d of each", o.err, o.res.Completed(), len(log.ids), tt.played)
			}
		})
	}
}

func TestNegativeGap(t *testing.T) {
	tr := newTournament(t, t.TempDir(), nil)
	tr.Gap = -time.Second
	if err := tr.Validate(); err == nil || !strings.Contains(err.Error(), "gap -1s") {
		t.Errorf("Validate: err = %v, want the negative gap refused", err)
	}
}

// natureFirst is a GDL-II game whose first role is nature's: each player
// scores 100 for the move x, which the legal player always plays, and 0
// for y.
const natureFirst = `
(role random) (role a) (role b)
(init (round 0))
(legal random noop)
(<= (legal ?r x) (role ?r) (distinct ?r random))
(<= (legal ?r y) (role ?r) (distinct ?r random))
(<= (next (played ?r ?m)) (does ?r ?m) (distinct ?r random))
(<= (next done) (true (round 0)))
(<= terminal (true done))
(<= (sees ?r (moved ?m)) (does ?r ?m) (distinct ?r random))
(<= (goal ?r 100) (true (played ?r x)))
(<= (goal ?r 0) (true (played ?r y)))
(goal random 50)
`

// TestNatureFirst checks that a player's goals and errors are its own
// when nature's role comes before the players' in a GDL-II game.
func TestNatureFirst(t *testing.T) {
	dir := t.TempDir()
	tr := newTournament(t, dir, nil)
	tr.Games = []*games.Game{{Key: "natureFirst", Name: "natureFirst", Filename: "natureFirst.kif", Rules: []byte(natureFirst)}}
	tr.Players = []string{"legal", "random"}
	tr.Rounds = 3
	tr.NewPlayer = func(spec string) (player.Player, error) { return players.New(spec, testFactory) }
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Matches {
		if !m.Completed || len(m.Goals) != 2 || len(m.Roles) != 2 || m.Roles[0] != "a" {
			t.Fatalf("match %s: %+v, want two players' results, a first", m.ID, m)
		}
		for i, p := range m.Players {
			if p == "legal" && m.Goals[i] != 100 {
				t.Errorf("match %s: legal, as %s, scored %d; the rules give it 100", m.ID, m.Roles[i], m.Goals[i])
			}
			if m.Names[i] != p {
				t.Errorf("match %s: %s named %q", m.ID, p, m.Names[i])
			}
		}
	}
	for _, s := range res.Standings {
		if s.Player == "legal" && (s.GoalMean != 100 || s.Matches != 6 || s.TwoPlayer != 6) {
			t.Errorf("standing %+v, want legal's 6 matches at 100", s)
		}
	}
}

// guessCoin names a role random but has no sees rules: a GDL game whose
// player happens to be called random, or a GDL-II game of chance, as the
// tournament says.
const guessCoin = `
(role guesser) (role random)
(init (round 0))
(<= (legal ?r heads) (role ?r))
(<= (legal ?r tails) (role ?r))
(<= (next (played ?r ?m)) (does ?r ?m))
(<= (next done) (true (round 0)))
(<= terminal (true done))
(<= (goal guesser 100) (true (played guesser ?m)) (true (played random ?m)))
(<= (goal guesser 0) (true (played guesser ?m)) (not (true (played random ?m))))
(goal random 50)
`

// TestNatureWithoutSees checks who plays random in a game without sees
// rules: a player by default, so that the match is GDL; nature with
// Nature set, so that it is GDL-II; and that a folder keeps its choice.
func TestNatureWithoutSees(t *testing.T) {
	tests := []struct {
		nature bool
		roles  []string // of the players in every match
	}{
		{false, []string{"guesser", "random"}},
		{true, []string{"guesser"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("nature=", tt.nature), func(t *testing.T) {
			dir := t.TempDir()
			newGuessCoin := func(nature bool) *Tournament {
				tr := newTournament(t, dir, nil)
				tr.Games = []*games.Game{{Key: "guessCoin", Name: "guessCoin", Filename: "guessCoin.kif", Rules: []byte(guessCoin)}}
				tr.Players = []string{"legal", "random"}
				tr.Nature = nature
				tr.NewPlayer = func(spec string) (player.Player, error) { return players.New(spec, testFactory) }
				return tr
			}
			res, err := newGuessCoin(tt.nature).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			// Two players: two assignments of them to the roles
			// that need one, either way.
			if len(res.Matches) != 2 {
				t.Fatalf("%d matches, want 2", len(res.Matches))
			}
			for _, m := range res.Matches {
				if !m.Completed || !slices.Equal(m.Roles, tt.roles) {
					t.Errorf("match %s: completed %v, roles %q; want roles %q", m.ID, m.Completed, m.Roles, tt.roles)
				}
				data, err := os.ReadFile(filepath.Join(dir, MatchesDir, m.ID+".json"))
				if err != nil {
					t.Fatal(err)
				}
				rec, err := record.Unmarshal(data)
				if err != nil {
					t.Fatal(err)
				}
				if rec.GDLII != tt.nature || tt.nature && rec.Nature != reasoner.Nature {
					t.Errorf("match %s: record GDL-II %v with nature %q, want GDL-II %v", m.ID, rec.GDLII, rec.Nature, tt.nature)
				}
			}
			_, err = newGuessCoin(!tt.nature).Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), "nature plays random") {
				t.Errorf("the folder run again with Nature %v: err = %v, want it refused", !tt.nature, err)
			}
		})
	}
}

// TestReadyStops checks Tournament.Ready: it is asked about each player
// of a match before the match starts, and the first error stops the run
// with an error naming the match and the player, keeping the matches
// completed before it and starting none after it; a run after the player
// is back plays the rest.
func TestReadyStops(t *testing.T) {
	dir := t.TempDir()
	tr := newTournament(t, dir, nil)
	tr.Games = tr.Games[:1]
	tr.Players = []string{"random", "legal"}
	tr.Rounds = 2
	tr.Parallel = 1
	var asked []string
	down := errors.New("connection refused")
	tr.Ready = func(ctx context.Context, spec string) error {
		asked = append(asked, spec)
		if len(asked) > 2 { // the first player of the second match
			return down
		}
		return nil
	}
	res, err := tr.Run(context.Background())
	if !errors.Is(err, down) {
		t.Fatalf("Run: err %v, want %v", err, down)
	}
	ms, serr := tr.Schedule()
	if serr != nil {
		t.Fatal(serr)
	}
	second := tr.Players[ms[1].Seats[0]]
	if want := "before match " + ms[1].ID + ": player " + second + ": connection refused"; err.Error() != want {
		t.Errorf("Run: err %q, want %q", err, want)
	}
	if got := res.Completed(); got != 1 {
		t.Errorf("%d matches completed, want 1: the one before the player stopped answering", got)
	}
	if want := []string{tr.Players[ms[0].Seats[0]], tr.Players[ms[0].Seats[1]], second}; !slices.Equal(asked, want) {
		t.Errorf("asked about %q, want %q", asked, want)
	}
	tr.Ready = func(ctx context.Context, spec string) error { return nil }
	res, err = tr.Run(context.Background())
	if err != nil || res.Completed() != 4 {
		t.Fatalf("second Run: err %v, %d of 4 matches completed", err, res.Completed())
	}
}
