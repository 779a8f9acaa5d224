// Package tournament plays every game of a list against every ordered
// assignment of players to its roles, for a number of rounds, several
// matches at once, and sums up the results per player.
//
// A tournament lives in a folder: the match records in matches/, one per
// match, named by a match id made of the game, the round and the
// assignment; tournament.json, which fixes the players and clocks; and
// results.json, rewritten after every match. Run again on the same folder,
// a tournament skips the matches already completed and plays the others
// from scratch, so that a tournament killed at any point can be finished
// without losing or replaying a completed match. Only one process may run
// a tournament folder at a time.
//
// A tournament of two players can compare them: Results.Compare sums up
// the first against the second per game, and a sequential probability
// ratio test (SPRT) can stop the tournament as soon as it decides whether
// the first is stronger by a given margin. The schedule plays every game
// and assignment of players to roles once per round, so that a test that
// stops early has a balanced sample.
package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/internal/atomicfile"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
)

// Names of the files of a tournament folder.
const (
	ManifestFile = "tournament.json"
	ResultsFile  = "results.json"
	MatchesDir   = "matches"
	// LockFile is held by the process running the tournament, so that a
	// second process on the same folder fails at once instead of playing
	// the same matches and overwriting the same files.
	LockFile = ".lock"
)

// Tournament describes a tournament. Games, Players, Dir and the clocks
// are required.
type Tournament struct {
	// Name is written to the records as tournamentNameFromHost. If empty,
	// the base name of Dir is used.
	Name string

	// Dir is the tournament folder.
	Dir string

	Games []*games.Game

	// Players are player specifications as NewPlayer takes them, such as
	// the name of an in-process player or the address of a remote one
	// (package player/players). The same specification may appear more
	// than once.
	Players []string

	// Rounds is the number of times each assignment plays each game; zero
	// means one. With SPRT, it is the most.
	Rounds int

	// Parallel is the number of matches played at once; zero means one.
	Parallel int

	// Gap is the pause between the end of a match and the start of the
	// next one played in the same place (of the Parallel places): none
	// before the first match of a run, and none after the last. A remote
	// player that restarts between matches, as ggp-base's PlayerRunner
	// does, needs it: a START sent while it restarts finds no player, or
	// one still winding down that answers busy, and the match is played
	// with substitute moves for it. The pause ends early when the run is
	// cancelled or the sequential test decides.
	Gap time.Duration

	// Ready, when set, is called before each match for the specification
	// of each of its players, and returns when the player is ready for a
	// START. An error ends the run, as a cancellation does: the matches
	// completed are kept, the match is not started, and Run returns the
	// error naming the match. A remote player that stops answering (a
	// crashed or wedged program) then stops the tournament, to be resumed
	// once it is back, rather than losing every match left to it.
	Ready func(ctx context.Context, spec string) error

	StartClock, PlayClock time.Duration

	// Nature has nature play the role random of every game that names
	// one. Without it, a game that names a role random but has no sees
	// rules gets a player in random, as a GDL game with a player of that
	// name (beatMania) needs, and is played as GDL; with it, such a game
	// (guessSix) is played as GDL-II. Games with sees rules always have
	// nature play random.
	Nature bool

	// PlayClocks gives some players, by specification, a play clock of
	// their own in place of PlayClock: a person ("human") needs longer
	// than a program.
	PlayClocks map[string]time.Duration

	// Referee runs the matches. If nil, a zero Referee is used. Its
	// OnStep is not called.
	Referee *gamemaster.Referee

	// NewPlayer returns a new player for a specification, for every seat
	// of every match, such as players.New with the Referee's reasoner
	// factory. Required.
	NewPlayer func(spec string) (player.Player, error)

	// Runner, if not nil, plays the matches in place of the Referee, such
	// as by putting them on a queue that workers on other machines take
	// them from; Run writes the record it returns to the match's file.
	// The results, their intervals and the sequential test are the same.
	Runner func(ctx context.Context, m *Match) (*record.Record, error)

	// Progress, if not nil, is called after every match, and once at the
	// start for the matches completed before; never concurrently.
	Progress func(Progress)

	// SPRT, if not nil, is the sequential test of Players[0] against
	// Players[1], of which there must be exactly two. It runs after every
	// match; once it decides, no new match starts, and the matches running
	// finish. Run on a folder whose matches already decide it, the
	// tournament plays none.
	SPRT *SPRT
}

// Progress reports how far a tournament is.
type Progress struct {
	Done    int          // matches finished, whether completed or not
	Total   int          // matches in the tournament
	Skipped int          // matches completed before this run
	Match   *MatchResult // the match just finished; nil in the first report
	Err     error        // why Match did not complete, if it did not
	SPRT    *SPRTResult  // the state of the sequential test, if any
}

