package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/hosttest"
	"github.com/ggp-go/ggp/gamemaster/host/pgtest"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/reasoner/backend"
)

var (
	hostKills  = flag.Int("host.kills", 1, "workers killed with SIGKILL mid-match in TestWorkersKilledMidTournament (20 for the full run)")
	hostRounds = flag.Int("host.rounds", 4, "rounds of the tournament of TestWorkersKilledMidTournament")
)

// mainEnv makes this test binary run ggp's main instead of the tests, so
// that tests can start ggp processes (ggp worker) from it.
const mainEnv = "GGP_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// slowPlayer serves a random player that answers every PLAY after delay.
func slowPlayer(t *testing.T, delay time.Duration) string {
	factory, err := backend.New("", backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.SlowPlayer(t, "random", factory, delay)
}

// workerProc is a ggp worker process, whose stderr lines starting a match
// are sent on starts.
type workerProc struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once its output is read
}

func startWorker(t *testing.T, dsn string, starts chan<- *workerProc) *workerProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "worker", "--db", dsn, "--workers", "2", "--allow-all",
		"--max-match", "20s", "--rescue-after", "21s", "--retry-delay", "100ms", "--max-attempts", "50")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &workerProc{cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), ": attempt ") {
				select {
				case starts <- w:
				default:
				}
			}
		}
	}()
	return w
}

// TestWorkersKilledMidTournament plays a tournament on a PostgreSQL
// queue with two ggp worker processes, killing one with SIGKILL while it
// plays a match -host.kills times and starting another in its place. Every
// match must complete exactly once, as many as the same tournament played
// in-process.
func TestWorkersKilledMidTournament(t *testing.T) {
	dsn := pgtest.Start(t)
	a, b := slowPlayer(t, 100*time.Millisecond), slowPlayer(t, 100*time.Millisecond)
	common := []string{"--games", "ticTacToe", "--players", a + "," + b, "--rounds", strconv.Itoa(*hostRounds),
		"--startclock", "1", "--playclock", "1"}

	// The same tournament in-process, for the count.
	local := t.TempDir()
	var out, errs bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
	if code := run(context.Background(), env, append([]string{"tournament", "--out", local, "--parallel", "2"}, common...)); code != 0 {
		t.Fatalf("in-process tournament: exit %d\n%s", code, errs.String())
	}
	want := readResults(t, local)

	starts := make(chan *workerProc)
	workers := []*workerProc{startWorker(t, dsn, starts), startWorker(t, dsn, starts)}
	defer func() {
		for _, w := range workers {
			w.cmd.Process.Signal(syscall.SIGTERM)
			w.cmd.Wait()
		}
	}()
	queued := t.TempDir()
	finished := make(chan int, 1)
	var qout, qerrs bytes.Buffer
	go func() {
		env := &environment{stdin: strings.NewReader(""), stdout: &qout, stderr: &qerrs}
		finished <- run(context.Background(), env, append([]string{"tournament", "--db", dsn, "--out", queued, "--parallel", "20"}, common...))
	}()
	killed := 0
	var code int
wait:
	for {
		select {
		case w := <-starts:
			if killed == *hostKills {
				continue
			}
			if err := w.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			w.cmd.Wait()
			<-w.done
			killed++
			for i := range workers {
				if workers[i] == w {
					workers[i] = startWorker(t, dsn, starts)
				}
			}
		case code = <-finished:
			break wait
		}
	}
	if code != 0 {
		t.Fatalf("queued tournament: exit %d\n%s", code, qerrs.String())
	}
	if killed != *hostKills {
		t.Errorf("killed %d workers, want %d: the tournament ended first", killed, *hostKills)
	}
	got := readResults(t, queued)
	if len(got.Matches) != len(want.Matches) || got.Completed() != want.Completed() || got.Completed() != len(got.Matches) {
		t.Errorf("queued tournament: %d matches, %d completed; in-process: %d, %d", len(got.Matches), got.Completed(), len(want.Matches), want.Completed())
	}
	seen := map[string]int{}
	for _, m := range got.Matches {
		seen[m.ID]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("match %s counted %d times", id, n)
		}
	}

	st, err := store.Open(context.Background(), store.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ms, err := st.Matches(context.Background(), store.MatchFilter{Tournament: filepath.Base(queued)})
	if err != nil {
		t.Fatal(err)
	}
	replayed := 0
	for _, m := range ms {
		if m.Status != store.StatusDone || !m.Completed {
			t.Errorf("match %s: %s, completed %v: %s", m.ID, m.Status, m.Completed, m.Error)
		}
		if m.Attempts > 1 {
			replayed++
		}
	}
	if len(ms) != len(want.Matches) {
		t.Errorf("the store holds %d matches, want %d", len(ms), len(want.Matches))
	}
	if replayed == 0 {
		t.Errorf("no match was played again after its worker was killed")
	}
	t.Logf("%d workers killed; %d matches, %d completed once each; %d played again from the start", killed, len(ms), got.Completed(), replayed)
}

func readResults(t *testing.T, dir string) *tournament.Results {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, tournament.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var res tournament.Results
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	return &res
}

