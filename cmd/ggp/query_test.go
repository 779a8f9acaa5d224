package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// scriptReader is the standard input of a scripted session. It hands out
// one line per Read, and notes how much output there is when each line is
// read: the REPL asks for the next line only once it is done with the last
// one, so the output between two notes is that of one command.
type scriptReader struct {
	lines       []string
	out, errOut *bytes.Buffer
	outAt       []int // outAt[i]: length of the output when line i was read
	errAt       []int
}

func (r *scriptReader) Read(p []byte) (int, error) {
	if len(r.outAt) == len(r.lines) {
		return 0, io.EOF
	}
	line := r.lines[len(r.outAt)] + "\n"
	if len(p) < len(line) {
		return 0, errors.New("scriptReader: line longer than the read buffer")
	}
	r.outAt = append(r.outAt, r.out.Len())
	r.errAt = append(r.errAt, r.errOut.Len())
	return copy(p, line), nil
}

// transcript is what a scripted session printed: the output before the
// first command, and the output and errors of each command.
type transcript struct {
	code     int
	intro    string
	out, err []string // by command; "" for a command never read
}

// runQueryScript runs ggp query with args and the commands as input.
func runQueryScript(t *testing.T, args []string, commands ...string) transcript {
	t.Helper()
	var out, errOut bytes.Buffer
	in := &scriptReader{lines: commands, out: &out, errOut: &errOut}
	env := &environment{stdin: in, stdout: &out, stderr: &errOut}
	code := run(context.Background(), env, append([]string{"query"}, args...))
	tr := transcript{code: code, out: make([]string, len(commands)), err: make([]string, len(commands))}
	outAt := append(in.outAt, out.Len())
	errAt := append(in.errAt, errOut.Len())
	tr.intro = out.String()[:outAt[0]]
	if errAt[0] > 0 {
		t.Errorf("errors before the first command:\n%s", errOut.String()[:errAt[0]])
	}
	for i := 0; i+1 < len(outAt); i++ {
		tr.out[i] = out.String()[outAt[i]:outAt[i+1]]
		tr.err[i] = errOut.String()[errAt[i]:errAt[i+1]]
	}
	return tr
}

// stateFacts returns the facts of the last state printed in out, and
// whether out prints one.
func stateFacts(out string) ([]string, bool) {
	var facts []string
	found, in := false, false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "state ") && strings.HasSuffix(line, ":"):
			facts, found, in = nil, true, true
		case in && strings.HasPrefix(line, "    "):
			facts = append(facts, strings.TrimSpace(line))
		default:
			in = false
		}
	}
	return facts, found
}

// blankBoard is the initial state of ticTacToe, written out from its rules.
var blankBoard = []string{
	"(cell 1 1 b)", "(cell 1 2 b)", "(cell 1 3 b)",
	"(cell 2 1 b)", "(cell 2 2 b)", "(cell 2 3 b)",
	"(cell 3 1 b)", "(cell 3 2 b)", "(cell 3 3 b)",
	"(control xplayer)",
}

// board returns the ticTacToe state with the given marks, such as
// "(cell 1 1 x)", on a blank board and control.
func board(control string, marks ...string) []string {
	facts := slices.Clone(blankBoard[:9])
	for _, m := range marks {
		i := slices.Index(facts, m[:len("(cell 1 1 ")]+"b)")
		facts[i] = m
	}
	return append(facts, "(control "+control+")")
}

