package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
)

// runReplay prints a recorded match step by step and checks it against the
// rules.
func runReplay(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "replay", "[--game GAME] [-q] RECORD.json",
		"ggp replay matches/ticTacToe.1700000000000.json")
	gameFlag := flags.String("game", "", "rules to check against: a bundled game, .kif file or game folder (default: the rules stored in the record)")
	quiet := flags.Bool("q", false, "print the verdict only, not the states")
	backendName := addBackendFlag(flags)
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: want one RECORD.json, got %d arguments", errUsage, len(args))
	}
	rec, err := record.ReadFile(args[0])
	if err != nil {
		return err
	}
	var g *games.Game
	switch {
	case *gameFlag != "":
		if g, err = games.Open(*gameFlag); err != nil {
			return err
		}
	case rec.GameRules != "":
		g = &games.Game{Key: rec.GameKey, Name: rec.GameName, Filename: args[0] + ": gameRules", Rules: []byte(rec.GameRules)}
	default:
		return fmt.Errorf("%s: the record holds no rules (gameRules): give them with --game", args[0])
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		return err
	}
	factory, err := newFactory(env, *backendName, false)
	if err != nil {
		return err
	}
	r, err := factory(ctx, d)
	if err != nil {
		return err
	}
	w := env.stdout
	status := "not completed"
	switch {
	case rec.IsCompleted:
		status = "completed"
	case rec.IsAborted:
		status = "aborted"
	}
	name := g.Name
	if name == "" {
		name = g.Key
	}
	fmt.Fprintf(w, "match %s: %s, %d steps, %s\n", rec.MatchID, name, rec.Steps(), status)
	roles := r.Roles()
	if !*quiet {
		for i, role := range roles {
			p := ""
			if i < len(rec.PlayerNamesFromHost) {
				p = ": " + rec.PlayerNamesFromHost[i]
			}
			fmt.Fprintf(w, "  %s%s\n", role, p)
		}
	}
	var visit func(*gamemaster.ReplayStep)
	if !*quiet {
		visit = func(s *gamemaster.ReplayStep) { replayPrintStep(w, roles, s) }
	}
	if err := gamemaster.Replay(ctx, rec, r, visit); err != nil {
		var re *gamemaster.ReplayError
		if errors.As(err, &re) {
			fmt.Fprintf(w, "disagreement: %v\n", err)
			return errFailed
		}
		return err
	}
	if rec.IsCompleted {
		var parts []string
		for i, role := range roles {
			parts = append(parts, fmt.Sprintf("%s %d", role, rec.GoalValues[i]))
		}
		fmt.Fprintf(w, "goals: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "ok: %d steps agree with the rules\n", rec.Steps())
	return nil
}

// replayPrintStep prints a state, one fact a line, and the joint move
// played in it.
func replayPrintStep(w io.Writer, roles []string, s *gamemaster.ReplayStep) {
	fmt.Fprintf(w, "state %d:\n", s.Step)
	for _, f := range s.State.Facts() {
		fmt.Fprintf(w, "    %s\n", f)
	}
	if s.Moves == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "step %d:", s.Step+1)
	for i, m := range s.Moves {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s", roles[i], m)
		if i < len(s.Errors) && s.Errors[i] != "" {
			fmt.Fprintf(&b, " [%s]", s.Errors[i])
		}
	}
	fmt.Fprintln(w, b.String())
}
