package main

import (
	"bytes"
	"regexp"
	"sync"
	"time"
)

// syncBuffer is a bytes.Buffer that one goroutine writes while another
// reads it, or awaits some text in it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// written, when not nil, is closed by the next write: what await
	// waits on, so that a test waits for output without polling.
	written chan struct{}
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written != nil {
		close(b.written)
		b.written = nil
	}
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// next returns the text so far and a channel closed by the next write.
func (b *syncBuffer) next() (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written == nil {
		b.written = make(chan struct{})
	}
	return b.b.String(), b.written
}

// await waits until the text matches re and returns the submatches of its
// first match; it returns nil when within passes first, or when exited,
// the exit status of the command writing to b, gets a value (which is then
// lost to the caller).
func (b *syncBuffer) await(re *regexp.Regexp, within time.Duration, exited <-chan int) []string {
	timeout := time.NewTimer(within)
	defer timeout.Stop()
	for {
		text, written := b.next()
		if m := re.FindStringSubmatch(text); m != nil {
			return m
		}
		select {
		case <-written:
		case <-exited:
			return nil
		case <-timeout.C:
			return nil
		}
	}
}
