//go:build unix

package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockFolder takes an exclusive lock on the tournament folder dir, held by
// an open file LockFile in it, and returns the function that releases it.
// The kernel releases the lock when the process dies, so a tournament that
// was killed leaves no stale lock behind; the file itself stays, holding
// the process id of the last holder, and is harmless.
func lockFolder(dir string) (unlock func(), err error) {
	name := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tournament: locking %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("tournament: %s is in use by another ggp tournament%s (lock %s): wait for it to finish or use another folder", dir, holder, name)
		}
		return nil, fmt.Errorf("tournament: locking %s: %w", name, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// readHolder returns " (process N)" from the lock file f, or "" when it
// names no process.
func readHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (process %d)", pid)
}
