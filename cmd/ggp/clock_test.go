package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/record"
)

// TestCompetitionClocks plays a whole match over HTTP at competition
// clocks: ggp match, our game master, against ggp play serving the mcts
// player with a start clock of 40 s and a play clock of 15 s. The player
// is set to take the whole of every clock (mcts:fullclock=on), since its
// search proves tic-tac-toe within the start clock and would otherwise
// answer at once: every answer then comes more than 10 s after its
// request, past every timeout of the server. The record must show no
// error. It takes about three minutes, so it does not run with -short.
func TestCompetitionClocks(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole match at a 15 s play clock takes minutes")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errMu sync.Mutex
	var errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: pw, stderr: lockedWriter{&errOut, &errMu}}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, env, []string{"play", "--port", "0", "--host", "127.0.0.1", "--player", "mcts:fullclock=on:workers=1", "--name", "gopher"})
		pw.Close()
	}()
	drained := make(chan struct{}) // the rest of ggp play's output is read
	defer func() {
		cancel()
		<-done
		<-drained
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		close(drained)
		t.Fatalf("ggp play: no output")
	}
	addr := lines.Text()[strings.LastIndex(lines.Text(), " ")+1:]
	go func() {
		defer close(drained)
		io.Copy(io.Discard, pr)
	}()

	dir := t.TempDir()
	code, out, stderr := runCommand(t, "match", "ticTacToe", "--players", addr+",random",
		"--startclock", "40", "--playclock", "15", "--out", dir, "--id", "clocks.1")
	errMu.Lock()
	playLog := errOut.String()
	errMu.Unlock()
	if code != 0 {
		t.Fatalf("ggp match: exit %d\nstdout:\n%s\nstderr:\n%s\nggp play's log:\n%s", code, out, stderr, playLog)
	}
	rec, err := record.ReadFile(filepath.Join(dir, "clocks.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.IsCompleted {
		t.Fatalf("match not completed: %s", rec.AbortReason)
	}
	for step, errs := range rec.Errors {
		for i, e := range errs {
			if e != "" {
				t.Errorf("step %d: role %s: error %q\nggp play's log:\n%s", step, rec.Roles[i], e, playLog)
			}
		}
	}
	// Every step waited for the player's answer, which came at the end of
	// the play clock; the first also waited for START.
	for i := 1; i < len(rec.StateTimes); i++ {
		took := time.Duration(rec.StateTimes[i]-rec.StateTimes[i-1]) * time.Millisecond
		if took < 10*time.Second {
			t.Errorf("step %d took %v: the player did not take its clock, so the test does not check long answers", i, took)
		}
	}
	t.Logf("%d steps, goals %v, errors %v", rec.Steps(), rec.GoalValues, rec.Errors)
}

// lockedWriter serializes the writes of several goroutines.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (w lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(b)
}
