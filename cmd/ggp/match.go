package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/seat"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// Default clocks of ggp match and ggp tournament: short enough that the
// quick start's match of mcts against random ends in well under a minute.
const (
	matchDefaultStartClock = 10 * time.Second
	matchDefaultPlayClock  = 2 * time.Second
)

// A person's play clock, unless given, and the longest wait for a person
// to open their seat page before the match starts.
const (
	humanDefaultPlayClock = 60 * time.Second
	humanDefaultWait      = 5 * time.Minute
)

// runMatch plays one match between in-process and remote players.
func runMatch(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "match", "GAME --players P1,P2,... [flags]",
		"ggp match ticTacToe --players mcts,random --playclock 1 --out matches")
	withPlayersHelp(env, flags)
	playersFlag := flags.String("players", "", "one player per role, in role order (in a GDL-II game none for random, which nature plays), each named as below")
	clocks := addRefereeFlags(flags)
	out := flags.String("out", "", "folder to write the match record to, updated after every step (default: no record)")
	id := flags.String("id", "", "match id (default: GAME.<milliseconds since 1970>)")
	quiet := flags.Bool("q", false, "print the result only, not every step")
	verbose := flags.Bool("v", false, "print the details of every error of a player, and in a GDL-II game each role's percepts at every step")
	seed := flags.Uint64("seed", 0, "seed of nature's moves in a GDL-II game and of the random choices of in-process players, as the match printed it, to play it again (default: a random seed)")
	viewFlags := addViewFlags(flags)
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: want one GAME, got %d arguments", errUsage, len(args))
	}
	ref, err := clocks.referee(env)
	if err != nil {
		return err
	}
	// The referee and the in-process players ground the rules once
	// between them.
	ref.NewReasoner = backend.Shared(ref.NewReasoner, 1)
	specs := splitList(*playersFlag)
	if len(specs) == 0 {
		return fmt.Errorf("%w: --players is required", errUsage)
	}
	g, err := games.Open(args[0])
	if err != nil {
		return err
	}
	// One seed plays the match again: nature's moves and the random
	// choices of the in-process players, each seat's drawn from it.
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	seats := make([]player.Player, len(specs))
	playClocks := make([]time.Duration, len(specs))
	var humans []seat.Player
	var warnings []string // of the players, should the match be GDL-II
	for i, name := range specs {
		spec, err := players.Parse(name)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		switch spec.Kind {
		case players.Person:
			h := players.NewPerson(ref.NewReasoner)
			seats[i], humans = h, append(humans, h)
			playClocks[i] = clocks.humanClock()
		default:
			if seats[i], err = spec.New(ref.NewReasoner, *seed^uint64(i+1)*0x9e3779b97f4a7c15); err != nil {
				return fmt.Errorf("%w: %v", errUsage, err)
			}
		}
		if spec.GDLIIWarning != "" {
			warnings = append(warnings, spec.GDLIIWarning)
		}
	}
	m := &gamemaster.Match{
		ID:         *id,
		Game:       g,
		Players:    seats,
		StartClock: clocks.start.d,
		PlayClock:  clocks.play.d,
		PlayClocks: playClocks,
		Seed:       *seed,
	}
	if m.ID == "" {
		m.ID = gamemaster.GameIDPart(g.Key) + "." + strconv.FormatInt(time.Now().UnixMilli(), 10)
	}
	if !gamemaster.ValidMatchID(m.ID) {
		return fmt.Errorf("%w: match id %q: want letters, digits, '.', '_' or '-'", errUsage, m.ID)
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		m.Record = filepath.Join(*out, m.ID+".json")
	}
	if *verbose {
		ref.Logf = func(format string, args ...any) { fmt.Fprintf(env.stderr, format+"\n", args...) }
	}
	if !*quiet {
		fmt.Fprintf(env.stdout, "match %s: %s, start clock %v, play clock %v\n", m.ID, g.Name, m.StartClock, m.PlayClock)
		ref.OnStep = matchPrinter(env.stdout, *verbose)
	}
	var viewer *matchViewer
	if *viewFlags.on || len(humans) > 0 {
		var dirs []string
		if *out != "" {
			dirs = []string{*out}
		}
		if viewer, err = startMatchViewer(ctx, env, viewFlags, dirs, []*games.Game{g}); err != nil {
			return err
		}
		ref.OnStep = both(ref.OnStep, viewer.srv.Publish)
		fmt.Fprintf(env.stdout, "view: %s/match?src=%s\n", viewer.url, url.QueryEscape(view.LiveSource(m.ID)))
		for _, h := range humans {
			fmt.Fprintf(env.stdout, "seat for %s: %s%s\n", h.Name(), viewer.url, viewer.srv.AddSeat(h))
		}
		if len(humans) > 0 {
			fmt.Fprintf(env.stdout, "the match starts once every seat page is open (waiting at most %v, --human-wait); a person has %v a move (--human-playclock; --playclock, %v, is the programs' clock)\n", ref.ReadyTimeout, clocks.humanClock(), clocks.play.d)
		}
		defer viewer.close()
	}
	ref.OnStep = both(gdlIIWarner(env.stderr, warnings), ref.OnStep)
	rec, err := ref.Run(ctx, m)
	if viewer != nil {
		defer viewer.linger(ctx)
	}
	if err != nil {
		if rec != nil && m.Record != "" {
			fmt.Fprintf(env.stdout, "record: %s (aborted)\n", m.Record)
		}
		return err
	}
	matchPrintGoals(env.stdout, rec)
	if !*quiet || rec.GDLII {
		fmt.Fprintf(env.stdout, "seed: %d (--seed plays nature's moves and the random and legal players' choices again)\n", *seed)
	}
	if m.Record != "" {
		fmt.Fprintf(env.stdout, "record: %s\n", m.Record)
	}
	return nil
}

