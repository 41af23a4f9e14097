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

// The confidence the user sees. The softmax share of the choice is what
// the decision rests on, but it is calibrated for the dev file's mix of
// labels: three queries in four need no tool there, so a "none" choice is
// right 98% of the time whatever the query, and the fitted p_∅ says so.
// On queries from other sources the engine fails more often in exactly
// that direction (a needed tool it could not read routed to none), and a
// p_∅ of 0.98 is then a wrong number at 98%. gear cannot know the mix of
// its users' traffic, so the confidence is calibrated for a mix in which
// every label is as common as any other: a Platt map per side of the
// decision (none chosen, a tool chosen), fitted by log loss of "the choice
// was right" with each gold label's queries weighing alike in total. The
// decision itself (which tool, or none) does not change; only how sure it
// is said to be.

// Platt maps a probability x to σ(A + B·logit x + C·ln n), n the number
// of tools the choice was made among (C is 0 but in the library map: a
// share among thousands of tools means more than the same share among
// ten). The zero Platt is the identity.
type Platt struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
	C float64 `json:"c,omitempty"`
	// NoCall and FreeText weigh the chosen tool's Evidence (tool side
	// only; ApplyTool): added to the logit when it holds.
	NoCall   float64 `json:"no_call,omitempty"`
	FreeText float64 `json:"free_text,omitempty"`
	Doubted  float64 `json:"doubted,omitempty"`
}

// Apply maps x.
func (m Platt) Apply(x float64) float64 { return m.ApplyAmong(x, 1) }

