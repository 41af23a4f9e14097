package grounding

import (
	"errors"
	"math"
)

// Confidence. GEAR picks argmax f_i; the user also sees how sure that is.
// A raw f is not a probability (its scale depends on the encoder and on
// P's priors), so the scores go through a softmax with a temperature T over
// the tools AND a "none" candidate with a constant score f_∅:
//
//	p_i = exp(f_i/T) / (exp(f_∅/T) + Σ_k exp(f_k/T)),   p_∅ likewise.
//
// f_∅ is the score a tool must beat to be likelier than no tool at all, so
// "none" is a first-class answer of the same decision. T and f_∅ are fitted
// by maximum likelihood (minimum log loss) on labelled queries — FitCalibration
// — which makes the probabilities calibrated: of the choices made with
// confidence 0.8, about 80% are right (measured as ECE by gear eval).

// probabilities returns p_∅ and each tool's p_i.
func probabilities(scores []float64, noneScore, temperature float64) (pNone float64, p []float64) {
	maxv := noneScore
	for _, f := range scores {
		maxv = math.Max(maxv, f)
	}
	eNone := math.Exp((noneScore - maxv) / temperature)
	z := eNone
	e := make([]float64, len(scores))
	for i, f := range scores {
		e[i] = math.Exp((f - maxv) / temperature)
		z += e[i]
	}
	for i := range e {
		e[i] /= z
	}
	return eNone / z, e
}

// Labelled is one query's scores with the index of the right answer, for
// fitting: Gold[i] says whether tool i's family is an accepted label, and
// NoneOK whether "none" is.
type Labelled struct {
	Scores []float64
	Gold   []bool
	NoneOK bool
}

// Calibration is a fitted temperature and none score.
type Calibration struct {
	Temperature float64 `json:"temperature"`
	NoneScore   float64 `json:"none_score"`
	// LogLoss is the mean negative log probability of the accepted
	// answers at the fit.
	LogLoss float64 `json:"log_loss"`
}

// FitCalibration finds the temperature and none score that minimise the
// mean log loss of the accepted answers (the probability mass on all
// accepted labels, since a query may accept several). The loss is smooth in
// both, so a coarse grid followed by a finer one is enough and keeps the
// fit deterministic.
func FitCalibration(data []Labelled) (Calibration, error) {
	if len(data) == 0 {
		return Calibration{}, errors.New("grounding: nothing to fit calibration on")
	}
	loss := func(t, f0 float64) float64 {
		var sum float64
		for _, d := range data {
			pn, p := probabilities(d.Scores, f0, t)
			mass := 0.0
			if d.NoneOK {
				mass += pn
			}
			for i, ok := range d.Gold {
				if ok {
					mass += p[i]
				}
			}
			sum -= math.Log(math.Max(mass, 1e-12))
		}
		return sum / float64(len(data))
	}
	best := Calibration{LogLoss: math.Inf(1)}
	search := func(tLo, tHi, fLo, fHi float64, steps int) {
		for a := 0; a <= steps; a++ {
			// Temperatures on a log scale, none scores on a linear one.
			t := tLo * math.Pow(tHi/tLo, float64(a)/float64(steps))
			for b := 0; b <= steps; b++ {
				f0 := fLo + (fHi-fLo)*float64(b)/float64(steps)
				if l := loss(t, f0); l < best.LogLoss {
					best = Calibration{Temperature: t, NoneScore: f0, LogLoss: l}
				}
			}
		}
	}
	search(0.005, 2, -0.5, 2, 40)
	for i := 0; i < 3; i++ {
		t, f0 := best.Temperature, best.NoneScore
		span := 0.1 / math.Pow(4, float64(i))
		search(t*math.Exp(-span*4), t*math.Exp(span*4), f0-span, f0+span, 20)
	}
	best.Temperature = round(best.Temperature, 4)
	best.NoneScore = round(best.NoneScore, 4)
	best.LogLoss = loss(best.Temperature, best.NoneScore)
	return best, nil
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
