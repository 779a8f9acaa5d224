// Command queuebench measures the throughput of a match host's queue on
// PostgreSQL: a tournament of ticTacToe between two random players with
// 1 s clocks, played by 1, 2 and 4 ggp worker processes (one match at a
// time each), against the same tournament played in-process by ggp
// tournament with as many matches at once, in the same run. It starts a
// throwaway PostgreSQL cluster (package pgtest) and prints a Markdown
// table:
//
//	go run ./gamemaster/host/internal/queuebench [-matches 200] [-workers 1,2,4] [-ggp PATH]
//
// The overhead per match is the difference of the elapsed times, queue
// less in-process, divided by the matches each worker played.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/pgtest"
)

var (
	matches = flag.Int("matches", 200, "matches of the tournament (even: two assignments a round)")
	workers = flag.String("workers", "1,2,4", "numbers of worker processes to measure")
	ggpPath = flag.String("ggp", "", "ggp binary (default: built from this checkout into a temporary folder)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "queuebench:", err)
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "queuebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ggp := *ggpPath
	if ggp == "" {
		ggp = filepath.Join(tmp, "ggp")
		if out, err := exec.Command("go", "build", "-o", ggp, "github.com/ggp-go/ggp/cmd/ggp").CombinedOutput(); err != nil {
			return fmt.Errorf("building ggp: %v\n%s", err, out)
		}
	}
	pgdir := filepath.Join(tmp, "pg")
	if err := os.Mkdir(pgdir, 0o755); err != nil {
		return err
	}
	dsn, stop, err := pgtest.StartIn(pgdir)
	if err != nil {
		return err
	}
	defer stop()
	tournament := func(dir string, extra ...string) (time.Duration, error) {
		args := append([]string{"tournament", "--games", "ticTacToe", "--players", "random,random",
			"--rounds", strconv.Itoa(*matches / 2), "--startclock", "1", "--playclock", "1", "--out", dir}, extra...)
		cmd := exec.Command(ggp, args...)
		var errs bytes.Buffer
		cmd.Stderr = &errs
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("ggp %s: %v\n%s", strings.Join(args, " "), err, errs.String())
		}
		return time.Since(start), nil
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%d matches of ticTacToe, random against random, 1 s clocks; load average before: %s\n\n", *matches, strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Println("| workers | in-process (s) | queue (s) | matches/s in-process | matches/s queue | overhead per match (ms) |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	for _, field := range strings.Split(*workers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n < 1 {
			return fmt.Errorf("-workers: %q is not a positive number", field)
		}
		local, err := tournament(filepath.Join(tmp, fmt.Sprintf("local%d", n)), "--parallel", strconv.Itoa(n))
		if err != nil {
			return err
		}
		queued, err := queueRun(ggp, dsn, n, func() (time.Duration, error) {
			return tournament(filepath.Join(tmp, fmt.Sprintf("queue%d", n)), "--db", dsn, "--parallel", strconv.Itoa(*matches))
		})
		if err != nil {
			return err
		}
		perWorker := float64(*matches) / float64(n)
		fmt.Printf("| %d | %.1f | %.1f | %.1f | %.1f | %.0f |\n", n, local.Seconds(), queued.Seconds(),
			float64(*matches)/local.Seconds(), float64(*matches)/queued.Seconds(),
			float64((queued-local).Milliseconds())/perWorker)
	}
	load, _ = os.ReadFile("/proc/loadavg")
	fmt.Printf("\nload average after: %s\n", strings.Join(strings.Fields(string(load))[:3], " "))
	return nil
}

// queueRun starts n worker processes on dsn, times play, and stops them.
func queueRun(ggp, dsn string, n int, play func() (time.Duration, error)) (time.Duration, error) {
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
			p.Wait()
		}
	}()
	for range n {
		cmd := exec.Command(ggp, "worker", "--db", dsn, "--workers", "1", "--max-match", "5m")
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		procs = append(procs, cmd)
	}
	return play()
}