func TestQueryTicTacToe(t *testing.T) {
	commands := []string{
		/* 0 */ "legal",
		/* 1 */ "play (mark 1 1)",
		/* 2 */ "play ( mark 1  1 )", // oplayer's move now, on a taken cell
		/* 3 */ "state",
		/* 4 */ "legal xplayer",
		/* 5 */ "play (mark 2 2) noop", // wrong order: xplayer has only noop
		/* 6 */ "play noop (mark 2 1)",
		/* 7 */ "undo",
		/* 8 */ "PLAY (mark 2 1)",
		/* 9 */ "play (mark 1 2)",
		/* 10 */ "ask (line ?w)",
		/* 11 */ "ask (true (cell 1 ?n x))",
		/* 12 */ "play (mark 2 2)",
		/* 13 */ "play (mark 1 3)",
		/* 14 */ "ask (line ?w)",
		/* 15 */ "terminal",
		/* 16 */ "goals",
		/* 17 */ "play (mark 3 3)",
		/* 18 */ "random",
		/* 19 */ "legal",
		/* 20 */ "history",
		/* 21 */ "undo",
		/* 22 */ "quit",
		/* 23 */ "play (mark 3 3)", // after quit: never read
	}
	tr := runQueryScript(t, []string{"ticTacToe"}, commands...)
	if tr.code != 0 {
		t.Errorf("exit %d, want 0", tr.code)
	}
	check := func(i int, outHas, errHas []string) {
		t.Helper()
		for _, s := range outHas {
			if !strings.Contains(tr.out[i], s) {
				t.Errorf("%q: output lacks %q:\n%s", commands[i], s, tr.out[i])
			}
		}
		if len(errHas) == 0 && tr.err[i] != "" {
			t.Errorf("%q: unexpected error %q", commands[i], tr.err[i])
		}
		for _, s := range errHas {
			if !strings.Contains(tr.err[i], s) {
				t.Errorf("%q: error %q lacks %q", commands[i], tr.err[i], s)
			}
		}
		if len(errHas) > 0 && strings.Count(tr.err[i], "\n") != 1 {
			t.Errorf("%q: error is not one line: %q", commands[i], tr.err[i])
		}
	}
	checkState := func(i int, want []string) {
		t.Helper()
		got, ok := stateFacts(tr.out[i])
		if !ok {
			t.Errorf("%q: no state printed:\n%s", commands[i], tr.out[i])
		} else if !slices.Equal(got, want) {
			t.Errorf("%q: state\n%v\nwant\n%v", commands[i], got, want)
		}
	}
	checkNoOutput := func(i int) {
		t.Helper()
		if tr.out[i] != "" {
			t.Errorf("%q: the state changed or was printed after an error:\n%s", commands[i], tr.out[i])
		}
	}
	const xToMove = "xplayer: (mark 1 1) (mark 1 2) (mark 1 3) (mark 2 1) (mark 2 2) (mark 2 3) (mark 3 1) (mark 3 2) (mark 3 3)\n"

	// On start: roles, the initial state, and the legal moves.
	if !strings.HasPrefix(tr.intro, "ticTacToe: roles xplayer, oplayer\n") {
		t.Errorf("intro does not name the game and roles:\n%s", tr.intro)
	}
	if got, _ := stateFacts(tr.intro); !slices.Equal(got, blankBoard) {
		t.Errorf("initial state %v, want %v", got, blankBoard)
	}
	for _, s := range []string{"state 0:\n", "terminal: no\n", xToMove, "oplayer: noop\n"} {
		if !strings.Contains(tr.intro, s) {
			t.Errorf("intro lacks %q:\n%s", s, tr.intro)
		}
	}
	check(0, []string{"legal moves:\n", xToMove, "oplayer: noop\n"}, nil)

	// oplayer's only move, noop, may be left out.
	check(1, []string{"step 1: xplayer (mark 1 1), oplayer noop\n", "state 1:\n", "terminal: no\n",
		"xplayer: noop\n", "oplayer: (mark 1 2) (mark 1 3) (mark 2 1) (mark 2 2) (mark 2 3) (mark 3 1) (mark 3 2) (mark 3 3)\n"}, nil)
	afterOne := board("oplayer", "(cell 1 1 x)")
	checkState(1, afterOne)

	// Illegal: the move, normalised, goes to oplayer, whose turn it is.
	check(2, nil, []string{"line 3: (mark 1 1) is not a legal move for oplayer"})
	checkNoOutput(2)
	checkState(3, afterOne)
	check(4, []string{"xplayer: noop\n"}, nil)
	if strings.Contains(tr.out[4], "oplayer") {
		t.Errorf("legal xplayer lists oplayer's moves:\n%s", tr.out[4])
	}
	check(5, nil, []string{"(mark 2 2) is not a legal move for xplayer"})
	checkNoOutput(5)

	// Both moves given, then taken back.
	check(6, []string{"step 2: xplayer noop, oplayer (mark 2 1)\n"}, nil)
	checkState(6, board("xplayer", "(cell 1 1 x)", "(cell 2 1 o)"))
	check(7, []string{"undone step 2: xplayer noop, oplayer (mark 2 1)\n", "state 1:\n"}, nil)
	checkState(7, afterOne)

	// Played to the end: x completes the first row.
	check(8, []string{"step 2: xplayer noop, oplayer (mark 2 1)\n"}, nil)
	check(9, []string{"step 3: xplayer (mark 1 2), oplayer noop\n", "terminal: no\n"}, nil)
	// Row 3 and column 3 are blank: three b in a line.
	if tr.out[10] != "(line b)\n" {
		t.Errorf("ask (line ?w) before x's row: %q, want (line b)", tr.out[10])
	}
	if got := strings.Split(strings.TrimSpace(tr.out[11]), "\n"); !slices.Equal(got, []string{"(true (cell 1 1 x))", "(true (cell 1 2 x))"}) {
		t.Errorf("ask (true (cell 1 ?n x)): %q", got)
	}
	check(12, []string{"step 4: xplayer noop, oplayer (mark 2 2)\n"}, nil)
	check(13, []string{"step 5: xplayer (mark 1 3), oplayer noop\n", "terminal: yes\n", "goals: xplayer 100, oplayer 0\n"}, nil)
	checkState(13, board("oplayer", "(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 x)", "(cell 2 1 o)", "(cell 2 2 o)"))
	if strings.Contains(tr.out[13], "legal moves") {
		t.Errorf("legal moves listed in a terminal state:\n%s", tr.out[13])
	}
	if tr.out[14] != "(line b)\n(line x)\n" {
		t.Errorf("ask (line ?w) after x's row: %q, want (line b) and (line x)", tr.out[14])
	}
	check(15, []string{"terminal: yes\n"}, nil)
	check(16, []string{"goals: xplayer 100, oplayer 0\n"}, nil)
	check(17, nil, []string{"the game is over"})
	checkNoOutput(17)
	check(18, nil, []string{"the game is over"})
	checkNoOutput(18)
	check(19, []string{"no legal moves: the state is terminal\n"}, nil)
	wantHistory := "step 1: xplayer (mark 1 1), oplayer noop\n" +
		"step 2: xplayer noop, oplayer (mark 2 1)\n" +
		"step 3: xplayer (mark 1 2), oplayer noop\n" +
		"step 4: xplayer noop, oplayer (mark 2 2)\n" +
		"step 5: xplayer (mark 1 3), oplayer noop\n"
	if tr.out[20] != wantHistory {
		t.Errorf("history:\n%s\nwant\n%s", tr.out[20], wantHistory)
	}
	check(21, []string{"undone step 5", "state 4:\n", "terminal: no\n"}, nil)
	if tr.out[22] != "" || tr.err[22] != "" {
		t.Errorf("quit printed %q %q", tr.out[22], tr.err[22])
	}
	if tr.out[23] != "" {
		t.Errorf("a command after quit was run:\n%s", tr.out[23])
	}
}

