// Package protocol is the wire format of the GGP HTTP protocol, which both
// sides speak: the player's server (package player/server) reads messages
// with Parse and writes its answers, and the client the game master uses
// (package player/remote) writes messages with Message.String and reads the
// answers with ParseMove and ParseInfo, as net/http shares one format
// between its server and its client. It also holds clocks in whole seconds
// as the protocol writes them, and untrusted text quoted for errors and
// logs.
package protocol

import (
	"strconv"
	"time"
)

// Seconds returns d in whole seconds, rounded up, and at least 1: a clock
// as the protocol writes it.
func Seconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// Quote returns s quoted with Go syntax, cut to at most n bytes of s, for
// an error or a log line that shows untrusted text.
func Quote(s string, n int) string {
	if len(s) > n {
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}
