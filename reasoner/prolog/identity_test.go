package prolog_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/reasoner/prolog"
)

// TestSameShapeRelations loads two recursive static relations that differ
// only in their names and one negated fact: each must keep its own answers,
// in every evaluation path.
func TestSameShapeRelations(t *testing.T) {
	src, err := os.ReadFile("testdata/same_shape.kif")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts prolog.Options
	}{
		{"default", prolog.Options{}},
		{"plain", prolog.Options{Plain: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := loadRules(string(src), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Initial(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"(ca 1)", "(ca 2)", "(ca 3)", "(cb 1)", "(cb 2)", "(cb 3)", "(cb 4)", "(cb 5)"}
			if got := facts(s); !slices.Equal(got, want) {
				t.Errorf("initial state %s, want %s", strings.Join(got, " "), strings.Join(want, " "))
			}
			for q, want := range map[string][]string{
				"(numA ?x)": {"(numA 1)", "(numA 2)", "(numA 3)"},
				"(numB ?x)": {"(numB 1)", "(numB 2)", "(numB 3)", "(numB 4)", "(numB 5)"},
			} {
				if got := ask(t, r, s, q); !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", q, got, want)
				}
			}
		})
	}
}