func TestQueryAsk(t *testing.T) {
	commands := []string{
		"ask (line ?w)",
		"ask (legal ?r noop)",
		"ask terminal",
		"ask (goal xplayer ?v)",
		"ask (cell 1 1 b)",
		"ask (line)",
		"ask (lines ?w)",
		"ask ?x",
		"ask (line ?w",
		"ask (line ?w) (line ?v)",
		"ask",
		"ask (true)",
	}
	tr := runQueryScript(t, []string{"ticTacToe"}, commands...)
	tests := []struct {
		out, err string // the whole output, a part of the error
	}{
		{"(line b)\n", ""}, // three blank cells in a row are a line of b
		{"(legal oplayer noop)\n", ""},
		{"no answers\n", ""},
		{"(goal xplayer 50)\n", ""},
		{"no answers (no rule defines cell/3; facts of the state are asked as (true (cell 1 1 b)))\n", ""},
		{"no answers (no rule defines line/0, only line/1)\n", ""},
		{"no answers (no rule defines lines/1)\n", ""},
		{"", `line 8: ask: bad query "?x": variable ?x cannot be a sentence`},
		{"", `line 9: ask: bad query "(line ?w": unclosed '('`},
		{"", `line 10: ask: bad query "(line ?w) (line ?v)": unexpected list after a sentence`},
		{"", "line 11: ask wants a query"},
		{"", "line 12: ask true: true: wrong number of arguments"},
	}
	for i, tt := range tests {
		if tr.out[i] != tt.out {
			t.Errorf("%q: output %q, want %q", commands[i], tr.out[i], tt.out)
		}
		if tt.err == "" && tr.err[i] != "" || !strings.Contains(tr.err[i], tt.err) {
			t.Errorf("%q: error %q, want %q", commands[i], tr.err[i], tt.err)
		}
	}
	if tr.code != 0 {
		t.Errorf("exit %d, want 0", tr.code)
	}
}

