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

func TestDebugDump(t *testing.T) {
	src, err := os.ReadFile("../../../shared/games/" + os.Getenv("GAME") + "/" + os.Getenv("GAME") + ".kif")
	if err != nil {
		t.Skip(err)
	}
	d, err := gdl.ParseFile("g", src)
	if err != nil {
		t.Fatal(err)
	}
	net, err := build(context.Background(), d, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(net.stats)
	hist := map[string]int{}
	fan := 0
	for n := range net.thr {
		k := "leaf"
		switch {
		case net.leaf[n]:
		case net.thr[n] < 0:
			k = "not"
		case net.thr[n] == 1 && net.inStart[n+1]-net.inStart[n] > 1:
			k = "or"
		default:
			k = "and"
		}
		hist[k]++
		fan += int(net.outStart[n+1] - net.outStart[n])
	}
	t.Log(hist, "levels", net.nlevels, "links", fan)
}
