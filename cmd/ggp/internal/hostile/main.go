// Command hostile attacks a real `ggp play` process over loopback in the
// ways a hostile or broken client could take it down, and prints what the
// player did:
//
//	go run ./cmd/ggp/internal/hostile [-ggp PATH] [-only NAME,...]
//
// Each scenario starts its own player, with its descriptor limit set to
// 1,024 (ulimit -n, hard and soft), and measures it from outside:
//
//	conns     1,100 idle keep-alive, then 1,100 stalled bodies, then 1,100
//	          stalled headers, while fresh INFOs and a PLAY are timed
//	wide      a game whose legal rule joins six 30-value tables (30^6
//	          moves), INFO polled throughout, RSS sampled
//	deep      a game whose rule recurses on ever-deeper terms, the same
//	          way
//	bodies    60 parallel 16 MB messages, RSS sampled, INFO timed
//	abandon   a START that never gets STOP or ABORT, then a new START
//	lock      two ggp tournament processes on one folder
//	soak      -soak matches of connectFour at the -soak-start and
//	          -soak-play clocks (5 s and 1 s unless given), the
//	          player's PLAY answers timed by a proxy between ggp match and
//	          ggp play, with two busy-looping processes loading the cores
//	          (run only when named in -only)
//
// It exits non-zero if a check fails: INFO slower than 0.3 s, a PLAY late
// or not a move, RSS at or over 1 GiB, an abandoned match still blocking
// START after its expiry, or a second tournament not refused. Every loop
// is bounded in count and time, and only 127.0.0.1 is used.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	infoLimit = 300 * time.Millisecond
	rssLimit  = 1 << 30
)

var (
	ggpPath   = flag.String("ggp", "", "ggp binary to attack (default: built from this checkout into a temporary folder)")
	only      = flag.String("only", "", "comma-separated scenarios to run (default: all but soak)")
	soakN     = flag.Int("soak", 10, "matches the soak scenario plays")
	soakStart = flag.Duration("soak-start", 5*time.Second, "start clock of the soak's matches")
	soakPlay  = flag.Duration("soak-play", time.Second, "play clock of the soak's matches")
	failed    bool
)

func main() {
	flag.Parse()
	if *ggpPath == "" {
		dir, err := os.MkdirTemp("", "hostile")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
		*ggpPath = filepath.Join(dir, "ggp")
		build := exec.Command("go", "build", "-o", *ggpPath, "github.com/ggp-go/ggp/cmd/ggp")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fatal(fmt.Errorf("building ggp: %w", err))
		}
	}
	scenarios := []struct {
		name string
		run  func()
	}{
		{"conns", conns}, {"wide", wide}, {"deep", deep}, {"bodies", bodies}, {"abandon", abandon}, {"lock", lock}, {"soak", soak},
	}
	for _, sc := range scenarios {
		named := slices.Contains(strings.Split(*only, ","), sc.name)
		if *only != "" && !named || *only == "" && sc.name == "soak" {
			continue
		}
		fmt.Printf("== %s\n", sc.name)
		sc.run()
	}
	if failed {
		fmt.Println("FAIL")
		os.Exit(1)
	}
	fmt.Println("PASS")
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "hostile:", err)
	os.Exit(2)
}

// check prints a figure and whether it passes.
func check(ok bool, format string, args ...any) {
	mark := "ok  "
	if !ok {
		mark = "FAIL"
		failed = true
	}
	fmt.Printf("  %s %s\n", mark, fmt.Sprintf(format, args...))
}

// child is a `ggp play` process under a descriptor limit of 1,024.
type child struct {
	cmd  *exec.Cmd
	addr string
	log  *lockedBuf
	// drained is closed once the rest of the player's output is read,
	// which stop waits for before Wait closes the pipe.
	drained chan struct{}
}

type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *lockedBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

var (
	listening = regexp.MustCompile(`listening on (\S+)`)
	isPlay    = regexp.MustCompile(`^\s*\(\s*(?i:play)\s`)
)

