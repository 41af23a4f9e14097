package survey

import (
	"math"
	"sort"
)

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Proportion is x successes out of n, with its 95% Wilson score interval.
// With n = 0 every figure is 0: there is nothing to estimate.
type Proportion struct {
	X     int     `json:"x"`
	N     int     `json:"n"`
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
}

// NewProportion computes x/n and its interval.
func NewProportion(x, n int) Proportion {
	p := Proportion{X: x, N: n}
	if n > 0 {
		p.Ratio = float64(x) / float64(n)
		p.Low, p.High = wilson(x, n)
	}
	return p
}

// wilson is the Wilson score interval (Wilson 1927) without continuity
// correction: the roots in p of (p̂ − p)² = z² p(1 − p)/n. It stays inside
// [0, 1] and behaves at 0% and 100%, where the Wald interval collapses.
func wilson(x, n int) (low, high float64) {
	nf := float64(n)
	p := float64(x) / nf
	z2 := z95 * z95
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z95 / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return math.Max(0, center-half), math.Min(1, center+half)
}

// Difference is a − b of two independent proportions with a 95%
// interval.
type Difference struct {
	Value float64 `json:"value"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
	// Method names the interval: "newcombe-wilson".
	Method string `json:"method"`
}

// Newcombe is the difference a − b with Newcombe's hybrid score interval
// (Newcombe 1998, method 10): it combines the two Wilson intervals,
//
//	low  = d − √((p_a − l_a)² + (u_b − p_b)²)
//	high = d + √((u_a − p_a)² + (p_b − l_b)²),
//
// deterministic (no resampling) and well behaved near 0 and 1. Either
// side empty gives a zero Difference.
func Newcombe(a, b Proportion) Difference {
	d := Difference{Method: "newcombe-wilson"}
	if a.N == 0 || b.N == 0 {
		return d
	}
	d.Value = a.Ratio - b.Ratio
	d.Low = d.Value - math.Sqrt(sq(a.Ratio-a.Low)+sq(b.High-b.Ratio))
	d.High = d.Value + math.Sqrt(sq(a.High-a.Ratio)+sq(b.Ratio-b.Low))
	return d
}

func sq(x float64) float64 { return x * x }

// Distribution summarises whole-number answers.
type Distribution struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	// Histogram counts answers per bin, lowest first.
	Histogram []Bin `json:"histogram"`
}

// Bin is one histogram bar: answers from Low to High inclusive.
type Bin struct {
	Low   int `json:"low"`
	High  int `json:"high"`
	Count int `json:"count"`
}

// Distribute summarises values on the scale [lo, hi]: one bin per value
// when the scale has at most 11 values, otherwise ten bins of equal width
// (the last takes the top value: 90-100).
func Distribute(values []int, lo, hi int) Distribution {
	d := Distribution{N: len(values)}
	width := 1
	if hi-lo+1 > 11 {
		width = (hi - lo) / 10
	}
	for b := lo; b <= hi; b += width {
		top := b + width - 1
		if hi-top < width {
			top = hi
		}
		d.Histogram = append(d.Histogram, Bin{Low: b, High: top})
		if top == hi {
			break
		}
	}
	if len(values) == 0 {
		return d
	}
	sorted := append([]int(nil), values...)
	sort.Ints(sorted)
	sum := 0
	for _, v := range sorted {
		sum += v
		for i := range d.Histogram {
			if v >= d.Histogram[i].Low && v <= d.Histogram[i].High {
				d.Histogram[i].Count++
				break
			}
		}
	}
	d.Mean = float64(sum) / float64(len(sorted))
	m := len(sorted) / 2
	if len(sorted)%2 == 1 {
		d.Median = float64(sorted[m])
	} else {
		d.Median = float64(sorted[m-1]+sorted[m]) / 2
	}
	return d
}
