// Package host is a match service in the manner of Tiltyard: players
// register a name and a URL, a scheduler seats the available ones in
// matches of games drawn from a list, with clocks drawn from ranges, and
// every match is played by a worker that takes it from a queue
// (package store), possibly on another machine. The host checks its
// players with INFO, pauses those that do not answer, and serves pages and
// a JSON API: registration, standings with ratings (package rating), and
// the matches, in play and finished, in the viewer (package view).
package host

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/host/netguard"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/view"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/riverqueue/river/rivertype"
)

// Tournament is the tournament name of the matches the host schedules.
const Tournament = "host"

// A Range is a range of durations, from Min to Max inclusive.
type Range struct{ Min, Max time.Duration }

// draw returns a duration of r, to the second.
func (r Range) draw(rng *rand.Rand) time.Duration {
	if r.Max <= r.Min {
		return r.Min
	}
	secs := int64((r.Max - r.Min) / time.Second)
	return r.Min + time.Duration(rng.Int64N(secs+1))*time.Second
}

// Config describes a host.
type Config struct {
	Store *store.Store

	// Games are drawn from at random for every match; none means the
	// host schedules no match (players may still register).
	Games []*games.Game

	// StartClock and PlayClock are the ranges the clocks of a match are
	// drawn from.
	StartClock, PlayClock Range

	// MaxMatches bounds the matches the host has queued or in play at
	// once. Zero means as many as the players allow.
	MaxMatches int

	// Policy decides which player URLs may be registered and called.
	// Required.
	Policy *netguard.Policy

	// CheckEvery is the time between two INFO checks of every player;
	// zero means DefaultCheckEvery. CheckTimeout bounds each; zero means
	// DefaultCheckTimeout.
	CheckEvery, CheckTimeout time.Duration

	// ScheduleEvery is the time between two rounds of scheduling; zero
	// means one second.
	ScheduleEvery time.Duration

	// MaxSteps bounds the steps of a match, for the time limit a match's
	// clocks allow; zero means gamemaster.DefaultMaxSteps.
	MaxSteps int

	// RecordsDir is where the records of finished matches are exported,
	// for the viewer's pages. Required.
	RecordsDir string

	// GameDirs are folders of games in the repository layout, where the
	// viewer finds the stylesheets of games not bundled.
	GameDirs []string

	// Logf, if not nil, is told what the host does.
	Logf func(format string, args ...any)
}

// Defaults of Config.
const (
	// DefaultLongestStart and DefaultLongestPlay are the clocks a worker
	// that is not told the longest match assumes: Tiltyard's largest.
	DefaultLongestStart = 240 * time.Second
	DefaultLongestPlay  = 45 * time.Second

	DefaultCheckEvery   = time.Minute
	DefaultCheckTimeout = 5 * time.Second
)

// Host is a running match service. Make it with New, run its scheduler
// and checks with Run, and serve Handler.
type Host struct {
	cfg    Config
	games  []hostGame
	viewer *view.Server
	rng    *rand.Rand // used by Run's goroutine alone
}

// hostGame is a game the host schedules, with the number of its players.
type hostGame struct {
	g       *games.Game
	players int
}