// gdlIIWarner returns an OnStep function that prints the warnings of the
// players whose GDL-II search does without some of their settings once,
// if the match is GDL-II, as the referee decides; nil without warnings.
func gdlIIWarner(w io.Writer, warnings []string) func(*record.Record) {
	if len(warnings) == 0 {
		return nil
	}
	warned := false
	return func(r *record.Record) {
		if r.GDLII && !warned {
			warned = true
			for _, warning := range warnings {
				fmt.Fprintf(w, "ggp: warning: %s\n", warning)
			}
		}
	}
}

// matchPrinter returns an OnStep function that prints the roles and their
// players, then every step's moves and errors as the match goes, and when
// percepts is set, each role's percepts of a GDL-II step.
func matchPrinter(w io.Writer, percepts bool) func(*record.Record) {
	printed := 0 // states printed so far
	started := false
	return func(r *record.Record) {
		if printed == 0 {
			for i, role := range r.Roles {
				fmt.Fprintf(w, "  %s: %s\n", role, r.PlayerNamesFromHost[i])
			}
			printed = 1
		}
		if !started && len(r.Errors) > 0 {
			started = true
			if matchHasErrors(r.Errors[0]) {
				fmt.Fprintf(w, "start: %s\n", matchJoinErrors(r.Roles, r.Errors[0]))
			}
		}
		for ; printed < len(r.States); printed++ {
			step := printed
			var b strings.Builder
			fmt.Fprintf(&b, "step %d:", step)
			for i, mv := range r.Moves[step-1] {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, " %s %s", r.Roles[i], mv)
				if step < len(r.Errors) && r.Errors[step][i] != "" {
					fmt.Fprintf(&b, " [%s]", r.Errors[step][i])
				}
			}
			fmt.Fprintln(w, b.String())
			if percepts && r.GDLII && step-1 < len(r.Percepts) {
				for i, ps := range r.Percepts[step-1] {
					if r.Roles[i] != r.Nature {
						fmt.Fprintf(w, "  %s sees: %s\n", r.Roles[i], strings.Join(ps, " "))
					}
				}
			}
		}
	}
}

