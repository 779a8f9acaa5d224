// Package atomicfile replaces a file's content in one step, for the game
// master's records and tournament results: a reader, or a process
// restarted after a crash, finds either the old content or the new one,
// never a mix.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile writes data to file name, with permissions 0644, through a
// temporary file in the same folder named after tempPattern (as for
// os.CreateTemp), flushed to stable storage, then renamed over name. On
// failure the temporary file is removed; a process killed midway may leave
// it behind, for its caller to remove by the same pattern.
func WriteFile(name string, data []byte, tempPattern string) (err error) {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, name); err != nil {
		return err
	}
	// Make the rename itself durable. Not every system can sync a folder;
	// the file is in place either way.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
