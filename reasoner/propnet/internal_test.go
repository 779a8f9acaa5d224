package propnet

import (
	"context"
	"os"
	"testing"

	"github.com/ggp-go/ggp/gdl"
)

func TestDebugBuild(t *testing.T) {
	src, err := os.ReadFile("../../../shared/games/ticTacToe/ticTacToe.kif")
	if err != nil {
		t.Skip(err)
	}
	d, err := gdl.ParseFile("ttt", src)
	if err != nil {
		t.Fatal(err)
	}
	net, err := build(context.Background(), d, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(net.stats)
}
