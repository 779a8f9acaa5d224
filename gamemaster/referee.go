// Package gamemaster runs matches between players, as a GGP game server
// does: it sends every player the rules and the clocks, asks all of them
// for their moves at every step, substitutes a legal move for a late, lost
// or illegal one, and records the match in ggp-base's match JSON format
// (package record) after every step.
//
// Players are player.Player values: in-process players, called directly,
// and remote ones reached over HTTP through package remote, in any mix.
// Package player/players makes either from a name or an address.
//
// GDL-II games (hidden information and chance) are played as the Dresden
// GameController plays them: no player sits in the role random, whose
// moves the referee draws uniformly among its legal moves from a seed the
// record keeps; each player is told of each step only its own move and
// its percepts (player.GDLIIPlayer), never the joint move nor the state;
// nature's goal is ignored.
//
// Replay checks a recorded match against the rules; package tournament
// plays many matches.
package gamemaster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/reasoner"
)

// Defaults of the Referee fields left zero.
const (
	DefaultGrace        = time.Second
	DefaultInfoTimeout  = 2 * time.Second
	DefaultStopTimeout  = 5 * time.Second
	DefaultRulesTimeout = time.Minute
	DefaultMaxSteps     = 1000
	DefaultReadyTimeout = 5 * time.Minute
)

// A Fallback chooses the move played for a role whose player did not give
// a legal move in time.
type Fallback int

const (
	// FallbackRandom plays a legal move chosen at random, as ggp-base's
	// game server and Tiltyard do.
	FallbackRandom Fallback = iota
	// FallbackFirst plays the first legal move, as the Dresden server does.
	FallbackFirst
)

// String returns "random" or "first".
func (f Fallback) String() string {
	switch f {
	case FallbackRandom:
		return "random"
	case FallbackFirst:
		return "first"
	}
	return fmt.Sprintf("Fallback(%d)", int(f))
}

// ParseFallback returns the Fallback named "random" or "first".
func ParseFallback(s string) (Fallback, error) {
	switch s {
	case "random":
		return FallbackRandom, nil
	case "first":
		return FallbackFirst, nil
	}
	return 0, fmt.Errorf("unknown fallback %q: want random or first", s)
}

// Match is one match to play.
type Match struct {
	// ID names the match in messages, records and errors. It must be a
	// GDL symbol: letters, digits, '.', '_' and '-' only.
	ID string

	// Game holds the rules. Its Rules text is stored in the record.
	Game *games.Game

	// Players has one player per role, in the order the rules list the
	// roles. In a GDL-II game with a role random, which nature plays, it
	// has one player per other role, in order; each must be a
	// player.GDLIIPlayer. (A game that names a role random but has no
	// sees rules, as some GDL games do, is played as GDL when Players
	// has a player for every role.)
	Players []player.Player

	// Seed seeds nature's moves in a GDL-II match; 0 picks one. The
	// record keeps it: a match played again with the same seed and the
	// same moves of the players draws the same moves of nature.
	Seed uint64

	// StartClock is the time allowed to answer START; PlayClock the time
	// allowed for each move. Remote players are told them in whole
	// seconds, rounded up, and so does the record; the referee enforces
	// them exactly.
	StartClock, PlayClock time.Duration

	// PlayClocks, if not nil, gives some roles a play clock of their own,
	// in role order: a person needs longer than a program. A zero entry
	// means PlayClock. Players are told PlayClock; the record stores it.
	PlayClocks []time.Duration

	// Record, if not empty, is the file the match record is written to
	// after every step.
	Record string

	// GameMetaURL and Tournament are copied to the record's gameMetaURL
	// and tournamentNameFromHost.
	GameMetaURL string
	Tournament  string
}

