package propnet

import (
	"context"

	"os"
	"testing"
	"time"

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

func TestDebugGround(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("KIF"))
	if err != nil {
		t.Skip(err)
	}
	d, err := gdl.ParseFile("g", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	net, err := build(ctx, d, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(net.stats)
}

func TestDebugJoins(t *testing.T) {
	type agg struct {
		d           time.Duration
		n, steps, k int
		order       []int
	}
	m := map[*clause]*agg{}
	debugJoin = func(c *clause, order []int, d time.Duration, n, steps int) {
		a := m[c]
		if a == nil {
			a = &agg{}
			m[c] = a
		}
		a.d += d
		a.n += n
		a.steps += steps
		a.k++
		a.order = order
	}
	t.Cleanup(func() {
		debugJoin = nil
		for c, a := range m {
			if a.d > 200*time.Millisecond {
				t.Logf("%s: %v %d instances %d steps %d calls order %v", c.pos, a.d, a.n, a.steps, a.k, a.order)
			}
		}
	})
	TestDebugGround(t)
}
