package grounding

import (
	"math"
	"strings"
	"testing"
)

func TestReadItems(t *testing.T) {
	good := `{"query": "what is 2 plus 2", "tool": "calc"}

{"id": "x-1", "query": "who invented the internet", "tool": "none", "also": ["wiki"], "source": "X"}
`
	items, err := ReadItems(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[1].Source != "X" || !items[1].Accepts("wiki") || !items[1].Accepts(None) || items[1].Accepts("calc") {
		t.Errorf("items %+v", items)
	}
	bad := []struct{ text, want string }{
		{`{"query": "a", "tool": "calc"}` + "\n" + `{"query": "b", "tool": "music"}`, `line 2: tool "music" is not a label`},
		{`{"query": "", "tool": "calc"}`, "line 1: no query"},
		{`{"query": "a", "tool": "calc", "also": ["jokes"]}`, `line 1: also "jokes"`},
		{`{"query": "a", "tool": `, "line 1:"},
	}
	for _, b := range bad {
		if _, err := ReadItems(strings.NewReader(b.text)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: %v, want %q", b.text, err, b.want)
		}
	}
}

func pred(gold, predicted string, conf float64, also ...string) Prediction {
	p := Prediction{Item: Item{Query: "q", Tool: gold, Also: also}, Predicted: predicted, Confidence: conf}
	p.Correct = p.Accepts(predicted)
	return p
}

func TestSummarize(t *testing.T) {
	preds := []Prediction{
		pred("calc", "calc", 0.9),
		pred("calc", None, 0.6),
		pred(None, None, 0.8),
		pred(None, "wiki", 0.7, "wiki"), // accepted by "also"
		pred(None, "location", 0.55),
		pred("wiki", "wiki", 0.65),
	}
	for i := range preds {
		preds[i].MS = float64(i + 1)
	}
	r := Summarize(preds)
	if r.N != 6 || math.Abs(r.Accuracy-4.0/6) > 1e-12 {
		t.Errorf("n %d accuracy %v", r.N, r.Accuracy)
	}
	// calc: 1 of 2 recalled; 1 of 1 calc prediction right.
	if c := r.PerLabel["calc"]; c.N != 2 || c.Recall != 0.5 || c.Precision != 1 || math.Abs(c.F1-2.0/3) > 1e-12 {
		t.Errorf("calc %+v", c)
	}
	// none: 2 of 3 recalled (the "also" one counts); of 2 none predictions 1 right.
	if n := r.PerLabel[None]; n.N != 3 || math.Abs(n.Recall-2.0/3) > 1e-12 || n.Precision != 0.5 {
		t.Errorf("none %+v", n)
	}
	// wiki: both wiki predictions right (one by "also").
	if w := r.PerLabel["wiki"]; w.N != 1 || w.Recall != 1 || w.Precision != 1 || w.F1 != 1 {
		t.Errorf("wiki %+v", w)
	}
	if _, ok := r.PerLabel["location"]; ok {
		t.Error("location is not a gold label here")
	}
	wantF1 := (2.0/3 + 2*0.5*(2.0/3)/(0.5+2.0/3) + 1) / 3
	if math.Abs(r.MacroF1-wantF1) > 1e-12 {
		t.Errorf("macro-F1 %v, want %v", r.MacroF1, wantF1)
	}
	if r.Confusion[None]["location"] != 1 || r.Confusion[None]["wiki"] != 1 || r.Confusion["calc"][None] != 1 {
		t.Errorf("confusion %v", r.Confusion)
	}
	if r.MSPerQuery.P50 != 3 || r.MSPerQuery.P95 != 6 {
		t.Errorf("ms %+v", r.MSPerQuery)
	}
	// ECE by hand, bins [0.5, 0.6) ... [0.9, 1]: {0.55 wrong}, {0.6 wrong,
	// 0.65 right}, {0.7 right}, {0.8 right}, {0.9 right}.
	ece := (math.Abs(0-0.55) + math.Abs(1-1.25) + math.Abs(1-0.7) + math.Abs(1-0.8) + math.Abs(1-0.9)) / 6
	if math.Abs(r.ECE-ece) > 1e-12 {
		t.Errorf("ECE %v, want %v", r.ECE, ece)
	}
	if empty := Summarize(nil); empty.N != 0 || empty.PerLabel == nil {
		t.Errorf("empty %+v", empty)
	}
}

func TestRedecideAndFitThreshold(t *testing.T) {
	mk := func(gold string, f float64) Prediction {
		return Prediction{Item: Item{Query: "q", Tool: gold}, Scores: []ScoreLine{{Tool: "Calc", Family: "calc", F: f}}}
	}
	preds := []Prediction{mk("calc", 0.6), mk("calc", 0.5), mk(None, 0.2), mk(None, 0.1), mk(None, 0.45)}
	got := Redecide(preds, 0.05, 0.4, 0.5)
	want := []string{"calc", "calc", None, None, "calc"}
	for i, p := range got {
		if p.Predicted != want[i] || p.Correct != (p.Predicted == p.Tool) || p.Confidence <= 0 || p.Confidence > 1 {
			t.Errorf("item %d: %+v, want %s", i, p, want[i])
		}
	}
	// A threshold above the 0.45 none item's need for a tool (≈0.73) and
	// below the 0.5 calc item's (≈0.88) gets every item right.
	th := FitThreshold(preds, 0.05, 0.4)
	if r := Summarize(Redecide(preds, 0.05, 0.4, th)); r.Accuracy != 1 {
		t.Errorf("threshold %v: accuracy %v", th, r.Accuracy)
	}
}