// A Referee runs matches. Its zero value is ready to use with the defaults;
// a Referee may run several matches at once.
type Referee struct {
	// Grace is added to the play clock before a move is late. Zero means
	// DefaultGrace; a negative Grace means none. The context of a call to
	// an in-process player has the play clock alone as its deadline; a
	// remote player's request may take the grace too, for the network.
	Grace time.Duration

	// Fallback chooses the move of a role whose player gave none.
	Fallback Fallback

	// StopTimeout bounds the wait for the answers to STOP and ABORT.
	// Zero means DefaultStopTimeout.
	StopTimeout time.Duration

	// InfoTimeout bounds the wait for the answers to INFO, which every
	// remote player is sent before START, for the name the record gives
	// it. It runs before the start clock, so it takes nothing from it.
	// Zero means DefaultInfoTimeout.
	InfoTimeout time.Duration

	// RulesTimeout bounds each computation with the rules: the initial
	// state, and per step the legal moves, the next state and so on. A
	// game that takes longer aborts the match. Zero means
	// DefaultRulesTimeout.
	RulesTimeout time.Duration

	// MaxSteps bounds the number of steps of a match: a game that has not
	// ended after so many aborts it. Zero means DefaultMaxSteps.
	MaxSteps int

	// ReadyTimeout bounds the wait, before START, for the players that
	// are Readiers (a person opening their seat page). Zero means
	// DefaultReadyTimeout.
	ReadyTimeout time.Duration

	// NewReasoner builds the reasoner for a game; the command chooses the
	// backend (package reasoner/backend). Required: a match fails to start
	// without it.
	NewReasoner reasoner.Factory

	// OnStep, if not nil, is called with the record after START, after
	// every step and at the end of the match, from the goroutine of Run.
	// It must not modify or keep the record.
	OnStep func(r *record.Record)

	// Logf, if not nil, is told the details of the errors of players,
	// which the record only codes. It is called from the goroutine of Run,
	// so concurrently when several matches run at once.
	Logf func(format string, args ...any)
}

func (r *Referee) grace() time.Duration {
	switch {
	case r.Grace < 0:
		return 0
	case r.Grace == 0:
		return DefaultGrace
	}
	return r.Grace
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// An Error is a failure of a match that stopped it: an error of the rules,
// of the record, or the cancellation of the match. Misbehaving players are
// not errors; they are recorded.
type Error struct {
	MatchID string
	Step    int    // the step that failed: 0 for START and before
	Role    string // the role concerned, if any
	Err     error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "match %s: step %d: ", e.MatchID, e.Step)
	if e.Role != "" {
		fmt.Fprintf(&b, "role %s: ", e.Role)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

var matchIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidMatchID reports whether id can name a match.
func ValidMatchID(id string) bool { return len(id) <= 200 && matchIDPattern.MatchString(id) }

var unsafeIDRun = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// GameIDPart returns a game key made fit to begin a match id: each run of
// characters other than letters, digits, '_' and '-' becomes one '_', and
// "g" goes first when the result would not begin with a letter or digit.
// Different keys may give the same part.
func GameIDPart(key string) string {
	s := unsafeIDRun.ReplaceAllString(key, "_")
	if s == "" || s[0] == '_' || s[0] == '-' {
		s = "g" + s
	}
	return s
}

// game is what a match needs of the rules.
type game struct {
	desc  *gdl.Description
	r     reasoner.Reasoner
	roles []string
}

// PlayerRoles returns the roles of d that need a player in a match, in
// order: every role, but random where nature plays it (gdl.DecideMode):
// in a game with sees rules, and, when natureAlways is set, in every game
// that names it. (A game that names a role random without sees rules is
// played as GDL given a player for every role, as GDL-II given one for
// every other role.)
func PlayerRoles(d *gdl.Description, natureAlways bool) []string {
	roles := d.Roles()
	seating := gdl.RulesAlone
	if natureAlways {
		seating = gdl.NatureSeated
	}
	if gdl.DecideMode(d, seating) == gdl.GDLII {
		roles = slices.DeleteFunc(roles, func(r string) bool { return r == reasoner.Nature })
	}
	return roles
}

// match is the state of one running match.
type match struct {
	ref         *Referee
	m           *Match
	g           *game
	tell        telling // what the players are told, and who draws nature's moves
	contestants []*contestant
	rec         *record.Record
	state       *reasoner.State
	last        []reasoner.Move // the last joint move, nil before the first
	// calls holds the computations with the rules under way (rules),
	// which Run waits for before it returns.
	calls *sync.WaitGroup
}

// Run plays m to the end and returns its record. The record is also
// written to m.Record, if set, after START, after every step and at the
// end. Run returns an error, an *Error unless m itself is invalid, when the
// match could not be completed: the rules failed or took too long, the
// record could not be written, or ctx was cancelled. The match is then
// aborted: the record, when there is one, says so and the players are sent
// ABORT. Run returns only once every call it made to a player and every
// computation with the rules it started has returned: a player still busy
// past its clock is waited for (and logged) after the match, and so is a
// computation that outlived its RulesTimeout.
func (r *Referee) Run(ctx context.Context, m *Match) (*record.Record, error) {
	if err := r.check(m); err != nil {
		return nil, err
	}
	var calls sync.WaitGroup
	defer calls.Wait()
	g, err := r.load(ctx, &calls, m)
	if err != nil {
		return nil, &Error{MatchID: m.ID, Err: err}
	}
	mt, err := r.newMatch(m, g, &calls)
	if err != nil {
		return nil, err
	}
	defer mt.wait()
	mt.newRecord(mt.playerNames(ctx))
	err = mt.play(ctx)
	if err == nil {
		return mt.rec, nil
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{MatchID: m.ID, Step: mt.rec.Steps(), Err: err}
	}
	if errors.Is(e.Err, context.Canceled) {
		e.Err = interrupted(ctx, e.Err)
	}
	mt.abort(ctx, e)
	return mt.rec, e
}

// newMatch places the players of m at the roles of g, nature at random
// when it plays it (tell).
func (r *Referee) newMatch(m *Match, g *game, calls *sync.WaitGroup) (*match, error) {
	t, err := tell(g, m.Game.Key, len(m.Players), m.Seed)
	if err != nil {
		return nil, &Error{MatchID: m.ID, Err: err}
	}
	mt := &match{ref: r, m: m, g: g, tell: t, calls: calls}
	i := 0 // the player, and its clock
	for role, name := range g.roles {
		if role == t.nature() {
			mt.contestants = append(mt.contestants, natureContestant(name))
			continue
		}
		p := m.Players[i]
		if err := t.admit(p); err != nil {
			return nil, &Error{MatchID: m.ID, Role: name, Err: err}
		}
		clock := m.PlayClock
		if i < len(m.PlayClocks) && m.PlayClocks[i] > 0 {
			clock = m.PlayClocks[i]
		}
		mt.contestants = append(mt.contestants, newContestant(name, p, clock))
		i++
	}
	return mt, nil
}

// chanceStream is the second word of the seed of nature's draws.
const chanceStream = 0x6e6174757265

// newChance returns the source of nature's moves of a match with seed.
func newChance(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, chanceStream)) }

