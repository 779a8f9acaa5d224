package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/peterh/liner"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// queryCommands describes the commands of ggp query, for help and -h.
var queryCommands = []struct{ usage, summary string }{
	{"legal [ROLE]", "list the legal moves of every role, or of ROLE"},
	{"play MOVE...", "play one move per role, in role order; a role with a single legal move may be left out"},
	{"random", "play a random legal move for every role"},
	{"undo", "take back the last joint move"},
	{"state", "print the facts of the current state"},
	{"terminal", "tell whether the current state ends the game"},
	{"goals", "print the goal value of every role in the current state"},
	{"ask QUERY", "print the instances of QUERY that hold in the current state, such as (line ?w) or (true (cell 1 ?n x))"},
	{"history", "list the joint moves played so far"},
	{"help", "print this list"},
	{"quit", "leave; so does the end of the input"},
}

// queryVerbs are the command names, for completion.
var queryVerbs = []string{"ask", "goals", "help", "history", "legal", "play", "quit", "random", "state", "terminal", "undo"}

// writeQueryHelp lists the commands, their summaries wrapped to fit 80
// columns beside the usage.
func writeQueryHelp(w io.Writer) {
	const indent = "                " // the width of "  %-13s "
	for _, c := range queryCommands {
		var b strings.Builder
		writeWrapped(&b, c.summary, indent, 78)
		fmt.Fprintf(w, "  %-13s %s", c.usage, strings.TrimPrefix(b.String(), indent))
	}
	fmt.Fprintln(w, "Lines starting with # are ignored.")
}

