package main

import (
	"strings"
	"testing"
)

func TestWriteWrapped(t *testing.T) {
	tests := []struct {
		text  string
		width int
		want  string
	}{
		{"", 20, ""},
		{"one two three", 20, "  one two three\n"},
		{"one two three four five", 12, "  one two\n  three four\n  five\n"},
		{"a verylongwordindeed b", 8, "  a\n  verylongwordindeed\n  b\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		writeWrapped(&b, tt.text, "  ", tt.width)
		if b.String() != tt.want {
			t.Errorf("writeWrapped(%q, %d) = %q, want %q", tt.text, tt.width, b.String(), tt.want)
		}
	}
}