// A Scheduled match is one match of a tournament.
type Scheduled struct {
	ID      string
	Game    *games.Game
	Round   int   // from 1
	Seats   []int // index into Players of the player of each role
	Record  string
	hash    string
	players []string // labels of the seats
}

// Labels returns a unique label for each player: its specification, with
// "#2", "#3"... added to the second and later copies of the same one.
func Labels(players []string) []string {
	seen := map[string]int{}
	labels := make([]string, len(players))
	for i, p := range players {
		seen[p]++
		labels[i] = p
		if n := seen[p]; n > 1 {
			labels[i] = p + "#" + strconv.Itoa(n)
		}
	}
	return labels
}

// Schedule returns the matches of the tournament in the order they are
// played: round by round, game by game, assignment by assignment, so that
// every round plays every game and assignment once, and a tournament
// stopped early by its SPRT is balanced within a round. The id
// of a match is "<game>.r<round>.<seats>", such as ticTacToe.r1.0-2 for
// the first round of ticTacToe with Players[0] as the first role and
// Players[2] as the second.
func (t *Tournament) Schedule() ([]Scheduled, error) {
	if len(t.Players) == 0 {
		return nil, errors.New("tournament: no players")
	}
	if len(t.Games) == 0 {
		return nil, errors.New("tournament: no games")
	}
	labels := Labels(t.Players)
	type gameInfo struct {
		g           *games.Game
		key, hash   string
		assignments [][]int
	}
	var gs []gameInfo
	keys := map[string]string{}
	for _, g := range t.Games {
		key := gamemaster.GameIDPart(g.Key)
		if prev, ok := keys[key]; ok {
			return nil, fmt.Errorf("tournament: games %s and %s have the same key %s", prev, g.Key, key)
		}
		keys[key] = g.Key
		n, err := countRoles(g, t.Nature)
		if err != nil {
			return nil, err
		}
		gs = append(gs, gameInfo{g, key, record.RulesheetHash(g.Rules), Assignments(len(t.Players), n)})
	}
	rounds := max(t.Rounds, 1)
	var ms []Scheduled
	for r := 1; r <= rounds; r++ {
		for _, gi := range gs {
			for _, a := range gi.assignments {
				parts := make([]string, len(a))
				seatLabels := make([]string, len(a))
				for i, p := range a {
					parts[i] = strconv.Itoa(p)
					seatLabels[i] = labels[p]
				}
				id := fmt.Sprintf("%s.r%d.%s", gi.key, r, strings.Join(parts, "-"))
				ms = append(ms, Scheduled{
					ID: id, Game: gi.g, Round: r, Seats: a,
					Record:  filepath.Join(t.Dir, MatchesDir, id+".json"),
					hash:    gi.hash,
					players: seatLabels,
				})
			}
		}
	}
	return ms, nil
}

// countRoles returns the number of roles of a game that need a player,
// read from its role facts (gamemaster.PlayerRoles).
func countRoles(g *games.Game, nature bool) (int, error) {
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		return 0, fmt.Errorf("game %s: %w", g.Key, err)
	}
	n := len(gamemaster.PlayerRoles(d, nature))
	if n == 0 {
		return 0, fmt.Errorf("game %s: no roles", g.Key)
	}
	return n, nil
}

// Assignments returns every ordered assignment of players (numbered 0 to
// players-1) to roles, in lexicographic order. When there are at least as
// many players as roles, no player takes two roles of a match; otherwise
// players take several roles, and every player plays in every match.
func Assignments(players, roles int) [][]int {
	var out [][]int
	cur := make([]int, roles)
	used := make([]int, players)
	var rec func(i int)
	rec = func(i int) {
		if i == roles {
			if players < roles && slices.Contains(used, 0) {
				return
			}
			out = append(out, slices.Clone(cur))
			return
		}
		for p := range players {
			if players >= roles && used[p] > 0 {
				continue
			}
			cur[i] = p
			used[p]++
			rec(i + 1)
			used[p]--
		}
	}
	if players > 0 && roles > 0 {
		rec(0)
	}
	return out
}

// manifest is the content of ManifestFile: what must not change when a
// tournament is resumed.
type manifest struct {
	Name         string            `json:"name"`
	Players      []string          `json:"players"`
	StartClockMS int64             `json:"startClockMillis"`
	PlayClockMS  int64             `json:"playClockMillis"`
	Nature       bool              `json:"nature,omitempty"`
	Games        map[string]string `json:"games"` // key to rulesheet hash
}

