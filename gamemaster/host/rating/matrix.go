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
func (m matrix) set(i, j int, v float64) { m.data[i*m.n+j] = v }
func (m matrix) add(i, j int, v float64) { m.data[i*m.n+j] += v }

var errNotPositive = errors.New("matrix not positive definite")

// cholesky returns the lower triangular L with m = L·Lᵀ, for a symmetric
// positive definite m.
func (m matrix) cholesky() (matrix, error) {
	l := newMatrix(m.n)
	for j := 0; j < m.n; j++ {
		d := m.at(j, j)
		for k := 0; k < j; k++ {
			d -= l.at(j, k) * l.at(j, k)
		}
		if !(d > 0) {
			return matrix{}, errNotPositive
		}
		d = math.Sqrt(d)
		l.set(j, j, d)
		for i := j + 1; i < m.n; i++ {
			s := m.at(i, j)
			for k := 0; k < j; k++ {
				s -= l.at(i, k) * l.at(j, k)
			}
			l.set(i, j, s/d)
		}
	}
	return l, nil
}

// solveWith returns x with L·Lᵀ·x = b.
func (l matrix) solveWith(b []float64) []float64 {
	y := make([]float64, l.n)
	for i := 0; i < l.n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l.at(i, k) * y[k]
		}
		y[i] = s / l.at(i, i)
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

// inverse returns the inverse of a symmetric positive definite m.
func (m matrix) inverse() (matrix, error) {
	l, err := m.cholesky()
	if err != nil {
		return matrix{}, err
	}
	inv := newMatrix(m.n)
	e := make([]float64, m.n)
	for j := 0; j < m.n; j++ {
		clear(e)
		e[j] = 1
		col := l.solveWith(e)
		for i, v := range col {
			inv.set(i, j, v)
		}
	}
	return inv, nil
}
