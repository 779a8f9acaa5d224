package main

import "errors"

// The commands below are being built; each moves to its own file when done.

var errNotYet = errors.New("not implemented yet")
