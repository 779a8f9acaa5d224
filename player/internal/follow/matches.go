package follow

import (
	"errors"
	"fmt"
	"sync"
)

// ErrUnknownMatch is returned for a match ID a player does not know.
var ErrUnknownMatch = errors.New("unknown match")

// Matches holds the matches a player is in, by match id. It is safe for
// concurrent use: the server answers STOP and ABORT while PLAY is running.
// The zero value is an empty table.
type Matches[M any] struct {
	mu sync.Mutex
	m  map[string]M
}

// Add records a new match; an id already in play is an error.
func (t *Matches[M]) Add(id string, m M) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.m[id]; ok {
		return fmt.Errorf("match %s: already started", id)
	}
	if t.m == nil {
		t.m = map[string]M{}
	}
	t.m[id] = m
	return nil
}

// Get returns the match with the given id.
func (t *Matches[M]) Get(id string) (M, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.m[id]
	if !ok {
		return m, fmt.Errorf("match %s: %w", id, ErrUnknownMatch)
	}
	return m, nil
}

// Remove forgets the match with the given id and returns it.
func (t *Matches[M]) Remove(id string) (M, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.m[id]
	if !ok {
		return m, fmt.Errorf("match %s: %w", id, ErrUnknownMatch)
	}
	delete(t.m, id)
	return m, nil
}