// runQuery lets a user, or a script, explore a game's rules: play moves,
// take them back and ask the rules any question in the current state.
func runQuery(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "query", "[flags] GAME",
		"ggp query ticTacToe\n  printf 'play (mark 2 2)\\nask (line ?w)\\n' | ggp query ticTacToe")
	timeout := flags.Duration("timeout", 10*time.Second, "give up a question to the rules after this long, so that rules that loop cannot hang the session")
	backendName := addBackendFlag(flags)
	seed := flags.Uint64("seed", 0, "seed of the random command, to replay a session (0: a new seed each run)")
	usage := flags.Usage
	flags.Usage = func() {
		usage()
		fmt.Fprintln(env.stderr, "\nCommands, one a line, read from a terminal with line editing or from a pipe:")
		writeQueryHelp(env.stderr)
	}
	args, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: want one GAME, got %d arguments", errUsage, len(args))
	}
	if *timeout <= 0 {
		return fmt.Errorf("%w: -timeout must be positive", errUsage)
	}
	factory, err := newFactory(env, *backendName)
	if err != nil {
		return err
	}
	g, d, r, err := loadReasoner(ctx, args[0], factory)
	if err != nil {
		return err
	}
	// ask answers any query; a backend that cannot, such as a network
	// grounded for the game's queries alone, leaves it to the reference.
	asker, ok := r.(reasoner.Asker)
	if !ok {
		ref, err := backend.New(backend.Prolog, backend.Options{})
		if err != nil {
			return err
		}
		pr, err := ref(ctx, d)
		if err != nil {
			return err
		}
		asker = pr.(reasoner.Asker)
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	s := &querySession{
		ctx:       ctx,
		out:       env.stdout,
		r:         r,
		asker:     asker,
		roles:     r.Roles(),
		timeout:   *timeout,
		rng:       rand.New(rand.NewPCG(*seed, 0)),
		relations: definedRelations(d),
	}
	var initial *reasoner.State
	err = s.ask("initial state", func(ctx context.Context) (err error) {
		initial, err = r.Initial(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.steps = []queryStep{{state: initial}}

	var lines lineReader
	var prompts io.Writer // where the prompts go, if anywhere
	switch stdout, _ := env.stdout.(*os.File); {
	case !env.stdinIsTerminal:
		lines = &pipeReader{r: bufio.NewReader(env.stdin)}
	case stdout == nil || !isTerminal(stdout):
		// Typed at a terminal but written elsewhere: keep the prompts out
		// of the output. The terminal edits the line as usual.
		prompts = env.stderr
		lines = &pipeReader{r: bufio.NewReader(env.stdin), prompts: prompts}
	default:
		prompts = env.stdout
		t := newTerminalReader(env, s.complete)
		defer t.close()
		lines = t
	}
	// report prints the error of a command on one line, which names the
	// line of a script.
	report := func(lineNo int, err error) {
		if env.stdinIsTerminal || lineNo == 0 {
			fmt.Fprintf(env.stderr, "error: %v\n", err)
		} else {
			fmt.Fprintf(env.stderr, "line %d: %v\n", lineNo, err)
		}
	}

	fmt.Fprintf(env.stdout, "%s: roles %s", g.Key, strings.Join(s.roles, ", "))
	if prompts != nil {
		fmt.Fprint(env.stdout, "; type help for the commands")
	}
	fmt.Fprintln(env.stdout)
	if err := s.show(); err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		report(0, err)
	}
	// The prompt names the game, without what a terminal would take for
	// control sequences.
	prompt := strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, g.Key)
	for lineNo := 1; ; lineNo++ {
		line, err := lines.readLine(ctx, fmt.Sprintf("%s %d> ", prompt, len(s.steps)-1))
		switch {
		case errors.Is(err, io.EOF):
			if prompts != nil {
				fmt.Fprintln(prompts) // end the prompt's line
			}
			return nil
		case ctx.Err() != nil:
			return errInterrupted
		case errors.Is(err, errLineTooLong):
			// The rest of the input may be fine.
			report(lineNo, err)
			continue
		case err != nil:
			return fmt.Errorf("reading commands: %w", err)
		}
		cmd, err := parseQueryCommand(line)
		if err == nil && cmd.verb == "quit" {
			return nil
		}
		if err == nil {
			err = s.exec(cmd)
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			report(lineNo, err)
		}
	}
}

// errInterrupted ends a session whose context is cancelled, as by Ctrl-C
// while the rules are being asked something.
var errInterrupted = errors.New("interrupted")

// A queryCommand is one parsed line of input.
type queryCommand struct {
	verb  string          // the command, lower-cased; "" for an empty line
	role  string          // legal: the role, or "" for every role
	moves []reasoner.Move // play: the moves as typed, in canonical form
	query *gdl.Sentence   // ask
}

// parseQueryCommand parses one line of input. It checks the syntax of the
// arguments but not their meaning, which depends on the game and state.
func parseQueryCommand(line string) (queryCommand, error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return queryCommand{}, nil
	}
	verb, rest := line, ""
	if i := strings.IndexFunc(line, unicode.IsSpace); i >= 0 {
		verb, rest = line[:i], strings.TrimSpace(line[i:])
	}
	cmd := queryCommand{verb: strings.ToLower(verb)}
	switch cmd.verb {
	case "legal":
		if len(strings.Fields(rest)) > 1 {
			return cmd, fmt.Errorf("legal takes at most one ROLE, got %q", clip(rest))
		}
		cmd.role = rest
	case "play":
		moves, err := parseMoves(rest)
		if err != nil {
			return cmd, fmt.Errorf("play: %w", err)
		}
		cmd.moves = moves
	case "ask":
		if rest == "" {
			return cmd, errors.New("ask wants a query, such as (line ?w)")
		}
		q, err := gdl.ParseSentence(rest)
		if err != nil {
			return cmd, fmt.Errorf("ask: bad query %q: %s", clip(rest), gdlMessage(err))
		}
		cmd.query = q
	case "exit":
		cmd.verb = "quit"
		fallthrough
	case "random", "undo", "state", "terminal", "goals", "history", "help", "quit":
		if rest != "" {
			return cmd, fmt.Errorf("%s takes no arguments, got %q", cmd.verb, clip(rest))
		}
	default:
		if strings.HasPrefix(line, "(") {
			return cmd, fmt.Errorf("unknown command %q; to play moves, type %q", clip(verb), "play "+clip(line))
		}
		return cmd, fmt.Errorf("unknown command %q; type help for the commands", clip(verb))
	}
	return cmd, nil
}

