// Package pgtest starts a throwaway PostgreSQL server for tests and
// measurements: a new
// cluster (initdb) in a temporary folder, started with pg_ctl on a free
// port and stopped when the test ends. Tests that need it skip when
// PostgreSQL's programs are not installed (.ci/run installs them).
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// binDir returns the folder of PostgreSQL's server programs, or "".
func binDir() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p)
		}
	}
	// Debian keeps them out of PATH, by version.
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.Sort(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	return ""
}

// ErrNotInstalled is returned by StartIn when PostgreSQL's programs are
// not installed.
var ErrNotInstalled = errors.New("PostgreSQL's initdb and pg_ctl are not installed")

// Start starts a PostgreSQL server in a temporary folder and returns the
// connection string of its database postgres, as user ggp without a
// password, over TCP on loopback. The server stops when t ends; t skips
// when PostgreSQL is not installed.
func Start(t testing.TB) string {
	t.Helper()
	dsn, stop, err := StartIn(t.TempDir())
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return dsn
}

// StartIn starts a PostgreSQL server with a new cluster in dir, an empty
// folder, and returns its connection string (see Start) and what stops it.
func StartIn(dir string) (dsn string, stop func() error, err error) {
	bin := binDir()
	if bin == "" {
		return "", nil, ErrNotInstalled
	}
	// PostgreSQL refuses to run as root: as root, run it as the user
	// postgres (which Debian's package makes), who must reach the folder.
	var as []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return "", nil, fmt.Errorf("running as root, PostgreSQL needs the user postgres: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for d := dir; d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				return "", nil, err
			}
		}
		if err := os.Chown(dir, uid, gid); err != nil {
			return "", nil, err
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(name string, args ...string) error {
		argv := append(slices.Clone(as), append([]string{filepath.Join(bin, name)}, args...)...)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w\n%s", name, err, out.String())
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run("initdb", "-D", data, "-U", "ggp", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		return "", nil, err
	}
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200", port, dir)
	if err := run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start"); err != nil {
		return "", nil, err
	}
	stop = func() error { return run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop") }
	return fmt.Sprintf("postgres://ggp@127.0.0.1:%d/postgres?sslmode=disable", port), stop, nil
}

// freePort returns a TCP port free on loopback now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