// NatureMove returns the move nature plays among legal, drawn uniformly
// with rng, as the referee draws it.
func NatureMove(rng *rand.Rand, legal []reasoner.Move) reasoner.Move {
	return legal[rng.IntN(len(legal))]
}

// interrupted says that the match was stopped from outside, rather than
// "context canceled", naming the cause of the cancellation when there is
// one other than the plain one; it still matches context.Canceled.
func interrupted(ctx context.Context, err error) error {
	e := &interruptedError{err: err}
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled && !errors.Is(err, cause) {
		e.cause = cause
	}
	return e
}

type interruptedError struct {
	err, cause error
}

func (e *interruptedError) Error() string {
	if e.cause != nil {
		return "the match was interrupted: " + e.cause.Error()
	}
	return "the match was interrupted"
}

func (e *interruptedError) Unwrap() error { return e.err }

func (r *Referee) check(m *Match) error {
	switch {
	case !ValidMatchID(m.ID):
		return fmt.Errorf("match id %q: want letters, digits, '.', '_' or '-'", m.ID)
	case m.Game == nil:
		return fmt.Errorf("match %s: no game", m.ID)
	case m.StartClock <= 0 || m.PlayClock <= 0:
		return fmt.Errorf("match %s: start clock %v and play clock %v must be positive", m.ID, m.StartClock, m.PlayClock)
	case len(m.PlayClocks) > len(m.Players):
		return fmt.Errorf("match %s: %d play clocks for %d players", m.ID, len(m.PlayClocks), len(m.Players))
	}
	for i, p := range m.Players {
		if p == nil {
			return fmt.Errorf("match %s: player %d is nil", m.ID, i+1)
		}
	}
	return nil
}

