package gdl

import (
	"errors"
	"fmt"
	"io"
	"sort"
)

// An Error is a problem found at a position of a source text.
type Error struct {
	Pos Pos
	Msg string
}

// Error returns "file:line:col: msg", leaving out whatever part of the
// position is unknown.
func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of errors, as ParseFile and the other readers of this
// package return them. The zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error with the given position and message.
func (l *ErrorList) Add(pos Pos, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// Reset empties the list.
func (l *ErrorList) Reset() { *l = (*l)[:0] }

// Len, Swap and Less make ErrorList a sort.Interface, ordered by file name,
// line, column and message.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	switch {
	case a.Filename != b.Filename:
		return a.Filename < b.Filename
	case a.Line != b.Line:
		return a.Line < b.Line
	case a.Column != b.Column:
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position.
func (l ErrorList) Sort() { sort.Sort(l) }

// RemoveMultiples sorts the list and keeps only the first error of each line.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	out := (*l)[:0]
	var last Pos
	for i, e := range *l {
		if i == 0 || e.Pos.Filename != last.Filename || e.Pos.Line != last.Line {
			out = append(out, e)
			last = e.Pos
		}
	}
	clear((*l)[len(out):])
	*l = out
}

// Error returns the first error, followed by the number of the others.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	case 2:
		return l[0].Error() + " (and 1 more error)"
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, so that errors.As can find an
// *Error in an ErrorList.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// PrintError writes err to w, one line for each error of an ErrorList, or
// err on one line for any other error.
func PrintError(w io.Writer, err error) {
	var list ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, e)
		}
	} else if err != nil {
		fmt.Fprintln(w, err)
	}
}