func startPlayer(args ...string) *child {
	script := `ulimit -Sn 1024 && ulimit -Hn 1024 && exec "$0" "$@"`
	all := append([]string{"-c", script, *ggpPath, "play", "--host", "127.0.0.1", "--port", "0", "--player", "mcts"}, args...)
	cmd := exec.Command("sh", all...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		fatal(err)
	}
	c := &child{cmd: cmd, log: &lockedBuf{}}
	cmd.Stderr = c.log
	if err := cmd.Start(); err != nil {
		fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	m := listening.FindStringSubmatch(line)
	if err != nil || m == nil {
		cmd.Process.Kill()
		fatal(fmt.Errorf("ggp play did not start: %q %v\n%s", line, err, c.log))
	}
	c.drained = make(chan struct{})
	go func() {
		defer close(c.drained)
		io.Copy(io.Discard, out)
	}()
	c.addr = m[1]
	return c
}

func (c *child) stop() {
	c.cmd.Process.Kill()
	<-c.drained // at the end of the output of the killed process
	c.cmd.Wait()
}

// status returns a field of /proc/PID/status in bytes (VmRSS, VmHWM).
func (c *child) status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return -1
}

func (c *child) fds() int {
	es, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", c.cmd.Process.Pid))
	return len(es)
}

// send posts msg on a new connection and returns the reply and how long
// it took.
func (c *child) send(msg string, timeout time.Duration) (string, time.Duration, error) {
	cl := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: timeout}
	t := time.Now()
	resp, err := cl.Post("http://"+c.addr+"/", "text/acl", strings.NewReader(msg))
	if err != nil {
		return "", time.Since(t), err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), time.Since(t), err
}

// infos sends n INFOs one after the other and returns the slowest time
// and the failures.
func (c *child) infos(n int) (slowest time.Duration, fails int) {
	for range n {
		r, d, err := c.send("(INFO)", 5*time.Second)
		if err != nil || !strings.HasPrefix(r, "((name") {
			fails++
		}
		slowest = max(slowest, d)
	}
	return slowest, fails
}

// poller sends INFOs back to back until stopped, recording the slowest,
// and samples the child's RSS.
type poller struct {
	stopc   chan struct{}
	done    chan struct{}
	n, fail atomic.Int64
	slowest atomic.Int64
	maxRSS  atomic.Int64
}

