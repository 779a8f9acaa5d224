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

	// gdlII is set when the match is played as GDL-II, with seer the
	// reasoner's percepts and nature the index of nature's role, or -1.
	gdlII  bool
	seer   reasoner.Perceiver
	nature int
}

// decide says how a match with the given number of players is played
// (gdl.DecideMode): nature sits in the role random when the players are
// one fewer than the roles and the rules name it.
func (g *game) decide(players int) error {
	g.nature = -1
	seating := gdl.RulesAlone
	if n := reasoner.NatureIndex(g.roles); n >= 0 && players == len(g.roles)-1 {
		seating = gdl.NatureSeated
	}
	if gdl.DecideMode(g.desc, seating) == gdl.GDL {
		return nil
	}
	n := reasoner.NatureIndex(g.roles)
	seer, ok := g.r.(reasoner.Perceiver)
	if !ok {
		return fmt.Errorf("the reasoner %T of this GDL-II game gives no percepts", g.r)
	}
	g.gdlII, g.seer, g.nature = true, seer, n
	want := len(g.roles)
	if n >= 0 {
		want--
	}
	if players != want {
		others := slices.Clone(g.roles)
		if n >= 0 {
			others = slices.Delete(others, n, n+1)
		}
		if n < 0 {
			return fmt.Errorf("%d players for the %d roles (%s)", players, want, strings.Join(others, ", "))
		}
		return fmt.Errorf("%d players given; a GDL-II game wants one for each role but random, which nature plays: %d (%s)", players, want, strings.Join(others, ", "))
	}
	return nil
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
	ref   *Referee
	m     *Match
	g     *game
	seats []*seat
	rec   *record.Record
	state *reasoner.State
	last  []reasoner.Move // the last joint move, nil before the first
	// chance draws nature's moves in a GDL-II match.
	chance *rand.Rand
}

