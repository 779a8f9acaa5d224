package local

import (
	"fmt"
	"sync"
)

// matchTable holds the matches a player is in, by match id. It is safe for
// concurrent use: the server answers STOP and ABORT while PLAY is running.
type matchTable[M any] struct {
	mu sync.Mutex
	m  map[string]M
}

// add records a new match; an id already in play is an error.
func (t *matchTable[M]) add(id string, m M) error {
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

// get returns the match with the given id.
func (t *matchTable[M]) get(id string) (M, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.m[id]
	if !ok {
		return m, fmt.Errorf("match %s: %w", id, errUnknownMatch)
	}
	return m, nil
}

// remove forgets the match with the given id and returns it.
func (t *matchTable[M]) remove(id string) (M, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m, ok := t.m[id]
	if !ok {
		return m, fmt.Errorf("match %s: %w", id, errUnknownMatch)
	}
	delete(t.m, id)
	return m, nil
}
