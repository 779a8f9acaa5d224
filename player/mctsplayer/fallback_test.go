package mctsplayer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/internal/playertest"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// TestPartialLegalMoves plays a game whose legal moves the reasoner cannot
// all list (more than its answer limit): every player still answers one of
// the moves found, never an error, which the server would send as nil.
func TestPartialLegalMoves(t *testing.T) {
	var rules strings.Builder
	rules.WriteString("(role a) (init (s 0)) (<= (next (s 1)) (does a ?m)) (<= terminal (true (s 1))) (goal a 100)\n")
	for i := range 10 {
		fmt.Fprintf(&rules, "(v %d) ", i)
	}
	rules.WriteString("(<= (legal a (m ?x ?y ?z)) (v ?x) (v ?y) (v ?z))\n")
	d, err := gdl.ParseFile("wide.kif", []byte(rules.String()))
	if err != nil {
		t.Fatal(err)
	}
	limited := func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		return prolog.NewWithOptions(ctx, d, prolog.Options{MaxAnswers: 50})
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			p := newPlayer(t, kind, Options{NewReasoner: limited})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			m := &player.Match{ID: "m", Role: "a", Rules: d, StartClock: 2 * time.Second, PlayClock: time.Second}
			if err := p.Start(ctx, m); err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer p.Abort(context.Background(), "m")
			pctx, pcancel := context.WithTimeout(context.Background(), time.Second)
			defer pcancel()
			move, err := p.Play(pctx, "m", nil)
			if err != nil {
				t.Fatalf("Play: %v; want one of the legal moves found", err)
			}
			var x, y, z int
			if n, _ := fmt.Sscanf(string(move), "(m %d %d %d)", &x, &y, &z); n != 3 {
				t.Errorf("Play = %q, not a legal move", move)
			}
		})
	}
}

// TestLegalFromSearch gives the players a reasoner whose own legal-move
// query fails, while the forks the search uses work: the mcts player
// answers a move the search listed for the state, and a baseline player,
// which has no search, fails saying why (the server answers nil).
func TestLegalFromSearch(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	broken := func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := testFactory(ctx, d)
		return legalFails{r}, err
	}
	for _, kind := range []string{"mcts", "legal"} {
		t.Run(kind, func(t *testing.T) {
			p := newPlayer(t, kind, Options{NewReasoner: broken})
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			m := &player.Match{ID: "m", Role: "xplayer", Rules: d, StartClock: time.Second, PlayClock: time.Second}
			if err := p.Start(ctx, m); err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer p.Abort(context.Background(), "m")
			pctx, pcancel := context.WithTimeout(context.Background(), time.Second)
			defer pcancel()
			move, err := p.Play(pctx, "m", nil)
			if kind != "mcts" {
				if err == nil || !errors.Is(err, errLegalFails) {
					t.Errorf("Play = %q, %v; want the reasoner's error", move, err)
				}
				return
			}
			var x, y int
			if n, _ := fmt.Sscanf(string(move), "(mark %d %d)", &x, &y); err != nil || n != 2 {
				t.Errorf("Play = %q, %v; want a mark from the search's tree", move, err)
			}
		})
	}
}

var errLegalFails = errors.New("legal moves fail on purpose")

// legalFails is a reasoner whose Legal fails; its forks work.
type legalFails struct{ reasoner.Reasoner }

func (legalFails) Legal(context.Context, *reasoner.State, int) ([]reasoner.Move, error) {
	return nil, errLegalFails
}

// TestPlayWhileLoading holds the rules loading through the first two
// turns, which the mcts player answers with an error while the game master
// plays for it: once loaded, it must still know every joint move played,
// and answer legal moves to the end of the game. Losing the one joint move
// it was sent while loading would put it a turn out of step.
func TestPlayWhileLoading(t *testing.T) {
	d := loadGame(t, "ticTacToe")
	release := make(chan struct{})
	slow := func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return testFactory(ctx, d)
	}
	p := newPlayer(t, "mcts:workers=1", Options{NewReasoner: slow})
	ref := playertest.Reference(t, d)
	roles := ref.Roles()
	bg := context.Background()
	startCtx, cancel := context.WithTimeout(bg, 200*time.Millisecond)
	defer cancel()
	if err := p.Start(startCtx, &player.Match{ID: "m", Role: roles[0], Rules: d, StartClock: 200 * time.Millisecond, PlayClock: 200 * time.Millisecond}); err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer p.Abort(bg, "m")
	st, err := ref.Initial(bg)
	if err != nil {
		t.Fatal(err)
	}
	var last []reasoner.Move
	for step := 0; ; step++ {
		if term, _ := ref.Terminal(bg, st); term {
			break
		}
		joint := make([]reasoner.Move, len(roles))
		for r := range roles {
			legal, err := ref.Legal(bg, st, r)
			if err != nil {
				t.Fatal(err)
			}
			joint[r] = legal[0]
		}
		clock := 200 * time.Millisecond
		if step == 2 {
			close(release)
			clock = 10 * time.Second // time to load
		}
		ctx, cancel := context.WithTimeout(bg, clock)
		m, err := p.Play(ctx, "m", last)
		cancel()
		switch {
		case step < 2 && err == nil:
			t.Fatalf("step %d: answered %q while the rules were held loading", step, m)
		case step >= 2 && err != nil:
			t.Fatalf("step %d: %v", step, err)
		case step >= 2:
			legal, _ := ref.Legal(bg, st, 0)
			if !slices.Contains(legal, m) {
				t.Fatalf("step %d: %q is not legal; legal: %v", step, m, legal)
			}
			joint[0] = m
		}
		if st, err = ref.Next(bg, st, joint); err != nil {
			t.Fatal(err)
		}
		last = joint
	}
}