// parseMoves reads a sequence of ground terms, such as "(mark 1 1) noop",
// and returns them in canonical form, so that "( mark 1  1 )" compares
// equal to the reasoner's "(mark 1 1)".
func parseMoves(src string) ([]reasoner.Move, error) {
	es, err := gdl.ReadExprs("", []byte(src))
	if err != nil {
		return nil, fmt.Errorf("bad moves %q: %s", clip(src), gdlMessage(err))
	}
	moves := make([]reasoner.Move, 0, len(es))
	for _, e := range es {
		t, err := gdl.ExprTerm(e)
		if err != nil {
			return nil, fmt.Errorf("bad move %s: %s", clip(e.String()), gdlMessage(err))
		}
		if hasVar(t) {
			return nil, fmt.Errorf("bad move %s: a move cannot hold variables", clip(gdl.Format(t)))
		}
		moves = append(moves, reasoner.Move(gdl.Format(t)))
	}
	return moves, nil
}

// clip shortens text typed by the user to quote it in a one-line message.
func clip(text string) string {
	const max = 60
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "..."
}

// gdlMessage returns the message of a gdl error without its position, which
// would count from the start of an argument rather than of the line.
func gdlMessage(err error) string {
	var e *gdl.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}

func hasVar(t gdl.Term) bool {
	switch t := t.(type) {
	case *gdl.Var:
		return true
	case *gdl.Func:
		return slices.ContainsFunc(t.Args, hasVar)
	}
	return false
}

// definedRelations returns the arities of each relation that the rules of d
// define, with true and does, which the state and the moves define.
func definedRelations(d *gdl.Description) map[string][]int {
	rels := map[string][]int{gdl.KeyTrue: {1}, gdl.KeyDoes: {2}}
	for _, r := range d.Rules {
		name, n := r.Head.Name.Name, len(r.Head.Args)
		if !slices.Contains(rels[name], n) {
			rels[name] = append(rels[name], n)
		}
	}
	return rels
}

// A querySession is the state of one ggp query session: the game, the
// states played through and where the output goes.
type querySession struct {
	ctx       context.Context
	out       io.Writer
	r         reasoner.Reasoner
	asker     reasoner.Asker // answers ask, on the same rules
	roles     []string
	timeout   time.Duration // the limit of each question to the reasoner
	rng       *rand.Rand
	relations map[string][]int // the arities of the relations the rules define
	steps     []queryStep      // steps[0] holds the initial state, the last one the current state
}

// A queryStep is one state of the session and what the rules say of it.
type queryStep struct {
	state *reasoner.State
	joint []reasoner.Move // the joint move that led to state; nil for the initial state

	// Filled in by analyse; known stays false after a failure, so that a
	// later command tries again.
	known    bool
	terminal bool
	legal    [][]reasoner.Move // of each role, when not terminal
}

func (s *querySession) current() *queryStep { return &s.steps[len(s.steps)-1] }

// ask runs f, a question to the reasoner, with the session's time limit.
// A question that runs out of time gets an error that says so in words.
func (s *querySession) ask(what string, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	err := f(ctx)
	if err != nil && s.ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: no answer within %v; the rules may loop (-timeout sets the limit)", what, s.timeout)
	}
	return err
}

// analyse finds out whether the current state is terminal and, if not, the
// legal moves of every role.
func (s *querySession) analyse() (*queryStep, error) {
	st := s.current()
	if st.known {
		return st, nil
	}
	err := s.ask("terminal", func(ctx context.Context) (err error) {
		st.terminal, err = s.r.Terminal(ctx, st.state)
		return err
	})
	if err != nil {
		return st, err
	}
	st.legal = nil
	if !st.terminal {
		legal := make([][]reasoner.Move, len(s.roles))
		for i := range s.roles {
			err := s.ask("legal moves", func(ctx context.Context) (err error) {
				legal[i], err = s.r.Legal(ctx, st.state, i)
				return err
			})
			if err != nil {
				return st, err
			}
		}
		st.legal = legal
	}
	st.known = true
	return st, nil
}

