package follow

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

const rules = `
(role Left) (role right)
(init (control Left))
(<= (legal ?r (mark ?c)) (true (control ?r)) (cell ?c))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(cell 1) (cell 2)
(<= (next (control right)) (true (control Left)))
(<= (next (control Left)) (true (control right)))
(<= terminal (true (control nobody)))
(<= (goal ?r 50) (role ?r))
`

func start(t *testing.T, role string, newReasoner reasoner.Factory) (*Game, error) {
	t.Helper()
	d, err := gdl.ParseFile("t.kif", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	return Start(context.Background(), &player.Match{ID: "m", Role: role, Rules: d}, newReasoner)
}

func factory(t *testing.T) reasoner.Factory {
	f, err := backend.New(backend.Prolog, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFollow follows a turn and checks the role, the legal moves and the
// state, with the role named as written and in another case.
func TestFollow(t *testing.T) {
	ctx := context.Background()
	for _, role := range []string{"right", "RIGHT"} {
		g, err := start(t, role, factory(t))
		if err != nil {
			t.Fatalf("role %s: %v", role, err)
		}
		if g.Role != 1 {
			t.Errorf("role %s: index %d, want 1", role, g.Role)
		}
		if moves, err := g.Legal(ctx, t.Logf); err != nil || len(moves) != 1 || moves[0] != "noop" {
			t.Errorf("role %s: legal %v, %v; want [noop]", role, moves, err)
		}
		if err := g.Advance(ctx, nil); err != nil || g.State.String() != "(control Left)" {
			t.Errorf("Advance(nil): %v, state %v", err, g.State)
		}
		if err := g.Advance(ctx, []reasoner.Move{"(mark 2)", "noop"}); err != nil {
			t.Fatal(err)
		}
		if g.State.String() != "(control right)" {
			t.Errorf("role %s after a turn: state %v", role, g.State)
		}
		if moves, err := g.Legal(ctx, t.Logf); err != nil || len(moves) != 2 || moves[0] != "(mark 1)" || moves[1] != "(mark 2)" {
			t.Errorf("role %s after a turn: legal %v, %v", role, moves, err)
		}
		if err := g.Advance(ctx, []reasoner.Move{"noop"}); err == nil || !strings.Contains(err.Error(), "1 moves for 2 roles") {
			t.Errorf("a joint move of one move: %v", err)
		}
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := start(t, "middle", factory(t)); err == nil || !strings.Contains(err.Error(), `role "middle" is not one of the game's roles [Left right]`) {
		t.Errorf("unknown role: %v", err)
	}
	if _, err := start(t, "Left", nil); err == nil || !strings.Contains(err.Error(), "no reasoner factory") {
		t.Errorf("no factory: %v", err)
	}
	if _, err := Start(context.Background(), &player.Match{ID: "m", Role: "x"}, factory(t)); err == nil || !strings.Contains(err.Error(), "no rules") {
		t.Errorf("no rules: %v", err)
	}
	bad := errors.New("cannot load")
	fails := func(context.Context, *gdl.Description) (reasoner.Reasoner, error) { return nil, bad }
	if _, err := start(t, "Left", fails); !errors.Is(err, bad) {
		t.Errorf("a factory that fails: %v", err)
	}
}

// partial is a reasoner whose Legal finds some moves only.
type partial struct{ reasoner.Reasoner }

func (partial) Legal(context.Context, *reasoner.State, int) ([]reasoner.Move, error) {
	return nil, &reasoner.PartialError{Moves: []reasoner.Move{"(mark 1)"}, Err: errors.New("out of answers")}
}

// TestLegalPartial checks that the moves found are played when not all
// could be, and that the log says why.
func TestLegalPartial(t *testing.T) {
	base := factory(t)
	g, err := start(t, "Left", func(ctx context.Context, d *gdl.Description) (reasoner.Reasoner, error) {
		r, err := base(ctx, d)
		return partial{r}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	var logged string
	moves, err := g.Legal(context.Background(), func(format string, args ...any) { logged = format })
	if err != nil || len(moves) != 1 || moves[0] != "(mark 1)" {
		t.Errorf("Legal = %v, %v; want the one move found", moves, err)
	}
	if !strings.Contains(logged, "choosing among those") {
		t.Errorf("logged %q", logged)
	}
	if _, err := g.AllLegal(context.Background()); err == nil {
		t.Error("AllLegal of a partial answer: no error")
	}
}
