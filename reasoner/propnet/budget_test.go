package propnet

import (
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMemoryBudgetCountsLiveData allocates past the budget's limit, once
// in garbage and once in data kept, under ggp's collector setting (GOGC
// 400, where garbage piles up to four times the live heap before a
// collection), with a live heap already larger than the limit, as when a
// player grounds a game beside a search tree: garbage must not exhaust the
// budget, kept data must.
func TestMemoryBudgetCountsLiveData(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	const limit = 32 << 20
	const chunk = 1 << 20
	var sink []byte
	ballast := make([]byte, 2*limit)
	ballast[0] = 1
	tests := []struct {
		name    string
		keep    bool
		wantErr bool
	}{
		{"garbage", false, false},
		{"kept", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GC()
			m := newMemoryBudget(limit)
			var kept [][]byte
			var err error
			// Four times the limit: at GOGC 400 and the ballast
			// live, the heap passes the limit in garbage before the
			// collector runs on its own.
			for i := 0; i < 4*limit/chunk && err == nil; i++ {
				b := make([]byte, chunk)
				b[0] = byte(i)
				if tt.keep {
					kept = append(kept, b)
				} else {
					sink = b
				}
				err = m.check()
			}
			if err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("check: %v, want an ErrBudget", err)
			}
			if got := err != nil; got != tt.wantErr {
				t.Errorf("%d MiB allocated, %d MiB kept: check returned %v, want an error %v", 4*limit>>20, len(kept), err, tt.wantErr)
			}
			runtime.KeepAlive(kept)
		})
	}
	_ = sink
	runtime.KeepAlive(ballast)
}
