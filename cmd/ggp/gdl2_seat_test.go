package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ggp-go/ggp/gamemaster/view/browsertest"
	"github.com/ggp-go/ggp/games/gamestest"
)

// TestPersonPlaysKriegTTT runs ggp match on the public Kriegspiel
// tic-tac-toe (4x4), a GDL-II game, with a person against the random
// player, and plays it on the seat page with clicks on the board, each on
// the first cell that plays a move, to the end: the match page printed is
// held back while the person plays, the seat page tells the person's own
// moves and percepts, and the end page the result.
func TestPersonPlaysKriegTTT(t *testing.T) {
	file, _ := gamestest.ReadGameII(t, "kriegTTT_4x4")
	ctx := browsertest.Start(t)
	out, seat, _, code := startCommand(t, "match", file, "--players", "human,random", "--view-port", "0", "--view-linger=false", "--id", "krieg.1")
	view := regexp.MustCompile(`view: (http://\S+)/match\?src=(\S+)`).FindStringSubmatch(out.String())
	if view == nil {
		t.Fatalf("no match page printed:\n%s", out)
	}
	browsertest.Run(t, ctx, 10*time.Second, chromedp.Navigate(seat))
	clicks := 0
	for {
		if waitTurn(t, ctx, 40*time.Second) == "over" {
			break
		}
		if clicks == 0 {
			// The match's record, which the page printed shows, is
			// held back while the person plays.
			src, _ := url.QueryUnescape(view[2])
			resp, err := http.Get(view[1] + "/api/record?src=" + url.QueryEscape(src))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden || strings.Contains(string(body), "states") {
				t.Errorf("the match's record while the person plays: %d %s", resp.StatusCode, body)
			}
		}
		var cells []string
		var step string
		browsertest.Run(t, ctx, 5*time.Second,
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#board [data-move]')).map(e => e.dataset.move)`, &cells),
			chromedp.AttributeValue(`body`, "data-step", &step, nil),
		)
		if len(cells) == 0 {
			t.Fatalf("step %s: no cell of the board plays a move", step)
		}
		m := cells[0]
		browsertest.Run(t, ctx, 15*time.Second,
			chromedp.Click(fmt.Sprintf(`#board [data-move=%q]`, m)),
			chromedp.Poll(fmt.Sprintf(`document.body.dataset.step !== %q || document.body.dataset.status !== 'to-move'`, step), nil, chromedp.WithPollingTimeout(10*time.Second)),
		)
		clicks++
	}
	text, history := seatMatchEnd(t, ctx, out, code, "random")
	// The history: the person's move and what it was told at every step,
	// as the rules write it: the game's folder does not say what its
	// percepts mean.
	steps := regexp.MustCompile(`(?m)^step (\d+): xplayer (\(mark \d \d\))`).FindAllStringSubmatch(text, -1)
	if clicks == 0 || len(steps) < clicks {
		t.Fatalf("%d clicks, steps played %v\n%s", clicks, steps, text)
	}
	for _, s := range steps {
		if want := s[1] + ". you: " + strings.Trim(s[2], "()") + " · told, in the rules' words: ("; !strings.Contains(history, want) {
			t.Errorf("the history %q does not give step %s (%s)", history, s[1], want)
		}
	}
	if strings.Contains(text, "[TO]") || strings.Contains(text, "[CE]") || strings.Contains(text, "[IL]") {
		t.Errorf("a move of the person was replaced:\n%s", text)
	}
}
