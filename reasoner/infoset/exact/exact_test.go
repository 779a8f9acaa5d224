package exact_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
	"github.com/ggp-go/ggp/reasoner/infoset/exact"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// coinRules is a hidden coin: nature tosses it, unseen, and the player
// calls heads or tails blind (100 if right, 0 if wrong), takes a sure 70,
// or peeks at the coin, which costs a step and leaves a call worth 90 if
// right. Peeking and calling right is worth 90, better than 70 or a blind
// call's 50.
const coinRules = `
(role player)
(role random)
(side heads) (side tails)
(init toss)
(<= (legal random (toss ?s)) (true toss) (side ?s))
(<= (legal random noop) (not (true toss)))
(<= (legal player wait) (true toss))
(<= (legal player (call ?s)) (true ready) (side ?s))
(<= (legal player (call ?s)) (true peeked) (side ?s))
(<= (legal player sure) (true ready))
(<= (legal player peek) (true ready))
(<= (next (coin ?s)) (does random (toss ?s)))
(<= (next (coin ?s)) (true (coin ?s)))
(<= (next ready) (true toss))
(<= (next peeked) (does player peek))
(<= (next peeked) (true peeked))
(<= (next (called ?s)) (does player (call ?s)))
(<= (next tookSure) (does player sure))
(<= (sees player (shows ?s)) (does player peek) (true (coin ?s)))
(<= terminal (true (called ?s)))
(<= terminal (true tookSure))
(<= (goal player 100) (true (called ?s)) (true (coin ?s)) (not (true peeked)))
(<= (goal player 90) (true (called ?s)) (true (coin ?s)) (true peeked))
(<= (goal player 0) (true (called ?s)) (not (true (coin ?s))))
(<= (goal player 70) (true tookSure))
(goal random 0)
`

