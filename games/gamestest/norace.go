//go:build !race

package gamestest

// Race reports whether the tests were built with the race detector
// (go test -race).
const Race = false
