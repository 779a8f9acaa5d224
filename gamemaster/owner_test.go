package gamemaster

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
)

// matchFuncs is what the stacks of the goroutines a match starts show.
var matchFuncs = []string{"ggp/gamemaster.(*contestant).call", "ggp/gamemaster.(*Referee).rules"}

// stubbornFor bounds how long a stubborn call ignores its context when
// nothing releases it, so that a test of a referee that waits for it
// without a hook to release it ends all the same.
const stubbornFor = 2 * time.Second

// A stubborn call ignores its context: it returns once released, or after
// stubbornFor, and then closes returned.
type stubborn struct {
	release  chan struct{}
	once     sync.Once
	returned chan struct{}
}

func newStubborn(t *testing.T) *stubborn {
	c := &stubborn{release: make(chan struct{}), returned: make(chan struct{})}
	t.Cleanup(c.free)
	return c
}

func (c *stubborn) block() {
	defer close(c.returned)
	select {
	case <-c.release:
	case <-time.After(stubbornFor):
	}
}

func (c *stubborn) free() { c.once.Do(func() { close(c.release) }) }

// freeWhenWaited returns a Logf that releases c when the referee says it
// waits for a player still busy: the hook that tells the test the match
// is over but for the stubborn call.
func freeWhenWaited(t *testing.T, c *stubborn) func(string, ...any) {
	return func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		t.Log(msg)
		if strings.Contains(msg, stillBusy) {
			c.free()
		}
	}
}

// stubbornStop is a player whose STOP ignores its context.
type stubbornStop struct {
	*scripted
	c *stubborn
}

func (p stubbornStop) Stop(ctx context.Context, id string, last []reasoner.Move) error {
	p.c.block()
	return nil
}

// stubbornAbort is a player whose ABORT ignores its context.
type stubbornAbort struct {
	*scripted
	c *stubborn
}

func (p stubbornAbort) Abort(ctx context.Context, id string) error {
	p.c.block()
	return nil
}

// stubbornReasoner is a reasoner whose Next ignores its context.
type stubbornReasoner struct {
	reasoner.Reasoner
	c *stubborn
}

func (r stubbornReasoner) Next(ctx context.Context, s *reasoner.State, joint []reasoner.Move) (*reasoner.State, error) {
	r.c.block()
	return r.Reasoner.Next(context.Background(), s, joint)
}

// TestMatchLeavesNoGoroutines checks that Run returns only once every call
// it made has returned, a player's or the rules', even one that ignores
// its context past the end of the match, and that no goroutine of the
// match is left then.
func TestMatchLeavesNoGoroutines(t *testing.T) {
	tests := []struct {
		name    string
		rules   string
		players func(c *stubborn) []player.Player
		rulesOf func(c *stubborn) reasoner.Factory // nil: the default
		wantErr string                             // "": the match completes
	}{
		{
			name:  "a move past the last step's clock",
			rules: pickGame,
			players: func(c *stubborn) []player.Player {
				late := func(ctx context.Context, role string, step int) (reasoner.Move, error) {
					if step == pickSteps {
						c.block()
					}
					return goodMove(1)(ctx, role, step)
				}
				return []player.Player{&scripted{name: "a", move: late}, &scripted{name: "b", move: goodMove(2)}}
			},
		},
		{
			name:  "a STOP past the stop timeout",
			rules: pickGame,
			players: func(c *stubborn) []player.Player {
				return []player.Player{stubbornStop{&scripted{name: "a", move: goodMove(1)}, c}, &scripted{name: "b", move: goodMove(2)}}
			},
		},
		{
			name:  "an ABORT past the stop timeout",
			rules: endlessGame,
			players: func(c *stubborn) []player.Player {
				return []player.Player{stubbornAbort{&scripted{name: "solo", move: goodMove(1)}, c}}
			},
			wantErr: "has not ended after",
		},
		{
			// The referee gives up on the rules at the RulesTimeout and
			// must wait for the call all the same before Run returns.
			name:  "a rules call past the rules timeout",
			rules: pickGame,
			players: func(*stubborn) []player.Player {
				return []player.Player{&scripted{name: "a", move: goodMove(1)}, &scripted{name: "b", move: goodMove(2)}}
			},
			rulesOf: func(c *stubborn) reasoner.Factory {
				return func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
					r, err := testFactory(ctx, d)
					return stubbornReasoner{r, c}, err
				}
			},
			wantErr: "the rules took too long",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newStubborn(t)
			ref := &Referee{
				Grace:        50 * time.Millisecond,
				StopTimeout:  200 * time.Millisecond,
				RulesTimeout: 200 * time.Millisecond,
				MaxSteps:     5,
				NewReasoner:  testFactory,
				Logf:         freeWhenWaited(t, c),
			}
			if tt.rulesOf != nil {
				ref.NewReasoner = tt.rulesOf(c)
			}
			m := newMatch(t, tt.rules, tt.players(c)...)
			m.PlayClock = 200 * time.Millisecond
			_, err := ref.Run(context.Background(), m)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("Run: %v, want an error with %q", err, tt.wantErr)
			}
			select {
			case <-c.returned:
			default:
				t.Error("Run returned with a call still running")
			}
			gamestest.NoGoroutines(t, 200*time.Millisecond, matchFuncs...)
		})
	}
}