func reasonerOf(t *testing.T, filename string, rules []byte) reasoner.Reasoner {
	t.Helper()
	d, err := gdl.ParseFile(filename, rules)
	if err != nil {
		t.Fatal(err)
	}
	r, err := prolog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func bundled(t *testing.T, key string) reasoner.Reasoner {
	t.Helper()
	g, err := games.Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	return reasonerOf(t, g.Filename, g.Rules)
}

// TestSolve checks the value of games derived by hand, and the move the
// strategy takes at the decision that shows what information is worth.
func TestSolve(t *testing.T) {
	tests := []struct {
		name  string
		r     func(t *testing.T) reasoner.Reasoner
		value float64
		// at is a view of the role, by its steps, and want the moves its
		// strategy takes there.
		at   []infoset.Step
		want []reasoner.Move
	}{
		{
			// Switching wins when the first choice was wrong: 2 in 3.
			// Every door is as good a first choice.
			name: "montyhall", value: 200.0 / 3,
			r:    func(t *testing.T) reasoner.Reasoner { return bundled(t, "montyhall") },
			at:   []infoset.Step{{Move: "(choose 1)"}, {Move: "noop", Percepts: []reasoner.Percept{"(opened 2)"}}},
			want: []reasoner.Move{"switch"},
		},
		{
			// A peek, then the call the coin shows: 90.
			name: "coin", value: 90,
			r:    func(t *testing.T) reasoner.Reasoner { return reasonerOf(t, "coin.kif", []byte(coinRules)) },
			at:   []infoset.Step{{Move: "wait"}},
			want: []reasoner.Move{"peek"},
		},
		{
			// Two questions that halve the numbers leave two, and a
			// guess between them is right half the time at 80: 40. A
			// third question would make it sure at 30.
			name: "numberGuess", value: 40,
			r: func(t *testing.T) reasoner.Reasoner { return bundled(t, "numberGuess") },
			at: []infoset.Step{{Move: "noop"},
				{Move: "(ask 5)", Percepts: []reasoner.Percept{"(below 5)"}},
				{Move: "(ask 3)", Percepts: []reasoner.Percept{"(atleast 3)"}}},
			want: []reasoner.Move{"(guess 3)", "(guess 4)"},
		},
		{
			// A scout, then a shot where the ship is: 75 every time.
			name: "battleshipsFog", value: 75,
			r:    func(t *testing.T) reasoner.Reasoner { return bundled(t, "battleshipsFog") },
			at:   []infoset.Step{{Move: "noop"}},
			want: []reasoner.Move{"scout"},
		},
		{
			// The thief knows the banker's strategy: a strategy that
			// splits otherwise for each bank tells it which bank is the
			// banker's, and it robs that one. The same split for both
			// banks tells it nothing: (2 2) keeps two bags when the
			// thief robs the other bank, half the time, 25; (1 3) keeps
			// one bag or three, and the thief robs the right bank, 12.5;
			// (0 4) and (4 0) keep 0 or 100, and the thief robs the full
			// one: 0.
			name: "bankerThief", value: 25,
			r:    func(t *testing.T) reasoner.Reasoner { return bundled(t, "bankerThief") },
			at:   []infoset.Step{{Move: "noop", Percepts: []reasoner.Percept{"(yours left)"}}},
			want: []reasoner.Move{"(split 2 2)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r(t)
			role := slices.IndexFunc(r.Roles(), func(s string) bool { return s != reasoner.Nature })
			sol, err := exact.Solve(t.Context(), r, role, exact.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(sol.Value-tt.value) > 1e-6 {
				t.Errorf("value %.4f, want %.4f", sol.Value, tt.value)
			}
			if got := sol.Strategy[exact.Key(tt.at)]; !slices.Equal(got, tt.want) {
				t.Errorf("at %q the strategy plays %v, want %v", exact.Key(tt.at), got, tt.want)
			}
		})
	}
}

// TestOpponent checks the thief built for bankerThief: it robs the bank
// with more bags, either on an even split, and the banker's best against
// it is the value of the game.
func TestOpponent(t *testing.T) {
	ctx := t.Context()
	r := bundled(t, "bankerThief")
	sol, err := exact.Solve(ctx, r, 0, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Opponent != 1 {
		t.Fatalf("opponent %d, want the thief, 1", sol.Opponent)
	}
	thief, err := exact.Opponent(ctx, r, 0, sol, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for split, want := range map[reasoner.Percept][]reasoner.Move{
		"(bags 0 4)": {"(rob right)"},
		"(bags 1 3)": {"(rob right)"},
		"(bags 2 2)": {"(rob left)", "(rob right)"},
		"(bags 3 1)": {"(rob left)"},
		"(bags 4 0)": {"(rob left)"},
	} {
		view := exact.Key([]infoset.Step{{Move: "noop"}, {Move: "noop", Percepts: []reasoner.Percept{split}}})
		if got := thief[view]; !slices.Equal(got, want) {
			t.Errorf("after %s the thief plays %v, want %v", split, got, want)
		}
	}
	best, err := exact.Best(ctx, r, 0, map[int]exact.Policy{1: thief}, -1, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(best.Goals[0]-sol.Value) > 1e-6 {
		t.Errorf("the banker's best against the thief is %.4f, want the value %.4f", best.Goals[0], sol.Value)
	}
}

// TestErrors checks that a search says why it cannot answer.
func TestErrors(t *testing.T) {
	ctx := t.Context()
	coin := reasonerOf(t, "coin.kif", []byte(coinRules))
	banker := bundled(t, "bankerThief")
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"nodes", func() error {
			_, err := exact.Solve(ctx, coin, 0, exact.Options{MaxNodes: 3})
			return err
		}, "more than 3 information sets"},
		{"strategies", func() error {
			_, err := exact.Solve(ctx, banker, 0, exact.Options{MaxStrategies: 10})
			return err
		}, "banker has more than 10 pure strategies"},
		{"nature", func() error {
			_, err := exact.Best(ctx, coin, 1, nil, -1, exact.Options{})
			return err
		}, "no player role 1"},
		{"policy without the view", func() error {
			_, err := exact.Best(ctx, banker, 0, map[int]exact.Policy{1: {}}, -1, exact.Options{})
			return err
		}, `the policy of thief has no move for its view`},
		{"illegal policy", func() error {
			thief, err := exact.Uniform(ctx, banker, 1, exact.Options{})
			if err != nil {
				return err
			}
			thief[exact.Key([]infoset.Step{{Move: "noop"}, {Move: "noop", Percepts: []reasoner.Percept{"(bags 2 2)"}}})] = []reasoner.Move{"(split 2 2)"}
			_, err = exact.Best(ctx, banker, 0, map[int]exact.Policy{1: thief}, -1, exact.Options{})
			return err
		}, "plays (split 2 2) at its view"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
			if tt.name == "nodes" && !errors.Is(err, exact.ErrLimit) {
				t.Errorf("error %v does not wrap ErrLimit", err)
			}
		})
	}
}