func (c *child) poll() *poller {
	p := &poller{stopc: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			select {
			case <-p.stopc:
				return
			default:
			}
			r, d, err := c.send("(INFO)", 5*time.Second)
			p.n.Add(1)
			if err != nil || !strings.HasPrefix(r, "((name") {
				p.fail.Add(1)
			}
			if int64(d) > p.slowest.Load() {
				p.slowest.Store(int64(d))
			}
			if rss := c.status("VmRSS"); rss > p.maxRSS.Load() {
				p.maxRSS.Store(rss)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return p
}

func (p *poller) stop() { close(p.stopc); <-p.done }

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

// ticTacToe is the game of the conns scenario.
const ticTacToe = `(role xplayer) (role oplayer)
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
(init (cell 2 3 b)) (init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b)) (init (control xplayer))
(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n o)) (does oplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
(<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b)) (or (distinct ?m ?j) (distinct ?n ?k)))
(<= (next (control xplayer)) (true (control oplayer)))
(<= (next (control oplayer)) (true (control xplayer)))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x)))
(<= (column ?n ?x) (true (cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x)))
(<= (diagonal ?x) (true (cell 1 1 ?x)) (true (cell 2 2 ?x)) (true (cell 3 3 ?x)))
(<= (diagonal ?x) (true (cell 1 3 ?x)) (true (cell 2 2 ?x)) (true (cell 3 1 ?x)))
(<= (line ?x) (row ?m ?x)) (<= (line ?x) (column ?m ?x)) (<= (line ?x) (diagonal ?x))
(<= open (true (cell ?m ?n b)))
(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
(<= (legal xplayer noop) (true (control oplayer)))
(<= (legal oplayer noop) (true (control xplayer)))
(<= (goal xplayer 100) (line x)) (<= (goal xplayer 50) (not (line x)) (not (line o)))
(<= (goal xplayer 0) (line o)) (<= (goal oplayer 100) (line o))
(<= (goal oplayer 50) (not (line x)) (not (line o))) (<= (goal oplayer 0) (line x))
(<= terminal (line x)) (<= terminal (line o)) (<= terminal (not open))`

func conns() {
	c := startPlayer()
	defer c.stop()
	const n = 1100
	if r, _, err := c.send("(START m xplayer ("+ticTacToe+") 10 3)", 15*time.Second); r != "ready" {
		fatal(fmt.Errorf("START: %q %v", r, err))
	}
	var held []net.Conn
	defer func() {
		for _, h := range held {
			h.Close()
		}
	}()
	// Each wave of connections takes at most a minute: against a player
	// that stopped accepting, dials wait on a full backlog.
	dial := func(first string) (failed int) {
		end := time.Now().Add(time.Minute)
		for range n {
			if time.Now().After(end) {
				failed++
				continue
			}
			h, err := net.DialTimeout("tcp", c.addr, 500*time.Millisecond)
			if err != nil {
				failed++
				continue
			}
			held = append(held, h)
			h.SetWriteDeadline(time.Now().Add(2 * time.Second))
			if _, err := io.WriteString(h, first); err != nil {
				failed++
			}
		}
		return failed
	}
	// Idle keep-alive: one INFO answered, then silence.
	info := "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/acl\r\nContent-Length: 6\r\n\r\n(INFO)"
	dial(info)
	answered := 0
	end := time.Now().Add(time.Minute)
	for _, h := range held {
		d := time.Now().Add(2 * time.Second)
		if d.After(end) {
			d = end
		}
		h.SetReadDeadline(d)
		if resp, err := http.ReadResponse(bufio.NewReader(h), nil); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			answered++
		}
	}
	slow, fails := c.infos(20)
	check(slow < infoLimit && fails == 0, "%d idle keep-alive connections (%d answered their INFO): 20 fresh INFOs, slowest %v, %d failed; player holds %d descriptors",
		n, answered, slow.Round(time.Millisecond), fails, c.fds())
	// Stalled bodies: 10 of 1,000 announced bytes.
	dial("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/acl\r\nContent-Length: 1000\r\n\r\n(PLAY m (")
	slow, fails = c.infos(20)
	check(slow < infoLimit && fails == 0, "then %d stalled bodies: 20 fresh INFOs, slowest %v, %d failed; player holds %d descriptors",
		n, slow.Round(time.Millisecond), fails, c.fds())
	// Stalled headers.
	dial("POST / HTTP/1.1\r\nHost: x\r\nContent-")
	slow, fails = c.infos(20)
	check(slow < infoLimit && fails == 0, "then %d stalled headers: 20 fresh INFOs, slowest %v, %d failed; player holds %d descriptors",
		n, slow.Round(time.Millisecond), fails, c.fds())
	r, d, err := c.send("(PLAY m NIL)", 10*time.Second)
	check(err == nil && strings.HasPrefix(r, "(mark ") && d < 3*time.Second, "PLAY among them: %q in %v (clock 3 s) %v", r, d.Round(time.Millisecond), err)
	closed := 0
	for _, h := range held[:min(n, len(held))] {
		h.SetReadDeadline(time.Now().Add(time.Millisecond))
		if _, err := h.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
			closed++
		}
	}
	fmt.Printf("  %d of the first %d idle connections were closed by the player; log: %s\n", closed, n, firstLines(c.log.String(), "connections open", 2))
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// firstLines returns up to k log lines containing s, joined.
func firstLines(log, s string, k int) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) && len(out) < k {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, " | ")
}

// wideRules: the legal rule joins six 30-value tables; five turns.
func wideRules() string {
	var b strings.Builder
	b.WriteString("(role a) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)\n")
	for i := range 30 {
		fmt.Fprintf(&b, "(v %d) ", i)
	}
	b.WriteString("\n(<= (legal a (m ?a ?b ?c ?d ?e ?f)) (v ?a) (v ?b) (v ?c) (v ?d) (v ?e) (v ?f))\n")
	b.WriteString("(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n(<= terminal (true (step 5)))\n(goal a 100)")
	return b.String()
}