// load parses the rules and makes their reasoner, a computation with the
// rules that calls holds.
func (r *Referee) load(ctx context.Context, calls *sync.WaitGroup, m *Match) (*game, error) {
	d, err := gdl.ParseFile(m.Game.Filename, m.Game.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules of %s: %w", m.Game.Key, err)
	}
	var rs reasoner.Reasoner
	err = r.rules(ctx, calls, func(ctx context.Context) error {
		if r.NewReasoner == nil {
			return errors.New("no reasoner: Referee.NewReasoner is not set")
		}
		var err error
		rs, err = r.NewReasoner(ctx, d)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("rules of %s: %w", m.Game.Key, err)
	}
	roles := rs.Roles()
	if len(roles) == 0 {
		return nil, fmt.Errorf("rules of %s: no roles", m.Game.Key)
	}
	return &game{desc: d, r: rs, roles: roles}, nil
}

// roleError is an error of the rules about one role.
type roleError struct {
	role int
	err  error
}

func (e *roleError) Error() string { return e.err.Error() }
func (e *roleError) Unwrap() error { return e.err }

// errRulesTimeout is wrapped by the errors of computations with the rules
// that took longer than the RulesTimeout.
var errRulesTimeout = errors.New("the rules took too long")

// rules runs f, a computation with the rules, within RulesTimeout. f runs
// in a goroutine of its own, which calls holds, so that a reasoner that
// does not heed its context cannot hold up the match past the timeout: the
// match is aborted then, and Run waits for f before it returns. A panic in
// f is an error. After a timeout the reasoner may still be busy: the match
// must not use it again.
func (r *Referee) rules(ctx context.Context, calls *sync.WaitGroup, f func(ctx context.Context) error) error {
	limit := orDefault(r.RulesTimeout, DefaultRulesTimeout)
	ctx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("%w: no answer within %v", errRulesTimeout, limit))
	defer cancel()
	done := make(chan error, 1)
	calls.Go(func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("reasoner panicked: %v", v)
			}
		}()
		done <- f(ctx)
	})
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil {
			// The computation failed because its time was up or the
			// match was cancelled: say which.
			return fmt.Errorf("%w (%w)", context.Cause(ctx), err)
		}
		return err
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// rules runs f, a computation with the rules of the match (Referee.rules).
func (mt *match) rules(ctx context.Context, f func(ctx context.Context) error) error {
	return mt.ref.rules(ctx, mt.calls, f)
}

// An Informer is a player that can say what it is before a match, as a
// remote player answers INFO; the record names it by the name it gives.
type Informer interface {
	Info(ctx context.Context) (protocol.Info, error)
}

// playerNames returns the names the record gives the players: a remote
// player's is the name it gives in answer to INFO, as ggp-base's hosts
// record it, or its address when it gives none in time; an in-process
// player's is its Name. The remote players are asked at once, each for at
// most InfoTimeout.
func (mt *match) playerNames(ctx context.Context) []string {
	names := make([]string, len(mt.contestants))
	notes := make([][]string, len(mt.contestants)) // for Logf, from this goroutine
	limit := orDefault(mt.ref.InfoTimeout, DefaultInfoTimeout)
	var wg sync.WaitGroup
	for i, s := range mt.contestants {
		if s.p == nil {
			names[i] = record.NatureName
			continue
		}
		names[i] = s.p.Name()
		c, ok := s.p.(Informer)
		if !ok {
			continue
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, limit)
			defer cancel()
			info, err := c.Info(ctx)
			switch {
			case err != nil:
				notes[i] = append(notes[i], fmt.Sprintf("INFO: %v; recorded under its address", err))
			case info.Name == "":
				notes[i] = append(notes[i], "INFO gave no name; recorded under its address")
			default:
				names[i] = info.Name
			}
			if info.Status == "busy" {
				notes[i] = append(notes[i], "INFO says busy before START")
			}
		})
	}
	wg.Wait()
	for i, s := range mt.contestants {
		for _, n := range notes[i] {
			mt.logf("match %s: role %s (player %s): %s", mt.m.ID, s.role, s.p.Name(), n)
		}
	}
	return names
}

