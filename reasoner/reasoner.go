// Package reasoner answers what a game's rules say: the roles, the initial
// state, the legal moves, the next state, whether a state is terminal and
// what each role scores.
//
// A Reasoner is one backend instance. It is not safe for concurrent use; call
// Fork to get an independent instance for another goroutine. States and moves
// are plain values shared freely between instances and goroutines.
package reasoner

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/ggp-go/ggp/gdl"
)

// A Factory builds the reasoner for a game's rules. The context bounds the
// time spent loading them. Which backend a Factory builds is chosen in one
// place, by the command; the player and the game master take a Factory and
// never name a backend.
type Factory func(ctx context.Context, d *gdl.Description) (Reasoner, error)

// A Move is a ground term in compact KIF, as gdl's printer writes it:
// "(mark 1 1)", or "noop" for a constant.
type Move string

// A Fact is a ground term true in a state, in compact KIF without the true
// wrapper: "(cell 1 1 b)".
type Fact string

// Reasoner is the game-state machine of one game.
type Reasoner interface {
	// Roles returns the roles in the order the description lists them.
	// Joint moves and goal vectors follow this order.
	Roles() []string

	// Initial returns the initial state.
	Initial(ctx context.Context) (*State, error)

	// Legal returns the legal moves of role (an index into Roles) in s,
	// sorted and without duplicates.
	Legal(ctx context.Context, s *State, role int) ([]Move, error)

	// Next returns the state that follows s when every role plays its move
	// of joint, given in role order.
	Next(ctx context.Context, s *State, joint []Move) (*State, error)

	// Terminal reports whether s ends the game.
	Terminal(ctx context.Context, s *State) (bool, error)

	// Goals returns the goal value of every role in s, in role order. A role
	// whose goal is not defined by exactly one value gets -1, and the error
	// is then a *GoalError naming such roles.
	Goals(ctx context.Context, s *State) ([]int, error)

	// Fork returns an independent instance of the same game, for use in
	// another goroutine.
	Fork() (Reasoner, error)
}

// An Asker answers any query against the rules in a state, beyond what the
// game-state machine asks: every instance of q that holds, in compact KIF,
// sorted. Variables of q may be bound by the answers; q may also be a true
// or does sentence. The reference backend is an Asker.
type Asker interface {
	Ask(ctx context.Context, s *State, q *gdl.Sentence) ([]string, error)
}

// A Percept is a ground term a role perceives of a step in a GDL-II game,
// in compact KIF: the second argument of one of its sees facts, as in
// "(open_door 3)" for (sees candidate (open_door 3)).
type Percept string

// A Perceiver is a Reasoner for GDL-II games, where a role is told of a
// step only what the rules' sees relation says it perceives, never the
// other roles' moves nor the state. Both backends are Perceivers; a game
// without sees rules gives no role any percept.
type Perceiver interface {
	// Sees returns the percepts of role (an index into Roles) when joint
	// is played in s: the second argument of every (sees role P) that
	// holds, sorted and without duplicates. Like Next it reads the state
	// and the moves; in the Dresden dialect a percept may also depend on
	// the state that follows.
	Sees(ctx context.Context, s *State, joint []Move, role int) ([]Percept, error)
}

// Nature is the name of nature's role in GDL-II. In a GDL-II match no
// player plays it: the game master chooses one of its legal moves
// uniformly at random at every step. (A GDL game may name a role random
// too, and a GDL match seats a player in it like in any role.)
const Nature = gdl.KeyRandom

// NatureIndex returns the index of nature's role in roles, as Roles
// returns them, or -1 when the game has none.
func NatureIndex(roles []string) int { return slices.Index(roles, Nature) }

// A Condition is a conjunction over a state's facts: it holds in a state
// that holds every fact of Pos and none of Neg.
type Condition struct {
	Pos, Neg []Fact
}

// GoalError reports roles whose goal value is undefined or not unique.
type GoalError struct {
	Roles  []string
	Values [][]int // the values found for each role in Roles: none or several
}

func (e *GoalError) Error() string {
	var b strings.Builder
	b.WriteString("goal not defined by a single value for ")
	for i, r := range e.Roles {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r)
		if len(e.Values[i]) == 0 {
			b.WriteString(" (none)")
		} else {
			b.WriteString(" (several)")
		}
	}
	return b.String()
}

// GoalsOf turns the distinct goal values found for each role (in role
// order) into the goal vector Goals returns: a role with exactly one value
// gets it, any other -1, and the error is then a *GoalError naming them.
func GoalsOf(roles []string, values [][]int) ([]int, error) {
	goals := make([]int, len(values))
	var ge *GoalError
	for i, vs := range values {
		if len(vs) == 1 {
			goals[i] = vs[0]
			continue
		}
		goals[i] = -1
		if ge == nil {
			ge = &GoalError{}
		}
		slices.Sort(vs)
		ge.Roles = append(ge.Roles, roles[i])
		ge.Values = append(ge.Values, vs)
	}
	if ge != nil {
		return goals, ge
	}
	return goals, nil
}

// ErrDepth is returned, wrapped, when a query recurses deeper than the
// reasoner allows: the rules loop or explode.
var ErrDepth = errors.New("query exceeds the depth limit")

