//go:build !unix

package tournament

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// lockFolder takes an exclusive lock on the tournament folder dir by
// creating LockFile in it, and returns the function that removes it. On
// these systems a killed tournament leaves the file behind; the error then
// says which file to delete.
func lockFolder(dir string) (unlock func(), err error) {
	name := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("tournament: %s is in use by another ggp tournament (lock %s; delete it if no tournament runs)", dir, name)
	}
	if err != nil {
		return nil, fmt.Errorf("tournament: locking %s: %w", dir, err)
	}
	fmt.Fprintln(f, os.Getpid())
	return func() { f.Close(); os.Remove(name) }, nil
}