// exec carries out one command. A command that fails leaves the session as
// it was, but for a move played whose new state the rules then fail to
// describe: the error is reported and the move stands, to undo or go on from.
func (s *querySession) exec(cmd queryCommand) error {
	switch cmd.verb {
	case "":
		return nil
	case "help":
		writeQueryHelp(s.out)
		return nil
	case "state":
		s.printState()
		return nil
	case "history":
		if len(s.steps) == 1 {
			fmt.Fprintln(s.out, "no moves played")
		}
		for i := 1; i < len(s.steps); i++ {
			s.printJoint(i)
		}
		return nil
	case "terminal":
		st, err := s.analyse()
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "terminal: %s\n", yesNo(st.terminal))
		return nil
	case "goals":
		return s.printGoals()
	case "legal":
		return s.legal(cmd.role)
	case "play":
		return s.play(cmd.moves)
	case "random":
		return s.random()
	case "undo":
		if len(s.steps) == 1 {
			return errors.New("nothing to undo: this is the initial state")
		}
		fmt.Fprint(s.out, "undone ")
		s.printJoint(len(s.steps) - 1)
		s.steps = s.steps[:len(s.steps)-1]
		return s.show()
	case "ask":
		return s.query(cmd.query)
	}
	// quit is the caller's to handle.
	return fmt.Errorf("unknown command %q", cmd.verb)
}

// show prints the current state, whether it is terminal, and its goals if
// it is or else the legal moves.
func (s *querySession) show() error {
	s.printState()
	st, err := s.analyse()
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "terminal: %s\n", yesNo(st.terminal))
	if st.terminal {
		return s.printGoals()
	}
	fmt.Fprintln(s.out, "legal moves:")
	for i, role := range s.roles {
		printMoves(s.out, role, st.legal[i])
	}
	return nil
}

func (s *querySession) printState() {
	st := s.current()
	fmt.Fprintf(s.out, "state %d:\n", len(s.steps)-1)
	for _, f := range st.state.Facts() {
		fmt.Fprintf(s.out, "    %s\n", f)
	}
}

// printJoint prints the joint move that led to step i.
func (s *querySession) printJoint(i int) {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d:", i)
	for r, m := range s.steps[i].joint {
		if r > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %s", s.roles[r], m)
	}
	fmt.Fprintln(s.out, b.String())
}

func printMoves(w io.Writer, role string, moves []reasoner.Move) {
	if len(moves) == 0 {
		fmt.Fprintf(w, "    %s: none\n", role)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "    %s:", role)
	for _, m := range moves {
		b.WriteByte(' ')
		b.WriteString(string(m))
	}
	fmt.Fprintln(w, b.String())
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *querySession) printGoals() error {
	st := s.current()
	var goals []int
	err := s.ask("goals", func(ctx context.Context) (err error) {
		goals, err = s.r.Goals(ctx, st.state)
		return err
	})
	var ge *reasoner.GoalError
	if err != nil && !errors.As(err, &ge) || len(goals) != len(s.roles) {
		return err
	}
	parts := make([]string, len(s.roles))
	for i, role := range s.roles {
		if goals[i] < 0 {
			parts[i] = role + " ?"
		} else {
			parts[i] = fmt.Sprintf("%s %d", role, goals[i])
		}
	}
	fmt.Fprintf(s.out, "goals: %s\n", strings.Join(parts, ", "))
	// The values that are defined are worth showing; the others are an
	// error of the rules, reported as one.
	return err
}

func (s *querySession) legal(role string) error {
	i := -1
	if role != "" {
		if i = slices.Index(s.roles, role); i < 0 {
			return fmt.Errorf("unknown role %q; the roles are %s", role, strings.Join(s.roles, ", "))
		}
	}
	st, err := s.analyse()
	if err != nil {
		return err
	}
	if st.terminal {
		fmt.Fprintln(s.out, "no legal moves: the state is terminal")
		return nil
	}
	fmt.Fprintln(s.out, "legal moves:")
	for r, name := range s.roles {
		if i < 0 || r == i {
			printMoves(s.out, name, st.legal[r])
		}
	}
	return nil
}

// playable returns the legal moves of every role in the current state, or
// an error if no joint move can be played there.
func (s *querySession) playable() ([][]reasoner.Move, error) {
	st, err := s.analyse()
	if err != nil {
		return nil, err
	}
	if st.terminal {
		return nil, errors.New("the game is over: the state is terminal (undo takes back the last move)")
	}
	for i, ms := range st.legal {
		if len(ms) == 0 {
			return nil, fmt.Errorf("%s has no legal move in this state, which the rules should not allow", s.roles[i])
		}
	}
	return st.legal, nil
}

func (s *querySession) play(typed []reasoner.Move) error {
	legal, err := s.playable()
	if err != nil {
		return err
	}
	joint, err := jointMove(s.roles, legal, typed)
	if err != nil {
		return err
	}
	return s.advance(joint)
}

