package rating

import (
	"math"
	"testing"
)

func TestMatrix(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    [][]float64
		b    []float64
		x    []float64 // m·x = b
		diag []float64 // of m⁻¹, worked out by hand
	}{
		{
			name: "diagonal",
			m:    [][]float64{{2, 0}, {0, 4}},
			b:    []float64{2, 2},
			x:    []float64{1, 0.5},
			diag: []float64{0.5, 0.25},
		},
		{
			// [[4 2 0] [2 5 1] [0 1 3]]: determinant 4·14 - 2·6 = 44,
			// cofactors 14, 12, 16 on the diagonal.
			name: "tridiagonal",
			m:    [][]float64{{4, 2, 0}, {2, 5, 1}, {0, 1, 3}},
			b:    []float64{6, 8, 4},
			x:    []float64{1, 1, 1},
			diag: []float64{14.0 / 44, 12.0 / 44, 16.0 / 44},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatrix(len(tc.m))
			for i, row := range tc.m {
				for j, v := range row {
					m.add(i, j, v)
				}
			}
			x, err := m.solve(tc.b)
			if err != nil {
				t.Fatal(err)
			}
			diag, err := m.inverseDiagonal()
			if err != nil {
				t.Fatal(err)
			}
			for i := range x {
				if math.Abs(x[i]-tc.x[i]) > 1e-12 || math.Abs(diag[i]-tc.diag[i]) > 1e-12 {
					t.Errorf("entry %d: solution %v, inverse diagonal %v; want %v and %v", i, x[i], diag[i], tc.x[i], tc.diag[i])
				}
			}
		})
	}
	singular := newMatrix(2)
	for i := range 2 {
		for j := range 2 {
			singular.add(i, j, 1)
		}
	}
	if _, err := singular.solve([]float64{1, 1}); err == nil {
		t.Errorf("a singular matrix was solved")
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{Completed: "completed", Errored: "errored", Aborted: "aborted", 9: "Status(9)"} {
		if s.String() != want {
			t.Errorf("Status %d: %q, want %q", int(s), s.String(), want)
		}
	}
}