// logf tells the referee's Logf, if any.
func (mt *match) logf(format string, args ...any) {
	if mt.ref.Logf != nil {
		mt.ref.Logf(format, args...)
	}
}

func (mt *match) newRecord(names []string) {
	m := mt.m
	mt.rec = &record.Record{
		MatchID:                m.ID,
		RandomToken:            randomToken(32),
		StartTime:              time.Now().UnixMilli(),
		GameMetaURL:            m.GameMetaURL,
		PreviewClock:           -1,
		StartClock:             protocol.Seconds(m.StartClock),
		PlayClock:              protocol.Seconds(m.PlayClock),
		PlayerNamesFromHost:    names,
		TournamentNameFromHost: m.Tournament,
		GameRulesheetHash:      record.RulesheetHash(m.Game.Rules),
		GameKey:                m.Game.Key,
		GameName:               m.Game.Name,
		GameRules:              string(m.Game.Rules),
		Roles:                  slices.Clone(mt.g.roles),
		Moves:                  [][]string{},
	}
	mt.tell.record(mt.rec)
}

// randomToken returns n random letters and digits, as ggp-base's match
// tokens are.
func randomToken(n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[rand.IntN(len(chars))]
	}
	return string(b)
}

// addState appends a state to the record.
func (mt *match) addState(s *reasoner.State) {
	mt.state = s
	mt.rec.States = append(mt.rec.States, record.FormatState(s.Facts()))
	mt.rec.StateTimes = append(mt.rec.StateTimes, time.Now().UnixMilli())
}

// save writes the record and tells OnStep.
func (mt *match) save() error {
	if mt.m.Record != "" {
		if err := record.WriteFile(mt.m.Record, mt.rec); err != nil {
			return &Error{MatchID: mt.m.ID, Step: mt.rec.Steps(), Err: err}
		}
	}
	if mt.ref.OnStep != nil {
		mt.ref.OnStep(mt.rec)
	}
	return nil
}

func (mt *match) stepError(step int, err error) error {
	var e *Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	return &Error{MatchID: mt.m.ID, Step: step, Err: err}
}

// roleStepError returns err, an error of the rules at step, as an *Error
// naming the role a roleError names.
func (mt *match) roleStepError(step int, err error) error {
	e := &Error{MatchID: mt.m.ID, Step: step, Err: err}
	if re, ok := errors.AsType[*roleError](err); ok {
		e.Role, e.Err = mt.g.roles[re.role], re.err
	}
	return e
}

// play plays the match from its initial state to its end: START, every
// step, the goals and STOP.
func (mt *match) play(ctx context.Context) error {
	ref, rs := mt.ref, mt.g.r
	var s0 *reasoner.State
	err := mt.rules(ctx, func(ctx context.Context) error {
		var err error
		s0, err = rs.Initial(ctx)
		return err
	})
	if err != nil {
		return mt.stepError(0, fmt.Errorf("initial state: %w", err))
	}
	mt.addState(s0)
	if err := mt.save(); err != nil {
		return err
	}
	if err := mt.ready(ctx, orDefault(ref.ReadyTimeout, DefaultReadyTimeout)); err != nil {
		return err
	}
	if err := mt.start(ctx); err != nil {
		return err
	}
	// The first step is timed from the end of START, as every other step
	// from the end of the one before, so that its time is the time the
	// players took to move.
	mt.rec.StateTimes[0] = time.Now().UnixMilli()
	maxSteps := orDefault(ref.MaxSteps, DefaultMaxSteps)
	for step := 1; ; step++ {
		legal, err := mt.legal(ctx, step)
		if err != nil {
			return err
		}
		if legal == nil {
			break // terminal
		}
		if step > maxSteps {
			return mt.stepError(step, fmt.Errorf("the game has not ended after %d steps", maxSteps))
		}
		if err := mt.step(ctx, step, legal); err != nil {
			return err
		}
	}
	if err := mt.finish(ctx); err != nil {
		return err
	}
	mt.stop(ctx)
	return nil
}

