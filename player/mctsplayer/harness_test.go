package mctsplayer

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner/backend"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// This file holds a minimal referee for the tests: it plays one match by
// calling the players directly, as the game master does, and checks that
// every answer is legal and in time.

// TestMain runs the tests with the garbage collector tuned as ggp play
// tunes it, unless GOGC or GOMEMLIMIT say otherwise: at Go's default the
// reasoner's allocations make the collector take a third of the search
// time, and on a loaded machine its assists hold calls up for hundreds of
// milliseconds.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(1536 << 20)
	}
	os.Exit(m.Run())
}

// testFactory is the backend the players under test use: the default,
// shared as ggp match shares it, so that the players of a match ground its
// rules once between them.
var testFactory = func() reasoner.Factory {
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		panic(err)
	}
	return backend.Shared(f, 4)
}()

// loadGame returns the rules of a bundled game, or of a game of the shared
// corpus when key is "shared/NAME".
func loadGame(t testing.TB, key string) *gdl.Description { return playertest.LoadGame(t, key) }

// A result is the outcome of one match.
type result struct {
	goals []int
	moves [][]reasoner.Move
	late  []string // answers after the clock but within the grace
}

var matchCount atomic.Int64

// logLate logs the answers of res that came after their clock, within the
// grace: a loaded machine can hold a process up that long, so they do not
// fail the test, but they are worth seeing.
func logLate(t testing.TB, res result) {
	t.Helper()
	if len(res.late) > 0 {
		t.Logf("late answers, within the grace: %v", res.late)
	}
}

// playMatchGrace plays one match between players, one per role in role
// order, and returns the goals. Every call is bounded by its clock; an
// error, an illegal move or an answer later than its clock and grace fails
// the test. An answer up to grace after its clock is noted in the result,
// as ggp-base's game server waits a second more than the clock.
func playMatchGrace(t testing.TB, d *gdl.Description, players []player.Player, startClock, playClock, grace time.Duration) result {
	t.Helper()
	ctx := context.Background()
	ref := playertest.Reference(t, d)
	roles := ref.Roles()
	if len(players) != len(roles) {
		t.Fatalf("%d players for %d roles", len(players), len(roles))
	}
	id := fmt.Sprintf("test.%d", matchCount.Add(1))
	var res result
	var mu sync.Mutex // guards res.late

	// each calls f for every player at once, as the game master does, and
	// fails the test for an answer later than clock and grace.
	each := func(what string, clock time.Duration, f func(ctx context.Context, i int, p player.Player) error) {
		var wg sync.WaitGroup
		for i, p := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cctx, cancel := context.WithTimeout(ctx, clock)
				defer cancel()
				start := time.Now()
				err := f(cctx, i, p)
				switch d := time.Since(start); {
				case d > clock+grace:
					t.Errorf("%s: %s of %s answered after %v, clock %v", id, what, roles[i], d, clock)
				case d > clock:
					mu.Lock()
					res.late = append(res.late, fmt.Sprintf("%s of %s after %v", what, roles[i], d.Round(time.Millisecond)))
					mu.Unlock()
				}
				if err != nil {
					t.Errorf("%s: %s of %s: %v", id, what, roles[i], err)
				}
			}()
		}
		wg.Wait()
	}

	each("start", startClock, func(ctx context.Context, i int, p player.Player) error {
		return p.Start(ctx, &player.Match{ID: id, Role: roles[i], Rules: d, StartClock: startClock, PlayClock: playClock})
	})
	st, err := ref.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var last []reasoner.Move
	for step := 0; ; step++ {
		term, err := ref.Terminal(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if term {
			break
		}
		if step > 1000 {
			t.Fatalf("%s: no end after %d steps", id, step)
		}
		joint := make([]reasoner.Move, len(roles))
		legal := make([][]reasoner.Move, len(roles))
		for i := range roles {
			if legal[i], err = ref.Legal(ctx, st, i); err != nil {
				t.Fatal(err)
			}
		}
		each("play", playClock, func(ctx context.Context, i int, p player.Player) error {
			m, err := p.Play(ctx, id, slices.Clone(last))
			if err != nil {
				return err
			}
			if legal := legal[i]; !slices.Contains(legal, m) {
				return fmt.Errorf("step %d: illegal move %q, legal: %v", step, m, legal)
			}
			joint[i] = m
			return nil
		})
		if t.Failed() {
			t.FailNow()
		}
		res.moves = append(res.moves, joint)
		if st, err = ref.Next(ctx, st, joint); err != nil {
			t.Fatal(err)
		}
		last = joint
	}
	each("stop", time.Second, func(ctx context.Context, i int, p player.Player) error {
		return p.Stop(ctx, id, last)
	})
	res.goals, err = ref.Goals(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// kinds are the in-process players the tests play against each other:
// the mcts player and the baselines (package player/baseline).
var kinds = []string{Kind, baseline.RandomKind, baseline.LegalKind}

// newPlayer returns a player of the given kind or fails the test: an mcts
// player of that specification, or a baseline given the options that
// apply to it.
func newPlayer(t testing.TB, kind string, opts Options) player.Player {
	t.Helper()
	if opts.NewReasoner == nil {
		opts.NewReasoner = testFactory
	}
	bopts := baseline.Options{Name: opts.Name, NewReasoner: opts.NewReasoner, Margin: opts.Margin, Seed: opts.Seed, Log: opts.Log}
	switch kind {
	case baseline.RandomKind:
		return baseline.Random(bopts)
	case baseline.LegalKind:
		return baseline.Legal(bopts)
	}
	p, err := New(kind, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
