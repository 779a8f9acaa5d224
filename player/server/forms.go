package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/reasoner"
)

// The public referees write a PLAY or STOP in one of three forms (docs/gdl2.md,
// "The protocol", lists each with its source):
//
//   - GDL, every referee: (PLAY ID NIL) first, then (PLAY ID (MOVE...))
//     with one move per role in role order, and (STOP ID (MOVE...)).
//   - GDL-II, the Dresden GameController's final form, which sjl/cl-ggp's
//     player reads and our referee sends: (PLAY ID 0 NIL NIL) first, then
//     (PLAY ID TURN MYMOVE (PERCEPT...)), and STOP alike.
//   - GDL-II, the Dresden GameController's older form, which the UWA fork
//     (SafetyInObscurity/ggp-gamecontroller) still sends: (PLAY ID NIL)
//     first, then (PLAY ID (PERCEPT...)), and (STOP ID (PERCEPT...)),
//     without the turn and the receiver's own move.
//
// The first is told from the others by its five elements; the other two
// have the same shape, and which one a message is in is decided here,
// from the message and the match it belongs to (readList), and nowhere
// else.

// A form is how the PLAYs of a match are written.
type form int

const (
	formUnsettled form = iota // no PLAY but a first NIL has arrived
	formMoves                 // GDL: the joint move
	formTurns                 // GDL-II, the Dresden GameController's final form
	formPercepts              // GDL-II, its older form: the percepts alone
)

func (f form) String() string {
	switch f {
	case formMoves:
		return "GDL's form, a joint move"
	case formTurns:
		return "the GDL-II form (PLAY ID TURN MYMOVE (PERCEPT...))"
	case formPercepts:
		return "the older GDL-II form (PLAY ID (PERCEPT...))"
	}
	return "no form yet"
}

// MaxPercepts bounds the percepts of one PLAY or STOP in the older GDL-II
// form, each of which is matched against the sees rules.
const MaxPercepts = 1 << 16

// A reading is what a PLAY or STOP is taken to say.
type reading struct {
	form  form
	gdlII bool            // the mode of play it shows
	moves []reasoner.Move // GDL: the joint move, nil on the first PLAY
	turn  player.Turn     // GDL-II, in the spelling of the rules
}

// read decides how msg, a PLAY or STOP of m, is read, and keeps what the
// older GDL-II form leaves for the player to count: the PLAYs received.
// An error says why the message cannot be read.
func (m *serverMatch) read(msg *protocol.Message) (reading, error) {
	m.modeMu.Lock()
	defer m.modeMu.Unlock()
	r, err := m.readLocked(msg)
	if err == nil && msg.Type == protocol.TypePlay {
		m.plays++
		if r.form != formUnsettled { // readLocked keeps a settled form
			m.form = r.form
		}
	}
	return r, err
}

func (m *serverMatch) readLocked(msg *protocol.Message) (reading, error) {
	if msg.GDLII {
		if m.form != formUnsettled && m.form != formTurns {
			return reading{}, fmt.Errorf("a message in %v in a match whose PLAYs were in %v", formTurns, m.form)
		}
		return reading{form: formTurns, gdlII: true, turn: m.respellTurn(msg.Turn, msg.LastMove, msg.Percepts)}, nil
	}
	if m.form == formTurns {
		return reading{}, fmt.Errorf("a message of three elements in a match whose PLAYs were in %v", m.form)
	}
	if msg.Moves == nil { // NIL
		return m.readNil(msg)
	}
	f, err := m.readList(msg.Moves)
	if err != nil {
		return reading{}, err
	}
	if f == formMoves {
		return reading{form: formMoves, moves: msg.Moves}, nil
	}
	percepts := make([]reasoner.Percept, len(msg.Moves))
	for i, p := range msg.Moves {
		percepts[i] = reasoner.Percept(p)
	}
	return reading{form: formPercepts, gdlII: true, turn: m.respellTurn(m.plays, m.answered, percepts)}, nil
}

