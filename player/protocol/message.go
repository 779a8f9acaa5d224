package protocol

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Type is the type of a message, as the game master writes it.
type Type string

// The types of message a game master sends.
const (
	TypeInfo    Type = "INFO"
	TypePreview Type = "PREVIEW"
	TypeStart   Type = "START"
	TypePlay    Type = "PLAY"
	TypeStop    Type = "STOP"
	TypeAbort   Type = "ABORT"
)

// MaxClock bounds a clock in a message, in seconds (about 12 days).
const MaxClock = 1 << 20

// A Message is one request of the game master to a player:
//
//	(INFO)
//	(PREVIEW RULES CLOCK)
//	(START ID ROLE (RULES...) STARTCLOCK PLAYCLOCK)
//	(PLAY ID NIL)   (PLAY ID (MOVE...))
//	(STOP ID (MOVE...))
//	(ABORT ID)
//
// and in a GDL-II match, as the Dresden GameController writes them:
//
//	(PLAY ID 0 NIL NIL)
//	(PLAY ID TURN MYLASTMOVE (PERCEPT...))
//	(STOP ID TURN MYLASTMOVE (PERCEPT...))
//
// The older GDL-II form, (PLAY ID NIL) then (PLAY ID (PERCEPT...)) and
// (STOP ID (PERCEPT...)), has the shape of GDL's: Parse reads its list
// into Moves, and the player's server, which knows the match, decides
// which it is.
//
// Which fields are set depends on Type. Parse reads the arguments of
// PREVIEW without keeping them: a player answers ready whatever they are.
type Message struct {
	Type Type

	// MatchID names the match: START, PLAY, STOP and ABORT.
	MatchID string

	// Role, Rules, StartClock and PlayClock are those of START. The
	// clocks are written in whole seconds, rounded up (see Seconds).
	Role                  string
	Rules                 *gdl.Description
	StartClock, PlayClock time.Duration

	// Moves is the list of a three-element PLAY or STOP, each term in
	// compact KIF as written: the joint move just played, one move per
	// role in role order, or, in the older GDL-II form, the receiver's
	// percepts; nil for NIL, on the first PLAY.
	Moves []reasoner.Move

	// GDLII is set for the PLAY and STOP of a GDL-II match, which carry
	// Turn, LastMove and Percepts instead of Moves: the number of steps
	// played, the receiver's own move of the last one ("" before the
	// first) and its percepts of it, each in compact KIF as written.
	GDLII    bool
	Turn     int
	LastMove reasoner.Move
	Percepts []reasoner.Percept

	// Upper makes String write every symbol but the match id in upper
	// case, as the Dresden GameController does.
	Upper bool
}

// MaxTurn bounds the turn number of a GDL-II PLAY or STOP.
const MaxTurn = 1 << 20

// ErrMoves is wrapped by the error of Parse when only the joint move of a
// PLAY or STOP could not be read. Parse then returns the message with its
// other fields read and Moves nil, so that a player can still tell which
// match the message is for, and end it on STOP.
var ErrMoves = errors.New("bad joint move")

