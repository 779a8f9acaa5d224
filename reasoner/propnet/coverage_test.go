package propnet_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// TestCoverage grounds every corpus game in turn, within the budget the
// coverage figures of docs/reasoners.md use (10 s), and prints one line per game with
// the network's size or the reason it failed, the time, the CPU time (on a
// shared machine the time is mostly waiting) and the peak heap. It is a
// measurement, run on demand: GGP_PROPNET_COVERAGE=1 go test -run Coverage
// -v -timeout 2h ./reasoner/propnet/; GGP_PROPNET_BUDGET=30s sets another
// budget, GGP_PROPNET_GAMES=chess,skirmish measures only the games named. It fails when a game's grounding overruns its deadline by more
// than a second or ends in an error other than ErrNotGrounded.
func TestCoverage(t *testing.T) {
	if os.Getenv("GGP_PROPNET_COVERAGE") == "" {
		t.Skip("set GGP_PROPNET_COVERAGE=1 to measure")
	}
	dirs, err := games.Corpus(sharedGames)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no shared game corpus:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	budget := groundBudget
	if b := os.Getenv("GGP_PROPNET_BUDGET"); b != "" {
		if budget, err = time.ParseDuration(b); err != nil {
			t.Fatal(err)
		}
	}
	var only []string
	if s := os.Getenv("GGP_PROPNET_GAMES"); s != "" {
		only = strings.Split(s, ",")
	}
	grounded := 0
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if only != nil && !slices.Contains(only, name) {
			continue
		}
		g, err := games.LoadFolder(dir)
		if err != nil {
			fmt.Printf("FAIL %s: not loaded: %v\n", name, err)
			continue
		}
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			fmt.Printf("FAIL %s: not parsed: %v\n", name, oneLine(err))
			continue
		}
		runtime.GC()
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start, cpu0 := time.Now(), cpuTime()
		peak := watchHeap()
		r, err := propnet.New(ctx, d, propnet.Options{})
		elapsed, cpu := time.Since(start), cpuTime()-cpu0
		heap := peak()
		cancel()
		if elapsed > budget+time.Second {
			t.Errorf("%s: grounding took %v, past its deadline", name, elapsed)
		}
		if err != nil {
			if !errors.Is(err, propnet.ErrNotGrounded) {
				t.Errorf("%s: %v", name, err)
			}
			fmt.Printf("FAIL %s (%v, cpu %v, heap %d MiB): %v\n", name, elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), heap>>20, oneLine(err))
			continue
		}
		grounded++
		fmt.Printf("ok %s (%v, cpu %v, heap %d MiB): %v\n", name, elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), heap>>20, r.Stats())
	}
	fmt.Printf("grounded %d/%d\n", grounded, len(dirs))
}

// watchHeap samples the heap in use until the returned function is called,
// which returns the largest sample.
func watchHeap() func() uint64 {
	done := make(chan uint64)
	stop := make(chan struct{})
	go func() {
		var peak uint64
		var ms runtime.MemStats
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-done
	}
}

func oneLine(err error) string {
	var b []byte
	space := false
	for _, c := range []byte(err.Error()) {
		if c == '\n' || c == '\t' || c == ' ' {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	return string(b)
}
