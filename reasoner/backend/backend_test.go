package backend

import (
	"bytes"
	"context"
	"log"
	"slices"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/prolog"
	"github.com/ggp-go/ggp/reasoner/propnet"
)

const tinyGame = `(role p) (init (s 0)) (<= (legal p go) (true (s 0)))
(<= (next (s 1)) (does p go)) (<= terminal (true (s 1))) (goal p 100)`

func TestNew(t *testing.T) {
	d, err := gdl.ParseFile("tiny.kif", []byte(tinyGame))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(Names(), "") {
		t.Run(name, func(t *testing.T) {
			if !Valid(name) {
				t.Fatalf("Valid(%q) = false", name)
			}
			f, err := New(name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := f(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			if roles := r.Roles(); len(roles) != 1 || roles[0] != "p" {
				t.Errorf("roles %v", roles)
			}
		})
	}
}

func TestNewUnknown(t *testing.T) {
	if Valid("fast") {
		t.Error(`Valid("fast") = true`)
	}
	_, err := New("fast", Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown backend "fast"`) {
		t.Errorf("New(fast): err = %v", err)
	}
}

const small = `
(role a)
(init (s 0))
(<= (legal a go) (true (s ?x)))
(<= (next (s 1)) (true (s 0)))
(<= terminal (true (s 1)))
(goal a 100)
`

// unbounded builds ever deeper terms: it cannot be grounded, but the
// Prolog backend plays it.
const unbounded = `
(role a)
(init (s 0))
(<= (legal a go) (true (s ?x)))
(<= (next (s (f ?x))) (true (s ?x)))
(goal a 100)
`

// percepts is a GDL-II game with a sees rule, which the network plays.
const percepts = `
(role a)
(role random)
(init (s 0))
(<= (legal random (roll ?n)) (num ?n))
(num 1) (num 2)
(legal a wait)
(<= (next (s ?n)) (does random (roll ?n)))
(<= (sees a (rolled ?n)) (does random (roll ?n)))
(<= terminal (true (s ?n)) (num ?n))
(goal a 100)
`

// perceptsUnbounded is a GDL-II game with a sees rule whose terms grow
// without bound: the network cannot ground it, and the Prolog backend
// plays it.
const perceptsUnbounded = `
(role a)
(role random)
(init (s 0))
(<= (legal random (roll ?n)) (num ?n))
(num 1) (num 2)
(legal a wait)
(<= (next (s (f ?x))) (true (s ?x)))
(<= (sees a (rolled ?n)) (does random (roll ?n)))
(<= terminal (true (s (f (f (f 0))))))
(goal a 100)
`

// noPercepts is a GDL-II game with nature and no sees rule, which the
// network plays.
const noPercepts = `
(role a)
(role random)
(init (s 0))
(<= (legal random (roll ?n)) (num ?n))
(num 1) (num 2)
(legal a wait)
(<= (next (s ?n)) (does random (roll ?n)))
(<= terminal (true (s ?n)) (num ?n))
(goal a 100)
`

func TestAutoChoosesAndFallsBack(t *testing.T) {
	tests := []struct {
		name, rules string
		logGrounded bool
		propnet     bool
		logged      string
		sees        []reasoner.Percept // of a after wait and (roll 2), in GDL-II
	}{
		{"grounds", small, false, true, "", nil},
		{"grounds, logged", small, true, true, "grounds, logged: backend propnet: ", nil},
		{"unbounded terms", unbounded, false, false, "backend propnet declined, trying prolog: ", nil},
		{"unbounded terms, logged", unbounded, true, false, "backend propnet declined, trying prolog: ", nil},
		{"percepts", percepts, false, true, "", []reasoner.Percept{"(rolled 2)"}},
		{"percepts, unbounded terms", perceptsUnbounded, false, false, "backend propnet declined, trying prolog: ", []reasoner.Percept{"(rolled 2)"}},
		{"nature without percepts", noPercepts, false, true, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := gdl.ParseFile(tt.name, []byte(tt.rules))
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			f, err := New(Auto, Options{Log: log.New(&logs, "", 0), LogGrounded: tt.logGrounded, Limits: propnet.Limits{MaxLinks: 1 << 20}})
			if err != nil {
				t.Fatal(err)
			}
			r, err := f(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			_, isPropnet := r.(*propnet.Reasoner)
			_, isProlog := r.(*prolog.Reasoner)
			if isPropnet != tt.propnet || isProlog == tt.propnet {
				t.Errorf("got a %T", r)
			}
			if tt.logged == "" && logs.Len() > 0 || !strings.Contains(logs.String(), tt.logged) {
				t.Errorf("log %q, want %q", logs.String(), tt.logged)
			}
			p, err := New(Propnet, Options{Limits: propnet.Limits{MaxLinks: 1 << 20}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p(context.Background(), d); (err == nil) != tt.propnet {
				t.Errorf("propnet only: error %v", err)
			}
			if gdl.DecideMode(d, gdl.NatureSeated) != gdl.GDLII {
				return
			}
			// Whichever backend plays it tells a what it perceives.
			ctx := context.Background()
			s, _ := r.Initial(ctx)
			ps, err := r.(reasoner.Perceiver).Sees(ctx, s, []reasoner.Move{"wait", "(roll 2)"}, 0)
			if err != nil || !slices.Equal(ps, tt.sees) {
				t.Errorf("a sees %v, %v; want %v", ps, err, tt.sees)
			}
		})
	}
}
