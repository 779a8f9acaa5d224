package gamestest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// NoGoroutines checks that the code under test left no goroutine behind:
// that every goroutine it started has an owner that waited for it. It
// fails the test if, after waiting up to within for them to
// end, goroutines other than the caller's are left whose stacks show a
// function whose full name contains one of funcs, such as
// "ggp/player/mcts.(*Search).": what an owner that waits for its
// goroutines leaves behind once it has returned. The wait only lets a
// goroutine that has signalled its end exit; within should be well short
// of what a goroutine nobody waits for takes to end.
func NoGoroutines(t testing.TB, within time.Duration, funcs ...string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		left := goroutinesWith(funcs)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d goroutines left after %v:\n\n%s", len(left), within, strings.Join(left, "\n\n"))
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// goroutinesWith returns the stacks of the goroutines other than the
// caller's that show one of funcs.
func goroutinesWith(funcs []string) []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var left []string
	for _, st := range strings.Split(string(buf), "\n\n")[1:] { // the caller's first
		for _, f := range funcs {
			if strings.Contains(st, f) {
				left = append(left, st)
				break
			}
		}
	}
	return left
}
