package grounding

import (
	"fmt"
	"math"
	"testing"
)

func TestNoneModelOff(t *testing.T) {
	t.Parallel()
	if (NoneModel{}).On() {
		t.Error("the zero none model should be off")
	}
	if !(NoneModel{W: [noneDims]float64{1}}).On() {
		t.Error("a model with a weight should be on")
	}
}

// TestApplyNoneModelKeepsShares: the tools keep their shares among
// themselves; "none" takes the model's probability that no tool is
// needed; the threshold decides.
func TestApplyNoneModelKeepsShares(t *testing.T) {
	t.Parallel()
	m := NoneModel{W: [noneDims]float64{0, 0, 4}, Threshold: 0.5} // σ(4·plain)
	ev := NoneEvidence{Words: WordEvidence{Plain: 0.5, Legible: 1}}
	p := []float64{0.3, 0.1}
	pNone, needs := applyNoneModel(m, ev, 0.6, p)
	need := sigmoid(2)
	if math.Abs(pNone-(1-need)) > 1e-12 || !needs {
		t.Errorf("pNone = %v, needs %v; want %v, true", pNone, needs, 1-need)
	}
	if math.Abs(p[0]/p[1]-3) > 1e-9 || math.Abs(p[0]+p[1]+pNone-1) > 1e-9 {
		t.Errorf("tool shares %v should keep their ratio and sum with none to 1", p)
	}
	m.Threshold = 0.95
	if _, needs := applyNoneModel(m, ev, 0.6, []float64{0.3, 0.1}); needs {
		t.Error("below the threshold the model should abstain")
	}
}

// syntheticSet makes a set's predictions: tool items whose best tool has
// most of the query's words, none items whose best tool has few, with
// some overlap.
func syntheticSet(name string, tools, nones int, shift float64) []LibraryPrediction {
	var out []LibraryPrediction
	for i := range tools + nones {
		it := LibraryItem{ID: fmt.Sprintf("%s_%d", name, i), Query: "q", Tool: "t1"}
		plain := 0.45 + 0.5*float64(i%20)/20 + shift
		if i >= tools {
			it.Tool = None
			plain = 0.05 + 0.5*float64(i%20)/20 + shift
		}
		out = append(out, LibraryPrediction{LibraryItem: it, Ranked: []string{"t1"}, Of: 5, ByLibrary: true, Share: 0.8,
			Evidence: &NoneEvidence{S: plain, Words: WordEvidence{Plain: plain, Legible: 1}, Call: 1, Need: 0.5, Tools: 5}})
	}
	return out
}

// TestFitLibraryNone: the fit separates the sets' none items from their
// tool items, and its threshold holds every set's false abstention to
// NoneFalseAbstention, the harder set's included.
func TestFitLibraryNone(t *testing.T) {
	t.Parallel()
	sets := map[string][]LibraryPrediction{
		"easy": syntheticSet("easy", 200, 50, 0.1),
		"hard": syntheticSet("hard", 100, 100, 0),
	}
	m := FitLibraryNone(sets)
	if !m.On() || m.W[2] <= 0 {
		t.Fatalf("the fit should weigh the share of words the tool has up: %+v", m)
	}
	for name, preds := range sets {
		r := SummarizeLibrary(RedecideLibrary(preds, m))
		if r.FalseAbstainRate > NoneFalseAbstention+1e-9 {
			t.Errorf("%s: false abstention %.3f above %.2f", name, r.FalseAbstainRate, NoneFalseAbstention)
		}
		if r.AbstainRate < 0.3 {
			t.Errorf("%s: abstains on only %.3f of the none items", name, r.AbstainRate)
		}
	}
	if got := FitLibraryNone(map[string][]LibraryPrediction{"none": {{LibraryItem: LibraryItem{Tool: "t"}}}}); got.On() {
		t.Errorf("without evidence there is nothing to fit: %+v", got)
	}
}

// TestRedecideLibrary: a prediction without evidence keeps its choice; one
// with evidence takes the model's, and its confidence is the model's
// probability (times the share for a tool).
func TestRedecideLibrary(t *testing.T) {
	t.Parallel()
	m := NoneModel{W: [noneDims]float64{0, 0, 4}, Threshold: 0.5}
	keep := LibraryPrediction{LibraryItem: LibraryItem{Tool: "a"}, Choice: "a", Confidence: 0.7, Correct: true}
	low := LibraryPrediction{LibraryItem: LibraryItem{Tool: None}, Choice: "a", Ranked: []string{"a"}, Share: 0.9,
		Evidence: &NoneEvidence{Words: WordEvidence{Plain: -1, Legible: 1}}}
	high := LibraryPrediction{LibraryItem: LibraryItem{Tool: "a"}, Choice: None, Ranked: []string{"a"}, Share: 0.5,
		Evidence: &NoneEvidence{Words: WordEvidence{Plain: 1, Legible: 1}}}
	got := RedecideLibrary([]LibraryPrediction{keep, low, high}, m)
	if got[0].Choice != "a" || got[0].Confidence != 0.7 {
		t.Errorf("no evidence: %+v", got[0])
	}
	if got[1].Choice != None || !got[1].Correct || math.Abs(got[1].Confidence-(1-sigmoid(-4))) > 1e-12 {
		t.Errorf("low fit: %+v", got[1])
	}
	if got[2].Choice != "a" || !got[2].Correct || math.Abs(got[2].Confidence-sigmoid(4)*0.5) > 1e-12 {
		t.Errorf("high fit: %+v", got[2])
	}
}

func TestNoneEvidenceString(t *testing.T) {
	t.Parallel()
	e := NoneEvidence{Words: WordEvidence{Plain: 0.25, MissingTop: 1, Legible: 0.5}, Required: 2, Values: 1}
	want := "best tool has 25% of the query's words, lacks the query's rarest word; 2 required parameter(s), 1 value(s) stated; 50% of the query unreadable"
	if got := e.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