// deepRules: q recurses on ever-deeper terms; a second move is legal.
const deepRules = `(role a) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= (q ?x) (true (step ?n)) (q (f ?x)))
(<= (legal a go) (q z))
(legal a stay)
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 5)))
(goal a 100)`

// hostileGame plays a five-turn match of rules with INFO polled and RSS
// sampled throughout.
func hostileGame(rules string, wantMove *regexp.Regexp) {
	c := startPlayer()
	defer c.stop()
	p := c.poll()
	const startClock, playClock = 10 * time.Second, 2 * time.Second
	t0 := time.Now()
	r, d, err := c.send(fmt.Sprintf("(START m a (%s) %d %d)", rules, startClock/time.Second, playClock/time.Second), 30*time.Second)
	check(r == "ready" && d < startClock, "START: %q in %v (clock %v) %v", r, d.Round(time.Millisecond), startClock, err)
	last := "NIL"
	for turn := 1; turn <= 5; turn++ {
		r, d, err := c.send("(PLAY m "+last+")", 30*time.Second)
		check(err == nil && wantMove.MatchString(r) && d < playClock, "PLAY %d: %.40q in %v (clock %v) %v", turn, r, d.Round(time.Millisecond), playClock, err)
		last = "(" + r + ")"
	}
	r, _, _ = c.send("(STOP m "+last+")", 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	p.stop()
	slow := time.Duration(p.slowest.Load())
	check(slow < infoLimit && p.fail.Load() == 0, "%d INFOs polled over %v: slowest %v, %d failed", p.n.Load(), time.Since(t0).Round(time.Second), slow.Round(time.Millisecond), p.fail.Load())
	hwm := c.status("VmHWM")
	check(hwm > 0 && hwm < rssLimit, "RSS: peak (VmHWM) %s, highest sampled %s", mib(hwm), mib(p.maxRSS.Load()))
	fmt.Printf("  log: %s\n", firstLines(c.log.String(), "match m", 3))
}

func wide() { hostileGame(wideRules(), regexp.MustCompile(`^\(m \d+ \d+ \d+ \d+ \d+ \d+\)$`)) }

func deep() { hostileGame(deepRules, regexp.MustCompile(`^(go|stay)$`)) }

func bodies() {
	c := startPlayer()
	defer c.stop()
	const n, size = 60, 16 << 20
	p := c.poll()
	// Messages of exactly 16 MB: an INFO padded with a comment, and START
	// rules padded with facts, which the reader refuses after its token
	// limit.
	info := "(INFO)\n;" + strings.Repeat("x", size-8)
	start := "(START big a ((role a) " + strings.Repeat("(f a) ", (size-40)/6)
	start += strings.Repeat(" ", size-len(start)-6) + ") 1 1)"
	var wg sync.WaitGroup
	var ok, errs atomic.Int64
	t0 := time.Now()
	for i := range n {
		msg := info
		if i%2 == 1 {
			msg = start
		}
		wg.Go(func() {
			r, _, err := c.send(msg, 60*time.Second)
			switch {
			case err != nil:
				errs.Add(1)
			case strings.HasPrefix(r, "((name") || strings.HasPrefix(r, "(error"):
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	took := time.Since(t0)
	time.Sleep(500 * time.Millisecond)
	p.stop()
	check(ok.Load() == n, "%d parallel 16 MB messages answered in %v: %d answered (INFO or error), %d failed", n, took.Round(time.Millisecond), ok.Load(), errs.Load())
	hwm := c.status("VmHWM")
	check(hwm > 0 && hwm < rssLimit, "RSS: peak (VmHWM) %s, highest sampled %s", mib(hwm), mib(p.maxRSS.Load()))
	// Not a pass criterion: this process builds and sends the 960 MB on
	// the same cores.
	slow := time.Duration(p.slowest.Load())
	fmt.Printf("  note %d small INFOs meanwhile: slowest %v, %d failed\n", p.n.Load(), slow.Round(time.Millisecond), p.fail.Load())
}

func abandon() {
	c := startPlayer("--abandon-clocks", "3", "--abandon-min", "1s")
	defer c.stop()
	t0 := time.Now()
	r, _, err := c.send("(START old xplayer ("+ticTacToe+") 2 1)", 10*time.Second)
	if r != "ready" {
		fatal(fmt.Errorf("START: %q %v", r, err))
	}
	r, _, _ = c.send("(START new xplayer ("+ticTacToe+") 2 1)", 10*time.Second)
	check(r == "busy", "START of another match at once: %q", r)
	// The old match's deadline is 2 s after its START; given up 3 play
	// clocks later.
	for time.Since(t0) < 20*time.Second {
		if r, _, _ = c.send("(START new xplayer ("+ticTacToe+") 2 1)", 10*time.Second); r == "ready" {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	waited := time.Since(t0)
	check(r == "ready" && waited >= 5*time.Second, "START after the old match fell silent: %q after %v (expiry 2 s + 3 x 1 s)", r, waited.Round(100*time.Millisecond))
	r, _, _ = c.send("(PLAY new NIL)", 5*time.Second)
	check(strings.HasPrefix(r, "(mark "), "PLAY of the new match: %q", r)
	fmt.Printf("  log: %s\n", firstLines(c.log.String(), "abandoned", 1))
}

func lock() {
	dir, err := os.MkdirTemp("", "hostile-tournament")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"tournament", "--games", "ticTacToe", "--players", "random,random", "--rounds", "200", "--out", dir}
	first := exec.CommandContext(ctx, *ggpPath, args...)
	if err := first.Start(); err != nil {
		fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	// Wait until the first has written results, so it holds the lock.
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, err := exec.CommandContext(ctx, *ggpPath, args...).CombinedOutput()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	}
	text := strings.TrimSpace(string(out))
	if len(text) > 300 {
		text = "..." + text[len(text)-300:]
	}
	check(code != 0 && strings.Contains(string(out), "in use by another ggp tournament"), "second tournament on the folder: exit %d, %q", code, text)
}

// soak plays connectFour matches at the soak clocks between ggp play
// (mcts, first role) and an in-process random player of ggp match, with
// the cores loaded, and times every PLAY answer through a proxy.
func soak() {
	c := startPlayer()
	defer c.stop()
	var burners []*exec.Cmd
	for range 2 {
		b := exec.Command("sh", "-c", "while :; do :; done")
		if err := b.Start(); err != nil {
			fatal(err)
		}
		burners = append(burners, b)
	}
	defer func() {
		for _, b := range burners {
			b.Process.Kill()
			b.Wait()
		}
	}()
	var mu sync.Mutex
	var times []time.Duration
	nils := 0
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatal(err)
	}
	proxy := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		msg := string(body)
		t := time.Now()
		reply, _, err := c.send(msg, *soakStart+*soakPlay+30*time.Second)
		d := time.Since(t)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if isPlay.MatchString(msg) {
			mu.Lock()
			times = append(times, d)
			if reply == "nil" {
				nils++
			}
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/acl")
		io.WriteString(w, reply)
	})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		proxy.Serve(ln)
	}()
	defer func() {
		proxy.Close()
		<-served
	}()
	t0 := time.Now()
	results := map[string]int{}
	for i := range *soakN {
		out, err := exec.Command(*ggpPath, "match", "connectFour", "--players", ln.Addr().String()+",random",
			"--startclock", soakStart.String(), "--playclock", soakPlay.String(), "-q", "--id", fmt.Sprintf("soak.%d", i)).CombinedOutput()
		if err != nil {
			fmt.Printf("  match %d: %v: %s\n", i, err, out)
			failed = true
			continue
		}
		results[strings.TrimSpace(string(out))]++
	}
	mu.Lock()
	defer mu.Unlock()
	late := 0
	var slowest time.Duration
	for _, d := range times {
		if d > *soakPlay {
			late++
		}
		slowest = max(slowest, d)
	}
	check(late == 0 && nils == 0 && len(times) > 0, "%d matches at %v / %v in %v with two busy loops: %d moves, %d late (over the play clock), %d nil, slowest answer %v",
		*soakN, *soakStart, *soakPlay, time.Since(t0).Round(time.Second), len(times), late, nils, slowest.Round(time.Millisecond))
	for r, n := range results {
		fmt.Printf("  %d x %s\n", n, r)
	}
}
