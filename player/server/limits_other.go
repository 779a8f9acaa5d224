//go:build !unix

package server

// DefaultMaxConns returns the default bound on open connections.
func DefaultMaxConns() int { return 256 }
