package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// tournamentExamples are the examples of ggp tournament -h.
const tournamentExamples = `ggp tournament --games ticTacToe,connectFour --players mcts,random,legal --rounds 2 --parallel 2 --out t1

  Compare two players, stopping once the test decides whether mcts scores
  0.5 (H0) or 0.6 (H1) against random, within at most 20 rounds:
  ggp tournament --games connectFour,breakthrough --players mcts,random --rounds 20 --sprt 0.1 --out ab1`

// runTournament plays every game against every assignment of players to
// roles, resuming a tournament left unfinished in the same folder.
func runTournament(ctx context.Context, env *environment, args []string) error {
	f, err := parseTournamentFlags(env, args)
	if err != nil {
		return err
	}
	t, err := f.tournament(env)
	if err != nil {
		return err
	}
	if *f.db != "" {
		closeQueue, err := queueTournament(ctx, t, *f.db)
		if err != nil {
			return err
		}
		defer closeQueue()
	}
	bar := false
	if file, ok := env.stderr.(*os.File); ok && isTerminal(file) {
		bar = true
	}
	progress := tournamentProgress(env.stderr, bar)
	scheduled := 0
	t.Progress = func(p tournament.Progress) {
		scheduled = p.Total
		progress(p)
	}
	if *f.view.on {
		viewer, err := startTournamentViewer(ctx, env, f.view, t)
		if err != nil {
			return err
		}
		defer viewer.close()
		defer viewer.linger(ctx)
		if err := seatPerson(env, viewer, t, f.clocks); err != nil {
			return err
		}
	}
	res, err := t.Run(ctx)
	if bar {
		fmt.Fprintln(env.stderr)
	}
	if res == nil {
		return err
	}
	writeTournamentResults(env.stdout, res, scheduled, filepath.Join(t.Dir, tournament.ResultsFile))
	return tournamentOutcome(env.stderr, res, err)
}

// tournamentFlags are the flags of ggp tournament.
type tournamentFlags struct {
	games, players, out, name *string
	db                        *string
	rounds, parallel          *int
	sprt                      *float64
	nature                    *bool
	gap, ready                matchClock
	clocks                    *refereeFlags
	view                      *viewFlags
}

// parseTournamentFlags parses the arguments of ggp tournament, which
// are flags alone.
func parseTournamentFlags(env *environment, args []string) (*tournamentFlags, error) {
	flags := newFlagSet(env, "tournament", "--games G1,G2,... --players P1,P2,... --out DIR [flags]", tournamentExamples)
	f := &tournamentFlags{}
	f.games = flags.String("games", "", "games to play: bundled names, .kif files or game folders")
	withPlayersHelp(env, flags)
	f.players = flags.String("players", "", "players, each named as below (human with --view); every ordered assignment of them to roles plays")
	f.rounds = flags.Int("rounds", 1, "times each assignment plays each game (with --sprt, the most)")
	f.parallel = flags.Int("parallel", 1, "matches played at once")
	f.out = flags.String("out", "", "tournament folder: match records, results.json; run again on it to finish an interrupted tournament")
	f.name = flags.String("name", "", "tournament name in the records (default: the folder's name)")
	f.sprt = flags.Float64("sprt", 0, "with two players, stop once a sequential test decides whether the first one's mean score per match (goal/100) against the second is 0.5 (H0) or 0.5+`DELTA` (H1); α=β=0.05, at least 8 matches and one of each game and assignment")
	f.nature = flags.Bool("nature", false, "nature plays the role random of every game that names one (a GDL-II game without sees rules, such as guessSix); by default only of games with sees rules, and a game without them gets a player in random, as a GDL game with a player of that name (beatMania) needs")
	f.gap = matchClock{allowZero: true}
	flags.Var(&f.gap, "gap", "pause between the end of a match and the start of the next, for a remote player that restarts between matches: seconds or a duration")
	f.ready = matchClock{allowZero: true, d: defaultReady}
	flags.Var(&f.ready, "ready", "before each match, wait at most this long for each remote player to answer INFO other than busy; one that does not stops the tournament, to be run again once it is back: seconds or a duration (0: no wait)")
	f.clocks = addRefereeFlags(flags)
	f.view = addViewFlags(flags)
	f.db = flags.String("db", "", "put the matches on the queue of a match host's PostgreSQL database (postgres://...), for its workers (ggp worker) to play")
	args, err := parseFlags(flags, args)
	if err != nil {
		return nil, err
	}
	if len(args) != 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %q", errUsage, args)
	}
	return f, nil
}

