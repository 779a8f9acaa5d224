package human

import (
	"context"
	"fmt"
	"slices"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/internal/follow"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/infoset"
)

// In a GDL-II match the player is told of each step only its role's move
// and percepts (player.Turn), and so is the person: the seat shows them
// step by step, and in place of the state the facts true in every state
// the role holds possible (infoset.Follower), with the moves legal in
// every such state. Nothing the seat shows is read from the true state, which
// the player never has.

var _ player.GDLIIPlayer = (*Player)(nil)

// followShare is the share of the person's clock that following a step
// may take (infoset.Follower.Follow): the rest is the person's.
const followShare = 0.2

// startGDLII starts a GDL-II match: the role's follower holds the initial
// state alone.
func (p *Player) startGDLII(ctx context.Context, m *player.Match, g *follow.Game) error {
	f, err := infoset.NewFollower(ctx, g.R, g.Role, infoset.Options{})
	if err != nil {
		return fmt.Errorf("human player: match %s: %w", m.ID, err)
	}
	states, _ := f.States()
	known := knownFacts(states)
	var side []string
	if legal := legalIn(ctx, g.R, states[0], g.Role); len(legal) > 1 {
		side = sideOf(p.viewEffects(ctx, g.R, states, known, g.Role, legal))
	}
	nature := ""
	if i := reasoner.NatureIndex(g.Roles); i >= 0 {
		nature = g.Roles[i]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.g, p.rv, p.choice, p.asked, p.guess = g, f, nil, nil, ""
	p.update(func(t *Turn) {
		*t = Turn{Version: t.Version, MatchID: m.ID, Role: g.Roles[g.Role], Roles: g.Roles, Status: Others,
			State: factText(known), Side: side, GDLII: true, Nature: nature, Possible: len(states)}
	})
	return nil
}

// legalIn returns the legal moves of role in s, or none when they cannot
// be computed.
func legalIn(ctx context.Context, r reasoner.Reasoner, s *reasoner.State, role int) []reasoner.Move {
	ms, err := r.Legal(ctx, s, role)
	if err != nil {
		return nil
	}
	return ms
}

// sideOf returns the facts that the moves of effects add or remove: the
// role's side of the board, when its first moves are its first choice.
// (In a GDL-II match the side is not looked for further on, along moves
// the role cannot know.)
func sideOf(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		for _, f := range slices.Concat(e.Added, e.Removed) {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// PlayTurn follows the step t tells of, shows the person what the role
// knows and the moves most likely legal in the states it holds possible
// (infoset.Follower.Moves: those legal in every one of them, when there
// are any), and waits for the person's choice until ctx is done. When
// there is one such move it is played at once; when there is none,
// PlayTurn fails, and the game master plays a move in the person's place.
func (p *Player) PlayTurn(ctx context.Context, matchID string, t player.Turn) (reasoner.Move, error) {
	if err := p.followTurn(ctx, matchID, t, false); err != nil {
		return "", err
	}
	p.mu.Lock()
	g, rv := p.g, p.rv
	p.mu.Unlock()
	legal, err := rv.Moves(ctx)
	if err != nil {
		p.mu.Lock()
		p.update(func(t *Turn) {
			t.Message = fmt.Sprintf("step %d: %v; the game master plays a move in your place", t.Step+1, err)
		})
		p.mu.Unlock()
		return "", fmt.Errorf("human player: match %s: turn %d: %w", matchID, t.Number, err)
	}
	return p.ask(ctx, legal, func() []Effect {
		states := held(ctx, g.R, rv, false)
		return p.viewEffects(ctx, g.R, states, knownFacts(states), g.Role, legal)
	})
}

// StopTurn follows the last step and ends the match. The seat shows the
// facts true in every final state the role holds possible; the goals are
// not told to a GDL-II role (see seat.Turn).
func (p *Player) StopTurn(ctx context.Context, matchID string, t player.Turn) error {
	err := p.followTurn(ctx, matchID, t, true)
	p.end(matchID, "")
	return err
}

// followTurn takes the step t tells of into the role's follower, within
// followShare of the time of ctx, and shows it: none on the first turn,
// and none again for a turn already followed. over says that the match
// has ended: the states held possible are then the terminal ones. When
// the step could be followed only approximately, the seat says so.
func (p *Player) followTurn(ctx context.Context, matchID string, t player.Turn, over bool) error {
	p.mu.Lock()
	g, rv, cur := p.g, p.rv, p.turn.MatchID
	p.mu.Unlock()
	switch {
	case g == nil || cur != matchID:
		return fmt.Errorf("human player: match %s was not started", matchID)
	case rv == nil:
		return fmt.Errorf("human player: match %s: a GDL-II turn in a match started as GDL", matchID)
	}
	fctx, cancel := clock.FromContext(ctx).Share(followShare).Context(ctx)
	taken, err := rv.Follow(fctx, t.Number, infoset.Step{Move: t.Move, Percepts: t.Percepts})
	cancel()
	if err != nil {
		return fmt.Errorf("human player: match %s: %w", matchID, err)
	}
	if !taken {
		return nil
	}
	states := held(ctx, g.R, rv, over)
	known := factText(knownFacts(states))
	rec := StepRecord{Move: string(t.Move), Percepts: perceptText(t.Percepts)}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asked != nil {
		rec.Asked, rec.Chosen, rec.TimedOut, rec.Forced = p.asked.Asked, p.asked.Chosen, p.asked.TimedOut, p.asked.Forced
		p.asked = nil
	}
	p.update(func(tu *Turn) {
		tu.Step = t.Number
		rec.Step = t.Number
		tu.Chosen = ""
		tu.History = append(tu.History, rec)
		tu.State, tu.Possible, tu.Sampled = known, len(states), !rv.Complete()
		if tu.Message == p.guess {
			tu.Message = "" // the last step's guess, which this one replaces
		}
		p.guess = ""
		if lost := rv.Lost(); lost != nil {
			p.guess = fmt.Sprintf("step %d: the states you may be in could not be worked out exactly (%v): the board is a guess", t.Number, lost)
			tu.Message = p.guess
		}
	})
	return nil
}

// held returns the states the role holds possible: those of its follower
// in which the match goes on, or when over is set those in which it has
// ended, as a turn, or the end, tells the role. States that are not every
// consistent one (a sample, or approximate ones) are not narrowed so: the
// few left would be taken for knowledge.
func held(ctx context.Context, r reasoner.Reasoner, rv *infoset.Follower, over bool) []*reasoner.State {
	states, _ := rv.States()
	if !rv.Complete() {
		return states
	}
	var out []*reasoner.State
	for _, s := range states {
		end, err := r.Terminal(ctx, s)
		if err != nil {
			return states
		}
		if end == over {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return states
	}
	return out
}

// knownFacts returns the facts true in every state of states, sorted
// (as a state's facts are).
func knownFacts(states []*reasoner.State) []reasoner.Fact {
	if len(states) == 0 {
		return nil
	}
	known := slices.Clone(states[0].Facts())
	for _, s := range states[1:] {
		facts := s.Facts()
		known = slices.DeleteFunc(known, func(f reasoner.Fact) bool {
			_, ok := slices.BinarySearch(facts, f)
			return !ok
		})
	}
	return known
}

func factText(facts []reasoner.Fact) []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = string(f)
	}
	return out
}

func perceptText(ps []reasoner.Percept) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// viewStates bounds the states held possible, and viewTrials the joint
// moves of the other roles in each, over which viewEffects finds what a
// move changes.
const (
	viewStates = 8
	viewTrials = 8
)

// viewEffects returns what each of the moves of role changes as far as
// the role can tell, within effectsTime. It plays every move in trials,
// each a state of states (at most viewStates, spread over them) and a
// joint move of the other roles there (at most viewTrials, spread over
// each role's legal moves). A fact that a move adds or removes in a trial
// is the move's own when at most half of the moves change it there: the
// others' moves, or a step counter, change it whatever the move. A move's
// effect is its own facts in more than half of the trials, but only those
// the role knows the truth of: it removes facts of known, and adds facts
// false in every state of states. So nothing of it is read from the true
// state, which the player never has, nor names a fact whose truth the role
// does not know. When the time runs out it returns what the trials played
// so far found; a move no trial played changes nothing it can tell.
func (p *Player) viewEffects(ctx context.Context, r reasoner.Reasoner, states []*reasoner.State, known []reasoner.Fact, role int, moves []reasoner.Move) []Effect {
	ctx, cancel := context.WithTimeout(ctx, effectsTime)
	defer cancel()
	moves = moves[:min(len(moves), maxEffects)]
	// The facts true in some state but not in all: their truth is not
	// known.
	unsure := map[reasoner.Fact]bool{}
	for _, s := range states {
		for _, f := range s.Facts() {
			if _, ok := slices.BinarySearch(known, f); !ok {
				unsure[f] = true
			}
		}
	}
	// How many trials each move was played in, and made each fact its
	// own in.
	added := make([]map[reasoner.Fact]int, len(moves))
	removed := make([]map[reasoner.Fact]int, len(moves))
	for i := range moves {
		added[i], removed[i] = map[reasoner.Fact]int{}, map[reasoner.Fact]int{}
	}
	played := make([]int, len(moves))
	nroles := len(r.Roles())
	n := min(len(states), viewStates)
trials:
	for k := range n {
		s := states[k*len(states)/n]
		for _, joint := range otherJoints(ctx, r, s, role, nroles) {
			// The facts each move adds and removes, and how many moves
			// change each.
			done := make([]bool, len(moves))
			plus := make([][]reasoner.Fact, len(moves))
			minus := make([][]reasoner.Fact, len(moves))
			changes := map[string]int{}
			cur := s.Facts()
			for i, m := range moves {
				joint[role] = m
				next, err := r.Next(ctx, s, joint)
				if err != nil {
					if ctx.Err() != nil {
						break trials
					}
					continue
				}
				done[i] = true
				nf := next.Facts()
				for _, f := range nf {
					if _, ok := slices.BinarySearch(cur, f); !ok {
						plus[i] = append(plus[i], f)
						changes["+"+string(f)]++
					}
				}
				for _, f := range cur {
					if _, ok := slices.BinarySearch(nf, f); !ok {
						minus[i] = append(minus[i], f)
						changes["-"+string(f)]++
					}
				}
			}
			own := func(sign string, f reasoner.Fact) bool {
				return 2*changes[sign+string(f)] <= len(moves) || len(moves) == 1
			}
			for i := range moves {
				if !done[i] {
					continue
				}
				played[i]++
				for _, f := range plus[i] {
					if own("+", f) && !unsure[f] {
						if _, ok := slices.BinarySearch(known, f); !ok {
							added[i][f]++
						}
					}
				}
				for _, f := range minus[i] {
					if _, ok := slices.BinarySearch(known, f); ok && own("-", f) {
						removed[i][f]++
					}
				}
			}
		}
	}
	out := make([]Effect, len(moves))
	for i, m := range moves {
		out[i] = Effect{Move: string(m), Added: mostOf(added[i], played[i]), Removed: mostOf(removed[i], played[i])}
	}
	return out
}

// otherJoints returns joint moves of the roles other than role in s, at
// most viewTrials, spread over each role's legal moves; role's place is
// left for its move. None when a role has no legal move.
func otherJoints(ctx context.Context, r reasoner.Reasoner, s *reasoner.State, role, nroles int) [][]reasoner.Move {
	legal := make([][]reasoner.Move, nroles)
	n := 1
	for i := range legal {
		if i == role {
			continue
		}
		ms, err := r.Legal(ctx, s, i)
		if err != nil || len(ms) == 0 {
			return nil
		}
		legal[i] = ms
		n = max(n, len(ms))
	}
	n = min(n, viewTrials)
	out := make([][]reasoner.Move, n)
	for j := range out {
		out[j] = make([]reasoner.Move, nroles)
		for i, ms := range legal {
			if i != role {
				out[j][i] = ms[j*len(ms)/n]
			}
		}
	}
	return out
}

// mostOf returns the facts counted in more than half of n trials, sorted.
func mostOf(count map[reasoner.Fact]int, n int) []string {
	out := []string{}
	for f, c := range count {
		if 2*c > n {
			out = append(out, string(f))
		}
	}
	slices.Sort(out)
	return out
}
