package grounding

import (
	"context"
	"fmt"
	"math"

	"github.com/gear-chat/gear/tools"
)

// The semantic score S(Q, d_i) (§3.1) is the cosine between the query
// and the tool's description d_i alone, as in the paper; the usage
// examples are not embedded. They were tried — S as the largest cosine over
// the description and each example query — and dropped: an example is a
// short query, so against another short query one shared word ("time",
// "where") gave a high cosine, and queries that need no tool were grounded
// to tools far more often. On the dev file with the offline engine and the
// same calibration procedure, macro-F1 is 0.897 with the description alone
// and 0.771 with the examples. The examples still do their job in
// Algorithm 1: they are the π_i the small model is prompted with to write
// q_i.

// similarity is S: the cosine between q and the description's vector (both
// unit length), clamped to [0, 1] — a negative cosine says no more than 0
// does, and keeps f's two terms on one side of zero.
func similarity(q, d []float32) float64 {
	return math.Max(0, math.Min(dot(q, d), 1))
}

func dot(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// normalize returns v scaled to unit length (a zero vector stays zero).
func normalize(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if ss == 0 {
		return out
	}
	inv := float32(1 / math.Sqrt(ss))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// embedTools returns the unit vector of every tool's description: from
// memo (this grounder's memory), then the persistent cache, then the
// encoder — so a description is embedded once per model, ever, while the
// cache keeps it. A failing cache costs speed, not the answer: its error
// comes back as a warning and the encoder fills in.
func embedTools(ctx context.Context, eng Engine, cache EmbeddingCache, memo map[string][]float32, specs []tools.Spec) ([][]float32, []string, error) {
	var warnings []string
	var missing []string
	seen := map[string]bool{}
	for _, s := range specs {
		if _, ok := memo[s.Description]; !ok && !seen[s.Description] {
			seen[s.Description] = true
			missing = append(missing, s.Description)
		}
	}
	if len(missing) > 0 && cache != nil {
		got, err := cache.CachedEmbeddings(ctx, eng.Model, missing)
		if err != nil {
			warnings = append(warnings, "embedding cache: "+err.Error())
		}
		var still []string
		for i, t := range missing {
			if err == nil && i < len(got) && len(got[i]) > 0 {
				memo[t] = normalize(got[i])
			} else {
				still = append(still, t)
			}
		}
		missing = still
	}
	if len(missing) > 0 {
		vecs, err := eng.Encoder.Embed(ctx, missing)
		if err != nil {
			return nil, warnings, fmt.Errorf("grounding: embed tool descriptions: %w", err)
		}
		if len(vecs) != len(missing) {
			return nil, warnings, fmt.Errorf("grounding: encoder returned %d vectors for %d texts", len(vecs), len(missing))
		}
		for i, t := range missing {
			memo[t] = normalize(vecs[i])
		}
		if cache != nil {
			if err := cache.PutEmbeddings(ctx, eng.Model, missing, vecs); err != nil {
				warnings = append(warnings, "embedding cache: "+err.Error())
			}
		}
	}
	out := make([][]float32, len(specs))
	for i, s := range specs {
		out[i] = memo[s.Description]
	}
	return out, warnings, nil
}