// tournament returns the tournament the flags ask for, its games open,
// or a usage error.
func (f *tournamentFlags) tournament(env *environment) (*tournament.Tournament, error) {
	ref, err := f.clocks.referee(env)
	if err != nil {
		return nil, err
	}
	if err := f.checkRequired(); err != nil {
		return nil, err
	}
	// The referee and the in-process players of a match ground its rules
	// once between them; matches played at once each keep theirs.
	ref.NewReasoner = backend.Shared(ref.NewReasoner, *f.parallel+1)
	var test *tournament.SPRT
	if *f.sprt != 0 {
		test = &tournament.SPRT{Delta: *f.sprt}
	}
	t := &tournament.Tournament{
		Name:       *f.name,
		Dir:        *f.out,
		Players:    splitList(*f.players),
		Rounds:     *f.rounds,
		Parallel:   *f.parallel,
		Gap:        f.gap.d,
		StartClock: f.clocks.start.d,
		PlayClock:  f.clocks.play.d,
		Nature:     *f.nature,
		Referee:    ref,
		SPRT:       test,
		NewPlayer: func(spec string) (player.Player, error) {
			return players.New(spec, ref.NewReasoner)
		},
	}
	if f.ready.d > 0 {
		t.Ready = readyRemote(f.ready.d)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	person, err := f.checkPerson(t)
	if err != nil {
		return nil, err
	}
	for _, arg := range splitList(*f.games) {
		g, err := games.Open(arg)
		if err != nil {
			return nil, err
		}
		t.Games = append(t.Games, g)
	}
	if person {
		if err := oneSeatEach(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkRequired refuses flags that leave out what a tournament needs.
func (f *tournamentFlags) checkRequired() error {
	switch {
	case *f.games == "":
		return fmt.Errorf("%w: --games is required", errUsage)
	case *f.players == "":
		return fmt.Errorf("%w: --players is required", errUsage)
	case *f.out == "":
		return fmt.Errorf("%w: --out is required", errUsage)
	case *f.rounds < 1 || *f.parallel < 1:
		return fmt.Errorf("%w: --rounds and --parallel must be at least 1", errUsage)
	}
	return nil
}

// checkPerson reports whether a person plays in t and gives them their
// play clock. A person plays through one seat page, one match at a time:
// it refuses a person without the viewer, two persons, or matches played
// at once.
func (f *tournamentFlags) checkPerson(t *tournament.Tournament) (bool, error) {
	humans := 0
	for _, name := range t.Players {
		if isPerson(name) {
			humans++
		}
	}
	switch {
	case humans > 0 && !*f.view.on:
		return false, fmt.Errorf("%w: a human player plays on a seat page of the viewer: add --view", errUsage)
	case humans > 1:
		return false, fmt.Errorf("%w: at most one human player in a tournament, not %d", errUsage, humans)
	case humans > 0 && *f.parallel > 1:
		return false, fmt.Errorf("%w: a human player plays one match at a time: --parallel 1, not %d", errUsage, *f.parallel)
	case humans > 0:
		person := t.Players[slices.IndexFunc(t.Players, isPerson)]
		t.PlayClocks = map[string]time.Duration{person: f.clocks.humanClock()}
	}
	return humans > 0, nil
}

// isPerson reports whether the player named name is a person. A name
// Parse refuses is not: the tournament's Validate reports it.
func isPerson(name string) bool {
	spec, err := players.Parse(name)
	return err == nil && spec.Kind == players.Person
}

// startTournamentViewer starts the viewer over the tournament folder and
// prints its address. The records are rewritten after every step: the
// viewer shows each match as it is played.
func startTournamentViewer(ctx context.Context, env *environment, f *viewFlags, t *tournament.Tournament) (*matchViewer, error) {
	if err := os.MkdirAll(t.Dir, 0o755); err != nil {
		return nil, err
	}
	viewer, err := startMatchViewer(ctx, env, f, []string{t.Dir}, t.Games)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.stdout, "view: %s\n", viewer.url)
	return viewer, nil
}

// seatPerson gives the person who plays in t, if any, one seat, and its
// page on viewer, for every match, and prints the page's address.
func seatPerson(env *environment, viewer *matchViewer, t *tournament.Tournament, clocks *refereeFlags) error {
	ref := t.Referee
	var person player.Player
	if i := slices.IndexFunc(t.Players, isPerson); i >= 0 {
		h := players.NewPerson(ref.NewReasoner)
		person = h
		fmt.Fprintf(env.stdout, "seat for %s: %s%s\n", t.Players[i], viewer.url, viewer.srv.AddSeat(h))
		fmt.Fprintf(env.stdout, "each match starts once the seat page is open (waiting at most %v, --human-wait); a person has %v a move (--human-playclock; --playclock, %v, is the programs' clock)\n", ref.ReadyTimeout, clocks.humanClock(), clocks.play.d)
	}
	t.NewPlayer = func(name string) (player.Player, error) {
		spec, err := players.Parse(name)
		switch {
		case err != nil:
			return nil, err
		case spec.Kind == players.Person:
			return person, nil
		}
		return spec.New(ref.NewReasoner, 0)
	}
	return nil
}

// writeTournamentResults writes the results of a tournament to w: the
// table of scores, the two players compared when there are two, the
// sequential test's verdict and how many of the matches completed, of
// the scheduled ones, with the results file's path.
func writeTournamentResults(w io.Writer, res *tournament.Results, scheduled int, results string) {
	fmt.Fprintln(w)
	res.WriteTable(w)
	if len(res.Players) == 2 {
		if c, err := res.Compare(res.Players[0], res.Players[1]); err == nil {
			fmt.Fprintln(w)
			c.WriteTable(w)
		}
	}
	if res.SPRT != nil {
		fmt.Fprintf(w, "\nSPRT: %s\n", res.SPRT)
	}
	done := res.Completed()
	if sprtDecided(res) && len(res.Matches) < scheduled {
		fmt.Fprintf(w, "\n%d of %d matches completed; the test decided, leaving %d of the %d scheduled unplayed; results in %s\n",
			done, len(res.Matches), scheduled-len(res.Matches), scheduled, results)
	} else {
		fmt.Fprintf(w, "\n%d of %d matches completed; results in %s\n", done, len(res.Matches), results)
	}
}

// tournamentOutcome returns the command's error for a tournament that
// ended with res and err, and tells on stderr what is left to do: run
// again to play what was interrupted or failed, or with more rounds for
// an undecided test.
func tournamentOutcome(stderr io.Writer, res *tournament.Results, err error) error {
	done := res.Completed()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "ggp tournament: interrupted; run the same command again to play the %d matches left\n", len(res.Matches)-done)
			return errFailed
		}
		return err
	}
	decided := sprtDecided(res)
	if done < len(res.Matches) {
		if decided {
			fmt.Fprintf(stderr, "ggp tournament: %d matches did not complete; the test decided on the others\n", len(res.Matches)-done)
			return nil
		}
		fmt.Fprintf(stderr, "ggp tournament: %d matches did not complete; run the same command again to retry them\n", len(res.Matches)-done)
		return errFailed
	}
	if res.SPRT != nil && !decided {
		fmt.Fprintln(stderr, "ggp tournament: the test is undecided; run the same command with more --rounds to go on")
	}
	return nil
}

