package reasoner

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bitEncoding encodes a state over a fixed list of facts as a bitset, as a
// grounded backend does.
type bitEncoding struct{ facts []Fact }

func (e *bitEncoding) Facts(words []uint64) []Fact {
	var out []Fact
	for i, f := range e.facts {
		if words[i/64]&(1<<(i%64)) != 0 {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func (e *bitEncoding) encode(facts ...Fact) *State {
	words := make([]uint64, (len(e.facts)+63)/64)
	for _, f := range facts {
		i := slices.Index(e.facts, f)
		words[i/64] |= 1 << (i % 64)
	}
	return NewEncodedState(e, words)
}

func TestStateEquality(t *testing.T) {
	enc := &bitEncoding{facts: []Fact{"(cell 1 b)", "(cell 2 x)", "(control o)", "(control x)"}}
	other := &bitEncoding{facts: slices.Clone(enc.facts)}
	tests := []struct {
		name     string
		a, b     *State
		equal    bool
		sameHash bool // whether equal hashes are promised
	}{
		{"facts, order and duplicates ignored", NewState([]Fact{"(b)", "(a)", "(b)"}), NewState([]Fact{"(a)", "(b)"}), true, true},
		{"facts, different", NewState([]Fact{"(a)"}), NewState([]Fact{"(b)"}), false, false},
		{"facts, empty", NewState(nil), NewState([]Fact{}), true, true},
		{"encoded, same", enc.encode("(cell 1 b)", "(control x)"), enc.encode("(control x)", "(cell 1 b)"), true, true},
		{"encoded, different", enc.encode("(cell 1 b)"), enc.encode("(cell 2 x)"), false, false},
		{"encoded against facts", enc.encode("(cell 2 x)", "(control o)"), NewState([]Fact{"(control o)", "(cell 2 x)"}), true, false},
		{"encoded against facts, different", enc.encode("(cell 2 x)"), NewState([]Fact{"(control o)"}), false, false},
		{"two encodings", enc.encode("(control o)"), other.encode("(control o)"), true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Equal(tt.b); got != tt.equal {
				t.Errorf("a.Equal(b) = %v, want %v", got, tt.equal)
			}
			if got := tt.b.Equal(tt.a); got != tt.equal {
				t.Errorf("b.Equal(a) = %v, want %v", got, tt.equal)
			}
			if tt.sameHash && tt.a.Hash() != tt.b.Hash() {
				t.Errorf("equal states hash %x and %x", tt.a.Hash(), tt.b.Hash())
			}
			if (tt.a.Key() == tt.b.Key()) != tt.equal {
				t.Errorf("keys %q and %q, equal = %v", tt.a.Key(), tt.b.Key(), tt.equal)
			}
		})
	}
}

func TestStateFactsAndKey(t *testing.T) {
	enc := &bitEncoding{facts: []Fact{"(z 1)", "(a 2)", "(m 3)"}}
	s := enc.encode("(z 1)", "(a 2)")
	if got, want := s.Facts(), []Fact{"(a 2)", "(z 1)"}; !slices.Equal(got, want) {
		t.Errorf("Facts() = %v, want %v", got, want)
	}
	if got, want := s.String(), "(a 2) (z 1)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if w, ok := s.Encoded(enc); !ok || w[0] != 0b011 {
		t.Errorf("Encoded(enc) = %b, %v; want 11, true", w, ok)
	}
	if _, ok := s.Encoded(&bitEncoding{}); ok {
		t.Error("Encoded reports a state of another encoding as its own")
	}
	if _, ok := NewState([]Fact{"(a 2)"}).Encoded(enc); ok {
		t.Error("Encoded reports a fact state as encoded")
	}
}

// countingEncoding is a bitEncoding that counts how often it decodes.
type countingEncoding struct {
	bitEncoding
	decoded int
}

func (e *countingEncoding) Facts(words []uint64) []Fact {
	e.decoded++
	return e.bitEncoding.Facts(words)
}

func TestStateSize(t *testing.T) {
	enc := &countingEncoding{bitEncoding: bitEncoding{facts: make([]Fact, 130)}}
	s := NewEncodedState(enc, make([]uint64, 3))
	if got, want := s.Size(), int64(3*8); got != want {
		t.Errorf("encoded Size() = %d, want %d", got, want)
	}
	if enc.decoded != 0 {
		t.Errorf("Size decoded the encoded state %d times, want 0", enc.decoded)
	}
	facts := NewState([]Fact{"(a 1)", "(bb 22)"})
	if got, want := facts.Size(), int64(len("(a 1)")+16+len("(bb 22)")+16); got != want {
		t.Errorf("fact state Size() = %d, want %d", got, want)
	}
}

// counter is a one-role game: "inc" adds one to the count until limit,
// where the game ends with goal count*10. failAt makes Next fail there.
type counter struct {
	limit, failAt int
}

func (c *counter) count(s *State) int {
	n := 0
	for _, f := range s.Facts() {
		n = len(strings.TrimSuffix(strings.TrimPrefix(string(f), "(count "), ")"))
	}
	return n
}

func (c *counter) state(n int) *State {
	return NewState([]Fact{Fact("(count " + strings.Repeat("i", n) + ")")})
}

func (c *counter) Roles() []string                         { return []string{"p"} }
func (c *counter) Initial(context.Context) (*State, error) { return c.state(0), nil }
func (c *counter) Fork() (Reasoner, error)                 { return c, nil }
func (c *counter) Terminal(_ context.Context, s *State) (bool, error) {
	return c.count(s) >= c.limit, nil
}
func (c *counter) Legal(_ context.Context, s *State, role int) ([]Move, error) {
	return []Move{"inc", "stay"}, nil
}
func (c *counter) Next(_ context.Context, s *State, joint []Move) (*State, error) {
	n := c.count(s)
	if n == c.failAt {
		return nil, errors.New("broken rules")
	}
	if joint[0] == "inc" {
		n++
	}
	return c.state(n), nil
}
func (c *counter) Goals(_ context.Context, s *State) ([]int, error) {
	return []int{c.count(s) * 10}, nil
}

func TestPlayout(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		game      counter
		maxSteps  int
		wantCount int // the count in the state returned
		wantErr   bool
	}{
		{"reaches the end", counter{limit: 3, failAt: -1}, 1000, 3, false},
		{"stops at maxSteps", counter{limit: 1000, failAt: -1}, 5, -1, false},
		{"returns the last state when Next fails", counter{limit: 10, failAt: 2}, 1000, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			s0, _ := tt.game.Initial(ctx)
			s, steps, err := Playout(ctx, &tt.game, s0, rng, tt.maxSteps, nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if s == nil {
				t.Fatal("Playout returned a nil state")
			}
			if tt.wantCount >= 0 && tt.game.count(s) != tt.wantCount {
				t.Errorf("count %d, want %d", tt.game.count(s), tt.wantCount)
			}
			if tt.maxSteps < 1000 && steps != tt.maxSteps {
				t.Errorf("steps %d, want %d", steps, tt.maxSteps)
			}
			if !tt.wantErr && tt.maxSteps >= 1000 {
				if term, _ := tt.game.Terminal(ctx, s); !term {
					t.Error("playout ended in a non-terminal state")
				}
			}
		})
	}
}

