package group

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestCloseWaits checks that Close returns only once every goroutine
// under way has left, and that the group then refuses new ones.
func TestCloseWaits(t *testing.T) {
	var g Group
	release := make(chan struct{})
	var finished [3]bool
	for i := range finished {
		if !g.Go(func() {
			<-release
			finished[i] = true
		}) {
			t.Fatal("Go refused on an open group")
		}
	}
	time.AfterFunc(20*time.Millisecond, func() { close(release) })
	if left := g.Close(context.Background()); left != 0 {
		t.Fatalf("Close left %d under way without a bound", left)
	}
	for i, done := range finished {
		if !done {
			t.Errorf("goroutine %d still running after Close", i)
		}
	}
	if g.Enter() {
		t.Error("Enter accepted after Close")
	}
	if g.Go(func() { t.Error("f ran after Close") }) {
		t.Error("Go accepted after Close")
	}
}

// TestCloseBound checks that Close gives up at the end of its context and
// counts what is still under way, and that a later Wait sees them leave.
func TestCloseBound(t *testing.T) {
	var g Group
	release := make(chan struct{})
	for range 2 {
		g.Go(func() { <-release })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if left := g.Close(ctx); left != 2 {
		t.Fatalf("Close past its bound reported %d under way, want 2", left)
	}
	close(release)
	if left := g.Wait(context.Background()); left != 0 {
		t.Fatalf("Wait after the release: %d under way", left)
	}
}

// TestWaitKeepsOpen checks that Wait, unlike Close, leaves the group open,
// and that several waiters are all woken by the last Leave.
func TestWaitKeepsOpen(t *testing.T) {
	synctest.Test(t, testWaitKeepsOpen)
}

func testWaitKeepsOpen(t *testing.T) {
	var g Group
	if left := g.Wait(context.Background()); left != 0 {
		t.Fatalf("Wait on an empty group: %d", left)
	}
	if !g.Enter() {
		t.Fatal("Enter refused on an open group")
	}
	woken := make(chan int, 2)
	for range 2 {
		go func() { woken <- g.Wait(context.Background()) }()
	}
	synctest.Wait() // the waiters are blocked, or have returned
	select {
	case n := <-woken:
		t.Fatalf("Wait returned %d while one was under way", n)
	default:
	}
	g.Leave()
	for range 2 {
		if n := <-woken; n != 0 {
			t.Errorf("Wait returned %d after the last Leave", n)
		}
	}
	if !g.Enter() {
		t.Fatal("Enter refused after Wait")
	}
	g.Leave()
}

// TestLeaveWithoutEnter checks that an unmatched Leave panics rather than
// let a later Close return early.
func TestLeaveWithoutEnter(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Leave without Enter did not panic")
		}
	}()
	var g Group
	g.Leave()
}