// Parse reads a message, as a player receives it. Its type is read
// whatever its case, as ggp-base reads it; an error names what is wrong,
// with the untrusted text quoted and cut short.
func Parse(msg []byte) (*Message, error) {
	text := strings.TrimSpace(string(msg))
	if text == "" {
		return nil, errors.New("empty message")
	}
	e, err := gdl.ReadExpr([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("unreadable message %s: %v", Quote(text, 80), err)
	}
	if !e.IsList || len(e.List) == 0 || e.List[0].IsList {
		return nil, fmt.Errorf("message %s is not a list headed by its type", Quote(text, 80))
	}
	head, args := e.List[0].Atom, e.List[1:]
	m := &Message{Type: Type(strings.ToUpper(head))}
	var want int
	switch m.Type {
	case TypeInfo:
		want = 0
	case TypePlay, TypeStop:
		want = 2
		if len(args) == 4 {
			if err := m.parseTurn(args); err != nil {
				return m, err
			}
			return m, nil
		}
	case TypePreview:
		want = 2
	case TypeAbort:
		want = 1
	case TypeStart:
		if len(args) < 5 {
			return nil, fmt.Errorf("%s takes at least 5 arguments, not %d", head, len(args))
		}
		if err := m.parseStart(args); err != nil {
			return nil, err
		}
		return m, nil
	default:
		return nil, fmt.Errorf("unknown message type %q", head)
	}
	if len(args) != want {
		return nil, fmt.Errorf("%s takes %d arguments, not %d", head, want, len(args))
	}
	switch m.Type {
	case TypePlay, TypeStop, TypeAbort:
		if m.MatchID, err = atomArg(args[0], "match id"); err != nil {
			return nil, fmt.Errorf("%s: %w", m.Type, err)
		}
	}
	if m.Type == TypePlay || m.Type == TypeStop {
		if m.Moves, err = jointMove(args[1]); err != nil {
			return m, fmt.Errorf("%s %s: %w: %w", m.Type, m.MatchID, ErrMoves, err)
		}
	}
	return m, nil
}

// parseTurn reads the arguments of a GDL-II PLAY or STOP. An error
// reading the move or the percepts wraps ErrMoves, as one reading a joint
// move does.
func (m *Message) parseTurn(args []*gdl.Expr) (err error) {
	m.GDLII = true
	if m.MatchID, err = atomArg(args[0], "match id"); err != nil {
		return fmt.Errorf("%s: %w", m.Type, err)
	}
	a, err := atomArg(args[1], "turn")
	if err == nil {
		m.Turn, err = strconv.Atoi(a)
		if err != nil || m.Turn < 0 || m.Turn > MaxTurn {
			err = fmt.Errorf("turn %q is not a number of steps", a)
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", m.Type, m.MatchID, err)
	}
	if m.Turn > 0 || args[2].IsList || !strings.EqualFold(args[2].Atom, "nil") {
		t, err := gdl.ExprTerm(args[2])
		if err == nil && !gdl.IsGround(t) {
			err = errors.New("not ground")
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w: last move: %v", m.Type, m.MatchID, ErrMoves, err)
		}
		m.LastMove = reasoner.Move(gdl.Format(t))
	}
	if !args[3].IsList {
		return nil // NIL: no percepts
	}
	m.Percepts = make([]reasoner.Percept, len(args[3].List))
	for i, x := range args[3].List {
		t, err := gdl.ExprTerm(x)
		if err == nil && !gdl.IsGround(t) {
			err = errors.New("not ground")
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w: percept %d: %v", m.Type, m.MatchID, ErrMoves, i+1, err)
		}
		m.Percepts[i] = reasoner.Percept(gdl.Format(t))
	}
	return nil
}

// parseStart reads the arguments of START; more than five are ignored.
func (m *Message) parseStart(args []*gdl.Expr) (err error) {
	if m.MatchID, err = atomArg(args[0], "match id"); err != nil {
		return fmt.Errorf("START: %w", err)
	}
	if m.Role, err = atomArg(args[1], "role"); err != nil {
		return fmt.Errorf("START %s: %w", m.MatchID, err)
	}
	if !args[2].IsList {
		return fmt.Errorf("START %s: the rules are not a list", m.MatchID)
	}
	if m.StartClock, err = clockArg(args[3], "start clock"); err != nil {
		return fmt.Errorf("START %s: %w", m.MatchID, err)
	}
	if m.PlayClock, err = clockArg(args[4], "play clock"); err != nil {
		return fmt.Errorf("START %s: %w", m.MatchID, err)
	}
	m.Rules, err = gdl.ExprDescription("", args[2].List)
	if err == nil && len(m.Rules.Rules) == 0 {
		err = errors.New("no rules")
	}
	if err != nil {
		return fmt.Errorf("START %s: rules: %w", m.MatchID, err)
	}
	return nil
}

// atomArg returns the text of an argument that must be an atom.
func atomArg(e *gdl.Expr, what string) (string, error) {
	if e.IsList {
		return "", fmt.Errorf("%s is a list, not an atom", what)
	}
	return e.Atom, nil
}

// clockArg reads a clock in seconds.
func clockArg(e *gdl.Expr, what string) (time.Duration, error) {
	a, err := atomArg(e, what)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(a)
	if err != nil || n <= 0 || n > MaxClock {
		return 0, fmt.Errorf("%s %q is not a positive number of seconds", what, a)
	}
	return time.Duration(n) * time.Second, nil
}

// jointMove reads the joint move of PLAY or STOP: an atom such as NIL for
// none, or a list of moves, each a term, returned in compact KIF.
func jointMove(e *gdl.Expr) ([]reasoner.Move, error) {
	if !e.IsList {
		return nil, nil
	}
	moves := make([]reasoner.Move, len(e.List))
	for i, x := range e.List {
		t, err := gdl.ExprTerm(x)
		if err != nil {
			return nil, fmt.Errorf("move %d: %v", i+1, err)
		}
		moves[i] = reasoner.Move(gdl.Format(t))
	}
	return moves, nil
}

// String returns the message as ggp-base's game server writes it, such as
// "( PLAY m1 ((mark 1 1) noop) )": the rules and the moves in compact KIF,
// the clocks in whole seconds.
func (m *Message) String() string {
	var b strings.Builder
	up := func(s string) string {
		if m.Upper {
			return strings.ToUpper(s)
		}
		return s
	}
	switch m.Type {
	case TypeStart:
		fmt.Fprintf(&b, "( START %s %s (", m.MatchID, up(m.Role))
		writeRules(&b, m.Rules, up)
		fmt.Fprintf(&b, ") %d %d)", Seconds(m.StartClock), Seconds(m.PlayClock))
	case TypePreview:
		b.WriteString("( PREVIEW (")
		writeRules(&b, m.Rules, up)
		fmt.Fprintf(&b, ") %d )", Seconds(m.PlayClock))
	case TypePlay, TypeStop:
		if m.GDLII {
			writeTurn(&b, m, up)
			break
		}
		fmt.Fprintf(&b, "( %s %s ", m.Type, m.MatchID)
		writeMoves(&b, m.Moves)
		b.WriteString(" )")
	case TypeAbort:
		fmt.Fprintf(&b, "( ABORT %s )", m.MatchID)
	default:
		fmt.Fprintf(&b, "( %s )", m.Type)
	}
	return b.String()
}

func writeRules(b *strings.Builder, d *gdl.Description, up func(string) string) {
	if d == nil {
		return
	}
	for i, r := range d.Rules {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(up(gdl.Format(r)))
	}
}

// writeTurn writes a GDL-II PLAY or STOP as the Dresden GameController
// does: (PLAY ID 0 NIL NIL) first, and a turn with no percepts ending in
// ().
func writeTurn(b *strings.Builder, m *Message, up func(string) string) {
	fmt.Fprintf(b, "(%s %s %d ", m.Type, m.MatchID, m.Turn)
	if m.Turn == 0 && m.LastMove == "" {
		b.WriteString("NIL NIL)")
		return
	}
	b.WriteString(up(string(m.LastMove)))
	b.WriteString(" (")
	for _, p := range m.Percepts {
		b.WriteString(up(string(p)))
		b.WriteByte(' ')
	}
	b.WriteString("))")
}

// writeMoves writes a joint move: NIL before the first move, else the
// moves in a list.
func writeMoves(b *strings.Builder, moves []reasoner.Move) {
	if moves == nil {
		b.WriteString("NIL")
		return
	}
	b.WriteByte('(')
	for i, mv := range moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(mv))
	}
	b.WriteByte(')')
}

