package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPlayCommand serves a player on a free port, asks it for INFO, and
// stops it by cancelling the context, as SIGINT does.
func TestPlayCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: pw, stderr: &errOut}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, env, []string{"play", "--port", "0", "--host", "127.0.0.1", "--player", "random", "--name", "gopher"})
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("no output; stderr:\n%s", errOut.String())
	}
	first := lines.Text()
	const prefix = "ggp play: random player gopher listening on "
	if !strings.HasPrefix(first, prefix) {
		t.Fatalf("first line %q, want %q...", first, prefix)
	}
	addr := strings.TrimPrefix(first, prefix)
	go io.Copy(io.Discard, pr) // the rest of the output

	resp, err := http.Post("http://"+addr+"/", "text/acl", strings.NewReader("(INFO)"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "((name gopher) (status available) (species bot))"; string(body) != want {
		t.Errorf("INFO: %q, want %q", body, want)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after cancellation; stderr:\n%s", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ggp play did not stop after cancellation")
	}
}

func TestPlayUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"play", "-h"}, 0, "Example:\n  ggp play --port 9147"},
		{[]string{"play", "-h"}, 0, "A player is named as one of"},
		{[]string{"play", "-h"}, 0, "In a GDL-II match mcts takes"},
		{[]string{"play", "--player", "alphazero"}, 2, `unknown player "alphazero"`},
		{[]string{"play", "--player", "mcts:depth=3"}, 2, `unknown setting "depth"`},
		{[]string{"play", "--player", "human"}, 2, "ggp play serves an in-process player (mcts, random, legal), not a human one"},
		{[]string{"play", "--player", "127.0.0.1:9147"}, 2, "not a remote one"},
		{[]string{"play", "--port", "70000"}, 2, "is not a TCP port"},
		{[]string{"play", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"play", "--max-nodes", "-1"}, 2, "cannot be negative"},
	}
	for _, tt := range tests {
		code, _, errOut := runCommand(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("ggp %v: exit %d, stderr:\n%s\nwant exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}
