// Package resultspage holds what the commands that write the pages of
// docs/results share: the command line that writes a page again, and
// its markdown table rows.
package resultspage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Command returns the command line that writes a page again: go run of
// the tool (its package path, as ./cmd/ggp/internal/resultstable) with
// args, the paths under $RUNS written so when RUNS is set, and quoted
// where the shell needs it.
func Command(tool string, args []string) string {
	runs := os.Getenv("RUNS")
	words := []string{"go run " + tool}
	for _, a := range args {
		if runs != "" {
			if rel, err := filepath.Rel(runs, a); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
				a = "$RUNS/" + filepath.ToSlash(rel)
			}
		}
		if strings.ContainsAny(a, " \t'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// WriteHeader writes a table's header row and the row that marks it so.
func WriteHeader(w io.Writer, header []string) {
	WriteRow(w, header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	WriteRow(w, sep)
}

// WriteRow writes a row of a table, escaping the bars of its cells.
func WriteRow(w io.Writer, cells []string) {
	escaped := make([]string, len(cells))
	for i, c := range cells {
		escaped[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(escaped, " | "))
}
