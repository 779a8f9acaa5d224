// Command infovalue measures whether the mcts player values information,
// and writes the table of docs/gdl2.md's "Valuing information":
//
//	go run ./cmd/ggp/internal/infovalue -out DIR [-o FILE] [-matches N] [-iterations N] [-parallel N] [-games LIST] [-mcts SPEC]
//	go run ./cmd/ggp/internal/infovalue -probe ITERATIONS,... [-games LIST] [-mcts SPEC] [-seed N]
//
// For each game (the bundled numberGuess, bankerThief and battleshipsFog
// unless -games says otherwise) it computes the exact value of the game to
// its first role by exhaustive search over the role's information sets
// (package reasoner/infoset/exact), then plays -matches matches in that
// role with the mcts player and with the determinizing baseline (package
// player/determinizer), each searching a fixed number of iterations per
// move (-iterations), so that the figures do not depend on the machine's
// load. Nature is the referee's, drawn from the match's seed; an opponent
// with choices (bankerThief's thief) plays the best reply the exhaustive
// search computed (exact.Opponent). A row gives the exact value, each
// player's mean goal with its 95% interval, and the faults (timeouts,
// errors, illegal moves) of the measured role.
//
// Every match's result is appended to DIR/results.jsonl as it ends, and a
// run started again plays only the matches DIR lacks: a long run can be
// stopped and resumed. The page goes to FILE (-o) or standard output.
//
// With -probe it plays nothing, and shows instead what the search of the
// mcts player finds at the role's first decision after so many
// iterations, beside the exact strategy: why mcts falls short where it
// does.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ggp-go/ggp/cmd/ggp/internal/resultspage"
	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/determinizer"
	"github.com/ggp-go/ggp/player/ismcts"
	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/infoset/exact"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "infovalue:", err)
		os.Exit(1)
	}
}

// sampleName is the determinizer's name in the results; the mcts
// player's is its specification (-mcts).
const sampleName = "sample"

// The clocks of a match: generous, for the searches stop at their
// iterations; they only bound a player that hangs.
const (
	startClock = time.Minute
	playClock  = time.Minute
)

// A result is one match, a line of results.jsonl.
type result struct {
	Game       string `json:"game"`
	Player     string `json:"player"`
	Iterations int    `json:"iterations"`
	Seed       uint64 `json:"seed"`
	Goal       int    `json:"goal"`   // of the measured role
	Faults     int    `json:"faults"` // the measured role's timeouts, errors and illegal moves
	// Choices holds the measured role's view (exact.Key) before each of
	// its moves, and the move: its strategy as played.
	Choices [][2]string `json:"choices,omitempty"`
}

// key identifies a match: a run plays each once.
func (r result) key() string {
	return fmt.Sprintf("%s %s %d %d", r.Game, r.Player, r.Iterations, r.Seed)
}

// A game is one game measured: its rules and what the exhaustive search
// found.
type game struct {
	key  string
	g    *games.Game
	d    *gdl.Description
	role int // the measured role
	r    reasoner.Reasoner
	sol  *exact.Solution
	// reply is the opponent's best reply to sol's strategy wherever the
	// match may go (exact.Opponent), and uniform the role's uniform
	// policy, which fills the views a strategy as played never reached.
	reply   exact.Policy
	uniform exact.Policy
}

// config is what the flags say.
type config struct {
	out, page  string
	matches    int
	iterations int
	parallel   int
	games      []string
	// mcts is the mcts player's specification, its name in the results,
	// and search the configuration of its GDL-II search.
	mcts   string
	search ismcts.Config
}

// measured returns the names of the players measured.
func (c config) measured() []string { return []string{c.mcts, sampleName} }

