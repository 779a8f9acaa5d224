package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// TestReadyRemote checks the Tournament.Ready of ggp tournament --ready:
// an in-process player is ready at once, and a remote player that does
// not answer is not ready once the wait is over, the error saying how
// long it waited.
func TestReadyRemote(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close() // nothing listens there now
	ready := readyRemote(300 * time.Millisecond)
	for _, tt := range []struct {
		spec string
		want string // "" for ready
	}{
		{"random", ""},
		{"mcts:workers=1", ""},
		{dead, "within 300ms"},
		{"http://" + dead + "/player", "not ready"},
	} {
		err := ready(context.Background(), tt.spec)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want ready", tt.spec, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want an error containing %q", tt.spec, err, tt.want)
		}
	}
}