// TestQueryRandom plays random games, which must end within the nine
// cells of the board, and replays one with the same seed.
func TestQueryRandom(t *testing.T) {
	commands := slices.Repeat([]string{"random"}, 10)
	var outputs []string
	for _, seed := range []string{"1", "1", "2"} {
		tr := runQueryScript(t, []string{"-seed", seed, "ticTacToe"}, commands...)
		played := 0
		for i := range commands {
			if tr.err[i] == "" {
				played++
				if i > 0 && tr.err[i-1] != "" {
					t.Errorf("seed %s: a move played after the game was over", seed)
				}
				continue
			}
			if !strings.Contains(tr.err[i], "the game is over") {
				t.Errorf("seed %s: random: %s", seed, tr.err[i])
			}
		}
		if played < 5 || played > 9 {
			t.Errorf("seed %s: %d random moves played, want 5 to 9", seed, played)
		}
		last := tr.out[played-1]
		if !strings.Contains(last, "terminal: yes\n") {
			t.Errorf("seed %s: the last move did not end the game:\n%s", seed, last)
		}
		if !strings.Contains(last, "goals: xplayer 100, oplayer 0\n") &&
			!strings.Contains(last, "goals: xplayer 0, oplayer 100\n") &&
			!strings.Contains(last, "goals: xplayer 50, oplayer 50\n") {
			t.Errorf("seed %s: the last move shows no goals of ticTacToe:\n%s", seed, last)
		}
		outputs = append(outputs, strings.Join(tr.out, ""))
	}
	if outputs[0] != outputs[1] {
		t.Errorf("the same seed played different games:\n%s\n%s", outputs[0], outputs[1])
	}
}

// brokenRules has a relation whose search explodes (a billion combinations
// of digits, refuted only at the last), a state where the only role has no
// legal move, and two goal values for it there.
const brokenRules = `
(role p)
(init (f 1))
(n 1)
(n 2)
(<= (legal p go) (true (f 1)))
(<= (next (f 2)) (does p go))
(goal p 0)
(<= (goal p 100) (true (f 2)))
(<= terminal (true (f 3)))
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
(<= (deep ?x) (true (f ?x)) (d ?a) (d ?b) (d ?c) (d ?e) (d ?g) (d ?h) (d ?i) (d ?j) (d ?k) (distinct ?k ?k))
`

func TestQueryBrokenRules(t *testing.T) {
	file := filepath.Join(t.TempDir(), "broken.kif")
	if err := os.WriteFile(file, []byte(brokenRules), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := []string{"ask (deep ?x)", "state", "play", "legal", "play go", "goals"}
	start := time.Now()
	tr := runQueryScript(t, []string{"-timeout", "200ms", file}, commands...)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the session took %v", d)
	}
	if tr.code != 0 {
		t.Errorf("exit %d, want 0", tr.code)
	}
	tests := []struct {
		out []string
		err string
	}{
		{nil, "line 1: ask (deep ?x): no answer within 200ms; the rules may loop (-timeout sets the limit)\n"},
		{[]string{"state 0:\n    (f 1)\n"}, ""},
		{[]string{"step 1: p go\n", "state 1:\n    (f 2)\n", "terminal: no\n", "    p: none\n"}, ""}, // no move typed: p's only move
		{[]string{"    p: none\n"}, ""},
		{nil, "line 5: p has no legal move in this state"},
		{[]string{"goals: p ?\n"}, "line 6: goal not defined by a single value for p (several)"},
	}
	for i, tt := range tests {
		for _, s := range tt.out {
			if !strings.Contains(tr.out[i], s) {
				t.Errorf("%q: output lacks %q:\n%s", commands[i], s, tr.out[i])
			}
		}
		if tt.out == nil && tr.out[i] != "" {
			t.Errorf("%q: output after an error:\n%s", commands[i], tr.out[i])
		}
		if tt.err == "" && tr.err[i] != "" || !strings.Contains(tr.err[i], tt.err) {
			t.Errorf("%q: error %q, want %q", commands[i], tr.err[i], tt.err)
		}
	}
}