func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("infovalue", flag.ContinueOnError)
	var c config
	flags.StringVar(&c.out, "out", "", "the `DIR` that keeps every match's result, results.jsonl (required)")
	flags.StringVar(&c.page, "o", "", "write the page to `FILE` instead of standard output")
	flags.IntVar(&c.matches, "matches", 300, "matches of each player in each game")
	flags.IntVar(&c.iterations, "iterations", 2000, "search iterations of each player per move")
	flags.IntVar(&c.parallel, "parallel", 1, "matches played at once")
	gameList := flags.String("games", "numberGuess,bankerThief,battleshipsFog", "the games, comma-separated")
	probeList := flags.String("probe", "", "instead of playing, show the search's root moves at the first decision after each of these `ITERATIONS`, comma-separated")
	probeSeed := flags.Uint64("seed", 1, "with -probe, the seed of the search's random choices")
	flags.StringVar(&c.mcts, "mcts", mctsplayer.Kind, "the mcts player's `SPEC`ification, as ggp play takes it (mcts:c=0.7:maxback=off): its settings, and its name in DIR's results")
	if err := flags.Parse(args); err != nil {
		return err
	}
	switch {
	case c.out == "" && *probeList == "":
		return errors.New("no -out folder given")
	case flags.NArg() > 0:
		return fmt.Errorf("unexpected arguments %q", flags.Args())
	case c.matches < 1 || c.iterations < 1 || c.parallel < 1:
		return errors.New("-matches, -iterations and -parallel must be positive")
	}
	c.games = strings.Split(*gameList, ",")
	search, err := mctsplayer.GDLIISearch(c.mcts)
	if err != nil {
		return fmt.Errorf("-mcts: %w", err)
	}
	c.search = search
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		return err
	}
	f = backend.Shared(f, 4)
	var gs []*game
	for _, key := range c.games {
		g, err := solve(ctx, f, key)
		if err != nil {
			return err
		}
		gs = append(gs, g)
	}
	if *probeList != "" {
		for _, g := range gs {
			if err := probe(ctx, stdout, g, *probeList, c.search, *probeSeed); err != nil {
				return fmt.Errorf("%s: %w", g.key, err)
			}
		}
		return nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	file := filepath.Join(c.out, "results.jsonl")
	if err := playAll(ctx, f, c, gs, file); err != nil {
		return err
	}
	done, err := readResults(file)
	if err != nil {
		return err
	}
	w := stdout
	if c.page != "" {
		var b strings.Builder
		writePage(&b, resultspage.Command("./cmd/ggp/internal/infovalue", args), c, gs, done)
		return os.WriteFile(c.page, []byte(b.String()), 0o644)
	}
	writePage(w, resultspage.Command("./cmd/ggp/internal/infovalue", args), c, gs, done)
	return nil
}

