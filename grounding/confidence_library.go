package grounding

import (
	"math"
	"sort"
)

// LibraryFit is the fit of Options.LibraryConfidence on tool libraries'
// labelled queries: every other decision of each set fits, the rest are
// held out. Raw has each half's decisions with the softmax share as the
// confidence, Mapped with the fitted map's.
type LibraryFit struct {
	// None is the none model (FitLibraryNone), fitted on every decision;
	// the confidence map is fitted on the decisions it re-makes.
	// CrossValidation has each set's figures with both fitted without it.
	None                     NoneModel
	CrossValidation          []NoneCrossValidation
	Confidence               ConfidenceMap
	Fit, HeldOut             []Prediction
	FitMapped, HeldOutMapped []Prediction
}

// FitLibrary fits the none model on the sets' decisions, re-makes them
// with it, and fits the confidence map on those (FitLibraryConfidence);
// predictions are made with the identity library map and no none model.
func FitLibrary(sets map[string][]LibraryPrediction) LibraryFit {
	m := FitLibraryNone(sets)
	redecided := map[string][]LibraryPrediction{}
	for name, preds := range sets {
		redecided[name] = RedecideLibrary(preds, m)
	}
	f := FitLibraryConfidence(redecided)
	f.None = m
	f.CrossValidation = CrossValidateLibraryNone(sets)
	return f
}

// FitLibraryConfidence fits the confidence map of decisions among tools
// scored by library relevance, from predictions made with the identity
// map (their Confidence is the softmax share), keyed by set name. Only
// decisions whose best tool was scored by library relevance count. Each
// side (none, a tool) is a logistic regression of "right" on logit(share)
// and ln(tools judged among), every set weighing alike, so that the
// largest set does not decide the map alone; a weak ridge pulls towards
// the identity.
func FitLibraryConfidence(sets map[string][]LibraryPrediction) LibraryFit {
	names := make([]string, 0, len(sets))
	for name := range sets {
		names = append(names, name)
	}
	sort.Strings(names)
	type decision struct {
		p  Prediction
		of int
	}
	var fit, held []decision
	for _, name := range names {
		k := 0
		for _, lp := range sets[name] {
			if !lp.ByLibrary {
				continue
			}
			predicted := lp.Choice
			if predicted != None {
				predicted = "tool"
			}
			d := decision{Prediction{Item: Item{ID: lp.ID, Query: lp.Query, Tool: name}, Predicted: predicted,
				Choice: lp.Choice, Confidence: lp.Confidence, Correct: lp.Correct}, max(lp.Of, 1)}
			if k%2 == 0 {
				fit = append(fit, d)
			} else {
				held = append(held, d)
			}
			k++
		}
	}
	var f LibraryFit
	for _, d := range fit {
		f.Fit = append(f.Fit, d.p)
	}
	for _, d := range held {
		f.HeldOut = append(f.HeldOut, d.p)
	}
	w := labelWeights(f.Fit) // Item.Tool is the set's name: sets weigh alike
	side := func(none bool) Platt {
		var xs [][3]float64
		var ys, ws []float64
		for i, d := range fit {
			if (d.p.Predicted == None) != none {
				continue
			}
			c := math.Min(math.Max(d.p.Confidence, 1e-9), 1-1e-9)
			xs = append(xs, [3]float64{1, math.Log(c / (1 - c)), math.Log(float64(d.of))})
			y := 0.0
			if d.p.Correct {
				y = 1
			}
			ys, ws = append(ys, y), append(ws, w[i])
		}
		if len(xs) == 0 {
			return Platt{}
		}
		return fitPlattAmong(xs, ys, ws)
	}
	f.Confidence = ConfidenceMap{None: side(true), Tool: side(false)}
	mapped := func(ds []decision) []Prediction {
		out := make([]Prediction, len(ds))
		for i, d := range ds {
			out[i] = d.p
			out[i].Confidence = f.Confidence.ApplyAmong(d.p.Confidence, d.p.Predicted == None, d.of)
		}
		return out
	}
	f.FitMapped, f.HeldOutMapped = mapped(fit), mapped(held)
	return f
}

// fitPlattAmong minimises Σ w·logloss(σ(θ·x), y) + ridge·|θ − (0, 1, 0)|²
// over x = (1, logit share, ln n) by damped Newton steps, as fitPlatt.
func fitPlattAmong(xs [][3]float64, ys, ws []float64) Platt {
	const ridge = 1.0
	prior := [3]float64{0, 1, 0}
	th := prior
	for it := 0; it < 300; it++ {
		var g [3]float64
		var h [3][3]float64
		for i := range 3 {
			g[i] = ridge * (th[i] - prior[i])
			h[i][i] = ridge
		}
		for k, x := range xs {
			p := sigmoid(th[0]*x[0] + th[1]*x[1] + th[2]*x[2])
			r := p - ys[k]
			for i := range 3 {
				g[i] += ws[k] * r * x[i]
				for j := range 3 {
					h[i][j] += ws[k] * p * (1 - p) * x[i] * x[j]
				}
			}
		}
		d, ok := solve3(h, g)
		if !ok {
			break
		}
		step := math.Abs(d[0]) + math.Abs(d[1]) + math.Abs(d[2])
		if step > 1 {
			for i := range d {
				d[i] /= step
			}
		}
		for i := range th {
			th[i] -= d[i]
		}
		if step < 1e-10 {
			break
		}
	}
	return Platt{A: th[0], B: th[1], C: th[2]}
}

// solve3 solves h·d = g by Gaussian elimination (h is positive definite:
// a Hessian plus the ridge).
func solve3(h [3][3]float64, g [3]float64) ([3]float64, bool) {
	var d [3]float64
	for i := range 3 {
		if h[i][i] <= 0 {
			return d, false
		}
		for j := i + 1; j < 3; j++ {
			f := h[j][i] / h[i][i]
			for k := i; k < 3; k++ {
				h[j][k] -= f * h[i][k]
			}
			g[j] -= f * g[i]
		}
	}
	for i := 2; i >= 0; i-- {
		sum := g[i]
		for k := i + 1; k < 3; k++ {
			sum -= h[i][k] * d[k]
		}
		d[i] = sum / h[i][i]
	}
	return d, true
}
