package resultspage

import (
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	t.Setenv("RUNS", "/runs")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", "docs/x.md", "/runs/mh"}, "go run ./tool -o docs/x.md $RUNS/mh"},
		{[]string{"/runs"}, "go run ./tool /runs"},
		{[]string{"/elsewhere/mh"}, "go run ./tool /elsewhere/mh"},
		{[]string{"-title", "it's here"}, `go run ./tool -title 'it'\''s here'`},
	}
	for _, tt := range tests {
		if got := Command("./tool", tt.args); got != tt.want {
			t.Errorf("Command(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestWriteHeaderAndRow(t *testing.T) {
	var b strings.Builder
	WriteHeader(&b, []string{"a", "b"})
	WriteRow(&b, []string{"x|y", ""})
	want := "| a | b |\n| --- | --- |\n| x\\|y |  |\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}