// TestHostingExamples parses the example service files of docs/hosting:
// each must be well formed and start ggp host or ggp worker with flags
// that the command accepts.
func TestHostingExamples(t *testing.T) {
	const dsn = "postgres://ggp@db.example.org/ggp"
	commands := map[string]func(env *environment, args []string) error{
		"host": func(env *environment, args []string) error { _, err := parseHostFlags(env, args); return err },
		"worker": func(env *environment, args []string) error {
			_, err := parseWorkerFlags(env, args)
			return err
		},
	}
	check := func(t *testing.T, argv []string) {
		t.Helper()
		if len(argv) < 2 || filepath.Base(argv[0]) != "ggp" || commands[argv[1]] == nil {
			t.Fatalf("command %q: want ggp host or ggp worker", argv)
		}
		var errs bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errs}
		if err := commands[argv[1]](env, argv[2:]); err != nil {
			t.Errorf("%q: %v\n%s", argv, err, errs.String())
		}
	}
	units, err := filepath.Glob("../../docs/hosting/*.service")
	if err != nil || len(units) < 2 {
		t.Fatalf("systemd units: %v, %v", units, err)
	}
	for _, name := range units {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]bool{}
			var execStart []string
			for i, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSpace(line)
				switch {
				case line == "" || strings.HasPrefix(line, "#"):
				case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
					sections[line] = true
				case strings.Contains(line, "="):
					if k, v, _ := strings.Cut(line, "="); k == "ExecStart" {
						execStart = strings.Fields(strings.ReplaceAll(v, "${GGP_DB}", dsn))
					}
				default:
					t.Errorf("line %d: %q is neither a section, a setting nor a comment", i+1, line)
				}
			}
			for _, s := range []string{"[Unit]", "[Service]", "[Install]"} {
				if !sections[s] {
					t.Errorf("no %s section", s)
				}
			}
			check(t, execStart)
		})
	}
	t.Run("worker-deployment.json", func(t *testing.T) {
		data, err := os.ReadFile("../../docs/hosting/worker-deployment.json")
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			APIVersion, Kind string
			Spec             struct {
				Replicas int
				Template struct {
					Spec struct {
						Containers []struct {
							Command, Args []string
						}
					}
				}
			}
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.APIVersion != "apps/v1" || d.Kind != "Deployment" || d.Spec.Replicas < 1 || len(d.Spec.Template.Spec.Containers) != 1 {
			t.Fatalf("want an apps/v1 Deployment of one container, got %+v", d)
		}
		c := d.Spec.Template.Spec.Containers[0]
		args := slices.Clone(c.Args)
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "$(GGP_DB)", dsn)
		}
		check(t, append(slices.Clone(c.Command), args...))
	})
}

// hostProc is a ggp host process on SQLite, whose stderr lines are sent
// on lines.
type hostProc struct {
	cmd   *exec.Cmd
	url   string
	lines chan string
}

func startHost(t *testing.T, data string) *hostProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "host", "--data", data, "--listen", "127.0.0.1:0", "--games", "ticTacToe",
		"--startclock", "1", "--playclock", "1", "--max-matches", "1", "--workers", "1",
		"--max-match", "10s", "--rescue-after", "11s", "--retry-delay", "100ms", "--max-attempts", "50")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &hostProc{cmd: cmd, lines: make(chan string, 1000)}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "host: "); ok {
			h.url = strings.Fields(rest)[0]
			break
		}
	}
	if h.url == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("ggp host printed no address")
	}
	go io.Copy(io.Discard, stdout)
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	return h
}

// waitLine returns the first line from h that contains s.
func (h *hostProc) waitLine(t *testing.T, s string) string {
	t.Helper()
	for line := range h.lines {
		if strings.Contains(line, s) {
			return line
		}
	}
	t.Fatalf("ggp host ended without printing %q", s)
	return ""
}

// TestHostKilledOnSQLite kills a ggp host on its SQLite file with SIGKILL
// while it plays a match, and starts it again on the same folder: the
// match is played again from the start and stored once, and every match
// stored before is kept.
func TestHostKilledOnSQLite(t *testing.T) {
	data := t.TempDir()
	h := startHost(t, data)
	for _, name := range []string{"alice", "bob"} {
		body := fmt.Sprintf(`{"name":%q,"url":%q}`, name, slowPlayer(t, 100*time.Millisecond))
		resp, err := http.Post(h.url+"api/host/players", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("registering %s: %s", name, resp.Status)
		}
	}
	// Let one match finish, then kill the host in the next one.
	h.waitLine(t, ": attempt 1")
	line := h.waitLine(t, ": attempt 1")
	id := strings.TrimSuffix(strings.TrimPrefix(line, "match host/"), ": attempt 1")
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	h.cmd.Wait()
	for range h.lines {
	}

	h = startHost(t, data)
	h.waitLine(t, "match host/"+id+": attempt 2")
	// The match after it starts once it is done (one match at a time).
	h.waitLine(t, ": attempt 1")
	h.cmd.Process.Signal(syscall.SIGTERM)
	h.cmd.Wait()

	st, err := store.Open(context.Background(), store.Config{Dir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ms, err := st.Matches(context.Background(), store.MatchFilter{Tournament: "host"})
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for _, m := range ms {
		if m.ID == id && (m.Status != store.StatusDone || !m.Completed || m.Attempts != 2) {
			t.Errorf("killed match %s: %s, completed %v, %d attempts; want done and completed at the second", id, m.Status, m.Completed, m.Attempts)
		}
		if m.Status == store.StatusDone {
			done++
			if !m.Completed {
				t.Errorf("match %s: not completed: %s", m.ID, m.Error)
			}
		}
	}
	if done < 2 {
		t.Errorf("%d matches done, want the first and the killed one", done)
	}
}