// Run plays m to the end and returns its record. The record is also
// written to m.Record, if set, after START, after every step and at the
// end. Run returns an error, an *Error unless m itself is invalid, when the
// match could not be completed: the rules failed or took too long, the
// record could not be written, or ctx was cancelled. The match is then
// aborted: the record, when there is one, says so and the players are sent
// ABORT.
func (r *Referee) Run(ctx context.Context, m *Match) (*record.Record, error) {
	if err := r.check(m); err != nil {
		return nil, err
	}
	g, err := r.load(ctx, m)
	if err != nil {
		return nil, &Error{MatchID: m.ID, Err: err}
	}
	if err := g.decide(len(m.Players)); err != nil {
		return nil, &Error{MatchID: m.ID, Err: fmt.Errorf("%s: %w", m.Game.Key, err)}
	}
	if !g.gdlII && len(m.Players) != len(g.roles) {
		return nil, &Error{MatchID: m.ID, Err: fmt.Errorf("%d players for the %d roles of %s (%s)", len(m.Players), len(g.roles), m.Game.Key, strings.Join(g.roles, ", "))}
	}
	mt := &match{ref: r, m: m, g: g}
	i := 0 // the player, and its clock
	for role, name := range g.roles {
		if role == g.nature {
			mt.seats = append(mt.seats, natureSeat(name))
			continue
		}
		p := m.Players[i]
		if _, ok := p.(player.GDLIIPlayer); g.gdlII && !ok {
			return nil, &Error{MatchID: m.ID, Role: name, Err: fmt.Errorf("player %s cannot play GDL-II games", p.Name())}
		}
		clock := m.PlayClock
		if i < len(m.PlayClocks) && m.PlayClocks[i] > 0 {
			clock = m.PlayClocks[i]
		}
		mt.seats = append(mt.seats, newSeat(name, p, clock))
		i++
	}
	if g.gdlII {
		seed := m.Seed
		for seed == 0 {
			seed = rand.Uint64()
		}
		mt.chance = newChance(seed)
		mt.newRecord(mt.playerNames(ctx))
		mt.rec.GDLII, mt.rec.Seed, mt.rec.Percepts = true, seed, [][][]string{}
		if g.nature >= 0 {
			mt.rec.Nature = g.roles[g.nature]
		}
	} else {
		mt.newRecord(mt.playerNames(ctx))
	}
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

// load parses the rules and makes their reasoner.
func (r *Referee) load(ctx context.Context, m *Match) (*game, error) {
	d, err := gdl.ParseFile(m.Game.Filename, m.Game.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules of %s: %w", m.Game.Key, err)
	}
	var rs reasoner.Reasoner
	err = r.rules(ctx, func(ctx context.Context) error {
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
// in its own goroutine so that a reasoner that does not heed its context
// cannot hold up the match, and a panic in it is an error. After a timeout
// the reasoner may still be busy: the match must not use it again.
func (r *Referee) rules(ctx context.Context, f func(ctx context.Context) error) error {
	limit := orDefault(r.RulesTimeout, DefaultRulesTimeout)
	ctx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("%w: no answer within %v", errRulesTimeout, limit))
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("reasoner panicked: %v", v)
			}
		}()
		done <- f(ctx)
	}()
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
	names := make([]string, len(mt.seats))
	notes := make([][]string, len(mt.seats)) // for Logf, from this goroutine
	limit := orDefault(mt.ref.InfoTimeout, DefaultInfoTimeout)
	var wg sync.WaitGroup
	for i, s := range mt.seats {
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
	for i, s := range mt.seats {
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

func (mt *match) play(ctx context.Context) error {
	ref, rs := mt.ref, mt.g.r
	var s0 *reasoner.State
	err := ref.rules(ctx, func(ctx context.Context) error {
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
		var terminal bool
		legal := make([][]reasoner.Move, len(mt.seats))
		err := ref.rules(ctx, func(ctx context.Context) error {
			var err error
			if terminal, err = rs.Terminal(ctx, mt.state); err != nil || terminal {
				return err
			}
			for i := range mt.seats {
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
			e := &Error{MatchID: mt.m.ID, Step: step, Err: err}
			var re *roleError
			if errors.As(err, &re) {
				e.Role, e.Err = mt.g.roles[re.role], re.err
			}
			return e
		}
		if terminal {
			break
		}
		if step > maxSteps {
			return mt.stepError(step, fmt.Errorf("the game has not ended after %d steps", maxSteps))
		}
		joint, errs, err := mt.ask(ctx, step, legal)
		if err != nil {
			return mt.stepError(step, err)
		}
		var next *reasoner.State
		err = ref.rules(ctx, func(ctx context.Context) error {
			var err error
			next, err = rs.Next(ctx, mt.state, joint)
			return err
		})
		if err != nil {
			return mt.stepError(step, fmt.Errorf("next state: %w", err))
		}
		if mt.g.gdlII {
			if err := mt.perceive(ctx, step, joint); err != nil {
				return err
			}
		}
		mt.last = joint
		moves := make([]string, len(joint))
		for i, m := range joint {
			moves[i] = string(m)
		}
		mt.rec.Moves = append(mt.rec.Moves, moves)
		mt.rec.Errors = append(mt.rec.Errors, errs)
		mt.addState(next)
		if err := mt.save(); err != nil {
			return err
		}
	}
	step := mt.rec.Steps()
	var goals []int
	err = ref.rules(ctx, func(ctx context.Context) error {
		var err error
		goals, err = rs.Goals(ctx, mt.state)
		if ge, ok := errors.AsType[*reasoner.GoalError](err); ok && mt.g.gdlII {
			var notes []string
			goals, notes, err = FirstGoals(ctx, mt.g.desc, mt.state, mt.g.roles, goals, ge)
			for _, n := range notes {
				mt.logf("match %s: step %d: %s", mt.m.ID, step, n)
			}
		}
		if ge, ok := errors.AsType[*reasoner.GoalError](err); ok && mt.g.nature >= 0 &&
			len(goals) == len(mt.seats) && slices.Equal(ge.Roles, mt.g.roles[mt.g.nature:mt.g.nature+1]) {
			err = nil // nature's goal is ignored
		}
		if err == nil && mt.g.nature >= 0 {
			goals[mt.g.nature] = 0
		}
		return err
	})
	if err != nil {
		return mt.stepError(step, fmt.Errorf("goals: %w", err))
	}
	mt.rec.IsCompleted = true
	mt.rec.GoalValues = goals
	if err := mt.save(); err != nil {
		return err
	}
	mt.stop(ctx)
	return nil
}

// perceive computes the percepts of every player of a GDL-II match of the
// step that plays joint, records them, and sets what each player is told
// next.
func (mt *match) perceive(ctx context.Context, step int, joint []reasoner.Move) error {
	percepts := make([][]string, len(mt.seats))
	err := mt.ref.rules(ctx, func(ctx context.Context) error {
		for i, s := range mt.seats {
			percepts[i] = []string{}
			if s.p == nil {
				continue
			}
			ps, err := mt.g.seer.Sees(ctx, mt.state, joint, i)
			if err != nil {
				return &roleError{i, fmt.Errorf("percepts: %w", err)}
			}
			s.turn = player.Turn{Number: step, Move: joint[i], Percepts: ps}
			for _, p := range ps {
				percepts[i] = append(percepts[i], string(p))
			}
		}
		return nil
	})
	if err != nil {
		e := &Error{MatchID: mt.m.ID, Step: step, Err: err}
		if re, ok := errors.AsType[*roleError](err); ok {
			e.Role, e.Err = mt.g.roles[re.role], re.err
		}
		return e
	}
	mt.rec.Percepts = append(mt.rec.Percepts, percepts)
	return nil
}

// start sends START to every player at once and records the errors.
func (mt *match) start(ctx context.Context) error {
	m := mt.m
	answers := mt.callAll(ctx, func(*seat) time.Duration { return m.StartClock }, 0, func(s *seat) func(context.Context) (reasoner.Move, error) {
		pm := &player.Match{ID: m.ID, Role: s.role, Rules: mt.g.desc, StartClock: m.StartClock, PlayClock: m.PlayClock, GDLII: mt.g.gdlII}
		return func(ctx context.Context) (reasoner.Move, error) { return "", s.p.Start(ctx, pm) }
	})
	if err := ctx.Err(); err != nil {
		return mt.stepError(0, err)
	}
	errs := make([]string, len(mt.seats))
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
	last := mt.last
	answers := mt.callAll(ctx, func(s *seat) time.Duration { return s.clock }, mt.ref.grace(), func(s *seat) func(context.Context) (reasoner.Move, error) {
		if mt.g.gdlII {
			t := s.turn
			t.Percepts = slices.Clone(t.Percepts)
			return func(ctx context.Context) (reasoner.Move, error) {
				return s.p.(player.GDLIIPlayer).PlayTurn(ctx, mt.m.ID, t)
			}
		}
		return func(ctx context.Context) (reasoner.Move, error) { return s.p.Play(ctx, mt.m.ID, slices.Clone(last)) }
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	joint := make([]reasoner.Move, len(mt.seats))
	errs := make([]string, len(mt.seats))
	for i, a := range answers {
		if i == mt.g.nature {
			joint[i] = NatureMove(mt.chance, legal[i])
			continue
		}
		if a.err == nil && !a.late {
			if m, ok := findMove(a.move, legal[i], mt.g.gdlII); ok {
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
		s := mt.seats[i]
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

func (mt *match) stopClock(*seat) time.Duration {
	return orDefault(mt.ref.StopTimeout, DefaultStopTimeout)
}

// stop sends STOP to every player and waits at most StopTimeout.
func (mt *match) stop(ctx context.Context) {
	last := mt.last
	mt.callAll(context.WithoutCancel(ctx), mt.stopClock, 0, func(s *seat) func(context.Context) (reasoner.Move, error) {
		if mt.g.gdlII {
			t := s.turn
			return func(ctx context.Context) (reasoner.Move, error) {
				return "", s.p.(player.GDLIIPlayer).StopTurn(ctx, mt.m.ID, t)
			}
		}
		return func(ctx context.Context) (reasoner.Move, error) {
			return "", s.p.Stop(ctx, mt.m.ID, slices.Clone(last))
		}
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
	mt.callAll(context.WithoutCancel(ctx), mt.stopClock, 0, func(s *seat) func(context.Context) (reasoner.Move, error) {
		return func(ctx context.Context) (reasoner.Move, error) { return "", s.p.Abort(ctx, mt.m.ID) }
	})
}