// solve loads a game and computes its exact value to its first role,
// and the opponent's policy when it has an opponent.
func solve(ctx context.Context, f reasoner.Factory, key string) (*game, error) {
	g, err := games.Open(key)
	if err != nil {
		return nil, err
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		return nil, err
	}
	r, err := f(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	role := slices.IndexFunc(r.Roles(), func(s string) bool { return s != reasoner.Nature })
	sol, err := exact.Solve(ctx, r, role, exact.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	gm := &game{key: key, g: g, d: d, role: role, r: r, sol: sol}
	if sol.Opponent >= 0 {
		if gm.reply, err = exact.Opponent(ctx, r, role, sol, exact.Options{}); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if gm.uniform, err = exact.Uniform(ctx, r, role, exact.Options{}); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	return gm, nil
}

// bestReply returns the opponent's policy in the measured matches of
// player: its best reply to the role's strategy as player played it in
// the estimating matches (each move at a view weighed by how often it was
// played there), and elsewhere g.reply. It is the opponent the exact value
// assumes, one that knows the role's strategy.
func bestReply(ctx context.Context, g *game, c config, player string, done map[string]result) (exact.Policy, error) {
	played := maps.Clone(g.uniform)
	seen := map[string]bool{}
	for seed := range estimating(c) {
		r, ok := done[result{Game: g.key, Player: player, Iterations: c.iterations, Seed: seed}.key()]
		if !ok {
			return nil, fmt.Errorf("%s: %s: the estimating match of seed %d is missing", g.key, player, seed)
		}
		for _, ch := range r.Choices {
			if _, choice := g.uniform[ch[0]]; !choice {
				continue
			}
			if !seen[ch[0]] {
				seen[ch[0]] = true
				played[ch[0]] = nil
			}
			played[ch[0]] = append(played[ch[0]], reasoner.Move(ch[1]))
		}
	}
	reply, err := exact.Best(ctx, g.r, g.sol.Opponent, map[int]exact.Policy{g.role: played}, g.role, exact.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: the best reply to %s: %w", g.key, player, err)
	}
	p := maps.Clone(g.reply)
	maps.Copy(p, reply.Strategy)
	return p, nil
}

// measuring returns the seeds of the measured matches of a player in a
// game; estimating those of the matches that estimate its strategy, in a
// game with an opponent, played against the opponent's reply to the
// exact strategy.
func measuring(c config) func(func(uint64) bool) {
	return seeds(1, c.matches)
}

func estimating(c config) func(func(uint64) bool) {
	return seeds(c.matches+1, 2*c.matches)
}

func seeds(from, to int) func(func(uint64) bool) {
	return func(yield func(uint64) bool) {
		for s := from; s <= to; s++ {
			if !yield(uint64(s)) {
				return
			}
		}
	}
}

// maxResultLine bounds a line of results.jsonl.
const maxResultLine = 1 << 16

// readResults returns the results in file by key; no file is no results.
func readResults(file string) (map[string]result, error) {
	done := map[string]result{}
	fh, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 4096), maxResultLine)
	for line := 1; sc.Scan(); line++ {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		done[r.key()] = r
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return done, nil
}

// A job is a match to play.
type job struct {
	g        *game
	player   string
	seed     uint64
	opponent exact.Policy // the opponent's policy, in a game with one
}

// playAll plays the matches of every game: first those of the games
// against nature and the estimating matches of the games with an
// opponent, then the measured matches of those, against the best reply to
// the strategy each player showed.
func playAll(ctx context.Context, f reasoner.Factory, c config, gs []*game, file string) error {
	done, err := readResults(file)
	if err != nil {
		return err
	}
	var jobs []job
	for _, g := range gs {
		for _, p := range c.measured() {
			from := measuring(c)
			if g.sol.Opponent >= 0 {
				from = estimating(c)
			}
			jobs = append(jobs, missing(c, g, p, from, g.reply, done)...)
		}
	}
	if err := play(ctx, f, c, jobs, file); err != nil {
		return err
	}
	if done, err = readResults(file); err != nil {
		return err
	}
	jobs = nil
	for _, g := range gs {
		if g.sol.Opponent < 0 {
			continue
		}
		for _, p := range c.measured() {
			reply, err := bestReply(ctx, g, c, p, done)
			if err != nil {
				return err
			}
			jobs = append(jobs, missing(c, g, p, measuring(c), reply, done)...)
		}
	}
	return play(ctx, f, c, jobs, file)
}

// missing returns the jobs of the seeds of player in g that done lacks.
func missing(c config, g *game, player string, seeds func(func(uint64) bool), opponent exact.Policy, done map[string]result) []job {
	var jobs []job
	for seed := range seeds {
		if _, ok := done[result{Game: g.key, Player: player, Iterations: c.iterations, Seed: seed}.key()]; !ok {
			jobs = append(jobs, job{g, player, seed, opponent})
		}
	}
	return jobs
}

// play plays jobs, c.parallel at a time, appending each result to file as
// it ends.
func play(ctx context.Context, f reasoner.Factory, c config, jobs []job, file string) error {
	if len(jobs) == 0 {
		return nil
	}
	out, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan job)
	var (
		mu       sync.Mutex
		firstErr error
		played   int
	)
	var wg sync.WaitGroup
	for range c.parallel {
		wg.Go(func() {
			for j := range queue {
				res, err := playOne(ctx, f, c.iterations, j)
				mu.Lock()
				if err == nil {
					var line []byte
					line, err = json.Marshal(res)
					if err == nil {
						_, err = out.Write(append(line, '\n'))
					}
				}
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				played++
				if played%50 == 0 {
					fmt.Fprintf(os.Stderr, "infovalue: %d of %d matches played\n", played, len(jobs))
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		queue <- j
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// playOne plays one match of j and returns its result.
func playOne(ctx context.Context, f reasoner.Factory, iterations int, j job) (result, error) {
	roles := j.g.d.Roles()
	var seats []player.Player
	for i, r := range roles {
		switch {
		case r == reasoner.Nature:
		case i == j.g.role && j.player != sampleName:
			p, err := mctsplayer.New(j.player, mctsplayer.Options{NewReasoner: f, Seed: j.seed,
				GDLIISearch: ismcts.Config{Iterations: iterations}})
			if err != nil {
				return result{}, err
			}
			seats = append(seats, p)
		case i == j.g.role:
			seats = append(seats, determinizer.New(determinizer.Options{NewReasoner: f, Seed: j.seed,
				Search: ismcts.Config{Iterations: iterations}}))
		case i == j.g.sol.Opponent:
			seats = append(seats, newPolicyPlayer("best-reply", j.opponent, f, j.seed))
		default:
			return result{}, fmt.Errorf("%s: no player for %s", j.g.key, r)
		}
	}
	id := fmt.Sprintf("%s.%s.%d", j.g.key, idWord(j.player), j.seed)
	ref := &gamemaster.Referee{NewReasoner: f}
	rec, err := ref.Run(ctx, &gamemaster.Match{ID: id, Game: j.g.g, Players: seats, Seed: j.seed,
		StartClock: startClock, PlayClock: playClock})
	if err != nil {
		return result{}, fmt.Errorf("match %s: %w", id, err)
	}
	if len(rec.GoalValues) != len(roles) {
		return result{}, fmt.Errorf("match %s: no goals recorded", id)
	}
	if os.Getenv("INFOVALUE_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "%s: %v %v %v\n", id, rec.Moves, rec.GoalValues, rec.Errors)
	}
	faults := 0
	for _, errs := range rec.Errors {
		if j.g.role < len(errs) && errs[j.g.role] != "" {
			faults++
		}
	}
	return result{Game: j.g.key, Player: j.player, Iterations: iterations, Seed: j.seed,
		Goal: rec.GoalValues[j.g.role], Faults: faults, Choices: choices(rec, j.g.role)}, nil
}

// idWord returns name as a word of a match ID: its characters other than
// letters, digits, '.', '_' and '-' (a specification's ':' and '=')
// become '_'.
func idWord(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r == '-' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, name)
}

// choices returns the role's view before each of its moves in rec, and
// the move.
func choices(rec *record.Record, role int) [][2]string {
	var out [][2]string
	var steps []infoset.Step
	for i, joint := range rec.Moves {
		out = append(out, [2]string{exact.Key(steps), joint[role]})
		st := infoset.Step{Move: reasoner.Move(joint[role])}
		if i < len(rec.Percepts) && role < len(rec.Percepts[i]) {
			for _, p := range rec.Percepts[i][role] {
				st.Percepts = append(st.Percepts, reasoner.Percept(p))
			}
		}
		steps = append(steps, st)
	}
	return out
}

// stats sums up the goals of one player in one game.
type stats struct {
	n          int
	mean, half float64
	faults     int
}

func statsOf(done map[string]result, game, player string, iterations, matches int) stats {
	var goals []float64
	var s stats
	for seed := range seeds(1, matches) {
		r, ok := done[result{Game: game, Player: player, Iterations: iterations, Seed: seed}.key()]
		if !ok {
			continue
		}
		goals = append(goals, float64(r.Goal))
		s.faults += r.Faults
	}
	s.n = len(goals)
	if s.n > 0 {
		s.mean, s.half = tournament.MeanCI95(goals)
	}
	return s
}

func (s stats) cell() string {
	switch {
	case s.n == 0:
		return "-"
	case s.half < 0:
		return fmt.Sprintf("%.1f (1 match)", s.mean)
	}
	return fmt.Sprintf("%.1f ± %.1f", s.mean, s.half)
}

// writePage writes the page: a row per game.
func writePage(w io.Writer, cmd string, c config, gs []*game, done map[string]result) {
	fmt.Fprintf(w, "# Valuing information: mcts against the exact value\n\n")
	fmt.Fprintf(w, "<!-- Written by infovalue: run it again, do not edit this file. -->\n\n")
	fmt.Fprintf(w, "Written by\n\n```\n%s\n```\n\n", cmd)
	fmt.Fprintf(w, "Each player searched %d iterations per move (the clocks, %v, only bound a player that hangs), "+
		"in the game's first role, against nature drawn from the match's seed and, in a game with an opponent (bankerThief's thief), "+
		"the opponent's best reply, computed by the exhaustive search, to the strategy the player showed in as many other matches "+
		"(seeds %d to %d, against the best reply to the exact strategy). The exact value is the role's optimal expected goal, computed from the rules by "+
		"exhaustive search over its information sets (package reasoner/infoset/exact); against an opponent, the most a pure "+
		"strategy can expect when the opponent knows it and best-responds to what it sees. A player's cell is its mean goal "+
		"with the 95%% interval over its matches; faults are the measured role's timeouts, errors and illegal moves.\n\n",
		c.iterations, playClock, c.matches+1, 2*c.matches)
	fmt.Fprintf(w, "The GDL-II search of %s takes %s.\n\n", c.mcts, settingsOf(c.search))
	header := []string{"game", "role", "against", "exact value", c.mcts, "determinizer (sample)", c.mcts + " − exact", "matches", fmt.Sprintf("faults (%s, sample)", c.mcts)}
	resultspage.WriteHeader(w, header)
	for _, g := range gs {
		roles := g.d.Roles()
		against := "nature"
		if g.sol.Opponent >= 0 {
			against = roles[g.sol.Opponent] + " (best reply to the strategy played), nature"
		}
		m := statsOf(done, g.key, c.mcts, c.iterations, c.matches)
		s := statsOf(done, g.key, sampleName, c.iterations, c.matches)
		diff := "-"
		if m.n > 0 {
			diff = fmt.Sprintf("%+.1f", m.mean-g.sol.Value)
		}
		resultspage.WriteRow(w, []string{g.key, roles[g.role], against, fmt.Sprintf("%.1f", g.sol.Value),
			m.cell(), s.cell(), diff, fmt.Sprintf("%d, %d", m.n, s.n), fmt.Sprintf("%d, %d", m.faults, s.faults)})
	}
	fmt.Fprintln(w)
	for _, g := range gs {
		m := statsOf(done, g.key, c.mcts, c.iterations, c.matches)
		s := statsOf(done, g.key, sampleName, c.iterations, c.matches)
		if m.n < 2 || s.n < 2 {
			continue
		}
		fmt.Fprintf(w, "- %s: %s is %s the exact value (within 5 points: %v); the determinizer is %.1f below it, its interval %.1f (below by more than it: %v).\n",
			g.key, c.mcts, within(m.mean-g.sol.Value), math.Abs(m.mean-g.sol.Value) <= 5, m.mean-s.mean, s.half, m.mean-s.mean > s.half)
	}
}

// settingsOf returns the settings of search, with the defaults it
// leaves, as KEY=VALUE.
func settingsOf(search ismcts.Config) string {
	var set []string
	for _, s := range search.Settings() {
		s.SetDefault()
		set = append(set, s.Key+"="+s.String())
	}
	return strings.Join(set, ", ")
}

// within says how far a mean is from the exact value.
func within(d float64) string {
	if d >= 0 {
		return fmt.Sprintf("%.1f above", d)
	}
	return fmt.Sprintf("%.1f below", -d)
}
