package mcts

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ggp-go/ggp/reasoner"
)

// condGame is a game whose reasoner gives goal conditions.
type condGame struct {
	*toyGame
	conds [][]reasoner.Condition
}

func (g condGame) GoalConditions(role int) ([]reasoner.Condition, int, bool) {
	return g.conds[role], 100, true
}

// rowOf returns a condition: the cells of a row all of one colour.
func rowOf(colour string, cells ...string) reasoner.Condition {
	var c reasoner.Condition
	for _, x := range cells {
		c.Pos = append(c.Pos, reasoner.Fact("(cell "+x+" "+colour+")"))
	}
	return c
}

// board returns the state of a row of cells, "r" red, "k" black, "b" blank.
func board(cells string) *reasoner.State {
	var facts []reasoner.Fact
	for i, c := range cells {
		v := map[rune]string{'r': "red", 'k': "black", 'b': "b"}[c]
		facts = append(facts, reasoner.Fact("(cell "+string(rune('1'+i))+" "+v+")"))
	}
	facts = append(facts, "(control red)")
	return reasoner.NewState(facts)
}

// TestClosenessFeatures checks the goal-closeness features on hand-made
// states of a row of five cells, where four in a row wins: a line lacking
// one disc is a threat while its missing cell is blank and nothing once
// the other colour holds it; lines lacking two count apart; the fewest a
// role's open lines lack is its distance, more than any line's length
// when all are blocked. A reasoner without goal conditions gives none.
func TestClosenessFeatures(t *testing.T) {
	g := condGame{toyGame: &toyGame{roles: []string{"red", "black"}}}
	for _, colour := range []string{"red", "black"} {
		g.conds = append(g.conds, []reasoner.Condition{
			rowOf(colour, "1", "2", "3", "4"),
			rowOf(colour, "2", "3", "4", "5"),
		})
	}
	c := newCloseness(g)
	if c == nil {
		t.Fatal("no closeness from a reasoner with goal conditions")
	}
	met := make([]int32, len(c.size))
	out := make([]float64, 2*closeFeatures)
	for _, tt := range []struct {
		cells string
		want  []float64 // red's lack1, lack2, lackmin, then black's
	}{
		{"bbbbb", []float64{0, 0, 4, 0, 0, 4}},
		{"rrrbb", []float64{1, 1, 1, 0, 0, 5}}, // 1234 lacks 4, 2345 lacks 4 and 5; black blocked
		{"rrrkb", []float64{0, 0, 5, 0, 0, 5}}, // both red lines blocked by 4, black's by red's
		{"brrrb", []float64{2, 0, 1, 0, 0, 5}}, // two threats
		{"rrbkk", []float64{0, 0, 5, 0, 0, 5}}, // blocked both ways
		{"bbkkb", []float64{0, 0, 5, 0, 2, 2}}, // black lacks two in each line
		{"rrrrb", []float64{1, 0, 0, 0, 0, 5}}, // red's goal met: lacks none
	} {
		c.features(board(tt.cells).Facts(), met, out)
		if !slices.Equal(out, tt.want) {
			t.Errorf("%s: features %v, want %v", tt.cells, out, tt.want)
		}
	}
	if newCloseness(g.toyGame) != nil {
		t.Error("closeness from a reasoner without goal conditions")
	}
}

// TestClosenessBounded checks that goal conditions whose facts all share
// one place, each blocking all of the other role's, give no closeness
// rather than a table of blocks growing with the product of the two roles'
// facts (here 2048 by 2048 per role).
func TestClosenessBounded(t *testing.T) {
	g := condGame{toyGame: &toyGame{roles: []string{"red", "black"}}}
	for _, colour := range []string{"r", "k"} {
		var conds []reasoner.Condition
		for i := range maxCloseConditions / 2 {
			conds = append(conds, reasoner.Condition{Pos: []reasoner.Fact{reasoner.Fact(fmt.Sprintf("(val %s%d)", colour, i))}})
		}
		g.conds = append(g.conds, conds)
	}
	c := newCloseness(g)
	if c == nil {
		return
	}
	entries, lits := 0, 0
	for _, es := range c.byFact {
		entries += len(es)
	}
	for _, n := range c.size {
		lits += int(n)
	}
	if entries > maxCloseBlocks+lits {
		t.Errorf("%d entries for %d conditions of one literal each", entries, len(c.size))
	}
}
