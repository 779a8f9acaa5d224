package prolog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// wideRules joins n static facts of k values into k^n legal moves.
func wideRules(k, n int) string {
	var b strings.Builder
	b.WriteString("(role a) (init (s 0)) (<= (next (s 1)) (does a ?m)) (<= terminal (true (s 1))) (goal a 100)\n")
	for i := range k {
		fmt.Fprintf(&b, "(v %d) ", i)
	}
	vars := make([]string, n)
	body := make([]string, n)
	for i := range n {
		vars[i] = fmt.Sprintf("?x%d", i)
		body[i] = "(v " + vars[i] + ")"
	}
	fmt.Fprintf(&b, "\n(<= (legal a (m %s)) %s)\n", strings.Join(vars, " "), strings.Join(body, " "))
	return b.String()
}

// deepRules recurse on ever-deeper terms: q(x) needs q((f x)).
const deepRules = `(role a) (init (s 0))
(<= (q ?x) (true (s 0)) (q (f ?x)))
(<= (legal a go) (q z))
(legal a stay)
(<= (next (s 1)) (does a ?m))
(<= terminal (true (s 1)))
(goal a 100)`

func TestLimitsTripEarly(t *testing.T) {
	tests := []struct {
		name    string
		rules   string
		opts    prolog.Options
		want    error
		partial int // legal moves that come with the error
	}{
		// 30^6 moves, cut at the default answer limit.
		{"30^6 moves", wideRules(30, 6), prolog.Options{}, reasoner.ErrAnswers, 1 << 17},
		{"answer limit", wideRules(10, 3), prolog.Options{MaxAnswers: 999}, reasoner.ErrAnswers, 999},
		{"within the answer limit", wideRules(10, 3), prolog.Options{MaxAnswers: 1000}, nil, 1000},
		// The rule through q fails; the other legal rule still gives stay.
		{"ever-deeper terms", deepRules, prolog.Options{}, reasoner.ErrTermDepth, 1},
		{"ever-deeper terms, low limit", deepRules, prolog.Options{MaxTermDepth: 20}, reasoner.ErrTermDepth, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := gdl.ParseFile("test.kif", []byte(tt.rules))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r, err := prolog.NewWithOptions(ctx, d, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := r.Initial(ctx)
			moves, err := r.Legal(ctx, st, 0)
			if ctx.Err() != nil {
				t.Fatalf("Legal ran to the test's timeout: %v", err)
			}
			if tt.want == nil {
				if err != nil || len(moves) != tt.partial {
					t.Fatalf("Legal: %d moves, err %v; want %d and no error", len(moves), err, tt.partial)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Legal: err = %v, want %v", err, tt.want)
			}
			var pe *reasoner.PartialError
			got := 0
			if errors.As(err, &pe) {
				got = len(pe.Moves)
				for _, m := range pe.Moves {
					if !strings.HasPrefix(string(m), "(m ") && m != "stay" {
						t.Fatalf("partial move %q is not a legal move", m)
					}
				}
			}
			if got != tt.partial {
				t.Errorf("Legal: %d moves found before the error, want %d", got, tt.partial)
			}
		})
	}
}
