package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/seat"
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
	flags := newFlagSet(env, "tournament", "--games G1,G2,... --players P1,P2,... --out DIR [flags]", tournamentExamples)
	gamesFlag := flags.String("games", "", "games to play: bundled names, .kif files or game folders")
	withSettingsHelp(env, flags)
	playersFlag := flags.String("players", "", "players: mcts, mcts:SETTINGS (below), random, legal, human (with --view), host:port or an http URL; every ordered assignment of them to roles plays")
	rounds := flags.Int("rounds", 1, "times each assignment plays each game (with --sprt, the most)")
	parallel := flags.Int("parallel", 1, "matches played at once")
	out := flags.String("out", "", "tournament folder: match records, results.json; run again on it to finish an interrupted tournament")
	name := flags.String("name", "", "tournament name in the records (default: the folder's name)")
	sprt := flags.Float64("sprt", 0, "with two players, stop once a sequential test decides whether the first one's mean score per match (goal/100) against the second is 0.5 (H0) or 0.5+`DELTA` (H1); α=β=0.05, at least 8 matches and one of each game and assignment")
	clocks := addRefereeFlags(flags)
	viewFlags := addViewFlags(flags)
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) != 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, args)
	}
	ref, err := clocks.referee(env)
	if err != nil {
		return err
	}
	switch {
	case *gamesFlag == "":
		return fmt.Errorf("%w: --games is required", errUsage)
	case *playersFlag == "":
		return fmt.Errorf("%w: --players is required", errUsage)
	case *out == "":
		return fmt.Errorf("%w: --out is required", errUsage)
	case *rounds < 1 || *parallel < 1:
		return fmt.Errorf("%w: --rounds and --parallel must be at least 1", errUsage)
	}
	// The referee and the in-process players of a match ground its rules
	// once between them; matches played at once each keep theirs.
	ref.NewReasoner = backend.Shared(ref.NewReasoner, *parallel+1)
	var test *tournament.SPRT
	if *sprt != 0 {
		test = &tournament.SPRT{Delta: *sprt}
	}
	t := &tournament.Tournament{
		Name:       *name,
		Dir:        *out,
		Players:    splitList(*playersFlag),
		Rounds:     *rounds,
		Parallel:   *parallel,
		StartClock: clocks.start.d,
		PlayClock:  clocks.play.d,
		Referee:    ref,
		SPRT:       test,
		NewPlayer: func(spec string) (player.Player, error) {
			return players.New(spec, ref.NewReasoner)
		},
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	humans := 0
	for _, spec := range t.Players {
		if spec == players.Human {
			humans++
		}
	}
	// A person plays through one seat page, one match at a time.
	switch {
	case humans > 0 && !*viewFlags.on:
		return fmt.Errorf("%w: a human player plays on a seat page of the viewer: add --view", errUsage)
	case humans > 1:
		return fmt.Errorf("%w: at most one human player in a tournament, not %d", errUsage, humans)
	case humans > 0 && *parallel > 1:
		return fmt.Errorf("%w: a human player plays one match at a time: --parallel 1, not %d", errUsage, *parallel)
	case humans > 0:
		t.PlayClocks = map[string]time.Duration{players.Human: clocks.humanClock()}
	}
	for _, arg := range splitList(*gamesFlag) {
		g, err := games.Open(arg)
		if err != nil {
			return err
		}
		t.Games = append(t.Games, g)
	}
	if humans > 0 {
		if err := oneSeatEach(t); err != nil {
			return err
		}
	}
	bar := false
	if f, ok := env.stderr.(*os.File); ok && isTerminal(f) {
		bar = true
	}
	progress := tournamentProgress(env.stderr, bar)
	scheduled := 0
	t.Progress = func(p tournament.Progress) {
		scheduled = p.Total
		progress(p)
	}
	if *viewFlags.on {
		// The records are rewritten after every step: the viewer, over the
		// tournament folder, shows each match as it is played.
		if err := os.MkdirAll(t.Dir, 0o755); err != nil {
			return err
		}
		viewer, err := startMatchViewer(ctx, env, viewFlags, []string{t.Dir}, t.Games)
		if err != nil {
			return err
		}
		defer viewer.close()
		defer viewer.linger(ctx)
		fmt.Fprintf(env.stdout, "view: %s\n", viewer.url)
		// The person keeps one seat, and its page, for every match.
		var person player.Player
		if humans > 0 {
			p, err := players.New(players.Human, ref.NewReasoner)
			if err != nil {
				return err
			}
			s, ok := p.(seat.Player)
			if !ok {
				return fmt.Errorf("a %s player has no seat", players.Human)
			}
			person = p
			fmt.Fprintf(env.stdout, "seat for %s: %s%s\n", p.Name(), viewer.url, viewer.srv.AddSeat(s))
			fmt.Fprintf(env.stdout, "each match starts once the seat page is open (waiting at most %v, --human-wait); a person has %v a move (--human-playclock)\n", ref.ReadyTimeout, clocks.humanClock())
		}
		t.NewPlayer = func(spec string) (player.Player, error) {
			if spec == players.Human {
				return person, nil
			}
			return players.New(spec, ref.NewReasoner)
		}
	}
	res, err := t.Run(ctx)
	if bar {
		fmt.Fprintln(env.stderr)
	}
	if res == nil {
		return err
	}
	fmt.Fprintln(env.stdout)
	res.WriteTable(env.stdout)
	if len(res.Players) == 2 {
		if c, err := res.Compare(res.Players[0], res.Players[1]); err == nil {
			fmt.Fprintln(env.stdout)
			c.WriteTable(env.stdout)
		}
	}
	decided := res.SPRT != nil && res.SPRT.Verdict != tournament.Undecided
	if res.SPRT != nil {
		fmt.Fprintf(env.stdout, "\nSPRT: %s\n", res.SPRT)
	}
	done := res.Completed()
	results := filepath.Join(t.Dir, tournament.ResultsFile)
	if decided && len(res.Matches) < scheduled {
		fmt.Fprintf(env.stdout, "\n%d of %d matches completed; the test decided, leaving %d of the %d scheduled unplayed; results in %s\n",
			done, len(res.Matches), scheduled-len(res.Matches), scheduled, results)
	} else {
		fmt.Fprintf(env.stdout, "\n%d of %d matches completed; results in %s\n", done, len(res.Matches), results)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(env.stderr, "ggp tournament: interrupted; run the same command again to play the %d matches left\n", len(res.Matches)-done)
			return errFailed
		}
		return err
	}
	if done < len(res.Matches) {
		if decided {
			fmt.Fprintf(env.stderr, "ggp tournament: %d matches did not complete; the test decided on the others\n", len(res.Matches)-done)
			return nil
		}
		fmt.Fprintf(env.stderr, "ggp tournament: %d matches did not complete; run the same command again to retry them\n", len(res.Matches)-done)
		return errFailed
	}
	if res.SPRT != nil && !decided {
		fmt.Fprintln(env.stderr, "ggp tournament: the test is undecided; run the same command with more --rounds to go on")
	}
	return nil
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
			if t.Players[p] == players.Human {
				n++
			}
		}
		if n > 1 {
			return fmt.Errorf("%w: %s: a person takes one role, not %d: give as many players as the game has roles", errUsage, m.Game.Key, n)
		}
	}
	return nil
}