// ParseMove reads a player's answer to PLAY: one term, returned in compact
// KIF, whatever its spacing.
func ParseMove(answer string) (reasoner.Move, error) {
	e, err := gdl.ReadExpr([]byte(answer))
	if err != nil {
		return "", err
	}
	return reasoner.Move(e.String()), nil
}

// Info is what a player says of itself in answer to INFO.
type Info struct {
	Name    string // empty when the player gives none
	Status  string // "available" or "busy", as a rule
	Species string
}

// MaxNameLength bounds the name ParseInfo takes from a player's answer.
const MaxNameLength = 100

// String returns the answer to INFO as ggp-base's players write it,
// ((name NAME) (status STATUS) (species SPECIES)), each value made one
// atom.
func (i Info) String() string {
	return "((name " + atom(i.Name) + ") (status " + atom(i.Status) + ") (species " + atom(i.Species) + "))"
}

// atom makes name a single KIF atom.
func atom(name string) string {
	name = strings.Map(func(r rune) rune {
		if r <= ' ' || r == '(' || r == ')' || r == ';' || r == 0x7f {
			return '_'
		}
		return r
	}, name)
	if name == "" {
		return "_"
	}
	return name
}

// ParseInfo reads a player's answer to INFO, which ggp-base's players give
// as ((name NAME) (status STATUS) (species SPECIES)), every part optional
// and parts it does not know skipped. An answer that is one atom, as some
// older players give, is taken as the status. A name of several atoms, as
// ggp-base writes a name with spaces (Sancho's (name Sancho 1.61c)), is
// taken whole, its atoms joined by spaces. The status is returned in lower
// case, and a name longer than MaxNameLength is cut.
func ParseInfo(answer string) (Info, error) {
	e, err := gdl.ReadExpr([]byte(answer))
	if err != nil {
		return Info{}, err
	}
	if !e.IsList {
		return Info{Status: strings.ToLower(e.Atom)}, nil
	}
	var info Info
	for _, pair := range e.List {
		if !pair.IsList || len(pair.List) < 2 || slices.ContainsFunc(pair.List, func(x *gdl.Expr) bool { return x.IsList }) {
			continue // a part of a later version of the protocol
		}
		key := strings.ToLower(pair.List[0].Atom)
		if len(pair.List) > 2 && key != "name" {
			continue
		}
		atoms := make([]string, len(pair.List)-1)
		for i, x := range pair.List[1:] {
			atoms[i] = x.Atom
		}
		v := strings.Join(atoms, " ")
		switch key {
		case "name":
			if len(v) > MaxNameLength {
				v = strings.ToValidUTF8(v[:MaxNameLength], "")
			}
			info.Name = v
		case "status":
			info.Status = strings.ToLower(v)
		case "species":
			info.Species = v
		}
	}
	return info, nil
}

// ErrBadResponse is matched by every ResponseError: a response arrived but
// could not be read as what was asked for. A game master records it as an
// illegal move rather than a connection error.
var ErrBadResponse = errors.New("bad response")

// A ResponseError reports a response that arrived but could not be read
// as what was asked for, such as a PLAY answered by no single term.
type ResponseError struct {
	Player   string
	Response string // the response, possibly cut at a size limit
	Err      error
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("remote player %s: bad response %s: %v", e.Player, Quote(e.Response, 80), e.Err)
}

func (e *ResponseError) Unwrap() error { return e.Err }

// Is makes every ResponseError match ErrBadResponse.
func (e *ResponseError) Is(target error) bool { return target == ErrBadResponse }