// legal returns the legal moves of every role at step, or nil when the
// state is terminal.
func (mt *match) legal(ctx context.Context, step int) ([][]reasoner.Move, error) {
	rs := mt.g.r
	var terminal bool
	legal := make([][]reasoner.Move, len(mt.contestants))
	err := mt.rules(ctx, func(ctx context.Context) error {
		var err error
		if terminal, err = rs.Terminal(ctx, mt.state); err != nil || terminal {
			return err
		}
		for i := range mt.contestants {
			if legal[i], err = rs.Legal(ctx, mt.state, i); err != nil {
				return &roleError{i, fmt.Errorf("legal moves: %w", err)}
			}
			if len(legal[i]) == 0 {
				return &roleError{i, errors.New("no legal move in a state that is not terminal")}
			}
		}
		return nil
	})
	if err != nil {
		return nil, mt.roleStepError(step, err)
	}
	if terminal {
		return nil, nil
	}
	return legal, nil
}

// step plays one step: asks every player for its move, computes the next
// state and what each player is told of the step, and records them.
func (mt *match) step(ctx context.Context, step int, legal [][]reasoner.Move) error {
	joint, errs, err := mt.ask(ctx, step, legal)
	if err != nil {
		return mt.stepError(step, err)
	}
	var next *reasoner.State
	err = mt.rules(ctx, func(ctx context.Context) error {
		var err error
		next, err = mt.g.r.Next(ctx, mt.state, joint)
		return err
	})
	if err != nil {
		return mt.stepError(step, fmt.Errorf("next state: %w", err))
	}
	if err := mt.tell.observe(ctx, mt, step, joint); err != nil {
		return err
	}
	mt.last = joint
	moves := make([]string, len(joint))
	for i, m := range joint {
		moves[i] = string(m)
	}
	mt.rec.Moves = append(mt.rec.Moves, moves)
	mt.rec.Errors = append(mt.rec.Errors, errs)
	mt.addState(next)
	return mt.save()
}

// finish records the goals of the final state.
func (mt *match) finish(ctx context.Context) error {
	step := mt.rec.Steps()
	var goals []int
	err := mt.rules(ctx, func(ctx context.Context) error {
		var err error
		goals, err = mt.g.r.Goals(ctx, mt.state)
		goals, err = mt.tell.goals(ctx, mt, goals, err)
		return err
	})
	if err != nil {
		return mt.stepError(step, fmt.Errorf("goals: %w", err))
	}
	mt.rec.IsCompleted = true
	mt.rec.GoalValues = goals
	return mt.save()
}

// start sends START to every player at once and records the errors.
func (mt *match) start(ctx context.Context) error {
	m := mt.m
	answers := mt.callAll(ctx, func(*contestant) time.Duration { return m.StartClock }, 0, func(s *contestant) func(context.Context) (reasoner.Move, error) {
		pm := &player.Match{ID: m.ID, Role: s.role, Rules: mt.g.desc, StartClock: m.StartClock, PlayClock: m.PlayClock, GDLII: mt.tell.mode() == gdl.GDLII}
		return func(ctx context.Context) (reasoner.Move, error) { return "", s.p.Start(ctx, pm) }
	})
	if err := ctx.Err(); err != nil {
		return mt.stepError(0, err)
	}
	errs := make([]string, len(mt.contestants))
	for i, a := range answers {
		if a.err != nil || a.late {
			errs[i] = mt.classify(0, i, a, nil)
		}
	}
	mt.rec.Errors = append(mt.rec.Errors, errs)
	return mt.save()
}

