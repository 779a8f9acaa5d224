//go:build unix

package server

import "syscall"

// DefaultMaxConns returns the default bound on open connections: three
// quarters of the process's limit on open files, leaving the rest to the
// listener, logs, records and the runtime, and at most 4096.
func DefaultMaxConns() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == 0 {
		return 256
	}
	n := rl.Cur / 4 * 3
	return int(max(min(n, 4096), 16))
}