func TestGoalError(t *testing.T) {
	e := &GoalError{Roles: []string{"a", "b"}, Values: [][]int{nil, {0, 100}}}
	if got, want := e.Error(), "goal not defined by a single value for a (none), b (several)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestGoalsOf(t *testing.T) {
	goals, err := GoalsOf([]string{"a", "b", "c"}, [][]int{{50}, {100, 0}, nil})
	if !slices.Equal(goals, []int{50, -1, -1}) {
		t.Errorf("goals %v, want [50 -1 -1]", goals)
	}
	var ge *GoalError
	if !errors.As(err, &ge) || !slices.Equal(ge.Roles, []string{"b", "c"}) || !slices.Equal(ge.Values[0], []int{0, 100}) || ge.Values[1] != nil {
		t.Errorf("error %v (%+v), want a GoalError for b (0 and 100) and c (none)", err, ge)
	}
	if goals, err := GoalsOf([]string{"a"}, [][]int{{100}}); err != nil || !slices.Equal(goals, []int{100}) {
		t.Errorf("single value: %v, %v", goals, err)
	}
}

func TestNatureIndex(t *testing.T) {
	tests := []struct {
		roles []string
		want  int
	}{
		{[]string{"candidate", "random"}, 1},
		{[]string{"random", "p1", "p2"}, 0},
		{[]string{"xplayer", "oplayer"}, -1},
		{[]string{"RANDOM", "(random)"}, -1},
		{nil, -1},
	}
	for _, tt := range tests {
		if got := NatureIndex(tt.roles); got != tt.want {
			t.Errorf("NatureIndex(%q) = %d, want %d", tt.roles, got, tt.want)
		}
	}
}
