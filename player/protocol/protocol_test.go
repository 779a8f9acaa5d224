package protocol

import (
	"testing"
	"time"
)

func TestSeconds(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{time.Second, 1}, {10 * time.Second, 10}, {1500 * time.Millisecond, 2}, {time.Millisecond, 1}, {0, 1},
	}
	for _, tt := range tests {
		if got := Seconds(tt.d); got != tt.want {
			t.Errorf("Seconds(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"(play m1 nil)", 80, `"(play m1 nil)"`},
		{"abcdef", 3, `"abc"...`},
		{"abc", 3, `"abc"`},
		{"a\"b\nc", 80, `"a\"b\nc"`},
		{"", 5, `""`},
	}
	for _, tt := range tests {
		if got := Quote(tt.s, tt.n); got != tt.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", tt.s, tt.n, got, tt.want)
		}
	}
}
