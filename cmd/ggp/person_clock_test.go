package main

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster/view/browsertest"
)

// TestPersonKeepsTheirClock runs a match with a play clock no person can
// meet: the person's seat keeps its own clock, the command says so, and
// the page counts down from it. The person plays with a click.
func TestPersonKeepsTheirClock(t *testing.T) {
	ctx := browsertest.Start(t)
	out, seat, interrupt, code := startCommand(t, "match", "ticTacToe", "--players", "human,random", "--playclock", "3",
		"--view-port", "0", "--view-linger=false")
	defer func() { interrupt(fmt.Errorf("test over")); <-code }()
	browsertest.Run(t, ctx, 10*time.Second, chromedp.Navigate(seat))
	if waitTurn(t, ctx, 20*time.Second) != "to-move" {
		t.Fatal("the match ended before the person's turn")
	}
	var countdown, step string
	browsertest.Run(t, ctx, 5*time.Second,
		chromedp.Text(`#countdown`, &countdown),
		chromedp.AttributeValue(`body`, "data-step", &step, nil),
		chromedp.Click(`#board [data-move]`),
		chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(5*time.Second)),
	)
	left, err := strconv.ParseFloat(strings.TrimSuffix(countdown, " s"), 64)
	if err != nil || left < 50 {
		t.Errorf("with --playclock 3 the person's countdown shows %q, want their own 60 s", countdown)
	}
	if want := "a person has 1m0s a move (--human-playclock; --playclock, 3s, is the programs' clock)"; !strings.Contains(out.String(), want) {
		t.Errorf("ggp match printed\n%s\nwant %q", out, want)
	}
	if regexp.MustCompile(`xplayer \S+ \[TO\]`).MatchString(out.String()) {
		t.Errorf("the person's move timed out:\n%s", out)
	}
}

func TestViewerPortInUse(t *testing.T) {
	// A port in use is answered with the flag that chooses another.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"match", "ticTacToe", "--players", "random,random", "--view", "--view-port", port}, "--view-port"},
		{[]string{"view", "--port", port, t.TempDir()}, "--port"},
	} {
		var out, errOut strings.Builder
		env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		if code := run(t.Context(), env, c.args); code == 0 {
			t.Errorf("ggp %v: exit 0 on a port in use", c.args)
		}
		if want := "port " + port + " is in use"; !strings.Contains(errOut.String(), want) || !strings.Contains(errOut.String(), c.flag+" 0 for any free port") {
			t.Errorf("ggp %v on a port in use says\n%s\nwant %q and the fix (%s)", c.args, errOut.String(), want, c.flag)
		}
	}
}
