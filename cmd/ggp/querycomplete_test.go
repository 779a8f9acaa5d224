package main

import (
	"slices"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

func TestQueryComplete(t *testing.T) {
	s := &querySession{
		roles: []string{"xplayer", "oplayer"},
		steps: []queryStep{{known: true, legal: [][]reasoner.Move{{"(mark 1 1)", "(mark 1 2)", "(mark 2 1)"}, {"noop"}}}},
	}
	tests := []struct {
		line string
		head string
		want []string
	}{
		{"", "", queryVerbs},
		{"t", "", []string{"terminal"}},
		{"Un", "", []string{"undo"}},
		{"zz", "", nil},
		{"legal ", "legal ", []string{"xplayer", "oplayer"}},
		{"legal o", "legal ", []string{"oplayer"}},
		{"play ", "play ", []string{"(mark 1 1)", "(mark 1 2)", "(mark 2 1)", "noop"}},
		{"play (mark 1", "play ", []string{"(mark 1 1)", "(mark 1 2)"}},
		{"play (mark 1 1) n", "play (mark 1 1) ", []string{"noop"}},
		{"play (mark 1 1)  (mark 2", "play (mark 1 1)  ", []string{"(mark 2 1)"}},
		{"play (mark 3", "play ", nil},
		{"state ", "state ", nil},
	}
	for _, tt := range tests {
		head, got := s.complete(tt.line)
		if head != tt.head || !slices.Equal(got, tt.want) {
			t.Errorf("complete(%q) = %q, %q; want %q, %q", tt.line, head, got, tt.head, tt.want)
		}
	}
	// Moves are offered only once known, not worked out while typing.
	s.steps[0].known = false
	if _, got := s.complete("play "); got != nil {
		t.Errorf("complete with unknown moves = %q, want none", got)
	}
}