// sprtDecided reports whether the tournament's sequential test, if any,
// reached a verdict.
func sprtDecided(res *tournament.Results) bool {
	return res.SPRT != nil && res.SPRT.Verdict != tournament.Undecided
}

// tournamentProgress returns a Progress function that draws a progress bar
// on a terminal, or prints one line per match otherwise.
func tournamentProgress(w io.Writer, bar bool) func(tournament.Progress) {
	return func(p tournament.Progress) {
		if p.Match == nil {
			if p.Skipped > 0 {
				if bar {
					fmt.Fprintf(w, "%d of %d matches completed before: skipped\n", p.Skipped, p.Total)
				} else {
					fmt.Fprintf(w, "%d/%d skipped: completed before\n", p.Skipped, p.Total)
				}
			}
			if bar {
				tournamentBar(w, p, "")
			}
			return
		}
		line := tournamentMatchLine(p)
		if bar {
			tournamentBar(w, p, line)
			return
		}
		if p.SPRT != nil {
			line += fmt.Sprintf(" (LLR %.2f, bounds %.2f and %.2f)", p.SPRT.LLR, p.SPRT.Lower, p.SPRT.Upper)
			if p.SPRT.Verdict != tournament.Undecided {
				line += ": " + string(p.SPRT.Verdict) + " accepted"
			}
		}
		fmt.Fprintf(w, "%d/%d %s\n", p.Done, p.Total, line)
	}
}

