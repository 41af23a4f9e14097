package grounding

import "math"

// logisticFit minimises Σ w·logloss(σ(θ·x), y) + Σᵢ ½·ridgeᵢ·(θᵢ − priorᵢ)²
// by damped Newton steps, from prior (deterministic; the loss is convex,
// so one start is enough). The calibration's evidence terms and the none
// model are both fitted with it.
type logisticFit struct {
	prior      []float64 // the start, and where the ridge pulls
	ridge      []float64 // the penalty's curvature per coordinate
	maxStep    float64   // a Newton step longer than this (L1) is shortened to it
	iterations int
}

// fit returns the weights; prior when a step cannot be solved at once.
func (f logisticFit) fit(xs [][]float64, ys, ws []float64) []float64 {
	k := len(f.prior)
	th := append([]float64(nil), f.prior...)
	for range f.iterations {
		g := make([]float64, k)
		h := make([][]float64, k)
		for i := range k {
			g[i] = f.ridge[i] * (th[i] - f.prior[i])
			h[i] = make([]float64, k)
			h[i][i] = f.ridge[i]
		}
		for n, x := range xs {
			z := 0.0
			for i := range k {
				z += th[i] * x[i]
			}
			p := sigmoid(z)
			r := p - ys[n]
			for i := range k {
				g[i] += ws[n] * r * x[i]
				for j := range k {
					h[i][j] += ws[n] * p * (1 - p) * x[i] * x[j]
				}
			}
		}
		d, ok := solveLinear(h, g)
		if !ok {
			break
		}
		step := 0.0
		for _, v := range d {
			step += math.Abs(v)
		}
		if step > f.maxStep {
			for i := range d {
				d[i] *= f.maxStep / step
			}
		}
		for i := range th {
			th[i] -= d[i]
		}
		if step < 1e-10 {
			break
		}
	}
	return th
}

// fitLogistic is logisticFit with a unit ridge on every coordinate
// around prior and steps of at most 1.
func fitLogistic(xs [][]float64, ys, ws, prior []float64) []float64 {
	ridge := make([]float64, len(prior))
	for i := range ridge {
		ridge[i] = 1
	}
	return logisticFit{prior: prior, ridge: ridge, maxStep: 1, iterations: 300}.fit(xs, ys, ws)
}

// solveLinear solves h·d = g by Gaussian elimination with partial
// pivoting; ok is false for a singular h.
func solveLinear(h [][]float64, g []float64) ([]float64, bool) {
	k := len(g)
	a := make([][]float64, k)
	for i := range k {
		a[i] = append(append([]float64(nil), h[i]...), g[i])
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < k; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j <= k; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	d := make([]float64, k)
	for i := k - 1; i >= 0; i-- {
		s := a[i][k]
		for j := i + 1; j < k; j++ {
			s -= a[i][j] * d[j]
		}
		d[i] = s / a[i][i]
	}
	return d, true
}
