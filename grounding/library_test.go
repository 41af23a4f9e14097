package grounding_test

import (
	"context"
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
