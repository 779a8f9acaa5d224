package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/host/netguard"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/players"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/reasoner"
)

// A Worker plays the matches of the queue: store.Config's Play is its
// Play.
type Worker struct {
	// Referee plays the matches; its NewReasoner is required, and its
	// OnStep is replaced.
	Referee *gamemaster.Referee

	// NewPlayer makes the player of a seat. SeatPlayers makes one.
	NewPlayer func(store.Seat) (player.Player, error)
}

// SeatPlayers returns a NewPlayer for a Worker: a registered player is
// called at its URL through policy's bounded client, so that the host's
// network policy holds at every connection; any other seat's
// specification (a tournament's) is made by players.New.
func SeatPlayers(policy *netguard.Policy, newReasoner reasoner.Factory) func(store.Seat) (player.Player, error) {
	client := policy.Client(netguard.ClientOptions{MaxRedirects: -1})
	return func(s store.Seat) (player.Player, error) {
		if !s.Registered {
			return players.New(s.Spec, newReasoner)
		}
		if _, err := policy.CheckURL(s.Spec); err != nil {
			return nil, fmt.Errorf("player %s: %w", s.Name, err)
		}
		// GDL-II messages go on connections the client dials itself:
		// the policy dials those too.
		return &remote.Client{URL: s.Spec, PlayerName: s.Name, HTTPClient: client, DialContext: policy.DialContext}, nil
	}
}

// Play plays the match a describes, calling live with its record after
// every step. A match that cannot start (a seat's player cannot be made,
// the rules are wrong) or that the rules stop is an outcome, recorded as
// not completed; a match cancelled because the worker stops returns ctx's
// error, to be played again from the start.
func (w *Worker) Play(ctx context.Context, a store.MatchArgs, live func([]byte)) (store.Outcome, error) {
	g := &games.Game{Key: a.Game, Name: a.Game, Filename: a.Game + ".kif", Rules: []byte(a.Rules)}
	names := make([]string, len(a.Seats))
	ps := make([]player.Player, len(a.Seats))
	for i, s := range a.Seats {
		names[i] = s.Name
		p, err := w.NewPlayer(s)
		if err != nil {
			return store.Outcome{Error: fmt.Sprintf("match %s: seat %d: %v", a.ID, i+1, err)}, nil
		}
		ps[i] = p
	}
	ref := *w.Referee
	ref.OnStep = func(r *record.Record) {
		c := *r
		c.PlayerNamesFromHost = hostNames(r, names)
		if data, err := c.Marshal(); err == nil {
			live(data)
		}
	}
	rec, err := ref.Run(ctx, &gamemaster.Match{
		ID:         a.ID,
		Game:       g,
		Players:    ps,
		StartClock: time.Duration(a.StartClockMS) * time.Millisecond,
		PlayClock:  time.Duration(a.PlayClockMS) * time.Millisecond,
		Tournament: a.Tournament,
	})
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		return store.Outcome{}, fmt.Errorf("match %s: %w", a.ID, ctx.Err())
	}
	var out store.Outcome
	if err != nil {
		out.Error = err.Error()
	}
	if rec == nil {
		return out, nil
	}
	rec.PlayerNamesFromHost = hostNames(rec, names)
	data, merr := rec.Marshal()
	if merr != nil {
		return out, fmt.Errorf("match %s: %w", a.ID, merr)
	}
	out.Record = data
	if rec.IsCompleted {
		out.Completed = true
		out.Goals = seatValues(rec, rec.GoalValues)
	}
	return out, nil
}

// hostNames returns the names the record of a match gives its roles: the
// seats' names, and nature's in its place in a GDL-II match.
func hostNames(r *record.Record, seats []string) []string {
	nature := natureIndex(r)
	names := make([]string, 0, len(r.Roles))
	for i := range r.Roles {
		if i == nature {
			names = append(names, record.NatureName)
			continue
		}
		if len(seats) == 0 {
			break
		}
		names = append(names, seats[0])
		seats = seats[1:]
	}
	return names
}

// seatValues returns the values of xs, one per role, of the roles that
// players sit in: all but nature's.
func seatValues[T any](r *record.Record, xs []T) []T {
	if n := natureIndex(r); n >= 0 && n < len(xs) {
		return slices.Delete(slices.Clone(xs), n, n+1)
	}
	return xs
}

// natureIndex returns the index of nature's role in a GDL-II record, -1
// if none.
func natureIndex(r *record.Record) int {
	if !r.GDLII || r.Nature == "" {
		return -1
	}
	return slices.Index(r.Roles, r.Nature)
}
