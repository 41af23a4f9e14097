package grounding

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMeasureLibraryNone reports the none model's leave-one-set-out
// figures from `gear eval --library … --out SET.jsonl` files: set
// GEAR_NONE_PREDICTIONS to a comma-separated list of them (each set named
// by its file's base name). Skipped without it.
func TestMeasureLibraryNone(t *testing.T) {
	files := os.Getenv("GEAR_NONE_PREDICTIONS")
	if files == "" {
		t.Skip("set GEAR_NONE_PREDICTIONS to eval --out files")
	}
	sets := map[string][]LibraryPrediction{}
	for _, f := range strings.Split(files, ",") {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		preds, err := readLibraryPredictions(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		sets[strings.TrimSuffix(filepath.Base(f), ".jsonl")] = preds
	}
	for name, preds := range sets {
		r := SummarizeLibrary(preds)
		t.Logf("as grounded  %-24s top1 %.3f abstain %.3f false %.3f ece %.3f", name, r.Top1, r.AbstainRate, r.FalseAbstainRate, r.ECE)
	}
	var drop []int
	for _, f := range strings.Split(os.Getenv("GEAR_NONE_DROP"), ",") {
		if i, err := strconv.Atoi(f); err == nil {
			drop = append(drop, i)
		}
	}
	m := fitLibraryNoneWithout(sets, drop)
	t.Logf("fit on all: %.2f threshold %.3f", m.W, m.Threshold)
	for name, preds := range sets {
		red := RedecideLibrary(preds, m)
		r := SummarizeLibrary(red)
		cm := FitLibraryConfidence(map[string][]LibraryPrediction{"x": red}).Confidence
		t.Logf("in sample    %-24s top1 %.3f abstain %.3f false %.3f auc %.3f ece(own map) %.3f", name, r.Top1, r.AbstainRate, r.FalseAbstainRate, noneAUC(preds, m), SummarizeLibrary(MapLibrary(red, cm)).ECE)
	}
	for _, cv := range crossValidateLibraryNoneWithout(sets, drop) {
		r := cv.HeldOut
		t.Logf("held out     %-24s top1 %.3f abstain %.3f false %.3f ece %.3f  w %.2f t %.3f", cv.Set, r.Top1, r.AbstainRate, r.FalseAbstainRate, r.ECE, cv.Model.W, cv.Model.Threshold)
	}
}

// noneAUC is the chance that a random tool item's P(needs a tool) is above a random none item's.
func noneAUC(preds []LibraryPrediction, m NoneModel) float64 {
	var pos, neg []float64
	for _, p := range preds {
		if p.Evidence == nil {
			continue
		}
		v := m.NeedsTool(*p.Evidence)
		if p.NeedsTool() {
			pos = append(pos, v)
		} else {
			neg = append(neg, v)
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return 0
	}
	var wins float64
	for _, a := range pos {
		for _, b := range neg {
			switch {
			case a > b:
				wins++
			case a == b:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(pos)*len(neg))
}

// readLibraryPredictions reads `gear eval --library --out` lines.
func readLibraryPredictions(r io.Reader) ([]LibraryPrediction, error) {
	var out []LibraryPrediction
	dec := json.NewDecoder(r)
	for {
		var p LibraryPrediction
		if err := dec.Decode(&p); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		p.Scores = nil
		out = append(out, p)
	}
}
