package propnet

import (
	"context"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// ignoreGame has chess's ignored square: a king may not be left attacked,
// where the attack along a row or column ignores the square the move
// leaves (ix, iy). The recursion carries the ignored square through every
// step; the rule that skips it ties it to the segment. The attack is asked
// negated (legal), positively (next: check), with constants, negated or
// not, one of them no square, with a variable that is sometimes no square
// (goals), and with the ignored square tied to the attacker's own (a
// rook's move).
// RECURSE, BASE_TYPE and KING_TYPE are replaced by each case.
const ignoreGame = `
(role white) (role black)
(coord 1) (coord 2) (coord 3) (coord 4)
(file 1) (file 2) (file 3)
(succ 1 2) (succ 2 3) (succ 3 4)
(opponent white black) (opponent black white)
(owner wk white) (owner wr white) (owner wq white)
(owner bk black) (owner br black) (owner bq black)
(king wk) (king bk) (rook wr) (rook br) (rook wq) (rook bq)
(init (at wk 1 1)) (init (at wr 1 3)) (init (at wq 3 2))
(init (at bk 4 4)) (init (at br 4 2)) (init (at bq 2 3))
(init (control white)) (init (step 1))
(<= (occupied ?x ?y) (true (at ?p ?x ?y)))
(<= (blank ?x ?y) (coord ?x) (coord ?y) (not (occupied ?x ?y)))
(<= (clear_row_ig ?u ?y ?x ?y ?ix ?iy) (succ ?u ?x) (coord ?y) (BASE_TYPE ?ix) (BASE_TYPE ?iy))
(<= (clear_row_ig ?u ?iy ?x ?iy ?ix ?iy) (succ ?u ?ix) (clear_row_ig ?ix ?iy ?x ?iy ?ix ?iy))
(<= (clear_row_ig ?u ?y ?x ?y ?ix ?iy) (succ ?u ?u2) (blank ?u2 ?y) RECURSE (clear_row_ig ?u2 ?y ?x ?y ?ix ?iy))
(<= (clear_col_ig ?x ?v ?x ?y ?ix ?iy) (succ ?v ?y) (coord ?x) (coord ?ix) (coord ?iy))
(<= (clear_col_ig ?ix ?v ?ix ?y ?ix ?iy) (succ ?v ?iy) (clear_col_ig ?ix ?iy ?ix ?y ?ix ?iy))
(<= (clear_col_ig ?x ?v ?x ?y ?ix ?iy) (succ ?v ?v2) (blank ?x ?v2) RECURSE (clear_col_ig ?x ?v2 ?x ?y ?ix ?iy))
(<= (line_ig ?u ?v ?x ?y ?ix ?iy) (clear_row_ig ?u ?v ?x ?y ?ix ?iy))
(<= (line_ig ?u ?v ?x ?y ?ix ?iy) (clear_row_ig ?x ?y ?u ?v ?ix ?iy))
(<= (line_ig ?u ?v ?x ?y ?ix ?iy) (clear_col_ig ?u ?v ?x ?y ?ix ?iy))
(<= (line_ig ?u ?v ?x ?y ?ix ?iy) (clear_col_ig ?x ?y ?u ?v ?ix ?iy))
(<= (adj ?a ?b) (succ ?a ?b))
(<= (adj ?a ?b) (succ ?b ?a))
(<= (kstep ?u ?v ?x ?y) (adj ?u ?x) (adj ?v ?y))
(<= (kstep ?u ?v ?u ?y) (coord ?u) (adj ?v ?y))
(<= (kstep ?u ?v ?x ?v) (coord ?v) (adj ?u ?x))
(<= (attacked ?o ?x ?y ?ix ?iy)
    (owner ?p ?o) (rook ?p) (true (at ?p ?u ?v)) (line_ig ?u ?v ?x ?y ?ix ?iy))
(<= (attacked ?o ?x ?y ?ix ?iy)
    (owner ?p ?o) (king ?p) (true (at ?p ?u ?v)) (kstep ?u ?v ?x ?y) (KING_TYPE ?ix) (KING_TYPE ?iy))
(<= (mine ?r ?x ?y) (owner ?p ?r) (true (at ?p ?x ?y)))
(<= (legal ?r (move ?p ?u ?v ?x ?y))
    (true (control ?r)) (owner ?p ?r) (rook ?p) (true (at ?p ?u ?v))
    (line_ig ?u ?v ?x ?y ?u ?v) (not (mine ?r ?x ?y))
    (owner ?k ?r) (king ?k) (true (at ?k ?kx ?ky)) (opponent ?r ?o)
    (not (attacked ?o ?kx ?ky ?u ?v)))
(<= (legal ?r (move ?k ?u ?v ?x ?y))
    (true (control ?r)) (owner ?k ?r) (king ?k) (true (at ?k ?u ?v))
    (kstep ?u ?v ?x ?y) (not (mine ?r ?x ?y)) (opponent ?r ?o) (not (attacked ?o ?x ?y ?u ?v)))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r noop) (opponent ?r ?o) (true (control ?o)))
(<= (moved ?p) (does ?r (move ?p ?u ?v ?x ?y)))
(<= (captured ?q) (does ?r (move ?p ?u ?v ?x ?y)) (true (at ?q ?x ?y)))
(<= (next (at ?p ?x ?y)) (does ?r (move ?p ?u ?v ?x ?y)))
(<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (not (moved ?p)) (not (captured ?p)))
(<= (next (check ?r)) (does ?o (move ?p ?u ?v ?x ?y)) (opponent ?r ?o)
    (owner ?k ?r) (king ?k) (true (at ?k ?kx ?ky)) (attacked ?o ?kx ?ky ?u ?v))
(<= (next (control ?o)) (true (control ?r)) (opponent ?r ?o))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 4)))
(<= (alive ?r) (owner ?k ?r) (king ?k) (true (at ?k ?x ?y)))
(<= (corner ?r) (owner ?k ?r) (king ?k) (true (at ?k ?x ?y)) (attacked ?r ?x ?y 1 1))
(spot 1) (spot 9)
(<= (far ?r ?a) (owner ?k ?r) (king ?k) (true (at ?k ?x ?y)) (opponent ?r ?o)
    (spot ?a) (not (attacked ?o ?x ?y ?a 1)))
(<= (safe ?r) (owner ?k ?r) (king ?k) (true (at ?k ?x ?y)) (opponent ?r ?o)
    (not (attacked ?o ?x ?y 2 2)) (not (attacked ?o ?x ?y 9 9)))
(<= (goal ?r 100) (alive ?r) (opponent ?r ?o) (not (alive ?o)))
(<= (goal ?r 75) (alive ?r) (opponent ?r ?o) (alive ?o) (corner ?o))
(<= (goal ?r 60) (alive ?r) (opponent ?r ?o) (alive ?o) (not (corner ?o)) (safe ?r))
(<= (goal ?r 55) (alive ?r) (opponent ?r ?o) (alive ?o) (not (corner ?o)) (not (safe ?r)) (far ?r 9) (not (far ?r 1)))
(<= (goal ?r 50) (alive ?r) (opponent ?r ?o) (alive ?o) (not (corner ?o)) (not (safe ?r)) (not (far ?r 9)))
(<= (goal ?r 45) (alive ?r) (opponent ?r ?o) (alive ?o) (not (corner ?o)) (not (safe ?r)) (far ?r 1))
(<= (goal ?r 0) (role ?r) (not (alive ?r)))
`

// TestAbstractKeepsTheGame grounds variants of ignoreGame rewritten with
// and without abstracting the ignored square, checks whether it was
// abstracted, and plays random playouts of each network against the
// network of the rules as written and against the Prolog backend.
func TestAbstractKeepsTheGame(t *testing.T) {
	for _, tc := range []struct {
		name               string
		recurse, base, kty string
		abstracted         bool
	}{
		{"ignored square carried", "", "coord", "coord", true},
		// The recursion reads the ignored square: every rule ties it.
		{"ignored square read by a negation", "(not (true (at wr ?ix ?iy)))", "coord", "coord", false},
		// The base rules check different types (file leaves out 4): the
		// group cannot be abstracted.
		{"row's types differ", "", "file", "coord", false},
		{"row's and king's types differ from the column's", "", "file", "file", false},
		{"king's types differ", "", "coord", "file", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.NewReplacer("RECURSE", tc.recurse, "BASE_TYPE", tc.base, "KING_TYPE", tc.kty).Replace(ignoreGame)
			d, err := gdl.ParseFile("ignore.kif", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			gr := groundRewrittenForTest(t, d)
			abstracted := 0
			for _, r := range gr.rels {
				if strings.Contains(r.name, " without ") {
					abstracted++
				}
			}
			if (abstracted > 0) != tc.abstracted {
				t.Errorf("%d relations abstracted, want abstracted %v", abstracted, tc.abstracted)
			}
			plain := buildWith(t, d, false)
			pl, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, noAbstract := range []bool{false, true} {
				rw, err := New(ctx, d, Options{Limits{rewriteAlways: true, noAbstract: noAbstract}})
				if err != nil {
					t.Fatal(err)
				}
				if err := agree(rw, plain, 40, 30); err != nil {
					t.Errorf("noAbstract %v, against the rules as written: %v", noAbstract, err)
				}
				if err := agree(rw, pl, 10, 30); err != nil {
					t.Errorf("noAbstract %v, against Prolog: %v", noAbstract, err)
				}
			}
		})
	}
}