func TestQueryInput(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		out    []string // in the output
		notOut []string
		err    string // the whole error output
	}{
		{
			name:  "help",
			stdin: "help\n",
			out:   []string{"\n  undo          take back the last joint move\n", "\n  ask QUERY     print the instances of QUERY"},
		},
		{
			name:  "history before any move",
			stdin: "history\n",
			out:   []string{"\nno moves played\n"},
		},
		{
			name:   "EOF without quit or line end",
			stdin:  "play (mark 2 2)",
			out:    []string{"step 1: xplayer (mark 2 2), oplayer noop\n"},
			notOut: []string{">"}, // no prompt in a pipe
		},
		{
			name:  "CRLF line ends, comments and blank lines",
			stdin: "# a comment\r\n\r\n   \r\nplay (mark 2 2)\r\nexit\r\nplay (mark 1 1)\r\n",
			out:   []string{"step 1: xplayer (mark 2 2), oplayer noop\n"},
			// exit stops the session before step 2.
			notOut: []string{"step 2"},
		},
		{
			name:  "line too long",
			stdin: "ask (line " + strings.Repeat("x", maxLineBytes) + ")\nplay (mark 2 2)\n",
			out:   []string{"step 1: xplayer (mark 2 2), oplayer noop\n"},
			err:   "line 1: line longer than 1048576 bytes ignored\n",
		},
		{
			name:  "bad input",
			stdin: "play (mark 1 1\nplay (mark ?x 1)\nplay mark\x01\nfly\n(mark 1 1)\nundo\nundo 2\nlegal a b\n",
			err: "line 1: play: bad moves \"(mark 1 1\": unclosed '(': 1 ')' is missing at the end\n" +
				"line 2: play: bad move (mark ?x 1): a move cannot hold variables\n" +
				"line 3: play: bad moves \"mark\\x01\": illegal character U+0001\n" +
				"line 4: unknown command \"fly\"; type help for the commands\n" +
				"line 5: unknown command \"(mark\"; to play moves, type \"play (mark 1 1)\"\n" +
				"line 6: nothing to undo: this is the initial state\n" +
				"line 7: undo takes no arguments, got \"2\"\n" +
				"line 8: legal takes at most one ROLE, got \"a b\"\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			env := &environment{stdin: strings.NewReader(tt.stdin), stdout: &out, stderr: &errOut}
			if code := run(context.Background(), env, []string{"query", "ticTacToe"}); code != 0 {
				t.Errorf("exit %d, want 0; stderr:\n%s", code, errOut.String())
			}
			for _, s := range tt.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tt.notOut {
				if strings.Contains(out.String(), s) {
					t.Errorf("output has %q:\n%s", s, out.String())
				}
			}
			if errOut.String() != tt.err {
				t.Errorf("errors:\n%s\nwant\n%s", errOut.String(), tt.err)
			}
		})
	}
}

// TestQueryInterrupted checks that a session waiting for input ends when
// its context is cancelled, as by Ctrl-C.
func TestQueryInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	out := &syncBuffer{}
	var errOut bytes.Buffer
	env := &environment{stdin: pr, stdout: out, stderr: &errOut}
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, []string{"query", "ticTacToe"}) }()
	if _, err := io.WriteString(pw, "play (mark 2 2)\n"); err != nil {
		t.Fatal(err)
	}
	// The session has read the line; wait until it has played it.
	if out.await(regexp.MustCompile(`step 1:`), 10*time.Second, done) == nil {
		t.Fatalf("the move was not played:\n%s", out.String())
	}
	cancel()
	select {
	case code := <-done:
		if code != 1 || !strings.Contains(errOut.String(), "ggp query: interrupted") {
			t.Errorf("exit %d, stderr %q; want 1 and interrupted", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ggp query did not stop after cancellation")
	}
}

func TestQueryUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.kif")
	if err := os.WriteFile(bad, []byte("(role x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want []string // in stderr
	}{
		{[]string{"-h"}, 0, []string{"Usage: ggp query [flags] GAME", "-timeout", "Example:\n  ggp query ticTacToe", "play MOVE...", "ask QUERY"}},
		{nil, 2, []string{"want one GAME, got 0 arguments"}},
		{[]string{"ticTacToe", "nim"}, 2, []string{"want one GAME, got 2 arguments"}},
		{[]string{"-timeout", "0s", "ticTacToe"}, 2, []string{"-timeout must be positive"}},
		{[]string{"-x", "ticTacToe"}, 2, []string{"flag provided but not defined: -x"}},
		{[]string{"noSuchGame"}, 1, []string{`ggp query: unknown game "noSuchGame"`}},
		{[]string{bad}, 1, []string{"ggp query: ", "bad.kif:1:1: unclosed '('"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCommand(t, append([]string{"query"}, tt.args...)...)
		if code != tt.code {
			t.Errorf("ggp query %v: exit %d, want %d; stderr:\n%s", tt.args, code, tt.code, errOut)
		}
		for _, s := range tt.want {
			if !strings.Contains(errOut, s) {
				t.Errorf("ggp query %v: stderr lacks %q:\n%s", tt.args, s, errOut)
			}
		}
		if tt.code != 0 && out != "" {
			t.Errorf("ggp query %v: output on failure:\n%s", tt.args, out)
		}
	}
}
