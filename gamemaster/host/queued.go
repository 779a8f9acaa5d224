package host

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/tournament"
)

// A Queued plays the matches of a tournament on the store's queue, for
// workers anywhere to play: its Run is a tournament's Runner. One
// goroutine, which Close stops, watches the store for the outcomes of the
// matches waited for.
type Queued struct {
	st       *store.Store
	maxSteps int

	mu      sync.Mutex
	waiting map[string]*waiter // by tournament and id

	stop context.CancelFunc
	done chan struct{}
}

// waiter is a match waited for.
type waiter struct {
	m     store.Match // as queued: its tournament, id and job
	done  chan struct{}
	match store.Match // the match once done
	err   error
}

// pollEvery is the time between two looks at the store for outcomes, and
// checkJobsEvery the number of looks between two checks that the jobs
// waited for are still on River's queue.
const (
	pollEvery      = 200 * time.Millisecond
	checkJobsEvery = 25
)

// NewQueued returns a Queued on st; maxSteps bounds a match's steps for
// its time limit (zero: the referee's default).
func NewQueued(st *store.Store, maxSteps int) *Queued {
	ctx, stop := context.WithCancel(context.Background())
	q := &Queued{st: st, maxSteps: maxSteps, waiting: map[string]*waiter{}, stop: stop, done: make(chan struct{})}
	go q.watch(ctx)
	return q
}

// Close stops watching; matches waited for fail.
func (q *Queued) Close() {
	q.stop()
	<-q.done
}

func key(tournament, id string) string { return tournament + "\x00" + id }

// Run puts m on the queue, unless it is there already or completed, and
// waits for its outcome. A match completed before, whose record the
// tournament's folder lost, is not played again: its stored record is
// returned.
func (q *Queued) Run(ctx context.Context, m *tournament.Match) (*record.Record, error) {
	prev, err := q.st.Matches(ctx, store.MatchFilter{Tournament: m.Tournament, ID: m.ID, WithRecord: true})
	if err != nil {
		return nil, err
	}
	var queued store.Match
	switch {
	case len(prev) == 1 && prev[0].Status == store.StatusDone && prev[0].Completed:
		return outcomeOf(prev[0])
	case len(prev) == 1 && prev[0].Status == store.StatusQueued:
		queued = prev[0]
	default:
		args := store.MatchArgs{
			Tournament: m.Tournament, ID: m.ID, Game: m.Game.Key, Rules: string(m.Game.Rules),
			StartClockMS: m.StartClock.Milliseconds(), PlayClockMS: m.PlayClock.Milliseconds(),
			LimitMS: MatchLimit(m.StartClock, m.PlayClock, q.maxSteps).Milliseconds(),
		}
		for i, spec := range m.Players {
			args.Seats = append(args.Seats, store.Seat{Name: m.Labels[i], Spec: spec})
		}
		job, err := q.st.Enqueue(ctx, args)
		if err != nil {
			return nil, err
		}
		queued = store.Match{Tournament: m.Tournament, ID: m.ID, JobID: job}
	}
	w := &waiter{m: queued, done: make(chan struct{})}
	k := key(m.Tournament, m.ID)
	q.mu.Lock()
	q.waiting[k] = w
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.waiting, k)
		q.mu.Unlock()
	}()
	select {
	case <-w.done:
		if w.err != nil {
			return nil, w.err
		}
		return outcomeOf(w.match)
	case <-ctx.Done():
		// The match stays on the queue: a run again waits for it.
		return nil, ctx.Err()
	}
}

// outcomeOf returns the record of a finished match, and its error if it
// did not complete.
func outcomeOf(m store.Match) (*record.Record, error) {
	var rec *record.Record
	if len(m.Record) > 0 {
		var err error
		if rec, err = record.Unmarshal(m.Record); err != nil {
			return nil, fmt.Errorf("match %s: stored record: %w", m.ID, err)
		}
	}
	if !m.Completed {
		return rec, fmt.Errorf("match %s: %s", m.ID, m.Error)
	}
	return rec, nil
}

// clockSlack is how far back the watch looks at finished matches, for
// workers whose clocks are behind this machine's.
const clockSlack = time.Minute

// watch looks for the outcomes of the matches waited for until ctx ends.
func (q *Queued) watch(ctx context.Context) {
	defer close(q.done)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	since := time.Now()
	for n := 1; ; n++ {
		select {
		case <-ctx.Done():
			q.failAll(errors.New("tournament runner closed"))
			return
		case <-tick.C:
		}
		ms, err := q.st.Matches(ctx, store.MatchFilter{Status: store.StatusDone, After: since.Add(-clockSlack)})
		if err != nil {
			continue
		}
		for _, m := range ms {
			if m.Finished.After(since) {
				since = m.Finished
			}
			if q.waitedFor(m) {
				q.finished(ctx, m)
			}
		}
		if n%checkJobsEvery == 0 {
			q.checkJobs(ctx)
		}
	}
}

// waitedFor reports whether m's job is waited for.
func (q *Queued) waitedFor(m store.Match) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	w, ok := q.waiting[key(m.Tournament, m.ID)]
	return ok && w.m.JobID == m.JobID
}

// finished ends the wait for m with its stored record.
func (q *Queued) finished(ctx context.Context, m store.Match) {
	full, err := q.st.Matches(ctx, store.MatchFilter{Tournament: m.Tournament, ID: m.ID, WithRecord: true})
	if err != nil || len(full) != 1 {
		return // looked at again at the next tick
	}
	q.tell(full[0], nil)
}

// tell ends the wait for m, if it is waited for as the job that finished.
func (q *Queued) tell(m store.Match, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	w, ok := q.waiting[key(m.Tournament, m.ID)]
	if !ok || w.m.JobID != m.JobID {
		return
	}
	delete(q.waiting, key(m.Tournament, m.ID))
	w.match, w.err = m, err
	close(w.done)
}

// checkJobs fails the waits for matches whose job River gave up.
func (q *Queued) checkJobs(ctx context.Context) {
	q.mu.Lock()
	var ws []store.Match
	for _, w := range q.waiting {
		ws = append(ws, w.m)
	}
	q.mu.Unlock()
	for _, m := range ws {
		st, err := q.st.JobState(ctx, m.JobID)
		if err != nil || !finalState(st) {
			continue
		}
		// The job may have completed with the outcome not yet seen: look
		// once more before giving up.
		if done, err := q.st.Matches(ctx, store.MatchFilter{Tournament: m.Tournament, ID: m.ID, Status: store.StatusDone, WithRecord: true}); err == nil && len(done) == 1 && done[0].JobID == m.JobID {
			q.tell(done[0], nil)
			continue
		}
		reason := fmt.Sprintf("aborted: its job was %s", st)
		if err := q.st.Abandon(ctx, m, reason); err != nil {
			continue
		}
		q.tell(m, fmt.Errorf("match %s: %s", m.ID, reason))
	}
}

func (q *Queued) failAll(err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for k, w := range q.waiting {
		w.err = err
		close(w.done)
		delete(q.waiting, k)
	}
}