// tournamentMatchLine describes a finished match:
// "ticTacToe.r1.0-1: mcts 100, random 0" or "...: failed: reason".
func tournamentMatchLine(p tournament.Progress) string {
	m := p.Match
	if !m.Completed {
		reason := m.Error
		if reason == "" && p.Err != nil {
			reason = p.Err.Error()
		}
		return fmt.Sprintf("%s: not completed: %s", m.ID, reason)
	}
	parts := make([]string, len(m.Players))
	for i, pl := range m.Players {
		parts[i] = fmt.Sprintf("%s %d", pl, m.Goals[i])
	}
	return fmt.Sprintf("%s: %s", m.ID, strings.Join(parts, ", "))
}

// tournamentBar redraws the progress bar line, with the log-likelihood
// ratio of the sequential test, if any, after the count.
func tournamentBar(w io.Writer, p tournament.Progress, last string) {
	const width = 30
	filled := 0
	if p.Total > 0 {
		filled = p.Done * width / p.Total
	}
	if len(last) > 50 {
		last = last[:47] + "..."
	}
	llr := ""
	if p.SPRT != nil {
		llr = fmt.Sprintf(" LLR %.2f", p.SPRT.LLR)
	}
	fmt.Fprintf(w, "\r[%s%s] %d/%d%s %-50s", strings.Repeat("#", filled), strings.Repeat("-", width-filled), p.Done, p.Total, llr, last)
}

// oneSeatEach refuses a tournament in which the person would take two
// roles of one match, as players do in a game of more roles than players.
func oneSeatEach(t *tournament.Tournament) error {
	ms, err := t.Schedule()
	if err != nil {
		return err
	}
	for _, m := range ms {
		n := 0
		for _, p := range m.Seats {
			if isPerson(t.Players[p]) {
				n++
			}
		}
		if n > 1 {
			return fmt.Errorf("%w: %s: a person takes one role, not %d: give as many players as the game has roles", errUsage, m.Game.Key, n)
		}
	}
	return nil
}

// defaultReady is how long ggp tournament waits, by default, for a remote
// player to be ready for its next match: a player that restarts between
// matches (ggp-base's PlayerRunner) is back within seconds, and one that
// is not back in two minutes has crashed or hangs.
const defaultReady = 2 * time.Minute

// readyRemote returns a Tournament.Ready that waits at most within for a
// remote player to answer INFO other than busy; in-process players are
// always ready.
func readyRemote(within time.Duration) func(ctx context.Context, spec string) error {
	return func(ctx context.Context, spec string) error {
		s, err := players.Parse(spec)
		if err != nil || s.Kind != players.Remote {
			return nil
		}
		c, err := remote.New(spec)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, within)
		defer cancel()
		if err := c.WaitReady(ctx); err != nil {
			return fmt.Errorf("%w within %v", err, within)
		}
		return nil
	}
}
