package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
)

// runGames lists the bundled games: for each, its key and roles on one line
// and its description, wrapped and indented, below. A game written in
// GDL-II, with hidden information and nature's role random, is tagged
// gdlIITag at the end of its line, since it is played differently: each
// player is told only its percepts, and no player sits in random. Names
// given as arguments restrict the list to those games; with -rules the
// command prints their rulesheets instead, to read or to start a new game
// from.
func runGames(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "games", "[-rules] [NAME...]",
		"ggp games\n  ggp games -rules ticTacToe > myGame.kif")
	rules := flags.Bool("rules", false, "print the rules of the named games (all games without names)")
	usage := flags.Usage
	flags.Usage = func() {
		usage()
		fmt.Fprintf(env.stderr, "\nA game tagged %s has hidden information: each player is told only its\n"+
			"percepts, and the game master plays nature's role, random, if the game has it.\n", gdlIITag)
	}
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	gs := games.Bundled()
	if len(args) > 0 {
		gs = gs[:0]
		for _, name := range args {
			g, err := games.Lookup(name)
			if err != nil {
				return fmt.Errorf("%w: %v", errUsage, err)
			}
			gs = append(gs, g)
		}
	}
	if *rules {
		for _, g := range gs {
			if _, err := env.stdout.Write(g.Rules); err != nil {
				return err
			}
		}
		return nil
	}
	width := 0
	for _, g := range gs {
		width = max(width, len(g.Key))
	}
	for i, g := range gs {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(env.stdout)
		}
		line := fmt.Sprintf("%-*s  %s", width, g.Key, strings.Join(d.Roles(), ", "))
		if gdl.DecideMode(d, gdl.NatureSeated) == gdl.GDLII {
			line += "  " + gdlIITag
		}
		fmt.Fprintln(env.stdout, line)
		writeWrapped(env.stdout, g.Description, "    ", 76)
	}
	return nil
}

// gdlIITag marks a GDL-II game in the list of games.
const gdlIITag = "[GDL-II]"
