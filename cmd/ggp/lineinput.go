package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/peterh/liner"
)

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
