package propnet_test

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// benchmarkPlayouts measures random playouts from the initial state; each
// b.N is one playout, and states/s is reported alongside.
func benchmarkPlayouts(b *testing.B, r reasoner.Reasoner) {
	ctx := context.Background()
	s0, err := r.Initial(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []reasoner.Move
	steps := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		_, n, err := reasoner.Playout(ctx, r, s0, rng, 10000, moves)
		if err != nil {
			b.Fatal(err)
		}
		steps += n
	}
	// The machine is shared: rollouts per CPU-second of the process
	// (garbage collection included) is steadier than per second.
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "rollouts/cpu-s")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rollouts/s")
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "states/s")
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCorpus measures the games the speed targets are set on, on both
// backends side by side.
func BenchmarkCorpus(b *testing.B) {
	for _, key := range []string{"ticTacToe", "connectFour", "breakthrough", "hanoi", "eightPuzzle"} {
		d := sharedGame(b, key)
		b.Run(key+"/propnet", func(b *testing.B) {
			r, err := propnet.New(context.Background(), d, propnet.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Log(r.Stats())
			benchmarkPlayouts(b, r)
		})
		b.Run(key+"/prolog", func(b *testing.B) {
			r, err := prolog.New(d)
			if err != nil {
				b.Fatal(err)
			}
			benchmarkPlayouts(b, r)
		})
	}
}