func (s *querySession) random() error {
	legal, err := s.playable()
	if err != nil {
		return err
	}
	joint := make([]reasoner.Move, len(legal))
	for i, ms := range legal {
		joint[i] = ms[s.rng.IntN(len(ms))]
	}
	return s.advance(joint)
}

// advance plays joint, a legal joint move, and shows where it leads.
func (s *querySession) advance(joint []reasoner.Move) error {
	var next *reasoner.State
	err := s.ask("next state", func(ctx context.Context) (err error) {
		next, err = s.r.Next(ctx, s.current().state, joint)
		return err
	})
	if err != nil {
		return err
	}
	s.steps = append(s.steps, queryStep{state: next, joint: joint})
	s.printJoint(len(s.steps) - 1)
	return s.show()
}

// jointMove matches the moves typed for play to the roles and checks that
// each is legal. The moves are one per role, in role order, or one per role
// with a choice, the roles with a single legal move playing that move.
func jointMove(roles []string, legal [][]reasoner.Move, typed []reasoner.Move) ([]reasoner.Move, error) {
	var choosing []int // the roles with more than one legal move
	for i, ms := range legal {
		if len(ms) != 1 {
			choosing = append(choosing, i)
		}
	}
	joint := make([]reasoner.Move, len(roles))
	switch len(typed) {
	case len(roles):
		copy(joint, typed)
	case len(choosing):
		for i, ms := range legal {
			if len(ms) == 1 {
				joint[i] = ms[0]
			}
		}
		for k, i := range choosing {
			joint[i] = typed[k]
		}
	default:
		all := fmt.Sprintf("%d, one per role: %s", len(roles), strings.Join(roles, ", "))
		if len(choosing) == len(roles) {
			return nil, fmt.Errorf("got %s; play wants %s", countMoves(len(typed)), all)
		}
		names := make([]string, len(choosing))
		for k, i := range choosing {
			names[k] = roles[i]
		}
		some := "none, as every role has a single legal move"
		if len(choosing) > 0 {
			some = fmt.Sprintf("%d, for %s, as the other roles have a single legal move", len(choosing), strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("got %s; play wants %s; or %s", countMoves(len(typed)), some, all)
	}
	for i, m := range joint {
		if !slices.Contains(legal[i], m) {
			return nil, fmt.Errorf("%s is not a legal move for %s (legal %s lists them)", m, roles[i], roles[i])
		}
	}
	return joint, nil
}

func countMoves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// query answers an ask command: the instances of q that hold, one a line.
func (s *querySession) query(q *gdl.Sentence) error {
	st := s.current()
	var answers []string
	what := "ask " + gdl.Format(q)
	err := s.ask(what, func(ctx context.Context) (err error) {
		if answers, err = s.asker.Ask(ctx, st.state, q); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, a := range answers {
		fmt.Fprintln(s.out, a)
	}
	if len(answers) == 0 {
		fmt.Fprintf(s.out, "no answers%s\n", s.noAnswerHint(q))
	}
	return nil
}

// noAnswerHint explains a query without answers when the likely reason is
// a slip: a relation the rules do not define, or a fact of the state asked
// without true.
func (s *querySession) noAnswerHint(q *gdl.Sentence) string {
	name, n := q.Name.Name, len(q.Args)
	arities := s.relations[name]
	if slices.Contains(arities, n) {
		return ""
	}
	hint := fmt.Sprintf(" (no rule defines %s/%d", name, n)
	if len(arities) > 0 {
		parts := make([]string, len(arities))
		for i, a := range arities {
			parts[i] = fmt.Sprintf("%s/%d", name, a)
		}
		hint += ", only " + strings.Join(parts, ", ")
	}
	for _, f := range s.current().state.Facts() {
		if string(f) == name || strings.HasPrefix(string(f), "("+name+" ") {
			hint += fmt.Sprintf("; facts of the state are asked as (true %s)", gdl.Format(q))
			break
		}
	}
	return hint + ")"
}

// complete returns the completions of the word that ends line, for line
// editing: command names, roles after legal and legal moves after play.
// head is the text before that word.
func (s *querySession) complete(line string) (head string, completions []string) {
	verb, rest, found := strings.Cut(line, " ")
	if !found {
		for _, v := range queryVerbs {
			if strings.HasPrefix(v, strings.ToLower(verb)) {
				completions = append(completions, v)
			}
		}
		return "", completions
	}
	var words []string
	switch strings.ToLower(verb) {
	case "legal":
		words = s.roles
	case "play":
		if st := s.current(); st.known {
			for _, ms := range st.legal {
				for _, m := range ms {
					words = append(words, string(m))
				}
			}
			slices.Sort(words)
			words = slices.Compact(words)
		}
	}
	start := len(verb) + 1 + lastTermStart(rest)
	for _, w := range words {
		if strings.HasPrefix(w, line[start:]) {
			completions = append(completions, w)
		}
	}
	return line[:start], completions
}

// lastTermStart returns the offset in s of its last term, which may be
// incomplete: where the text after the last complete term starts.
func lastTermStart(s string) int {
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '(':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')':
			depth = max(depth-1, 0)
			if depth == 0 {
				start = i + 1
			}
		case unicode.IsSpace(c):
			if depth == 0 {
				start = i + 1
			}
		}
	}
	return start
}

// A lineReader reads commands one line at a time.
type lineReader interface {
	// readLine returns the next line without its line ending, or io.EOF at
	// the end of the input. It gives up when ctx is done. prompt is shown
	// when the input is a terminal.
	readLine(ctx context.Context, prompt string) (string, error)
}

// maxLineBytes bounds a command line, so that endless input without a line
// end cannot take all the memory.
const maxLineBytes = 1 << 20

var errLineTooLong = fmt.Errorf("line longer than %d bytes ignored", maxLineBytes)

// pipeReader reads lines from a pipe or file, without prompts.
type pipeReader struct {
	r *bufio.Reader
	// prompts, when not nil, gets the prompts: for a terminal whose
	// output is not one, so that the prompts stay out of the output.
	prompts io.Writer
}

func (p *pipeReader) readLine(ctx context.Context, prompt string) (string, error) {
	if p.prompts != nil {
		fmt.Fprint(p.prompts, prompt)
	}
	type result struct {
		line string
		err  error
	}
	// A read cannot be interrupted, so it runs apart and is left behind
	// when ctx ends the session.
	done := make(chan result, 1)
	go func() {
		line, err := p.read()
		done <- result{line, err}
	}()
	select {
	case r := <-done:
		return r.line, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// read returns the next line; a line too long is skipped with an error.
func (p *pipeReader) read() (string, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := p.r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > maxLineBytes+2 { // +2 for "\r\n"
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(line) > 0 || tooLong):
			// A last line without a line end; EOF comes with the next read.
		case err != nil:
			return "", err
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if tooLong || len(text) > maxLineBytes {
			return "", errLineTooLong
		}
		return text, nil
	}
}

// terminalReader reads lines from a terminal with line editing and a
// history of the lines typed, through liner.
type terminalReader struct {
	env   *environment
	liner *liner.State
	// plain takes over when liner finds that the output is not a terminal.
	plain *pipeReader
}

func newTerminalReader(env *environment, complete func(string) (string, []string)) *terminalReader {
	l := liner.NewLiner()
	l.SetCtrlCAborts(true)
	l.SetWordCompleter(func(line string, pos int) (string, []string, string) {
		rs := []rune(line) // pos counts runes
		head, completions := complete(string(rs[:pos]))
		return head, completions, string(rs[pos:])
	})
	l.SetTabCompletionStyle(liner.TabPrints)
	return &terminalReader{env: env, liner: l}
}

func (t *terminalReader) readLine(ctx context.Context, prompt string) (string, error) {
	for t.plain == nil {
		line, err := t.liner.Prompt(prompt)
		switch {
		case errors.Is(err, liner.ErrPromptAborted):
			// Ctrl-C drops the line being typed, as in a shell.
			continue
		case errors.Is(err, liner.ErrNotTerminalOutput):
			t.liner.Close()
			t.plain = &pipeReader{r: bufio.NewReader(t.env.stdin), prompts: t.env.stderr}
		case err != nil:
			return "", err
		default:
			if strings.TrimSpace(line) != "" {
				t.liner.AppendHistory(line)
			}
			return line, nil
		}
	}
	return t.plain.readLine(ctx, prompt)
}

func (t *terminalReader) close() {
	if t.plain == nil {
		t.liner.Close()
	}
}
