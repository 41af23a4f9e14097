package cli

import (
	"hash/crc32"
	"math"
	"strings"

	"github.com/gear-chat/gear/grounding"
)

// heldOut puts one query in four in the held-out set, by a hash of its
// text (case and spacing ignored), so a repeated query is on one side.
func heldOut(query string) bool {
	norm := strings.Join(strings.Fields(strings.ToLower(query)), " ")
	return crc32.ChecksumIEEE([]byte(norm))%4 == 0
}

// rescore re-weighs each tool's final score with another gamma.
func rescore(preds []grounding.Prediction, gamma float64) []grounding.Prediction {
	out := make([]grounding.Prediction, len(preds))
	for i, p := range preds {
		q := p
		q.Scores = make([]grounding.ScoreLine, len(p.Scores))
		for k, s := range p.Scores {
			s.F = gamma*s.S + (1-gamma)*s.P
			q.Scores[k] = s
		}
		out[i] = q
	}
	return out
}

// evaluate re-decides the predictions under the parameters and scores
// them.
func evaluate(preds []grounding.Prediction, p tuneParams) tuneScore {
	rep := grounding.Summarize(grounding.RedecideWith(rescore(preds, p.Gamma), p.decision()))
	return tuneScore{N: rep.N, Accuracy: rep.Accuracy, MeanRecall: meanRecall(rep), MacroF1: rep.MacroF1, ECE: rep.ECE}
}

func meanRecall(rep grounding.Report) float64 {
	if len(rep.PerLabel) == 0 {
		return 0
	}
	var sum float64
	for _, st := range rep.PerLabel {
		sum += st.Recall
	}
	return sum / float64(len(rep.PerLabel))
}

// gammaSample bounds the dev-file queries the gamma search fits on (every
// one from the history is used); the final calibration uses them all.
const gammaSample = 800

// fitParams searches gamma on a grid of 0.1, then 0.05 around the best:
// at each, the calibration is fitted by log loss and the threshold by
// mean recall; the gamma with the best mean recall wins, lower log loss
// then nearness to the current gamma breaking ties.
func fitParams(train []grounding.Prediction, current float64) (tuneParams, error) {
	sample := sampleForGamma(train)
	type trial struct {
		p       tuneParams
		recall  float64
		logLoss float64
	}
	tried := map[int]trial{}
	try := func(step int) (trial, error) {
		if t, ok := tried[step]; ok {
			return t, nil
		}
		gamma := float64(step) / 20
		r := rescore(sample, gamma)
		cal, err := grounding.FitCalibration(grounding.CalibrationData(r))
		if err != nil {
			return trial{}, err
		}
		th := grounding.FitThreshold(r, cal.Temperature, cal.NoneScore)
		p := tuneParams{Gamma: gamma, Threshold: th, Temperature: cal.Temperature, NoneScore: cal.NoneScore}
		t := trial{p: p, recall: evaluate(sample, p).MeanRecall, logLoss: cal.LogLoss}
		tried[step] = t
		return t, nil
	}
	better := func(a, b trial) bool {
		if math.Abs(a.recall-b.recall) > 1e-9 {
			return a.recall > b.recall
		}
		if math.Abs(a.logLoss-b.logLoss) > 1e-9 {
			return a.logLoss < b.logLoss
		}
		return math.Abs(a.p.Gamma-current) < math.Abs(b.p.Gamma-current)
	}
	var best trial
	bestStep := -1
	consider := func(step int) error {
		if step < 0 || step > 20 {
			return nil
		}
		t, err := try(step)
		if err != nil {
			return err
		}
		if bestStep < 0 || better(t, best) {
			best, bestStep = t, step
		}
		return nil
	}
	for step := 0; step <= 20; step += 2 {
		if err := consider(step); err != nil {
			return tuneParams{}, err
		}
	}
	center := bestStep
	for _, step := range []int{center - 1, center + 1} {
		if err := consider(step); err != nil {
			return tuneParams{}, err
		}
	}
	if len(sample) == len(train) {
		return withConfidenceMap(train, best.p), nil
	}
	// The gamma was chosen on a sample: fit the rest on every query.
	r := rescore(train, best.p.Gamma)
	cal, err := grounding.FitCalibration(grounding.CalibrationData(r))
	if err != nil {
		return tuneParams{}, err
	}
	th := grounding.FitThreshold(r, cal.Temperature, cal.NoneScore)
	return withConfidenceMap(train, tuneParams{Gamma: best.p.Gamma, Threshold: th, Temperature: cal.Temperature, NoneScore: cal.NoneScore}), nil
}

// withConfidenceMap fits the confidence map on the decisions p makes
// (the map changes no decision, so gamma, the calibration and the
// threshold are chosen without it).
func withConfidenceMap(train []grounding.Prediction, p tuneParams) tuneParams {
	p.Confidence = grounding.FitConfidenceMap(grounding.Redecide(rescore(train, p.Gamma), p.Temperature, p.NoneScore, p.Threshold))
	return p
}

// sampleForGamma keeps every history query and at most gammaSample of
// the others, evenly spaced.
func sampleForGamma(train []grounding.Prediction) []grounding.Prediction {
	var history, other []grounding.Prediction
	for _, p := range train {
		if p.Source == "history" {
			history = append(history, p)
		} else {
			other = append(other, p)
		}
	}
	if len(other) <= gammaSample {
		return train
	}
	out := history
	for i := 0; i < gammaSample; i++ {
		out = append(out, other[i*len(other)/gammaSample])
	}
	return out
}