// New returns a host over cfg's store. Every game must parse.
func New(cfg Config) (*Host, error) {
	if cfg.Store == nil || cfg.Policy == nil || cfg.RecordsDir == "" {
		return nil, errors.New("host: a store, a network policy and a records folder are required")
	}
	if cfg.StartClock.Min <= 0 || cfg.PlayClock.Min <= 0 || cfg.StartClock.Max < cfg.StartClock.Min || cfg.PlayClock.Max < cfg.PlayClock.Min {
		return nil, fmt.Errorf("host: clocks %v–%v and %v–%v: want positive ranges", cfg.StartClock.Min, cfg.StartClock.Max, cfg.PlayClock.Min, cfg.PlayClock.Max)
	}
	h := &Host{cfg: cfg, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
	for _, g := range cfg.Games {
		d, err := gdl.ParseFile(g.Filename, g.Rules)
		if err != nil {
			return nil, fmt.Errorf("host: game %s: %w", g.Key, err)
		}
		n := len(gamemaster.PlayerRoles(d, false))
		if n == 0 {
			return nil, fmt.Errorf("host: game %s: no roles", g.Key)
		}
		h.games = append(h.games, hostGame{g, n})
	}
	if err := os.MkdirAll(cfg.RecordsDir, 0o755); err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	var err error
	h.viewer, err = view.New(view.Options{Dirs: []string{cfg.RecordsDir}, GameDirs: cfg.GameDirs, Games: cfg.Games, Logf: cfg.Logf})
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	return h, nil
}

// MatchLimit returns the longest a match may take by its clocks: the
// start clock, and every step's play clock with the referee's grace, and
// the answers to INFO and STOP.
func MatchLimit(start, play time.Duration, maxSteps int) time.Duration {
	steps := time.Duration(cmpOr(maxSteps, gamemaster.DefaultMaxSteps))
	return gamemaster.DefaultInfoTimeout + start + steps*(play+gamemaster.DefaultGrace) + gamemaster.DefaultStopTimeout
}

// LongestMatch returns the longest a match of cfg may take, by its
// largest clocks.
func (cfg *Config) LongestMatch() time.Duration {
	return MatchLimit(cfg.StartClock.Max, cfg.PlayClock.Max, cfg.MaxSteps)
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func (h *Host) logf(format string, args ...any) {
	if h.cfg.Logf != nil {
		h.cfg.Logf(format, args...)
	}
}

// Run schedules matches, checks the players and brings the viewer's
// matches up to date until ctx is done.
func (h *Host) Run(ctx context.Context) error {
	schedule := time.NewTicker(cmpOr(h.cfg.ScheduleEvery, time.Second))
	defer schedule.Stop()
	check := time.NewTicker(cmpOr(h.cfg.CheckEvery, DefaultCheckEvery))
	defer check.Stop()
	h.CheckPlayers(ctx)
	var pub publisher
	for {
		h.publish(ctx, &pub)
		if _, err := h.Schedule(ctx); err != nil && ctx.Err() == nil {
			h.logf("host: scheduling: %v", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-schedule.C:
		case <-check.C:
			h.CheckPlayers(ctx)
		}
	}
}

// Schedule puts on the queue as many matches as the available players
// allow, within MaxMatches, and returns how many. A player is available
// when it is not paused and not in a match queued or in play. It first
// frees the players of matches whose job River gave up.
func (h *Host) Schedule(ctx context.Context) (int, error) {
	queued, err := h.reapQueued(ctx)
	if err != nil {
		return 0, err
	}
	busy := map[string]bool{}
	for _, m := range queued {
		for _, p := range m.Players {
			busy[p] = true
		}
	}
	ps, err := h.cfg.Store.Players(ctx)
	if err != nil {
		return 0, err
	}
	var free []store.Player
	for _, p := range ps {
		if !p.Paused && !busy[p.Name] {
			free = append(free, p)
		}
	}
	n := 0
	for h.cfg.MaxMatches == 0 || len(queued)+n < h.cfg.MaxMatches {
		g, ok := h.pickGame(len(free))
		if !ok {
			break
		}
		h.rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		seats := free[:g.players]
		free = free[g.players:]
		if err := h.enqueue(ctx, g, seats); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// pickGame draws a game that free players are enough for.
func (h *Host) pickGame(free int) (hostGame, bool) {
	var fit []hostGame
	for _, g := range h.games {
		if g.players <= free {
			fit = append(fit, g)
		}
	}
	if len(fit) == 0 {
		return hostGame{}, false
	}
	return fit[h.rng.IntN(len(fit))], true
}

// enqueue queues a match of g between players, in role order.
func (h *Host) enqueue(ctx context.Context, g hostGame, players []store.Player) error {
	start, play := h.cfg.StartClock.draw(h.rng), h.cfg.PlayClock.draw(h.rng)
	args := store.MatchArgs{
		Tournament:   Tournament,
		ID:           fmt.Sprintf("%s.%d.%04d", gamemaster.GameIDPart(g.g.Key), time.Now().UnixMilli(), h.rng.IntN(10000)),
		Game:         g.g.Key,
		Rules:        string(g.g.Rules),
		StartClockMS: start.Milliseconds(),
		PlayClockMS:  play.Milliseconds(),
		LimitMS:      MatchLimit(start, play, h.cfg.MaxSteps).Milliseconds(),
	}
	for _, p := range players {
		args.Seats = append(args.Seats, store.Seat{Name: p.Name, Spec: p.URL, Registered: true})
	}
	if _, err := h.cfg.Store.Enqueue(ctx, args); err != nil {
		return err
	}
	h.logf("host: queued %s: %s", args.ID, seatNames(args.Seats))
	return nil
}

func seatNames(seats []store.Seat) []string {
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	return names
}

// reapQueued returns the host's matches queued or in play, after marking
// done those whose job River finished without storing an outcome (it
// discarded the job after too many attempts, or it was cancelled).
func (h *Host) reapQueued(ctx context.Context) ([]store.Match, error) {
	ms, err := h.cfg.Store.Matches(ctx, store.MatchFilter{Tournament: Tournament, Status: store.StatusQueued})
	if err != nil {
		return nil, err
	}
	kept := ms[:0]
	for _, m := range ms {
		st, err := h.cfg.Store.JobState(ctx, m.JobID)
		if err == nil && finalState(st) {
			reason := fmt.Sprintf("aborted: its job was %s after %d attempts", st, m.Attempts)
			if err := h.cfg.Store.Abandon(ctx, m, reason); err != nil {
				return nil, err
			}
			continue
		}
		kept = append(kept, m)
	}
	return kept, nil
}

// finalState reports whether River is done with a job in state st.
func finalState(st rivertype.JobState) bool {
	return slices.Contains([]rivertype.JobState{rivertype.JobStateCompleted, rivertype.JobStateDiscarded, rivertype.JobStateCancelled}, st)
}

// CheckPlayers asks every player not paused by its owner for INFO, at
// once, pausing those that do not answer in time and resuming those the
// host paused that answer again.
func (h *Host) CheckPlayers(ctx context.Context) {
	ps, err := h.cfg.Store.Players(ctx)
	if err != nil {
		h.logf("host: checking players: %v", err)
		return
	}
	client := h.cfg.Policy.Client(netguard.ClientOptions{MaxRedirects: -1})
	limit := cmpOr(h.cfg.CheckTimeout, DefaultCheckTimeout)
	type answer struct {
		p   store.Player
		err error
	}
	answers := make(chan answer, len(ps))
	n := 0
	for _, p := range ps {
		if p.Paused && !store.HostPaused(p) {
			continue
		}
		n++
		go func() {
			ctx, cancel := context.WithTimeout(ctx, limit)
			defer cancel()
			_, err := (&remote.Client{URL: p.URL, PlayerName: p.Name, HTTPClient: client}).Info(ctx)
			answers <- answer{p, err}
		}()
	}
	for range n {
		a := <-answers
		h.applyCheck(ctx, a.p, a.err)
	}
}

// applyCheck stores the outcome of a player's INFO check.
func (h *Host) applyCheck(ctx context.Context, p store.Player, err error) {
	var serr error
	switch {
	case err == nil:
		if serr = h.cfg.Store.Checked(ctx, p.Name, time.Now()); serr == nil && p.Paused {
			serr = h.cfg.Store.HostPause(ctx, p.Name, false, "")
			h.logf("host: player %s answers INFO again: resumed", p.Name)
		}
	case !p.Paused:
		serr = h.cfg.Store.HostPause(ctx, p.Name, true, "no answer to INFO: "+oneLine(err.Error(), 200))
		h.logf("host: player %s paused: %v", p.Name, err)
	}
	if serr != nil {
		h.logf("host: player %s: %v", p.Name, serr)
	}
}

// oneLine returns s on one line, at most n bytes.
func oneLine(s string, n int) string {
	b := []byte(s)
	for i, c := range b {
		if c < ' ' {
			b[i] = ' '
		}
	}
	if len(b) > n {
		b = append(b[:n], "..."...)
	}
	return string(b)
}
