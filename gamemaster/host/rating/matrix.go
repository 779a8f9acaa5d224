package rating

import (
	"errors"
	"math"
)

// matrix is a dense square matrix, row by row.
type matrix struct {
	n    int
	data []float64
}

func newMatrix(n int) matrix { return matrix{n: n, data: make([]float64, n*n)} }

func (m matrix) at(i, j int) float64     { return m.data[i*m.n+j] }
func (m matrix) add(i, j int, v float64) { m.data[i*m.n+j] += v }

// row returns the first k entries of row i.
func (m matrix) row(i, k int) []float64 { return m.data[i*m.n : i*m.n+k] }

var errNotPositive = errors.New("matrix not positive definite")

// dot is the inner product of two slices of equal length.
func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// cholesky returns the lower triangular L with m = L·Lᵀ, for a symmetric
// positive definite m. Only the lower triangle of m is read.
func (m matrix) cholesky() (matrix, error) {
	l := newMatrix(m.n)
	for i := 0; i < m.n; i++ {
		li := l.row(i, i+1)
		for j := 0; j <= i; j++ {
			s := m.at(i, j) - dot(li[:j], l.row(j, j))
			if i == j {
				if !(s > 0) {
					return matrix{}, errNotPositive
				}
				li[j] = math.Sqrt(s)
			} else {
				li[j] = s / l.at(j, j)
			}
		}
	}
	return l, nil
}

// solveWith returns x with L·Lᵀ·x = b.
func (l matrix) solveWith(b []float64) []float64 {
	y := make([]float64, l.n)
	for i := 0; i < l.n; i++ {
		y[i] = (b[i] - dot(l.row(i, i), y[:i])) / l.at(i, i)
	}
	for i := l.n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < l.n; k++ {
			s -= l.at(k, i) * y[k]
		}
		y[i] = s / l.at(i, i)
	}
	return y
}

// solve returns x with m·x = b, for a symmetric positive definite m.
func (m matrix) solve(b []float64) ([]float64, error) {
	l, err := m.cholesky()
	if err != nil {
		return nil, err
	}
	return l.solveWith(b), nil
}

// inverseDiagonal returns the diagonal of the inverse of a symmetric
// positive definite m. With m = L·Lᵀ, m⁻¹ = L⁻ᵀ·L⁻¹, whose diagonal holds
// the squared norms of the columns of L⁻¹.
func (m matrix) inverseDiagonal() ([]float64, error) {
	l, err := m.cholesky()
	if err != nil {
		return nil, err
	}
	// Row i of L⁻¹ (lower triangular) by forward substitution:
	// inv[i][j] = -(Σ_{k=j}^{i-1} L[i][k]·inv[k][j]) / L[i][i] for j < i.
	n := m.n
	inv := newMatrix(n)
	for i := 0; i < n; i++ {
		d := l.at(i, i)
		row := inv.row(i, i+1)
		row[i] = 1 / d
		li := l.row(i, i)
		for k, lik := range li {
			if lik == 0 {
				continue
			}
			for j, v := range inv.row(k, k+1) {
				row[j] -= lik * v
			}
		}
		for j := 0; j < i; j++ {
			row[j] /= d
		}
	}
	diag := make([]float64, n)
	for i := 0; i < n; i++ {
		for j, v := range inv.row(i, i+1) {
			diag[j] += v * v
		}
	}
	return diag, nil
}
