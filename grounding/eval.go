package grounding

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// isLabel reports whether s is a family a labelled line may name: the
// built-in families and "none".
func isLabel(s string) bool {
	switch s {
	case "calc", "timezone", "weather", "wiki", "location", "translate", "image", None:
		return true
	}
	return false
}

// Item is one labelled query: {"query": ..., "tool": "calc|timezone|weather|wiki|translate|image|none",
// "also": [other acceptable labels]}. ID and Source are optional and only
// reported.
type Item struct {
	ID     string   `json:"id,omitempty"`
	Query  string   `json:"query"`
	Tool   string   `json:"tool"`
	Also   []string `json:"also,omitempty"`
	Source string   `json:"source,omitempty"`
}

// Accepts reports whether a predicted family is right for the item.
func (it Item) Accepts(family string) bool { return accepts(it.Tool, it.Also, family) }

// accepts reports whether choice is an item's label or one of the labels
// it also accepts.
func accepts(label string, also []string, choice string) bool {
	return choice == label || slices.Contains(also, choice)
}

// ReadItems reads a JSONL file of items. Blank lines are skipped; a bad
// line is an error naming its number.
func ReadItems(r io.Reader) ([]Item, error) {
	var items []Item
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var it Item
		dec := json.NewDecoder(strings.NewReader(line))
		if err := dec.Decode(&it); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if strings.TrimSpace(it.Query) == "" {
			return nil, fmt.Errorf("line %d: no query", n)
		}
		if !isLabel(it.Tool) {
			return nil, fmt.Errorf("line %d: tool %q is not a label (want calc, timezone, weather, wiki, location, translate, image or none)", n, it.Tool)
		}
		for _, a := range it.Also {
			if !isLabel(a) {
				return nil, fmt.Errorf("line %d: also %q is not a label", n, a)
			}
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return items, nil
}

// Prediction is one item's outcome, as `gear eval --out` writes it.
type Prediction struct {
	Item
	Predicted  string  `json:"predicted"` // the chosen family, or none
	Choice     string  `json:"choice"`    // the chosen tool, or none
	Confidence float64 `json:"confidence"`
	// CallConfidence is the chosen tool's call confidence (ScoreLine's),
	// nil for none or when the prober gave none.
	CallConfidence *float64 `json:"call_confidence,omitempty"`
	// Evidence is the chosen tool's (ScoreLine's); zero for none.
	Evidence Evidence `json:"evidence,omitzero"`
	Correct  bool     `json:"correct"`
	MS       float64  `json:"ms"`
	// Scores are every tool's S, P and f, for analysis and fitting.
	Scores []ScoreLine `json:"scores"`
}

// ScoreLine is one tool's scores in a Prediction.
type ScoreLine struct {
	Tool   string  `json:"tool"`
	Family string  `json:"family"`
	S      float64 `json:"s"`
	P      float64 `json:"p"`
	F      float64 `json:"f"`
	// CallConfidence is the prober's call confidence for the tool's call
	// (0 when it wrote none), nil when the prober gives none.
	CallConfidence *float64 `json:"call_confidence,omitempty"`
	// Evidence is what the tool's call says about choosing it.
	Evidence Evidence `json:"evidence,omitzero"`
}

// Predict grounds every item in order (one at a time, so the timings are
// of one query each) and reports each outcome.
func Predict(ctx context.Context, g *Grounder, items []Item, progress func(done int)) ([]Prediction, error) {
	preds := make([]Prediction, 0, len(items))
	for i, it := range items {
		res, err := g.Ground(ctx, it.Query)
		if err != nil {
			return nil, fmt.Errorf("item %d (%q): %w", i+1, it.Query, err)
		}
		p := Prediction{Item: it, Predicted: res.Choice.Family, Choice: res.Choice.Tool,
			Confidence: res.Choice.Confidence, CallConfidence: readingConfidence(res.Choice.Reading), MS: res.ElapsedMS}
		p.Correct = it.Accepts(p.Predicted)
		for _, t := range res.Tools {
			p.Scores = append(p.Scores, ScoreLine{Tool: t.Tool, Family: t.Family, S: t.S, P: t.P, F: t.F,
				CallConfidence: readingConfidence(t.Reading), Evidence: g.evidence(t)})
		}
		if res.Route.NeedsTool {
			if best, ok := res.Best(); ok && best.Tool == res.Choice.Tool {
				p.Evidence = g.evidence(best)
			}
		}
		preds = append(preds, p)
		if progress != nil {
			progress(i + 1)
		}
	}
	return preds, nil
}

// readingConfidence is r's confidence, nil when r is.
func readingConfidence(r *CallReading) *float64 {
	if r == nil {
		return nil
	}
	c := r.Confidence
	return &c
}

// Report is `gear eval`'s summary; its JSON keys are part of gear eval's interface.
type Report struct {
	N          int                       `json:"n"`
	Accuracy   float64                   `json:"accuracy"`
	MacroF1    float64                   `json:"macro_f1"`
	PerLabel   map[string]LabelStats     `json:"per_label"`
	Confusion  map[string]map[string]int `json:"confusion"`
	ECE        float64                   `json:"ece"`
	MSPerQuery Percentiles               `json:"ms_per_query"`
}

// LabelStats are one gold label's figures.
type LabelStats struct {
	N         int     `json:"n"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Percentiles of per-query time.
type Percentiles struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
}

// ECEBins is the number of equal-width confidence bins of the expected
// calibration error.
const ECEBins = 10

// Summarize computes the report. A prediction is right when its family is
// the item's label or one of its "also" labels. Per gold label L: n is the
// items labelled L; recall is the share of them predicted right; precision
// is the share of predictions of L that were right (a "none" item whose
// "also" allows wiki counts as a right wiki prediction). Macro-F1 averages
// F1 over the gold labels present. The confusion matrix is gold label ->
// predicted family -> count.
func Summarize(preds []Prediction) Report {
	rep := Report{N: len(preds), PerLabel: map[string]LabelStats{}, Confusion: map[string]map[string]int{}}
	if len(preds) == 0 {
		return rep
	}
	goldN := map[string]int{}
	recalled := map[string]int{}
	predicted := map[string]int{}
	predictedRight := map[string]int{}
	correct := 0
	for _, p := range preds {
		goldN[p.Tool]++
		predicted[p.Predicted]++
		if p.Correct {
			correct++
			recalled[p.Tool]++
			predictedRight[p.Predicted]++
		}
		row := rep.Confusion[p.Tool]
		if row == nil {
			row = map[string]int{}
			rep.Confusion[p.Tool] = row
		}
		row[p.Predicted]++
	}
	rep.Accuracy = float64(correct) / float64(len(preds))
	labels := make([]string, 0, len(goldN))
	for l := range goldN {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	var f1sum float64
	for _, l := range labels {
		st := LabelStats{N: goldN[l], Recall: float64(recalled[l]) / float64(goldN[l])}
		if predicted[l] > 0 {
			st.Precision = float64(predictedRight[l]) / float64(predicted[l])
		}
		if st.Precision+st.Recall > 0 {
			st.F1 = 2 * st.Precision * st.Recall / (st.Precision + st.Recall)
		}
		rep.PerLabel[l] = st
		f1sum += st.F1
	}
	rep.MacroF1 = f1sum / float64(len(labels))
	rep.ECE = expectedCalibrationError(preds)
	ms := make([]float64, len(preds))
	for i, p := range preds {
		ms[i] = p.MS
	}
	rep.MSPerQuery = Percentiles{P50: percentile(ms, 0.50), P95: percentile(ms, 0.95)}
	return rep
}

// expectedCalibrationError is Σ_b |B_b|/N · |accuracy(B_b) − confidence(B_b)|
// over ECEBins equal-width bins of the choice's confidence.
func expectedCalibrationError(preds []Prediction) float64 {
	var n [ECEBins]int
	var conf, acc [ECEBins]float64
	for _, p := range preds {
		b := int(p.Confidence * ECEBins)
		if b >= ECEBins {
			b = ECEBins - 1
		}
		if b < 0 {
			b = 0
		}
		n[b]++
		conf[b] += p.Confidence
		if p.Correct {
			acc[b]++
		}
	}
	var ece float64
	for b := range n {
		if n[b] > 0 {
			ece += math.Abs(acc[b]-conf[b]) / float64(len(preds))
		}
	}
	return ece
}

// percentile is the nearest-rank percentile.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	rank := int(math.Ceil(q*float64(len(s)))) - 1
	if rank < 0 {
		rank = 0
	}
	return s[rank]
}

// CalibrationData turns predictions into fitting data.
func CalibrationData(preds []Prediction) []Labelled {
	out := make([]Labelled, len(preds))
	for i, p := range preds {
		d := Labelled{Scores: make([]float64, len(p.Scores)), Gold: make([]bool, len(p.Scores)), NoneOK: p.Accepts(None)}
		for k, s := range p.Scores {
			d.Scores[k] = s.F
			d.Gold[k] = p.Accepts(s.Family)
		}
		out[i] = d
	}
	return out
}

// Redecide re-makes each prediction's choice and confidence from its
// stored scores under another calibration, routing by threshold — what
// Ground would decide with those options — without grounding again.
func Redecide(preds []Prediction, temperature, noneScore, threshold float64) []Prediction {
	return RedecideWith(preds, Decision{Temperature: temperature, NoneScore: noneScore, Threshold: threshold})
}

// RedecideWith is Redecide with a confidence map: the choices are the
// same, their confidences mapped.
func RedecideWith(preds []Prediction, d Decision) []Prediction {
	temperature, noneScore, threshold := d.Temperature, d.NoneScore, d.Threshold
	out := make([]Prediction, len(preds))
	for i, p := range preds {
		scores := make([]float64, len(p.Scores))
		for k, s := range p.Scores {
			scores[k] = s.F
		}
		pNone, probs, best, needsTool := thresholdChoice(scores, noneScore, temperature, threshold)
		q := p
		q.Predicted, q.Choice, q.Confidence, q.Evidence = None, None, pNone, Evidence{}
		if needsTool && best >= 0 {
			q.Predicted, q.Choice, q.Confidence, q.Evidence = p.Scores[best].Family, p.Scores[best].Tool, probs[best], p.Scores[best].Evidence
		}
		if q.Predicted == None {
			q.Confidence = d.Confidence.Apply(q.Confidence, true)
		} else {
			q.Confidence = d.Confidence.ApplyTool(q.Confidence, 1, q.Evidence)
		}
		q.Correct = q.Accepts(q.Predicted)
		out[i] = q
	}
	return out
}

// FitThreshold returns the routing threshold, on a grid of 0.01, that
// maximises the mean recall over the labels (balanced accuracy) of the
// predictions under the given calibration, macro-F1 breaking ties. Mean
// recall weighs every label alike, whatever its share of the file: the
// dev file is three-quarters "none", gear's traffic need not be.
func FitThreshold(preds []Prediction, temperature, noneScore float64) float64 {
	best, bestRecall, bestF1 := 0.5, -1.0, -1.0
	for k := 1; k < 100; k++ {
		th := float64(k) / 100
		rep := Summarize(Redecide(preds, temperature, noneScore, th))
		var recall float64
		for _, st := range rep.PerLabel {
			recall += st.Recall
		}
		recall /= float64(len(rep.PerLabel))
		if recall > bestRecall+1e-12 || recall > bestRecall-1e-12 && rep.MacroF1 > bestF1+1e-12 {
			best, bestRecall, bestF1 = th, recall, rep.MacroF1
		}
	}
	return best
}
