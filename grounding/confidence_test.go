package grounding

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestProbabilities(t *testing.T) {
	pNone, p := probabilities([]float64{0.6, 0.2, 0.2}, 0.3, 0.1)
	sum := pNone
	for _, v := range p {
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("sum %v", sum)
	}
	if !(p[0] > pNone && pNone > p[1] && p[1] == p[2]) {
		t.Errorf("order: none %v, tools %v", pNone, p)
	}
	// A colder temperature sharpens, a hotter one flattens.
	_, cold := probabilities([]float64{0.6, 0.2, 0.2}, 0.3, 0.01)
	_, hot := probabilities([]float64{0.6, 0.2, 0.2}, 0.3, 10)
	if !(cold[0] > p[0] && p[0] > hot[0] && hot[0] < 0.3) {
		t.Errorf("temperature: cold %v, default %v, hot %v", cold[0], p[0], hot[0])
	}
	// Huge scores do not overflow.
	pn, big := probabilities([]float64{1e6, 1e6}, 0, 0.001)
	if math.IsNaN(pn) || math.Abs(big[0]-0.5) > 1e-12 {
		t.Errorf("overflow: %v %v", pn, big)
	}
}

// TestFitCalibrationRecovers draws labels from the calibrated softmax
// itself and checks that the fit finds the parameters it was drawn with.
func TestFitCalibrationRecovers(t *testing.T) {
	const temperature, noneScore = 0.08, 0.35
	rng := rand.New(rand.NewPCG(7, 8))
	var data []Labelled
	for i := 0; i < 4000; i++ {
		scores := []float64{rng.Float64() * 0.8, rng.Float64() * 0.8, rng.Float64() * 0.8}
		pNone, p := probabilities(scores, noneScore, temperature)
		d := Labelled{Scores: scores, Gold: make([]bool, 3)}
		u := rng.Float64()
		switch {
		case u < pNone:
			d.NoneOK = true
		case u < pNone+p[0]:
			d.Gold[0] = true
		case u < pNone+p[0]+p[1]:
			d.Gold[1] = true
		default:
			d.Gold[2] = true
		}
		data = append(data, d)
	}
	cal, err := FitCalibration(data)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(cal.Temperature-temperature) > 0.01 || math.Abs(cal.NoneScore-noneScore) > 0.02 {
		t.Errorf("fit %+v, want temperature %v and none score %v", cal, temperature, noneScore)
	}
	if _, err := FitCalibration(nil); err == nil {
		t.Error("fitting nothing succeeded")
	}
}

func TestPlattZeroIsIdentity(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{0, 0.1, 0.5, 0.99, 1} {
		if got := (Platt{}).Apply(x); got != x {
			t.Errorf("zero map of %v = %v", x, got)
		}
		if got := (ConfidenceMap{}).Apply(x, true); got != x {
			t.Errorf("zero confidence map of %v = %v", x, got)
		}
	}
}

// TestFitConfidenceMapWeighsLabelsAlike: 90 "none" queries chosen none and
// right, 10 calc queries chosen none and wrong, all at 0.99. Counted as
// they come, a none choice is right 90% of the time; with each label
// weighing alike, 2 in 3 — what a mix of equally common labels would see.
func TestFitConfidenceMapWeighsLabelsAlike(t *testing.T) {
	t.Parallel()
	var preds []Prediction
	for i := 0; i < 90; i++ {
		preds = append(preds, Prediction{Item: Item{Tool: None}, Predicted: None, Confidence: 0.99, Correct: true})
	}
	for i := 0; i < 10; i++ {
		preds = append(preds, Prediction{Item: Item{Tool: "calc"}, Predicted: None, Confidence: 0.99})
		preds = append(preds, Prediction{Item: Item{Tool: "calc"}, Predicted: "calc", Confidence: 0.9, Correct: true})
	}
	m := FitConfidenceMap(preds)
	if got := m.Apply(0.99, true); got < 0.6 || got > 0.75 {
		t.Errorf("none at 0.99 maps to %.3f, want about 2/3 (map %+v)", got, m)
	}
	if got := m.Apply(0.9, false); got < 0.9 {
		t.Errorf("calc at 0.9, always right, maps to %.3f, want higher (map %+v)", got, m)
	}
	if m2 := FitConfidenceMap(preds); m2 != m {
		t.Errorf("the fit is not deterministic: %+v then %+v", m, m2)
	}
}