// ask sends PLAY to every player at once and returns the joint move, with
// substitutes for the moves that are late, lost or illegal, and the error
// codes of the step.
func (mt *match) ask(ctx context.Context, step int, legal [][]reasoner.Move) ([]reasoner.Move, []string, error) {
	answers := mt.callAll(ctx, func(s *contestant) time.Duration { return s.clock }, mt.ref.grace(), func(s *contestant) func(context.Context) (reasoner.Move, error) {
		return mt.tell.play(mt, s)
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	joint := make([]reasoner.Move, len(mt.contestants))
	errs := make([]string, len(mt.contestants))
	for i, a := range answers {
		if i == mt.tell.nature() {
			joint[i] = mt.tell.natureMove(legal[i])
			continue
		}
		if a.err == nil && !a.late {
			if m, ok := findMove(a.move, legal[i], mt.tell.anyCase()); ok {
				joint[i] = m
				continue
			}
		}
		errs[i] = mt.classify(step, i, a, legal[i])
		joint[i] = mt.substitute(legal[i])
	}
	return joint, errs, nil
}

// badResponse returns the response an ErrBadResponse error reports.
func badResponse(err error) string {
	if re, ok := errors.AsType[*protocol.ResponseError](err); ok {
		return re.Response
	}
	return ""
}

// classify returns the error code of an answer that is no legal move, and
// logs its details.
func (mt *match) classify(step, i int, a answer, legal []reasoner.Move) string {
	var code, detail string
	switch {
	case a.late:
		code, detail = record.ErrTimeout, "no answer in time"
	case a.err == nil:
		code = record.ErrIllegal + " " + oneLine(string(a.move), 200)
		detail = fmt.Sprintf("illegal move %s", protocol.Quote(string(a.move), 200))
	case errors.Is(a.err, context.DeadlineExceeded):
		code, detail = record.ErrTimeout, a.err.Error()
	case errors.Is(a.err, protocol.ErrBadResponse):
		code, detail = record.ErrIllegal+" "+oneLine(badResponse(a.err), 200), a.err.Error()
	default:
		code, detail = record.ErrConnection, a.err.Error()
	}
	if mt.ref.Logf != nil {
		s := mt.contestants[i]
		mt.ref.Logf("match %s: step %d: role %s (player %s): %s: %s", mt.m.ID, step, s.role, s.p.Name(), code, detail)
	}
	return code
}

// oneLine returns s on one line, with runs of space as one space, cut to
// at most n bytes; an empty s is written "".
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return `""`
	}
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// findMove returns the legal move that m stands for: m itself, or m in
// compact KIF, or else, when anyCase is set, the one legal move m is
// whatever the case of its symbols, as the Dresden GameController reads
// moves.
func findMove(m reasoner.Move, legal []reasoner.Move, anyCase bool) (reasoner.Move, bool) {
	if slices.Contains(legal, m) {
		return m, true
	}
	n, err := NormalizeMove(string(m))
	if err == nil && slices.Contains(legal, n) {
		return n, true
	}
	if err == nil && anyCase {
		var found reasoner.Move
		for _, l := range legal {
			if strings.EqualFold(string(l), string(n)) {
				if found != "" {
					return "", false // ambiguous
				}
				found = l
			}
		}
		return found, found != ""
	}
	return "", false
}

// NormalizeMove returns a move in compact KIF, as reasoners write moves:
// "( mark 1 1 )" becomes "(mark 1 1)".
func NormalizeMove(s string) (reasoner.Move, error) {
	e, err := gdl.ReadExpr([]byte(s))
	if err != nil {
		return "", err
	}
	return reasoner.Move(e.String()), nil
}

func (mt *match) substitute(legal []reasoner.Move) reasoner.Move {
	if mt.ref.Fallback == FallbackFirst {
		return legal[0]
	}
	return legal[rand.IntN(len(legal))]
}

func (mt *match) stopClock(*contestant) time.Duration {
	return orDefault(mt.ref.StopTimeout, DefaultStopTimeout)
}

// stop sends STOP to every player and waits at most StopTimeout.
func (mt *match) stop(ctx context.Context) {
	mt.callAll(context.WithoutCancel(ctx), mt.stopClock, 0, func(s *contestant) func(context.Context) (reasoner.Move, error) {
		return mt.tell.stop(mt, s)
	})
}

// abort records that the match failed, writes the record as well as it
// can, and sends ABORT to every player, waiting at most StopTimeout.
func (mt *match) abort(ctx context.Context, e *Error) {
	mt.rec.IsAborted = true
	mt.rec.AbortReason = e.Error()
	// A failed write has nothing better to do than to be reported by the
	// error already returned; a record that could not be written before
	// keeps its last good version on disk.
	_ = mt.save()
	mt.callAll(context.WithoutCancel(ctx), mt.stopClock, 0, func(s *contestant) func(context.Context) (reasoner.Move, error) {
		return func(ctx context.Context) (reasoner.Move, error) { return "", s.p.Abort(ctx, mt.m.ID) }
	})
}
