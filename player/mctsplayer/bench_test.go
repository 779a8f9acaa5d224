//go:build unix

package mctsplayer

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player/mcts"
)

// BenchmarkSearch measures the search's iterations per second from the
// start of tic-tac-toe and the games of the strength suite (connect four,
// breakthrough, reversi, checkers, pentago, hex, knightThrough and
// skirmishZeroSum) with one and with two workers, and per second of CPU
// time, which shows the cost of parallelism even when other processes
// take some of the cores. The variant default is the default search,
// mast the same without NST, slow the default through Legal and Next,
// base the plain UCT search of the mcts:base preset and basefast the same
// with policy playouts, noprove, noheur, nowins and nowinfacts the
// default with that setting changed, and learn the mcts:learn preset the
// strength measurements compare with, side by side to show what the
// knowledge costs and what the playout loop gains. Each run is 10 s;
// choose a few:
//
//	go test -run XXX -bench 'Search/(connectFour|breakthrough)/workers=1/(default|learn)$' -benchtime 1x ./player/mctsplayer/
func BenchmarkSearch(b *testing.B) {
	// The default with its memory bound reached early, as at long clocks:
	// the tree stops growing and the search goes on.
	capped := searchConfig(b, "mcts")
	capped.MaxNodes = 10_000
	variants := []struct {
		name string
		cfg  mcts.Config
	}{
		{"default", searchConfig(b, "mcts")},
		{"mast", searchConfig(b, "mcts:nst=off")},
		{"slow", searchConfig(b, "mcts:fast=off")},
		{"base", searchConfig(b, "mcts:base")},
		{"basefast", searchConfig(b, "mcts:base:fast=on")},
		{"noprove", searchConfig(b, "mcts:prove=off")},
		{"noheur", searchConfig(b, "mcts:heur=off")},
		{"nowins", searchConfig(b, "mcts:wins=off")},
		{"nowinfacts", searchConfig(b, "mcts:winfacts=off")},
		{"learn", searchConfig(b, "mcts:learn")},
		{"capped", capped},
	}
	for _, game := range []string{"ticTacToe", "connectFour", "breakthrough", "reversi", "checkers", "pentago", "hex", "knightThrough", "skirmishZeroSum"} {
		d := loadGame(b, "shared/"+game)
		for _, workers := range []int{1, 2} {
			for _, v := range variants {
				b.Run(fmt.Sprintf("%s/workers=%d/%s", game, workers, v.name), func(b *testing.B) {
					ctx := context.Background()
					var iters int64
					var elapsed, cpu time.Duration
					for range b.N {
						r, err := testFactory(ctx, d)
						if err != nil {
							b.Fatal(err)
						}
						// No node cap beyond the default; a seed for repeatability.
						cfg := v.cfg
						cfg.Workers, cfg.Seed = workers, 1
						s, err := mcts.New(ctx, r, cfg)
						if err != nil {
							b.Fatal(err)
						}
						rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
						t0, c0 := time.Now(), cpuTime()
						s.Run(rctx)
						elapsed += time.Since(t0)
						cpu += cpuTime() - c0
						cancel()
						iters += s.Stats().Iterations
						s.Close()
					}
					b.ReportMetric(float64(iters)/elapsed.Seconds(), "iter/s")
					b.ReportMetric(float64(iters)/cpu.Seconds(), "iter/cpu-s")
					b.ReportMetric(cpu.Seconds()/elapsed.Seconds(), "cores")
				})
			}
		}
	}
}

// searchConfig returns the search configuration of a player
// specification, so that the variants are the players ggp runs.
func searchConfig(b *testing.B, spec string) mcts.Config {
	var opts Options
	if err := parseSpec(spec, &opts); err != nil {
		b.Fatal(err)
	}
	return opts.Search
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
