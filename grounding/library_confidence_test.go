package grounding_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gear-chat/gear/grounding"
)

// A share among thousands of tools means more than the same share among
// ten: the library map learns it from ln n, so that each set's
// confidence comes out near its accuracy, where the share alone is off.
func TestFitLibraryConfidenceUsesLibrarySize(t *testing.T) {
	t.Parallel()
	// Two synthetic sets: among 10 tools a share of 0.6 is right 60% of
	// the time; among 4,000 a share of 0.3 is right 90% of the time.
	mk := func(name string, of int, share float64, rightPerTen int) []grounding.LibraryPrediction {
		var ps []grounding.LibraryPrediction
		for i := 0; i < 400; i++ {
			ps = append(ps, grounding.LibraryPrediction{
				LibraryItem: grounding.LibraryItem{ID: fmt.Sprintf("%s-%d", name, i), Query: "q", Tool: "t"},
				Choice:      "t", Confidence: share, Correct: (i/2)%10 < rightPerTen, Of: of, ByLibrary: true})
		}
		return ps
	}
	fit := grounding.FitLibraryConfidence(map[string][]grounding.LibraryPrediction{
		"small": mk("small", 10, 0.6, 6), "large": mk("large", 4000, 0.3, 9)})
	if fit.Confidence.Tool.C <= 0 {
		t.Errorf("tool map %+v: want a positive weight on ln n", fit.Confidence.Tool)
	}
	for _, tc := range []struct {
		of   int
		x    float64
		want float64
	}{{10, 0.6, 0.6}, {4000, 0.3, 0.9}} {
		got := fit.Confidence.ApplyAmong(tc.x, false, tc.of)
		if math.Abs(got-tc.want) > 0.05 {
			t.Errorf("share %.1f among %d: confidence %.3f, want about %.1f", tc.x, tc.of, got, tc.want)
		}
	}
	if e := grounding.ECE(fit.HeldOutMapped); e > 0.05 {
		t.Errorf("held-out ECE %.3f after the map, want ≤ 0.05 (before: %.3f)", e, grounding.ECE(fit.HeldOut))
	}
	// Decisions not scored by library relevance do not count.
	none := grounding.FitLibraryConfidence(map[string][]grounding.LibraryPrediction{
		"known": {{LibraryItem: grounding.LibraryItem{Query: "q", Tool: "t"}, Choice: "t", Confidence: 0.5, Correct: true, Of: 5}}})
	if len(none.Fit)+len(none.HeldOut) != 0 || none.Confidence != (grounding.ConfidenceMap{}) {
		t.Errorf("a set of known tools' decisions fitted %+v", none)
	}
}
