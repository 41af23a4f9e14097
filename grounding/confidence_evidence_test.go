package grounding

import (
	"math"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestEvidenceOfACall(t *testing.T) {
	t.Parallel()
	free := tools.Spec{Name: "Lookup", Params: []tools.Param{{Name: "term", Type: tools.TypeString}}}
	patterned := tools.Spec{Name: "Code", Params: []tools.Param{{Name: "code", Type: tools.TypeString, Pattern: "[A-Z]{3}"}}}
	typed := tools.Spec{Name: "Sum", Params: []tools.Param{{Name: "expr", Type: tools.TypeExpression}}}
	mixed := tools.Spec{Name: "Say", Params: []tools.Param{{Name: "text", Type: tools.TypeString}, {Name: "lang", Type: tools.TypeEnum, Enum: []string{"fr"}}}}
	optionalOnly := tools.Spec{Name: "Now", Params: []tools.Param{{Name: "zone", Type: tools.TypeString, Optional: true}}}
	doubted := &CallReading{Confidence: 0.55, Doubts: []string{"term is a clause"}}
	for _, tc := range []struct {
		name string
		t    ToolScore
		spec tools.Spec
		want Evidence
	}{
		{"no call", ToolScore{}, typed, Evidence{NoCall: true}},
		{"typed argument", ToolScore{Call: "Sum(1 + 2)", Reading: &CallReading{Confidence: 0.45, Doubts: []string{"guessed"}}}, typed, Evidence{}},
		{"free text", ToolScore{Call: `Lookup("x")`, Reading: &CallReading{Confidence: 0.92}}, free, Evidence{FreeText: true}},
		{"free text, doubted", ToolScore{Call: `Lookup("year is it")`, Reading: doubted}, free, Evidence{FreeText: true, Doubted: true}},
		{"free text, quoted", ToolScore{Call: `Lookup("quiet")`, Reading: &CallReading{Confidence: 1}}, free, Evidence{}},
		{"free text, no reading (a model's call)", ToolScore{Call: `Lookup("x")`}, free, Evidence{FreeText: true}},
		{"a pattern is no free text", ToolScore{Call: `Code("ABC")`, Reading: doubted}, patterned, Evidence{}},
		{"an enum beside the text", ToolScore{Call: `Say("hi", "fr")`, Reading: doubted}, mixed, Evidence{}},
		{"no required parameter", ToolScore{Call: "Now()"}, optionalOnly, Evidence{}},
	} {
		if got := evidenceOf(tc.t, tc.spec); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if f := doubtedText(ToolScore{Call: `Lookup("year is it")`, Reading: doubted}, free); f != 0.55 {
		t.Errorf("a doubted free text scales P by its call confidence: %v, want 0.55", f)
	}
	if f := doubtedText(ToolScore{Call: "Sum(1 + 2)", Reading: doubted}, typed); f != 1 {
		t.Errorf("doubts about a typed argument leave P as it is: %v, want 1", f)
	}
}

// The evidence terms lower the tool's confidence; the zero map is the
// identity, and a map without them is the plain Platt.
func TestApplyTool(t *testing.T) {
	t.Parallel()
	if got := (ConfidenceMap{}).ApplyTool(0.7, 8, Evidence{NoCall: true}); got != 0.7 {
		t.Errorf("zero map: %v, want 0.7", got)
	}
	plain := ConfidenceMap{Tool: Platt{A: 1, B: 0.8}}
	if got, want := plain.ApplyTool(0.7, 8, Evidence{FreeText: true}), plain.ApplyAmong(0.7, false, 8); math.Abs(got-want) > 1e-12 {
		t.Errorf("no evidence terms: %v, want the Platt's %v", got, want)
	}
	m := ConfidenceMap{Tool: Platt{A: 1, B: 0.8, NoCall: -1.5, FreeText: -0.5, Doubted: -0.2}}
	sure := m.ApplyTool(0.7, 8, Evidence{})
	free := m.ApplyTool(0.7, 8, Evidence{FreeText: true})
	doubted := m.ApplyTool(0.7, 8, Evidence{FreeText: true, Doubted: true})
	none := m.ApplyTool(0.7, 8, Evidence{NoCall: true})
	if !(sure > free && free > doubted && doubted > none) {
		t.Errorf("want sure %v > free text %v > doubted %v > no call %v", sure, free, doubted, none)
	}
	if want := sigmoid(1 + 0.8*math.Log(0.7/0.3) - 1.5); math.Abs(none-want) > 1e-12 {
		t.Errorf("no call: %v, want %v", none, want)
	}
}

// fitLogistic recovers the coefficients of data drawn from a logistic
// model, and stays at the prior when there is nothing to fit.
func TestFitLogisticRecoversCoefficients(t *testing.T) {
	t.Parallel()
	truth := []float64{0.5, 1.2, -2}
	var xs [][]float64
	var ys, ws []float64
	// Every cell of a grid, weighted by the model's probability of y.
	for a := -3.0; a <= 3; a += 0.25 {
		for _, b := range []float64{0, 1} {
			x := []float64{1, a, b}
			p := sigmoid(truth[0] + truth[1]*a + truth[2]*b)
			xs, ys, ws = append(xs, x, x), append(ys, 1, 0), append(ws, 50*p, 50*(1-p))
		}
	}
	th := fitLogistic(xs, ys, ws, []float64{0, 1, 0})
	for i := range truth {
		if math.Abs(th[i]-truth[i]) > 0.05 {
			t.Errorf("θ = %v, want about %v", th, truth)
			break
		}
	}
	if th := fitLogistic(nil, nil, nil, []float64{0, 1, 0}); th[0] != 0 || th[1] != 1 || th[2] != 0 {
		t.Errorf("no data: θ = %v, want the prior", th)
	}
	if _, ok := solveLinear([][]float64{{1, 2}, {2, 4}}, []float64{1, 2}); ok {
		t.Error("a singular system should not solve")
	}
}

// Half-balanced label weights lie between the file's mix and full
// balance, with mean weight 1.
func TestLabelWeightsPow(t *testing.T) {
	t.Parallel()
	var preds []Prediction
	for range 9 {
		preds = append(preds, Prediction{Item: Item{Tool: None}})
	}
	preds = append(preds, Prediction{Item: Item{Tool: "calc"}})
	for _, alpha := range []float64{0, 0.5, 1} {
		w := labelWeightsPow(preds, alpha)
		sum := 0.0
		for _, v := range w {
			sum += v
		}
		if math.Abs(sum-float64(len(preds))) > 1e-9 {
			t.Errorf("alpha %v: weights sum to %v, want %d", alpha, sum, len(preds))
		}
		ratio := w[9] / w[0]
		if want := math.Pow(9, alpha); math.Abs(ratio-want) > 1e-9 {
			t.Errorf("alpha %v: a calc query weighs %v none queries, want %v", alpha, ratio, want)
		}
	}
	full, balanced := labelWeightsPow(preds, 1), labelWeights(preds)
	for i := range full {
		if math.Abs(full[i]-balanced[i]) > 1e-9 {
			t.Fatalf("alpha 1 should be labelWeights: %v vs %v", full, balanced)
		}
	}
}
