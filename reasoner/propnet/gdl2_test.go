package propnet_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

// TestGDLIIRefused checks that the network refuses, with the reason, the
// GDL-II games it cannot play as the Prolog backend does.
func TestGDLIIRefused(t *testing.T) {
	const game = "(role a) (role random) (init s) (legal random go) (<= terminal (true s)) (goal a 100)\n"
	tests := []struct {
		name, rules string
		want        string
	}{
		{"percepts", game + "(legal a go) (<= (sees a seen) (true s))", "test.kif:2:14: a sees rule"},
		{"a rule the dialect reads otherwise", game + "(<= (legal ?r go) (true s))", "dialect reads some rules otherwise"},
		{"a rule with no reading", game + "(legal a go) (<= (next (c ?x)) (true s))", "test.kif:2:27: unsafe rule for next"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := propnet.New(context.Background(), parse(t, tt.rules), propnet.Options{})
			if !errors.Is(err, propnet.ErrNotGrounded) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestGDLIIWithoutPercepts checks that a game with nature's role and no
// sees rules, such as guessSix, is played, and that no role perceives
// anything in it.
func TestGDLIIWithoutPercepts(t *testing.T) {
	ctx := context.Background()
	r, err := propnet.New(ctx, parse(t, `(role random) (role p) (init s)
(<= (legal random (roll ?n)) (num ?n)) (num 1) (num 2)
(<= (legal p (guess ?n)) (num ?n))
(<= (next won) (does random (roll ?n)) (does p (guess ?n)))
(<= terminal (true won)) (<= terminal (true s))
(goal random 100) (<= (goal p 100) (true won)) (<= (goal p 0) (not (true won)))`), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Initial(ctx)
	joint := []reasoner.Move{"(roll 1)", "(guess 1)"}
	for role := range 2 {
		ps, err := r.Sees(ctx, s, joint, role)
		if err != nil || len(ps) != 0 {
			t.Errorf("role %d sees %v, %v; want nothing", role, ps, err)
		}
	}
	if _, err := r.Sees(ctx, s, joint, 2); err == nil {
		t.Error("Sees of role 2 of 2: no error")
	}
	if _, err := r.Sees(ctx, s, joint[:1], 0); err == nil {
		t.Error("Sees of one move for two roles: no error")
	}
}

// TestBeatMania checks that the public GDL game that names a role random
// still grounds: IsGDLII holds for it, but it has no percepts and nothing
// the GDL-II dialect would read otherwise.
func TestBeatMania(t *testing.T) {
	g, err := games.LoadFolder(filepath.Join(gamestest.Games(), "beatMania"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no game corpus")
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	if !d.IsGDLII() {
		t.Fatal("beatMania does not name a role random")
	}
	if _, err := propnet.New(context.Background(), d, propnet.Options{}); err != nil {
		t.Error(err)
	}
}
