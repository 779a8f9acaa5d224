package rating

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCompute rates populations of growing size, 20 two-player
// matches per player.
func BenchmarkCompute(b *testing.B) {
	for _, n := range []int{10, 100, 300} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			results := simulate(rand.New(rand.NewPCG(1, 1)), "g", spaced(n, 1000/float64(n)), 2, 10*n)
			b.ResetTimer()
			for range b.N {
				if _, err := Compute(results, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
