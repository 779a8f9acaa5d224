package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

func runBench(ctx context.Context, env *environment, args []string) error {
	fs := newFlagSet(env, "bench", "[flags] GAME... | --compare OLD NEW",
		"ggp bench --seconds 10 connectFour\n"+
			"  ggp bench --backend prolog --seconds 5 --save new.json ../shared/games/*\n"+
			"  ggp bench --compare old.json new.json")
	seconds := fs.Float64("seconds", 5, "how long to run playouts of each game")
	maxSteps := fs.Int("max-steps", 10000, "give up a playout after this many steps")
	save := fs.String("save", "", "write the table of results, as JSON, to `FILE`")
	compare := fs.Bool("compare", false, "compare two tables written by --save, OLD and NEW, instead of measuring")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the playouts (not of loading the games) to `FILE`")
	backendName := addBackendFlag(fs)
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *compare {
		if len(args) != 2 {
			return fmt.Errorf("%w: --compare wants two saved tables, OLD and NEW", errUsage)
		}
		return compareTables(env.stdout, args[0], args[1])
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: want at least one GAME", errUsage)
	}
	if *seconds <= 0 {
		return fmt.Errorf("%w: --seconds must be positive", errUsage)
	}
	if *maxSteps <= 0 {
		return fmt.Errorf("%w: --max-steps must be positive", errUsage)
	}
	factory, err := newFactory(env, *backendName, false)
	if err != nil {
		return err
	}
	run := benchRun{seconds: *seconds, maxSteps: *maxSteps, factory: factory}
	if *cpuProfile != "" {
		if len(args) != 1 || *save != "" {
			return fmt.Errorf("%w: --cpuprofile profiles one game, without --save", errUsage)
		}
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		run.profile = f
	}
	if len(args) == 1 && *save == "" {
		return run.single(ctx, env, args[0])
	}
	t := run.corpus(ctx, env, args)
	if *save != "" {
		if err := t.save(*save); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// benchRun holds the settings of one run of ggp bench.
type benchRun struct {
	seconds  float64
	maxSteps int
	factory  reasoner.Factory
	// profile, when not nil, receives a CPU profile of the playouts of
	// the one game measured, loading left out.
	profile io.Writer
}

// profiled runs f under the CPU profiler when the run has a profile to
// write.
func (b benchRun) profiled(f func()) error {
	if b.profile == nil {
		f()
		return nil
	}
	if err := pprof.StartCPUProfile(b.profile); err != nil {
		return fmt.Errorf("cpuprofile: %w", err)
	}
	f()
	pprof.StopCPUProfile()
	return nil
}

// single measures one game and prints the detailed result; its last line,
// "rollouts/s R states/s S", is what scripts read.
func (b benchRun) single(ctx context.Context, env *environment, arg string) error {
	fmt.Fprintf(env.stdout, "%s: random playouts for %gs in one goroutine\n", arg, b.seconds)
	res := b.measure(ctx, arg)
	if res.Error != "" {
		return fmt.Errorf("%s: %s", arg, res.Error)
	}
	if res.Network != "" {
		fmt.Fprintln(env.stdout, res.Network)
	}
	if len(res.Interpreted) > 0 {
		fmt.Fprintf(env.stdout, "in the interpreter: %s\n", orDash(strings.Join(res.Interpreted, " ")))
	}
	fmt.Fprintf(env.stdout, "%d rollouts, %d states in %.2fs (%.2fs of CPU)\n", res.Rollouts, res.States, res.Seconds, res.CPUSeconds)
	fmt.Fprintf(env.stdout, "rollouts/s %.1f states/s %.0f\n", res.RolloutsPerSec, res.StatesPerSec)
	return nil
}

// Each game of a corpus run is bounded: loading gets loadBudget, and a
// query under way when the measuring time is over gets stepBudget to
// finish. A game that overruns both is abandoned (its queries stop at
// their context's deadline) and reported as hung.
const (
	loadBudget = 60 * time.Second
	stepBudget = 30 * time.Second
	hangGrace  = 10 * time.Second
)

// corpus measures each game in turn, printing a line per game as it goes
// and a summary at the end. A game that fails or hangs is reported in its
// line and the run goes on.
func (b benchRun) corpus(ctx context.Context, env *environment, args []string) *benchTable {
	t := &benchTable{Seconds: b.seconds}
	fmt.Fprintf(env.stdout, "random playouts for %gs per game in one goroutine\n", b.seconds)
	fmt.Fprintln(env.stdout, benchHeader())
	for _, arg := range args {
		if ctx.Err() != nil {
			break
		}
		res := b.bounded(ctx, arg)
		t.Games = append(t.Games, res)
		fmt.Fprintln(env.stdout, res.line())
	}
	t.printSummary(env.stdout)
	return t
}

// bounded measures the game arg in a goroutine and gives up on it once
// its budget and a grace period are over.
func (b benchRun) bounded(ctx context.Context, arg string) benchResult {
	budget := loadBudget + time.Duration(b.seconds*float64(time.Second)) + stepBudget
	gctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	done := make(chan benchResult, 1)
	go func() { done <- b.measure(gctx, arg) }()
	select {
	case res := <-done:
		return res
	case <-time.After(budget + hangGrace):
		return benchResult{Game: filepath.Base(arg), Error: fmt.Sprintf("hung: no answer %v after its budget of %v", hangGrace, budget)}
	}
}

// measure loads the game arg and plays random playouts from its initial
// state for the run's time. Every state reached counts, including those of
// the playout cut short at the end, so that a game whose one playout
// outlasts the time is still measured.
func (b benchRun) measure(ctx context.Context, arg string) (res benchResult) {
	res.Game = filepath.Base(arg)
	fail := func(err error) benchResult {
		res.Error = firstLineOf(err.Error())
		return res
	}
	g, _, r, err := loadReasoner(ctx, arg, b.factory)
	if err != nil {
		return fail(err)
	}
	res.Game = g.Key
	if x, ok := r.(interface{ Interpreted() []string }); ok {
		res.Interpreted = x.Interpreted()
	}
	s0, err := r.Initial(ctx)
	if err != nil {
		return fail(err)
	}
	if pn, ok := r.(*propnet.Reasoner); ok {
		st := pn.Stats()
		res.Network = fmt.Sprintf("grounded in %.3fs, network built in %.3fs\nnetwork: %d bases, %d inputs, %d nodes and %d links (%d and %d before optimisation), %d phase networks",
			st.Ground.Seconds(), st.Build.Seconds(), st.Bases, st.Inputs, st.NodesAfter, st.LinksAfter, st.NodesBefore, st.LinksBefore, st.Phases)
	}
	if _, ok := r.(reasoner.Playouter); ok {
		var out benchResult
		if err := b.profiled(func() { out = b.playouts(ctx, r, s0, res) }); err != nil {
			return fail(err)
		}
		return out
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	joint := make([]reasoner.Move, len(r.Roles()))
	s, step := s0, 0
	cpu0 := cpuSeconds()
	start := time.Now()
	deadline := start.Add(time.Duration(b.seconds * float64(time.Second)))
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		terminal, err := r.Terminal(ctx, s)
		if err != nil {
			return fail(fmt.Errorf("playout %d, step %d: %w", res.Rollouts+1, step, err))
		}
		if terminal || step == b.maxSteps {
			res.Rollouts++
			s, step = s0, 0
			continue
		}
		for i := range joint {
			legal, err := r.Legal(ctx, s, i)
			if err != nil {
				return fail(fmt.Errorf("playout %d, step %d: %w", res.Rollouts+1, step, err))
			}
			if len(legal) == 0 {
				return fail(fmt.Errorf("playout %d, step %d: %s has no legal move", res.Rollouts+1, step, r.Roles()[i]))
			}
			joint[i] = legal[rng.IntN(len(legal))]
		}
		if s, err = r.Next(ctx, s, joint); err != nil {
			return fail(fmt.Errorf("playout %d, step %d: %w", res.Rollouts+1, step, err))
		}
		step++
		res.States++
	}
	return res.rates(start, cpu0)
}

// playouts measures a backend that plays whole playouts in its own
// representation (a reasoner.Playouter), as the search plays them: only
// whole playouts count, and one under way at the end is finished.
func (b benchRun) playouts(ctx context.Context, r reasoner.Reasoner, s0 *reasoner.State, res benchResult) benchResult {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	cpu0 := cpuSeconds()
	start := time.Now()
	deadline := start.Add(time.Duration(b.seconds * float64(time.Second)))
	for time.Now().Before(deadline) {
		_, n, err := reasoner.Playout(ctx, r, s0, rng, b.maxSteps, nil)
		if err != nil {
			res.Error = firstLineOf(fmt.Sprintf("playout %d: %v", res.Rollouts+1, err))
			return res
		}
		res.Rollouts++
		res.States += n
	}
	return res.rates(start, cpu0)
}

// rates fills in the time and the rates of a measurement of res.Rollouts
// playouts and res.States states begun at start, with cpu0 the process's
// CPU time then.
func (res benchResult) rates(start time.Time, cpu0 float64) benchResult {
	res.Seconds = time.Since(start).Seconds()
	res.RolloutsPerSec = float64(res.Rollouts) / res.Seconds
	res.StatesPerSec = float64(res.States) / res.Seconds
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		res.CPUSeconds = cpu
		res.StatesPerCPUSec = float64(res.States) / cpu
	}
	return res
}
