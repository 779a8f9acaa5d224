package propnet

import (
	"context"
	"strings"
	"testing"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner/prolog"
)

// A small game with chess's shape: a move is legal when no enemy piece
// other than the one captured attacks the mover's king, wherever the king
// stands. Rooks attack along rows and columns, the king's square is
// joined with the negation (a guard for splitting), the attackers are a
// disjunction, and the capture square differs from the attacker's by
// other (the exception is one square: the prefix and suffix ORs) or by
// otherfile (a whole file: joined as written).
const threatGame = `
(role white) (role black)
(coord 1) (coord 2) (coord 3) (coord 4)
(opponent white black) (opponent black white)
(owner wk white) (owner wr white) (owner wn white)
(owner bk black) (owner br black) (owner bn black)
(king wk) (king bk) (rook wr) (rook br) (knight wn) (knight bn)
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (adj ?a ?b) (succ ?a ?b))
(<= (adj ?a ?b) (succ ?b ?a))
(<= (line ?u ?v ?u ?y) (coord ?u) (coord ?v) (coord ?y) (distinct ?v ?y))
(<= (line ?u ?v ?x ?v) (coord ?u) (coord ?v) (coord ?x) (distinct ?u ?x))
(<= (two ?a ?b) (succ ?a ?m) (succ ?m ?b))
(<= (two ?a ?b) (succ ?b ?m) (succ ?m ?a))
(<= (jump ?u ?v ?x ?y) (two ?u ?x) (adj ?v ?y))
(<= (jump ?u ?v ?x ?y) (adj ?u ?x) (two ?v ?y))
(<= (kstep ?u ?v ?x ?y) (adj ?u ?x) (adj ?v ?y))
(<= (kstep ?u ?v ?u ?y) (coord ?u) (adj ?v ?y))
(<= (kstep ?u ?v ?x ?v) (coord ?v) (adj ?u ?x))
(<= (other ?x1 ?y1 ?x2 ?y2) (coord ?x1) (coord ?y1) (coord ?x2) (coord ?y2) (distinct ?x1 ?x2))
(<= (other ?x1 ?y1 ?x2 ?y2) (coord ?x1) (coord ?y1) (coord ?x2) (coord ?y2) (distinct ?y1 ?y2))
(<= (otherfile ?x1 ?y1 ?x2 ?y2) (coord ?x1) (coord ?y1) (coord ?x2) (coord ?y2) (distinct ?x1 ?x2))
(init (at wk 1 1)) (init (at wr 2 1)) (init (at wn 3 1))
(init (at bk 4 4)) (init (at br 3 4)) (init (at bn 2 4))
(init (control white)) (init (step 0))
(<= (reach ?p ?u ?v ?x ?y) (rook ?p) (line ?u ?v ?x ?y))
(<= (reach ?p ?u ?v ?x ?y) (knight ?p) (jump ?u ?v ?x ?y))
(<= (reach ?p ?u ?v ?x ?y) (king ?p) (kstep ?u ?v ?x ?y))
(<= (rook_attacks ?o ?u ?v ?x ?y) (owner ?p ?o) (rook ?p) (true (at ?p ?u ?v)) (line ?u ?v ?x ?y))
(<= (king_attacks ?o ?u ?v ?x ?y) (owner ?p ?o) (king ?p) (true (at ?p ?u ?v)) (kstep ?u ?v ?x ?y))
(<= (threat ?r ?cx ?cy ?kx ?ky)
    (opponent ?r ?o)
    (or (rook_attacks ?o ?u ?v ?kx ?ky) (king_attacks ?o ?u ?v ?kx ?ky))
    (other ?cx ?cy ?u ?v))
(<= (threat ?r ?cx ?cy ?kx ?ky)
    (opponent ?r ?o) (owner ?p ?o) (knight ?p) (true (at ?p ?u ?v))
    (jump ?u ?v ?kx ?ky) (otherfile ?cx ?cy ?u ?v))
(<= (occupied ?x ?y) (true (at ?p ?x ?y)))
(<= (mine ?r ?x ?y) (owner ?p ?r) (true (at ?p ?x ?y)))
(<= (legal ?r (move ?p ?u ?v ?x ?y))
    (true (control ?r)) (owner ?p ?r) (true (at ?p ?u ?v)) (not (king ?p))
    (reach ?p ?u ?v ?x ?y) (not (mine ?r ?x ?y))
    (owner ?k ?r) (king ?k) (true (at ?k ?kx ?ky))
    (not (threat ?r ?x ?y ?kx ?ky)))
(<= (legal ?r (move ?k ?u ?v ?x ?y))
    (true (control ?r)) (owner ?k ?r) (king ?k) (true (at ?k ?u ?v))
    (kstep ?u ?v ?x ?y) (not (mine ?r ?x ?y)) (not (threat ?r ?x ?y ?x ?y)))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r noop) (opponent ?r ?o) (true (control ?o)))
(<= (moved ?p) (does ?r (move ?p ?u ?v ?x ?y)))
(<= (captured ?q) (does ?r (move ?p ?u ?v ?x ?y)) (true (at ?q ?x ?y)))
(<= (next (at ?p ?x ?y)) (does ?r (move ?p ?u ?v ?x ?y)))
(<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (not (moved ?p)) (not (captured ?p)))
(<= (next (control ?o)) (true (control ?r)) (opponent ?r ?o))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (next (step 1)) (true (step 4)))
(<= (next (round ?n)) (true (round ?n)) (not (true (step 4))))
(<= (next (round 1)) (true (step 4)) (not (true (round 1))) (not (true (round 2))))
(<= (next (round 2)) (true (step 4)) (true (round 1)))
(<= terminal (true (round 2)) (true (step 4)))
(<= (alive ?r) (owner ?k ?r) (king ?k) (true (at ?k ?x ?y)))
(<= (goal ?r 100) (alive ?r) (opponent ?r ?o) (not (alive ?o)))
(<= (goal ?r 50) (alive ?r) (opponent ?r ?o) (alive ?o))
(<= (goal ?r 0) (role ?r) (not (alive ?r)))
`

// TestExceptKeepsTheGame grounds threatGame rewritten, checks that the
// capture square's exception was grounded as prefix and suffix ORs, and
// plays random playouts against the Prolog backend.
func TestExceptKeepsTheGame(t *testing.T) {
	d, err := gdl.ParseFile("threat.kif", []byte(threatGame))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gr := groundRewrittenForTest(t, d)
	chains := 0
	for _, r := range gr.rels {
		if strings.HasPrefix(r.name, "prefix ") || strings.HasPrefix(r.name, "suffix ") {
			chains += len(r.atoms)
		}
	}
	if chains == 0 {
		t.Error("no prefix or suffix atoms: the exception was not grounded as chains")
	}
	pn := buildWith(t, d, true)
	pl, err := prolog.NewWithOptions(ctx, d, prolog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := agree(pn, pl, 30, 40); err != nil {
		t.Fatal(err)
	}
}

// groundRewrittenForTest grounds d with its rules rewritten.
func groundRewrittenForTest(t *testing.T, d *gdl.Description) *grounder {
	t.Helper()
	limits := Limits{rewriteAlways: true}.withDefaults()
	gr, err := groundRules(context.Background(), d, limits, newMemoryBudget(limits.MaxMemory))
	if err != nil {
		t.Fatal(err)
	}
	return gr
}