// ApplyAmong maps x, a share among n tools.
func (m Platt) ApplyAmong(x float64, n int) float64 {
	if m == (Platt{}) {
		return x
	}
	x = math.Min(math.Max(x, 1e-9), 1-1e-9)
	return sigmoid(m.A + m.B*math.Log(x/(1-x)) + m.C*math.Log(float64(max(n, 1))))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// ConfidenceMap turns the choice's softmax share into its confidence:
// None maps p_∅ when none is chosen, Tool the tool's p_i when a tool is.
// The zero map is the identity.
type ConfidenceMap struct {
	None Platt `json:"none"`
	Tool Platt `json:"tool"`
}

// Apply maps a choice's share; none says the choice is none.
func (m ConfidenceMap) Apply(share float64, none bool) float64 { return m.ApplyAmong(share, none, 1) }

// ApplyAmong maps the share of a choice made among n tools.
func (m ConfidenceMap) ApplyAmong(share float64, none bool, n int) float64 {
	if none {
		return clamp01(m.None.ApplyAmong(share, n))
	}
	return clamp01(m.Tool.ApplyAmong(share, n))
}

// Decision is what turns a query's final scores into a choice and its
// confidence when the threshold routes.
type Decision struct {
	Temperature float64       `json:"temperature"`
	NoneScore   float64       `json:"none_score"`
	Threshold   float64       `json:"threshold"`
	Confidence  ConfidenceMap `json:"confidence"`
}

// toolBalance is how far the tool side's fit balances the labels.
const toolBalance = 0.5

// labelWeightsPow weighs each prediction by its gold label's count to the
// power −alpha, scaled to a mean weight 1: alpha 1 is labelWeights, 0 the
// file's own mix.
func labelWeightsPow(preds []Prediction, alpha float64) []float64 {
	count := map[string]int{}
	for _, p := range preds {
		count[p.Tool]++
	}
	w := make([]float64, len(preds))
	sum := 0.0
	for i, p := range preds {
		w[i] = math.Pow(float64(count[p.Tool]), -alpha)
		sum += w[i]
	}
	for i := range w {
		w[i] *= float64(len(preds)) / sum
	}
	return w
}

// labelWeights gives each prediction the weight that makes every gold
// label's predictions weigh alike in total (mean weight 1).
func labelWeights(preds []Prediction) []float64 {
	count := map[string]int{}
	for _, p := range preds {
		count[p.Tool]++
	}
	w := make([]float64, len(preds))
	for i, p := range preds {
		w[i] = float64(len(preds)) / float64(len(count)*count[p.Tool])
	}
	return w
}

// FitConfidenceMap fits the map on decisions made with the identity map
// (their Confidence is the softmax share): each side by weighted logistic
// regression of Correct on logit(share) — and, on the tool side, on the
// chosen tool's Evidence — the weights those of labelWeights. A weak ridge pulls (A, B) towards the identity (0, 1), so
// a side with few or separable examples stays near it.
func FitConfidenceMap(preds []Prediction) ConfidenceMap {
	w := labelWeights(preds)
	wt := labelWeightsPow(preds, toolBalance)
	tool := func() Platt {
		var xs [][]float64
		var ys, ws []float64
		for i, p := range preds {
			if p.Predicted == None {
				continue
			}
			c := math.Min(math.Max(p.Confidence, 1e-9), 1-1e-9)
			noCall, freeText, doubted := p.Evidence.terms()
			xs = append(xs, []float64{1, math.Log(c / (1 - c)), noCall, freeText, doubted})
			y := 0.0
			if p.Correct {
				y = 1
			}
			ys, ws = append(ys, y), append(ws, wt[i])
		}
		if len(xs) == 0 {
			return Platt{}
		}
		th := fitLogistic(xs, ys, ws, []float64{0, 1, 0, 0, 0})
		return Platt{A: round(th[0], 4), B: round(th[1], 4), NoCall: round(th[2], 4), FreeText: round(th[3], 4), Doubted: round(th[4], 4)}
	}
	side := func(none bool) Platt {
		var xs, ys, ws []float64
		for i, p := range preds {
			if (p.Predicted == None) != none {
				continue
			}
			c := math.Min(math.Max(p.Confidence, 1e-9), 1-1e-9)
			xs = append(xs, math.Log(c/(1-c)))
			y := 0.0
			if p.Correct {
				y = 1
			}
			ys, ws = append(ys, y), append(ws, w[i])
		}
		if len(xs) == 0 {
			return Platt{}
		}
		return fitPlatt(xs, ys, ws)
	}
	return ConfidenceMap{None: side(true), Tool: tool()}
}

// fitPlatt minimises Σ w·logloss(σ(a + b·x), y) + ridge·(a² + (b−1)²) by
// damped Newton steps; deterministic, and convex, so one start is enough.
func fitPlatt(xs, ys, ws []float64) Platt {
	const ridge = 1.0
	a, b := 0.0, 1.0
	for it := 0; it < 200; it++ {
		ga, gb := ridge*a, ridge*(b-1)
		haa, hab, hbb := ridge, 0.0, ridge
		for i, x := range xs {
			p := sigmoid(a + b*x)
			r := p - ys[i]
			ga += ws[i] * r
			gb += ws[i] * r * x
			h := ws[i] * p * (1 - p)
			haa += h
			hab += h * x
			hbb += h * x * x
		}
		det := haa*hbb - hab*hab
		if det <= 0 {
			break
		}
		da, db := (hbb*ga-hab*gb)/det, (haa*gb-hab*ga)/det
		if step := math.Abs(da) + math.Abs(db); step > 1 {
			da, db = da/step, db/step
		}
		a, b = a-da, b-db
		if math.Abs(da)+math.Abs(db) < 1e-12 {
			break
		}
	}
	return Platt{A: round(a, 4), B: round(b, 4)}
}

// Shipped is the fit of the constants gear ships (package calibration):
// on every other prediction, starting with the first, the temperature and
// none score by log loss (FitCalibration), then the routing threshold by
// mean recall (FitThreshold), then the confidence map (FitConfidenceMap).
// The other half is held out.
type Shipped struct {
	Decision
	Fit, HeldOut []Prediction `json:"-"`
	LogLoss      float64      `json:"log_loss"`
}

// FitShipped runs that fit.
func FitShipped(preds []Prediction) (Shipped, error) {
	var s Shipped
	for i, p := range preds {
		if i%2 == 0 {
			s.Fit = append(s.Fit, p)
		} else {
			s.HeldOut = append(s.HeldOut, p)
		}
	}
	cal, err := FitCalibration(CalibrationData(s.Fit))
	if err != nil {
		return s, err
	}
	s.Temperature, s.NoneScore, s.LogLoss = cal.Temperature, cal.NoneScore, cal.LogLoss
	s.Threshold = FitThreshold(s.Fit, cal.Temperature, cal.NoneScore)
	s.Confidence = FitConfidenceMap(Redecide(s.Fit, cal.Temperature, cal.NoneScore, s.Threshold))
	return s, nil
}

// ECE is the expected calibration error of preds (ECEBins equal bins).
func ECE(preds []Prediction) float64 { return expectedCalibrationError(preds) }