func matchHasErrors(errs []string) bool {
	for _, e := range errs {
		if e != "" {
			return true
		}
	}
	return false
}

func matchJoinErrors(roles, errs []string) string {
	var parts []string
	for i, e := range errs {
		if e != "" {
			parts = append(parts, roles[i]+" ["+e+"]")
		}
	}
	return strings.Join(parts, ", ")
}

// matchPrintGoals prints "goals: xplayer (mcts) 100, oplayer (random) 0".
func matchPrintGoals(w io.Writer, r *record.Record) {
	var parts []string
	for i, role := range r.Roles {
		if r.GDLII && role == r.Nature {
			continue // nature plays for no goal
		}
		parts = append(parts, fmt.Sprintf("%s (%s) %d", role, r.PlayerNamesFromHost[i], r.GoalValues[i]))
	}
	fmt.Fprintf(w, "goals: %s\n", strings.Join(parts, ", "))
}

// matchClock is a flag holding a clock: a number of seconds, such as 10 or
// 0.5, or a duration, such as 1500ms.
type matchClock struct {
	d         time.Duration
	allowZero bool
	set       bool // given on the command line
}

func (c *matchClock) String() string { return c.d.String() }

func (c *matchClock) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return errors.New("want seconds, such as 10, or a duration, such as 1500ms")
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < time.Millisecond && !(c.allowZero && d == 0) {
		return errors.New("must be at least 1ms")
	}
	c.d, c.set = d, true
	return nil
}

// refereeFlags are the clock, referee and backend flags of match and
// tournament.
type refereeFlags struct {
	start, play, grace matchClock
	human, wait        matchClock
	fallback           *string
	backend            *string
	strict             *bool
}

func addRefereeFlags(flags *flag.FlagSet) *refereeFlags {
	c := &refereeFlags{
		start: matchClock{d: matchDefaultStartClock},
		play:  matchClock{d: matchDefaultPlayClock},
		grace: matchClock{d: gamemaster.DefaultGrace, allowZero: true},
		human: matchClock{d: humanDefaultPlayClock},
		wait:  matchClock{d: humanDefaultWait},
	}
	flags.Var(&c.start, "startclock", "time to answer START: seconds or a duration")
	flags.Var(&c.play, "playclock", "time for each move: seconds or a duration")
	flags.Var(&c.grace, "grace", "time allowed past the play clock before a move is late")
	flags.Var(&c.human, "human-playclock", "time for each move of a human player (a person), whatever --playclock gives the programs")
	flags.Var(&c.wait, "human-wait", "longest wait, before a match starts, for a person to open their seat page; its clocks start once it is open")
	c.fallback = flags.String("fallback", "random", "move played for a late, lost or illegal one: random or first")
	c.backend = addBackendFlag(flags)
	c.strict = addStrictFlag(flags)
	return c
}

// humanClock returns a person's play clock: --human-playclock, 60 s unless
// given. --playclock is the programs' clock and never a person's: a
// person cannot move in the few seconds a program is given.
func (c *refereeFlags) humanClock() time.Duration {
	return c.human.d
}

// referee returns the referee the flags describe; its reasoner factory is
// the one in-process players get too.
func (c *refereeFlags) referee(env *environment) (*gamemaster.Referee, error) {
	fb, err := gamemaster.ParseFallback(*c.fallback)
	if err != nil {
		return nil, fmt.Errorf("%w: --fallback: %v", errUsage, err)
	}
	grace := c.grace.d
	if grace == 0 {
		grace = -1 // none: the referee's zero means the default
	}
	factory, err := newFactory(env, *c.backend, *c.strict)
	if err != nil {
		return nil, err
	}
	return &gamemaster.Referee{Grace: grace, Fallback: fb, NewReasoner: factory, ReadyTimeout: c.wait.d}, nil
}