// readNil reads (PLAY ID NIL) or (STOP ID NIL). The first PLAY of both
// GDL and the older GDL-II form is NIL: it tells nothing, is played in
// the mode the match was started in, and settles no form, so that the
// next PLAY may still show either. Later, NIL is GDL's, as ggp-base's
// player takes it, unless the match is played as GDL-II: the older form
// writes a STOP after no PLAY as NIL, and no PLAY but the first.
func (m *serverMatch) readNil(msg *protocol.Message) (reading, error) {
	first := msg.Type == protocol.TypePlay && m.plays == 0
	switch {
	case first:
		return reading{form: formUnsettled, gdlII: m.start.GDLII}, nil
	case !m.start.GDLII || m.form == formMoves:
		return reading{form: formMoves}, nil
	case msg.Type == protocol.TypeStop:
		return reading{form: formPercepts, gdlII: true, turn: m.respellTurn(m.plays, m.answered, nil)}, nil
	}
	return reading{}, fmt.Errorf("NIL after %d PLAYs of a match played as GDL-II: neither GDL-II form sends it after the first", m.plays)
}

// readList decides whether terms, the list of a three-element PLAY or
// STOP, is a GDL joint move or percepts in the older GDL-II form, from
// the match's rules:
//
//   - a match whose PLAYs have already shown a form keeps it;
//   - the terms are a joint move when there is one per role and each is
//     a move of its role in role order: it matches the move of a legal
//     rule of that role;
//   - they are percepts when the rules may be played as GDL-II (with
//     nature seated) and each matches the percept of a sees rule of the
//     player's role; no terms, (), is no percepts;
//   - when both hold, the mode the rules were read in at START
//     (gdl.DecideMode) decides: a public referee that sends the older
//     form to a player refuses to seat it in a GDL-II game unless the
//     player reads GDL-II, and gives a player that reads GDL-II the
//     rules of a GDL game with a sees rule added;
//   - when neither holds, the message cannot be read, and the error says
//     why each reading fails.
func (m *serverMatch) readList(terms []reasoner.Move) (form, error) {
	if m.form == formMoves || m.form == formPercepts {
		return m.form, nil
	}
	sh := m.shapes()
	ts := make([]gdl.Term, len(terms))
	for i, s := range terms {
		t, err := gdl.ParseTerm(m.spell.Respell(string(s)))
		if err == nil && !gdl.IsGround(t) {
			err = errors.New("not ground")
		}
		if err != nil {
			return 0, fmt.Errorf("term %d %s: %v", i+1, protocol.Quote(string(s), 80), err)
		}
		ts[i] = t
	}
	movesErr := sh.jointMove(ts)
	perceptsErr := sh.percepts(ts)
	switch {
	case movesErr == nil && perceptsErr == nil:
		if m.start.GDLII {
			return formPercepts, nil
		}
		return formMoves, nil
	case movesErr == nil:
		return formMoves, nil
	case perceptsErr == nil:
		return formPercepts, nil
	}
	return 0, fmt.Errorf("%d terms that are neither a joint move (%v) nor percepts of role %s (%v)",
		len(terms), movesErr, m.start.Role, perceptsErr)
}

// respellTurn returns a turn in the spelling of m's rules. m.modeMu must
// be held.
func (m *serverMatch) respellTurn(number int, move reasoner.Move, percepts []reasoner.Percept) player.Turn {
	spell := m.spell
	if spell == nil {
		spell = protocol.NewSpelling(m.start.Rules)
		m.spell = spell
	}
	t := player.Turn{Number: number, Move: reasoner.Move(spell.Respell(string(move)))}
	for _, p := range percepts {
		t.Percepts = append(t.Percepts, reasoner.Percept(spell.Respell(string(p))))
	}
	return t
}

// shapes returns the shapes of m's moves and percepts, read from its
// rules once. m.modeMu must be held.
func (m *serverMatch) shapes() *shapes {
	if m.shape == nil {
		if m.spell == nil {
			m.spell = protocol.NewSpelling(m.start.Rules)
		}
		m.shape = newShapes(m.start.Rules, m.start.Role)
	}
	return m.shape
}

