package grounding

import (
	"math"
	"sort"
)

// FitLibraryNone fits the none model on tool libraries' labelled
// predictions, keyed by set name: a logistic regression of "the query
// needs a tool" on the best tool's NoneEvidence, every set weighing alike
// (so that the largest set does not decide alone), with a weak ridge
// towards zero on every weight but the bias. Predictions without evidence
// (the best tool not scored by library relevance) are left out.
func FitLibraryNone(sets map[string][]LibraryPrediction) NoneModel {
	return fitLibraryNoneWithout(sets, nil)
}

// fitLibraryNoneWithout is FitLibraryNone with the features whose index
// is in drop left out (their weights 0): for measuring what each adds.
func fitLibraryNoneWithout(sets map[string][]LibraryPrediction, drop []int) NoneModel {
	names := make([]string, 0, len(sets))
	for name := range sets {
		names = append(names, name)
	}
	sort.Strings(names)
	var xs [][noneDims]float64
	var ys, ws []float64
	var bySet []int // the set (index in names) of each prediction
	for n, name := range names {
		start := len(xs)
		for _, p := range sets[name] {
			if p.Evidence == nil {
				continue
			}
			y := 0.0
			if p.NeedsTool() {
				y = 1
			}
			x := p.Evidence.vector()
			for _, i := range drop {
				x[i] = 0
			}
			xs, ys, bySet = append(xs, x), append(ys, y), append(bySet, n)
		}
		for range len(xs) - start {
			ws = append(ws, 1/float64(len(xs)-start))
		}
	}
	if len(xs) == 0 {
		return NoneModel{}
	}
	// Mean weight 1 over all the predictions.
	for i := range ws {
		ws[i] *= float64(len(xs)) / float64(len(names))
	}
	m := NoneModel{W: noneFit(xs, ys, ws)}
	// The threshold holds every set's false abstention to
	// NoneFalseAbstention: the lowest of the sets' own thresholds.
	m.Threshold = 1
	for n := range names {
		var need []float64
		for k, x := range xs {
			if bySet[k] == n && ys[k] == 1 {
				need = append(need, m.needs(x))
			}
		}
		if len(need) > 0 {
			m.Threshold = math.Min(m.Threshold, quantile(need, NoneFalseAbstention))
		}
	}
	return m
}

// quantile is the value below which the share q of xs falls.
func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// noneFit fits the none model's weights: the bias free, the signals
// pulled towards zero.
func noneFit(xs [][noneDims]float64, ys, ws []float64) [noneDims]float64 {
	rows := make([][]float64, len(xs))
	for i := range xs {
		rows[i] = xs[i][:]
	}
	ridge := make([]float64, noneDims)
	ridge[0] = 1e-9 // keeps the bias's step solvable; no pull
	for i := 1; i < noneDims; i++ {
		ridge[i] = 2 * noneRidge
	}
	th := logisticFit{prior: make([]float64, noneDims), ridge: ridge, maxStep: 4, iterations: 200}.fit(rows, ys, ws)
	var w [noneDims]float64
	copy(w[:], th)
	return w
}

// noneRidge pulls the weights (not the bias) towards zero.
const noneRidge = 1.0

// RedecideLibrary re-makes each prediction's choice with the none model m,
// from its evidence, its best tool's share and its ranking, without
// grounding again; the confidence is the model's own (1 − P(needs a tool)
// for none, P(needs a tool)·share for the best tool), as grounding gives
// it to the confidence map. A prediction without evidence, or the zero
// model, keeps its choice.
func RedecideLibrary(preds []LibraryPrediction, m NoneModel) []LibraryPrediction {
	out := make([]LibraryPrediction, len(preds))
	for i, p := range preds {
		out[i] = p
		if p.Evidence == nil || !m.On() || len(p.Ranked) == 0 {
			continue
		}
		need := m.NeedsTool(*p.Evidence)
		q := &out[i]
		if need >= m.Threshold {
			q.Choice, q.Confidence = p.Ranked[0], need*p.Share
		} else {
			q.Choice, q.Confidence = None, 1-need
		}
		q.Correct = p.Accepts(q.Choice)
	}
	return out
}

// MapLibrary applies a confidence map to predictions re-made by
// RedecideLibrary (whose confidence is the identity map's).
func MapLibrary(preds []LibraryPrediction, cm ConfidenceMap) []LibraryPrediction {
	out := make([]LibraryPrediction, len(preds))
	for i, p := range preds {
		out[i] = p
		if p.ByLibrary {
			out[i].Confidence = cm.ApplyAmong(p.Confidence, p.Choice == None, max(p.Of, 1))
		}
	}
	return out
}

// NoneCrossValidation is the none model and the confidence map fitted
// without one set and judged on it.
type NoneCrossValidation struct {
	Set        string
	Model      NoneModel
	Confidence ConfidenceMap
	HeldOut    LibraryReport
}

// CrossValidateLibraryNone fits the none model and the library map on
// every set but one and reports the one left out, for each set: figures
// on a library neither was fitted on.
func CrossValidateLibraryNone(sets map[string][]LibraryPrediction) []NoneCrossValidation {
	return crossValidateLibraryNoneWithout(sets, nil)
}

func crossValidateLibraryNoneWithout(sets map[string][]LibraryPrediction, drop []int) []NoneCrossValidation {
	names := make([]string, 0, len(sets))
	for name := range sets {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []NoneCrossValidation
	for _, held := range names {
		rest := map[string][]LibraryPrediction{}
		for _, name := range names {
			if name != held {
				rest[name] = sets[name]
			}
		}
		m := fitLibraryNoneWithout(rest, drop)
		redecided := map[string][]LibraryPrediction{}
		for name, preds := range rest {
			redecided[name] = RedecideLibrary(preds, m)
		}
		cm := FitLibraryConfidence(redecided).Confidence
		out = append(out, NoneCrossValidation{Set: held, Model: m, Confidence: cm,
			HeldOut: SummarizeLibrary(MapLibrary(RedecideLibrary(sets[held], m), cm))})
	}
	return out
}
