package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestPipeReader(t *testing.T) {
	long := strings.Repeat("y", maxLineBytes+1)
	tests := []struct {
		in   string
		want []string // lines, then "error: ..." for an error
	}{
		{"", nil},
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{"\n\n", []string{"", ""}},
		{"x\n" + long + "\nz\n", []string{"x", "error: " + errLineTooLong.Error(), "z"}},
		{long, []string{"error: " + errLineTooLong.Error()}},
		{strings.Repeat("w", maxLineBytes) + "\r\n", []string{strings.Repeat("w", maxLineBytes)}},
	}
	for _, tt := range tests {
		p := &pipeReader{r: bufio.NewReader(strings.NewReader(tt.in))}
		var got []string
		for range 10 {
			line, err := p.readLine(context.Background(), "> ")
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				line = "error: " + err.Error()
			}
			got = append(got, line)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("lines of %.20q (%d bytes): %.80q, want %.80q", tt.in, len(tt.in), got, tt.want)
		}
	}
}