// shapes are the shapes of the moves of each role and of the percepts of
// one role, as the heads of the legal and sees rules write them.
type shapes struct {
	roles        []string
	role         string
	moveHeads    [][][]gdl.Term // per role, the arguments of each legal head
	perceptHeads [][]gdl.Term   // the arguments of each sees head that may be the role's
	gdlII        bool           // the rules may be played as GDL-II
}

// newShapes reads the shapes of d's moves and of the percepts of role.
func newShapes(d *gdl.Description, role string) *shapes {
	sh := &shapes{role: role, gdlII: gdl.DecideMode(d, gdl.NatureSeated) == gdl.GDLII}
	if d == nil {
		return sh
	}
	for _, r := range d.Rules {
		if r == nil || r.Head == nil || r.Head.Name == nil || len(r.Head.Args) != 1 || r.Head.Name.Name != gdl.KeyRole {
			continue
		}
		if c, ok := r.Head.Args[0].(*gdl.Const); ok && c != nil {
			sh.roles = append(sh.roles, c.Name)
		}
	}
	sh.moveHeads = make([][][]gdl.Term, len(sh.roles))
	for _, r := range d.Rules {
		if r == nil || r.Head == nil || r.Head.Name == nil || len(r.Head.Args) != 2 {
			continue
		}
		args := r.Head.Args
		switch r.Head.Name.Name {
		case gdl.KeyLegal:
			for i, name := range sh.roles {
				if matches(args[0], &gdl.Const{Name: name}, map[string]gdl.Term{}) {
					sh.moveHeads[i] = append(sh.moveHeads[i], args)
				}
			}
		case gdl.KeySees:
			if matches(args[0], &gdl.Const{Name: role}, map[string]gdl.Term{}) {
				sh.perceptHeads = append(sh.perceptHeads, args)
			}
		}
	}
	return sh
}

// jointMove says why ts is not a joint move of the roles, or returns nil.
func (sh *shapes) jointMove(ts []gdl.Term) error {
	if len(ts) != len(sh.roles) {
		return fmt.Errorf("%d roles", len(sh.roles))
	}
	for i, t := range ts {
		if !matchesAny(sh.moveHeads[i], sh.roles[i], t) {
			return fmt.Errorf("term %d, %s, is no move of role %s", i+1, gdl.Format(t), sh.roles[i])
		}
	}
	return nil
}

// percepts says why ts are not percepts of the role, or returns nil.
func (sh *shapes) percepts(ts []gdl.Term) error {
	switch {
	case !sh.gdlII:
		return errors.New("the rules are not GDL-II")
	case len(ts) > MaxPercepts:
		return fmt.Errorf("more than %d", MaxPercepts)
	}
	for i, t := range ts {
		if !matchesAny(sh.perceptHeads, sh.role, t) {
			return fmt.Errorf("term %d, %s, is no percept of role %s", i+1, gdl.Format(t), sh.role)
		}
	}
	return nil
}

// matchesAny reports whether (role t) is an instance of one of heads,
// each the two arguments of a legal or sees head.
func matchesAny(heads [][]gdl.Term, role string, t gdl.Term) bool {
	for _, h := range heads {
		b := map[string]gdl.Term{}
		if matches(h[0], &gdl.Const{Name: role}, b) && matches(h[1], t, b) {
			return true
		}
	}
	return false
}

// matches reports whether the ground term g is an instance of the
// pattern p, under and adding to the bindings b of p's variables.
func matches(p, g gdl.Term, b map[string]gdl.Term) bool {
	switch p := p.(type) {
	case *gdl.Var:
		if bound, ok := b[p.Name]; ok {
			return gdl.Format(bound) == gdl.Format(g)
		}
		b[p.Name] = g
		return true
	case *gdl.Const:
		c, ok := g.(*gdl.Const)
		return ok && c != nil && p != nil && strings.EqualFold(c.Name, p.Name)
	case *gdl.Func:
		f, ok := g.(*gdl.Func)
		if !ok || f == nil || p == nil || f.Name == nil || p.Name == nil ||
			!strings.EqualFold(f.Name.Name, p.Name.Name) || len(f.Args) != len(p.Args) {
			return false
		}
		for i := range p.Args {
			if !matches(p.Args[i], f.Args[i], b) {
				return false
			}
		}
		return true
	}
	return false
}
