package grounding_test

import (
	"context"
	"math"
	"testing"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// fixedScorer scores every query the same, counting the libraries it
// indexes.
type fixedScorer struct {
	scores, explained []float64
	indexed           int
}

func (f *fixedScorer) IndexTools(specs []tools.Spec) grounding.LibraryScores {
	f.indexed++
	return f
}

func (f *fixedScorer) Relevance(string) grounding.LibraryRelevance {
	return grounding.LibraryRelevance{Scores: f.scores, Explained: f.explained}
}

// TestLibraryScorerSetsS: with a LibraryScorer, S is its relevance for
// the tools it scores and the encoder's cosine for those it leaves (a
// negative score); the library is indexed once, and Explained travels
// with each tool's score.
func TestLibraryScorerSetsS(t *testing.T) {
	reg, _ := library(t)
	pr := &scriptProber{prelim: "96"}
	plain, err := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const query = "who are the people in the encyclopedia"
	base, err := plain.Ground(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	// Calc, Clock, Search in the library's order: the scorer leaves Search.
	scorer := &fixedScorer{scores: []float64{0.9, 0.2, -1}, explained: []float64{1, 0.5, 0}}
	eng := engine(&wordEncoder{}, pr)
	eng.Library = scorer
	g, err := grounding.New(reg, eng, grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		res, err := g.Ground(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{"Calc": 0.9, "Clock": 0.2, "Search": base.Tools[2].S}
		explained := map[string]float64{"Calc": 1, "Clock": 0.5, "Search": 0}
		for _, ts := range res.Tools {
			if ts.S != want[ts.Tool] {
				t.Errorf("%s: S = %v, want %v", ts.Tool, ts.S, want[ts.Tool])
			}
			if ts.Explained != explained[ts.Tool] {
				t.Errorf("%s: explained = %v, want %v", ts.Tool, ts.Explained, explained[ts.Tool])
			}
		}
		if res.Choice.Tool != "Calc" {
			t.Errorf("chose %s, want Calc (the scorer's best)", res.Choice.Tool)
		}
	}
	if scorer.indexed != 1 {
		t.Errorf("library indexed %d times, want once", scorer.indexed)
	}
}

// wordsScorer is fixedScorer that tells how the query's words fall: every
// tool has the share plain of them.
type wordsScorer struct {
	fixedScorer
	plain float64
}

func (w *wordsScorer) IndexTools([]tools.Spec) grounding.LibraryScores { return w }

func (w *wordsScorer) Relevance(q string) grounding.LibraryRelevance {
	r := w.fixedScorer.Relevance(q)
	r.Words = func(int) grounding.WordEvidence { return grounding.WordEvidence{Plain: w.plain, Legible: 1} }
	return r
}

// TestNoneModelDecidesLibraryChoices: when the best tool is scored by
// library relevance, the none model decides from its evidence — the same
// scores give a tool when the tool has the query's words and "none" when
// it has none of them — and the confidence is the library map's of the
// model's probability; without the scorer's words the softmax decides.
func TestNoneModelDecidesLibraryChoices(t *testing.T) {
	reg, _ := library(t)
	pr := &scriptProber{prelim: "96"}
	opts := grounding.DefaultOptions()
	opts.LibraryConfidence = grounding.ConfidenceMap{}
	opts.LibraryNone = grounding.NoneModel{Threshold: 0.5}
	opts.LibraryNone.W[0], opts.LibraryNone.W[2] = -4, 8 // σ(8·plain − 4)
	ctx := context.Background()
	const query = "who are the people in the encyclopedia"
	ground := func(s grounding.LibraryScorer) *grounding.Result {
		t.Helper()
		eng := engine(&wordEncoder{}, pr)
		eng.Library = s
		g, err := grounding.New(reg, eng, opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Ground(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fixed := fixedScorer{scores: []float64{0.9, 0.2, -1}, explained: []float64{1, 0.5, 0}}
	for _, tt := range []struct {
		plain float64
		want  string
	}{{1, "Calc"}, {0, grounding.None}} {
		res := ground(&wordsScorer{fixedScorer: fixed, plain: tt.plain})
		if res.Choice.Tool != tt.want {
			t.Errorf("plain %v: chose %s, want %s", tt.plain, res.Choice.Tool, tt.want)
		}
		if res.NoneEvidence == nil || res.NoneEvidence.Words.Plain != tt.plain || res.NoneEvidence.Tools != 3 {
			t.Errorf("plain %v: evidence %+v", tt.plain, res.NoneEvidence)
			continue
		}
		need := 1 / (1 + math.Exp(-(8*tt.plain - 4)))
		if math.Abs(res.Route.Probability-need) > 1e-9 || res.Route.Threshold != 0.5 {
			t.Errorf("plain %v: route %+v, want probability %v against 0.5", tt.plain, res.Route, need)
		}
		if tt.want == grounding.None && math.Abs(res.Choice.Confidence-(1-need)) > 1e-9 {
			t.Errorf("none's confidence %v, want %v", res.Choice.Confidence, 1-need)
		}
	}
	if res := ground(&fixed); res.NoneEvidence != nil || res.Route.Threshold != opts.Threshold {
		t.Errorf("without the scorer's words the softmax decides: evidence %+v, threshold %v", res.NoneEvidence, res.Route.Threshold)
	}
}