// ErrAnswers is returned, wrapped, when a query has more answers than the
// reasoner holds at once: a few lines of rules can join tables into
// billions of moves.
var ErrAnswers = errors.New("query exceeds the answer limit")

// ErrTermDepth is returned, wrapped, when a query builds a term nested
// deeper than the reasoner allows: the rules recurse on ever-deeper terms.
var ErrTermDepth = errors.New("term exceeds the nesting limit")

// A PartialError is returned by Legal when not every legal move could be
// computed, because a limit or the deadline cut the query short, but some
// were: each of Moves is legal, though the list may lack others. A player
// out of time may play one of them.
type PartialError struct {
	Moves []Move // sorted, without duplicates, never empty
	Err   error  // why the list is incomplete
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("%v (%d legal moves found before)", e.Err, len(e.Moves))
}

func (e *PartialError) Unwrap() error { return e.Err }

// State is an immutable game state: a set of facts. A backend keeps states
// in its own representation: a set of fact strings (NewState), or a word
// vector of the backend's own Encoding, such as a bitset over a grounded
// game's base propositions (NewEncodedState). Facts are produced from an
// encoded state only when asked, for records, printing and queries, and
// then kept.
//
// Equal compares any two states by their facts. Hash is cheap and equal for
// equal states of one representation: two fact states, or two states of the
// same Encoding. Key maps by facts whatever the representation.
type State struct {
	enc   Encoding
	words []uint64 // the state in enc, when enc is not nil
	hash  uint64

	once  sync.Once
	facts []Fact // sorted, no duplicates; decoded from words on first use
}

// An Encoding is a backend's compact representation of the states of one
// loaded game, shared by every instance forked from it.
type Encoding interface {
	// Facts returns the facts of the state encoded as words, sorted and
	// without duplicates.
	Facts(words []uint64) []Fact
}

// seed is fixed for the life of the process so that hashes of equal states
// agree across goroutines and instances. maphash seeds are random per
// process, which keeps hash flooding by a hostile game out of reach.
var seed = maphash.MakeSeed()

// NewState returns the state holding facts, which it sorts and deduplicates.
// NewState takes ownership of the slice.
func NewState(facts []Fact) *State {
	slices.Sort(facts)
	facts = slices.Compact(facts)
	var h maphash.Hash
	h.SetSeed(seed)
	for _, f := range facts {
		h.WriteString(string(f))
		h.WriteByte(0)
	}
	s := &State{facts: facts, hash: h.Sum64()}
	s.once.Do(func() {})
	return s
}

// NewEncodedState returns the state that enc represents as words. It takes
// ownership of words, which must not be modified afterwards.
func NewEncodedState(enc Encoding, words []uint64) *State {
	return &State{enc: enc, words: words, hash: hashWords(words)}
}

// hashWords mixes words into a hash (the 64-bit finalizer of MurmurHash3
// per word, folded with the process seed's hash of the length), cheap
// enough for every state a search makes.
func hashWords(words []uint64) uint64 {
	h := maphash.Comparable(seed, len(words))
	for _, w := range words {
		h ^= w
		h ^= h >> 33
		h *= 0xff51afd7ed558ccd
		h ^= h >> 33
		h *= 0xc4ceb9fe1a85ec53
		h ^= h >> 33
	}
	return h
}

// Encoded returns the words of s if enc made it, and false otherwise. The
// caller must not modify the words.
func (s *State) Encoded(enc Encoding) ([]uint64, bool) {
	if s.enc == nil || s.enc != enc {
		return nil, false
	}
	return s.words, true
}

// Facts returns the facts of the state, sorted. The caller must not modify
// the slice.
func (s *State) Facts() []Fact {
	s.once.Do(func() { s.facts = s.enc.Facts(s.words) })
	return s.facts
}

// Size returns an estimate of the bytes s holds: its words when a backend
// encoded it, without decoding them into facts (a search sizing every
// state it keeps would otherwise pay for the decoding and keep both), and
// its facts otherwise.
func (s *State) Size() int64 {
	if s.enc != nil {
		return int64(8 * len(s.words))
	}
	var n int64
	for _, f := range s.facts {
		n += int64(len(f)) + 16
	}
	return n
}

// Hash returns a hash of the state. Equal states of one representation
// have equal hashes.
func (s *State) Hash() uint64 { return s.hash }

// Equal reports whether s and t hold the same facts.
func (s *State) Equal(t *State) bool {
	if s == t {
		return true
	}
	if s.enc != nil && s.enc == t.enc {
		return s.hash == t.hash && slices.Equal(s.words, t.words)
	}
	if s.enc == nil && t.enc == nil && s.hash != t.hash {
		return false
	}
	return slices.Equal(s.Facts(), t.Facts())
}

// Key returns the facts joined by spaces: a string that identifies the state.
func (s *State) Key() string {
	facts := s.Facts()
	var n int
	for _, f := range facts {
		n += len(f) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for i, f := range facts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(f))
	}
	return b.String()
}

// String returns the state as KIF facts: "(cell 1 1 b) (control x)".
func (s *State) String() string { return s.Key() }
