package backend

import (
	"context"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

const tinyGame = `(role p) (init (s 0)) (<= (legal p go) (true (s 0)))
(<= (next (s 1)) (does p go)) (<= terminal (true (s 1))) (goal p 100)`

func TestNew(t *testing.T) {
	d, err := gdl.ParseFile("tiny.kif", []byte(tinyGame))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(Names(), "") {
		if name == Propnet {
			continue // checked with the network's own tests
		}
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