// checkManifest compares the tournament with the manifest of its folder,
// if any, and writes the manifest of the tournament.
func (t *Tournament) checkManifest(ms []Scheduled) error {
	cur := manifest{
		Name:         t.name(),
		Players:      t.Players,
		StartClockMS: t.StartClock.Milliseconds(),
		PlayClockMS:  t.PlayClock.Milliseconds(),
		Nature:       t.Nature,
		Games:        map[string]string{},
	}
	for _, m := range ms {
		cur.Games[m.Game.Key] = m.hash
	}
	name := filepath.Join(t.Dir, ManifestFile)
	data, err := os.ReadFile(name)
	switch {
	case err == nil:
		var old manifest
		if err := json.Unmarshal(data, &old); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !slices.Equal(old.Players, cur.Players) {
			return fmt.Errorf("%s holds a tournament of players %s, not %s: use another folder", t.Dir, strings.Join(old.Players, ","), strings.Join(cur.Players, ","))
		}
		if old.StartClockMS != cur.StartClockMS || old.PlayClockMS != cur.PlayClockMS {
			return fmt.Errorf("%s holds a tournament with clocks %v/%v, not %v/%v: use another folder", t.Dir,
				time.Duration(old.StartClockMS)*time.Millisecond, time.Duration(old.PlayClockMS)*time.Millisecond, t.StartClock, t.PlayClock)
		}
		if old.Nature != cur.Nature {
			where := "only in games with sees rules"
			if old.Nature {
				where = "in every game that names it"
			}
			return fmt.Errorf("%s holds a tournament in which nature plays random %s: use another folder", t.Dir, where)
		}
		for k, h := range old.Games {
			if ch, ok := cur.Games[k]; ok && ch != h {
				return fmt.Errorf("%s: the rules of %s changed since the tournament started: use another folder", t.Dir, k)
			}
			if _, ok := cur.Games[k]; !ok {
				cur.Games[k] = h // keep games left out this time
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	out, err := json.MarshalIndent(cur, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(name, append(out, '\n'), record.TempPattern)
}

func (t *Tournament) name() string {
	if t.Name != "" {
		return t.Name
	}
	return filepath.Base(filepath.Clean(t.Dir))
}

// completed returns the record of m if it holds the completed match.
func completed(m *Scheduled) *record.Record {
	rec, err := record.ReadFile(m.Record)
	if err != nil || !rec.IsCompleted || rec.MatchID != m.ID || rec.Check() != nil {
		return nil
	}
	if rec.GameRulesheetHash != "" && rec.GameRulesheetHash != m.hash {
		return nil
	}
	return rec
}

// Validate checks the settings of t before anything is played: the
// clocks, the sequential test and its two players, and every player
// specification, which NewPlayer must accept. Run calls it; a command
// calls it to report bad flags before it starts.
func (t *Tournament) Validate() error {
	if t.StartClock <= 0 || t.PlayClock <= 0 {
		return fmt.Errorf("tournament: start clock %v and play clock %v must be positive", t.StartClock, t.PlayClock)
	}
	if t.NewPlayer == nil {
		return errors.New("tournament: no NewPlayer to make the players")
	}
	if t.Gap < 0 {
		return fmt.Errorf("tournament: gap %v between matches must not be negative", t.Gap)
	}
	if t.SPRT != nil {
		if err := t.SPRT.Validate(); err != nil {
			return fmt.Errorf("tournament: %w", err)
		}
		if len(t.Players) != 2 {
			return fmt.Errorf("tournament: an SPRT compares two players, not %d", len(t.Players))
		}
	}
	for _, spec := range slices.Compact(slices.Sorted(slices.Values(t.Players))) {
		if _, err := t.NewPlayer(spec); err != nil {
			return fmt.Errorf("tournament: %w", err)
		}
	}
	return nil
}

// Run plays the matches of the tournament not completed before, and
// returns the results of all. It returns an error if the tournament cannot
// start (see Validate), or ctx's error if ctx is cancelled, with the results so far. A
// match that fails does not stop the tournament: its result says it did
// not complete, and a later Run plays it again.
func (t *Tournament) Run(ctx context.Context) (*Results, error) {
	ms, unlock, err := t.open()
	if err != nil {
		return nil, err
	}
	defer unlock()
	rn := t.newRun(ms)
	rn.report(Progress{Done: rn.done, Total: len(ms), Skipped: rn.skipped, SPRT: rn.first})
	if err := t.writeResults(rn.res); err != nil {
		return nil, err
	}
	ref := t.Referee
	if ref == nil {
		ref = &gamemaster.Referee{}
	}
	r := *ref
	r.OnStep = nil
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	rn.stop = stop
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(t.Parallel, 1) {
		wg.Go(func() { rn.work(ctx, &r, jobs) })
	}
	rn.feed(ctx, jobs)
	close(jobs)
	wg.Wait()
	return rn.finish(ctx)
}

// open checks the tournament's settings, schedules its matches and takes
// its folder: locked, cleared of temporary files, its manifest agreeing
// with the schedule. unlock releases the folder.
func (t *Tournament) open() (ms []Scheduled, unlock func(), err error) {
	if t.Dir == "" {
		return nil, nil, errors.New("tournament: no folder")
	}
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	if ms, err = t.Schedule(); err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(t.Dir, MatchesDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	if unlock, err = lockFolder(t.Dir); err != nil {
		return nil, nil, err
	}
	err = record.RemoveTemp(dir)
	if err == nil {
		err = t.checkManifest(ms)
	}
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return ms, unlock, nil
}

// A run is the state of one Run of a tournament, which its goroutines
// share under mu.
type run struct {
	t       *Tournament
	ms      []Scheduled
	todo    []int         // the matches of ms not completed before, in order
	first   *SPRTResult   // the test on the matches completed before
	decided chan struct{} // closed when the test decides

	mu       sync.Mutex // guards what follows, and the calls to Progress
	res      *Results
	done     int
	skipped  int
	pending  []bool // the matches of todo not finished in this run
	stopped  bool   // the test decided
	notReady bool   // a player was not ready for a match (Tournament.Ready)
	writeErr error  // the first error writing the results

	stop context.CancelCauseFunc // ends the run with an error (Tournament.Ready)
}

// newRun returns the run of ms: the results of the matches completed
// before, and the matches left to play.
func (t *Tournament) newRun(ms []Scheduled) *run {
	rn := &run{t: t, ms: ms, decided: make(chan struct{}), pending: make([]bool, len(ms))}
	rn.res = &Results{Name: t.name(), Players: Labels(t.Players), Matches: make([]MatchResult, len(ms))}
	for _, g := range t.Games {
		rn.res.Games = append(rn.res.Games, g.Key)
	}
	for i := range ms {
		if rec := completed(&ms[i]); rec != nil {
			rn.res.Matches[i] = resultOf(&ms[i], rec, t.Dir)
		} else {
			rn.res.Matches[i] = MatchResult{ID: ms[i].ID, Game: ms[i].Game.Key, Round: ms[i].Round, Players: ms[i].players}
			rn.todo = append(rn.todo, i)
		}
	}
	rn.done = len(ms) - len(rn.todo)
	rn.skipped = rn.done
	rn.first = rn.test()
	for _, i := range rn.todo {
		rn.pending[i] = true
	}
	return rn
}

// test updates the sequential test, if any, on the matches finished, and
// closes decided once it decides. The caller holds mu, or is alone.
func (rn *run) test() *SPRTResult {
	if rn.t.SPRT == nil {
		return nil
	}
	st := sprtStatus(rn.t.SPRT, rn.res, rn.pending)
	rn.res.SPRT = &st
	if st.Verdict != Undecided && !rn.stopped {
		rn.stopped = true
		close(rn.decided)
	}
	return &st
}

func (rn *run) report(p Progress) {
	if rn.t.Progress != nil {
		rn.t.Progress(p)
	}
}

// work plays the matches it receives from jobs, a gap apart, until jobs
// is closed; once the test has decided it plays none.
func (rn *run) work(ctx context.Context, ref *gamemaster.Referee, jobs <-chan int) {
	played := false
	for i := range jobs {
		if played {
			pause(ctx, rn.t.Gap, rn.decided)
		}
		rn.mu.Lock()
		skip := rn.stopped || rn.notReady
		rn.mu.Unlock()
		if skip {
			continue
		}
		played = true
		m := &rn.ms[i]
		if err := rn.ready(ctx, m); err != nil {
			rn.mu.Lock()
			rn.notReady = true
			rn.mu.Unlock()
			rn.stop(err)
			continue
		}
		rec, err := rn.t.play(ctx, ref, rn.t.NewPlayer, m)
		rn.played(i, rec, err)
	}
}

// ready waits until each player of m is ready for it (Tournament.Ready).
func (rn *run) ready(ctx context.Context, m *Scheduled) error {
	if rn.t.Ready == nil {
		return nil
	}
	var asked []string
	for _, seat := range m.Seats {
		spec := rn.t.Players[seat]
		if slices.Contains(asked, spec) {
			continue
		}
		asked = append(asked, spec)
		if err := rn.t.Ready(ctx, spec); err != nil {
			if cause := context.Cause(ctx); cause != nil {
				return cause
			}
			return fmt.Errorf("before match %s: player %s: %w", m.ID, spec, err)
		}
	}
	return nil
}

// played records the outcome of match i, writes the results and
// reports it.
func (rn *run) played(i int, rec *record.Record, err error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rec != nil {
		rn.res.Matches[i] = resultOf(&rn.ms[i], rec, rn.t.Dir)
	}
	if err != nil {
		rn.res.Matches[i].Error = err.Error()
	}
	rn.done++
	rn.pending[i] = false
	p := Progress{Done: rn.done, Total: len(rn.ms), Skipped: rn.skipped, Match: &rn.res.Matches[i], Err: err, SPRT: rn.test()}
	if werr := rn.t.writeResults(rn.res); werr != nil && rn.writeErr == nil {
		rn.writeErr = werr
	}
	rn.report(p)
}

// feed hands the matches left to play to the workers, in order, until
// all are handed, ctx is done or the test decides.
func (rn *run) feed(ctx context.Context, jobs chan<- int) {
	for _, i := range rn.todo {
		select {
		case <-rn.decided:
			return
		default:
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			return
		case <-rn.decided:
			return
		}
	}
}

// finish completes the results once every worker has returned, writes
// them and returns them.
func (rn *run) finish(ctx context.Context) (*Results, error) {
	res := rn.res
	if rn.stopped {
		// The matches the test made unnecessary, never started, are not
		// part of the results; those that finished after it decided are.
		kept := res.Matches[:0]
		for i, m := range res.Matches {
			if !rn.pending[i] {
				kept = append(kept, m)
			}
		}
		res.Matches = kept
	}
	if rn.t.SPRT != nil {
		// As a run on the same folder would see it: with every match
		// finished, the test stops at the same score.
		st := sprtStatus(rn.t.SPRT, res, nil)
		res.SPRT = &st
	}
	res.summarize()
	if err := rn.t.writeResults(res); err != nil && rn.writeErr == nil {
		rn.writeErr = err
	}
	if err := context.Cause(ctx); err != nil {
		return res, err
	}
	return res, rn.writeErr
}

// pause waits d, or until ctx is done or decided is closed.
func pause(ctx context.Context, d time.Duration, decided <-chan struct{}) {
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	case <-decided:
	}
}

// A Match is a match of a tournament as a Runner is given it.
type Match struct {
	ID, Tournament        string
	Game                  *games.Game
	Players               []string // the specification of each seat's player
	Labels                []string // the label of each seat's player, as Labels gives it
	StartClock, PlayClock time.Duration
}

// play plays one match with new players, or with the Runner.
func (t *Tournament) play(ctx context.Context, ref *gamemaster.Referee, newPlayer func(string) (player.Player, error), m *Scheduled) (*record.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t.Runner != nil {
		return t.runElsewhere(ctx, m)
	}
	players := make([]player.Player, len(m.Seats))
	clocks := make([]time.Duration, len(m.Seats))
	for i, p := range m.Seats {
		pl, err := newPlayer(t.Players[p])
		if err != nil {
			return nil, fmt.Errorf("match %s: %w", m.ID, err)
		}
		players[i] = pl
		clocks[i] = t.PlayClocks[t.Players[p]]
	}
	return ref.Run(ctx, &gamemaster.Match{
		ID:         m.ID,
		Game:       m.Game,
		Players:    players,
		StartClock: t.StartClock,
		PlayClock:  t.PlayClock,
		PlayClocks: clocks,
		Record:     m.Record,
		Tournament: t.name(),
	})
}

// runElsewhere plays m with the Runner and writes its record.
func (t *Tournament) runElsewhere(ctx context.Context, m *Scheduled) (*record.Record, error) {
	specs := make([]string, len(m.Seats))
	for i, p := range m.Seats {
		specs[i] = t.Players[p]
	}
	rec, err := t.Runner(ctx, &Match{ID: m.ID, Tournament: t.name(), Game: m.Game, Players: specs, Labels: m.players,
		StartClock: t.StartClock, PlayClock: t.PlayClock})
	if rec != nil {
		if werr := record.WriteFile(m.Record, rec); werr != nil && err == nil {
			err = werr
		}
	}
	return rec, err
}

func (t *Tournament) writeResults(res *Results) error {
	res.summarize()
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(t.Dir, ResultsFile), append(data, '\n'), record.TempPattern)
}
