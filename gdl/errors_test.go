package gdl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestErrorString(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Pos{"a.kif", 10, 2, 3}, "oops"}, "a.kif:2:3: oops"},
		{&Error{Pos{"", 10, 2, 3}, "oops"}, "2:3: oops"},
		{&Error{Pos{Filename: "a.kif"}, "too big"}, "a.kif: too big"},
		{&Error{Pos{}, "missing term"}, "missing term"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Errorf("empty list: Err() = %v, want nil", l.Err())
	}
	if got := l.Error(); got != "no errors" {
		t.Errorf("empty list: Error() = %q", got)
	}
	l.Add(Pos{"b", 0, 3, 1}, "third")
	if got := l.Error(); got != "b:3:1: third" {
		t.Errorf("one error: Error() = %q", got)
	}
	l.Add(Pos{"a", 0, 9, 9}, "first")
	if got := l.Error(); got != "b:3:1: third (and 1 more error)" {
		t.Errorf("two errors: Error() = %q", got)
	}
	l.Add(Pos{"b", 0, 1, 5}, "second")
	l.Add(Pos{"b", 0, 3, 1}, "fourth")
	l.Add(Pos{"b", 0, 3, 7}, "fifth")
	if got := l.Error(); got != "b:3:1: third (and 4 more errors)" {
		t.Errorf("five errors: Error() = %q", got)
	}
	if l.Len() != 5 {
		t.Errorf("Len() = %d, want 5", l.Len())
	}

	l.Sort()
	var msgs []string
	for _, e := range l {
		msgs = append(msgs, e.Msg)
	}
	if want := []string{"first", "second", "fourth", "third", "fifth"}; !slices.Equal(msgs, want) {
		t.Errorf("sorted: %q, want %q", msgs, want)
	}

	l.RemoveMultiples()
	msgs = msgs[:0]
	for _, e := range l {
		msgs = append(msgs, e.Msg)
	}
	if want := []string{"first", "second", "fourth"}; !slices.Equal(msgs, want) {
		t.Errorf("after RemoveMultiples: %q, want %q", msgs, want)
	}

	// errors.As finds the first error of a list.
	var e *Error
	if !errors.As(l.Err(), &e) || e.Msg != "first" {
		t.Errorf("errors.As(list, *Error) = %v", e)
	}

	l.Reset()
	if l.Len() != 0 || l.Err() != nil {
		t.Errorf("after Reset: %v", l)
	}
}

func TestPrintError(t *testing.T) {
	list := ErrorList{{Pos{"a.kif", 0, 1, 2}, "first"}, {Pos{"a.kif", 9, 3, 4}, "second"}}
	tests := []struct {
		err  error
		want string
	}{
		{list, "a.kif:1:2: first\na.kif:3:4: second\n"},
		{fmt.Errorf("loading: %w", list), "a.kif:1:2: first\na.kif:3:4: second\n"},
		{errors.New("no such file"), "no such file\n"},
		{nil, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		PrintError(&b, tt.err)
		if b.String() != tt.want {
			t.Errorf("PrintError(%v) wrote %q, want %q", tt.err, b.String(), tt.want)
		}
	}
}
