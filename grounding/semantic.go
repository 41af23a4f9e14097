package grounding

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// The semantic score S(Q, d_i) (§3.1) is the cosine between the query
// and the tool's description d_i alone, as in the paper; it is the S of f
// — except where the engine scores the library as a whole (Engine.Library,
// library.go): then a tool the scorer scores has S = its relevance, which
// weighs words by their rarity in the library at hand and reads the
// tool's name, parameters and usage examples as well (the offline engine's
// index, grounding/offline/library_index.go; docs/grounding.md). Among
// hundreds of unfamiliar tools the cosine below ranks the right tool first
// for 9% of MetaTool's dev queries and the relevance for 62%
// (BENCHMARKS.md, "Offline engine at scale"). The offline scorer leaves
// the tools whose subjects its encoder knows from their hints (the
// built-in tools) to the cosine, so the figures below stand for them.
// The usage examples were tried in S, as extra documents of the tool, and
// left out: an example is a short query, and the offline encoder's cosine
// between two short queries is high whenever they share its fixed features
// (a number, a subject, the question's form) — "add the numbers 2 and 3"
// and the calculator's example "What is 18% of 2,450?" have cosine 0.90 —
// so no rule tells a paraphrase from a coincidence. Measured with the
// offline engine, each rule re-fitted by the calibration procedure
// (TestCalibrationIsFitted), on the dev file, and as the rank of the right
// tool by S on MetaTool's first 600 dev queries (TestMeasureShortlistRank;
// MetaTool's tools have examples and terse descriptions):
//
//	S                                  dev macro-F1   MetaTool r@1   r@8
//	description alone                      0.929         0.047      0.143
//	max(description, best example)         0.785         0.123      0.320
//	0.9 description + 0.1 best example     0.929 (a)     0.047      0.145
//	0.5 description + 0.5 best example     0.922 (a)     0.077      0.200
//	an example only at cosine ≥ 0.8        0.929 (b)     0.075      0.182
//	an example only at cosine ≥ 0.85       0.929         0.063      0.158
//	an example only at cosine ≥ 0.95       0.929         0.050      0.147
//
// (a) the recall of calc, weather and wiki fell; (b) one more wiki query
// wrong. Every rule that helps MetaTool either costs the dev file or, at
// a gate of 0.85 or 0.9, grounds "add the numbers 2 and 3" to the
// calculator instead of an MCP server's add_numbers(a, b) (TestUnseenTools,
// the conformance suite's tools_call); at 0.95 it is safe and gains two
// queries in 600. The examples rank the shortlist instead, where a wrong
// near-miss costs one more call, not the choice.
//
// The shortlist (see shortlist.go) asks another question — is the right
// tool among the k best? — and there the examples help: it ranks by
// max(cos(Q, d_i), max_e cos(Q, example_e)). Measured with the offline
// encoder (TestMeasureShortlistRank), recall at k = 8 on MetaTool's dev
// queries is 0.342 with the examples and 0.152 with the description alone,
// and equal on BFCL and Seal-Tools, whose tools have no examples.

// libraryWeight is β of S = (1−β)·cos + β·relevance when the engine
// scores the library as a whole (Engine.Library, library.go).
const libraryWeight = 1.0

// combineSemantic is S from the encoder's cosine and the library scorer's
// relevance of one tool.
func combineSemantic(cos, relevance float64) float64 {
	return (1-libraryWeight)*cos + libraryWeight*math.Max(0, math.Min(relevance, 1))
}

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

// vectorsOf returns the unit vector of each text: from memo (this
// grounder's memory), then the persistent cache, then the encoder together
// with extra (texts that are not kept, such as the query: they cost no
// request of their own) — so a tool's text is embedded once per model,
// ever, while the cache keeps it. It returns the extra texts' vectors too.
// A failing cache costs speed, not the answer: its error comes back as a
// warning and the encoder fills in. memo is read and written under mu.
func vectorsOf(ctx context.Context, eng Engine, cache EmbeddingCache, mu *sync.Mutex, memo map[string]vector,
	texts, extra []string) (vecs []vector, extraVecs [][]float32, warnings []string, err error) {
	var missing []string
	seen := map[string]bool{}
	mu.Lock()
	for _, t := range texts {
		if _, ok := memo[t]; !ok && !seen[t] {
			seen[t] = true
			missing = append(missing, t)
		}
	}
	mu.Unlock()
	found := map[string]vector{}
	if len(missing) > 0 && cache != nil {
		got, err := cache.CachedEmbeddings(ctx, eng.Model, missing)
		if err != nil {
			warnings = append(warnings, "embedding cache: "+err.Error())
		}
		var still []string
		for i, t := range missing {
			if err == nil && i < len(got) && len(got[i]) > 0 {
				found[t] = unitVector(got[i])
			} else {
				still = append(still, t)
			}
		}
		missing = still
	}
	if len(missing)+len(extra) > 0 {
		ask := append(append([]string(nil), extra...), missing...)
		out, err := eng.Encoder.Embed(ctx, ask)
		if err != nil {
			return nil, nil, warnings, fmt.Errorf("grounding: embed: %w", err)
		}
		if len(out) != len(ask) {
			return nil, nil, warnings, fmt.Errorf("grounding: encoder returned %d vectors for %d texts", len(out), len(ask))
		}
		for i := range extra {
			extraVecs = append(extraVecs, normalize(out[i]))
		}
		fresh := out[len(extra):]
		for i, t := range missing {
			found[t] = unitVector(fresh[i])
		}
		if cache != nil && len(missing) > 0 {
			if err := cache.PutEmbeddings(ctx, eng.Model, missing, fresh); err != nil {
				warnings = append(warnings, "embedding cache: "+err.Error())
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for t, v := range found {
		memo[t] = v
	}
	vecs = make([]vector, len(texts))
	for i, t := range texts {
		vecs[i] = memo[t]
	}
	return vecs, extraVecs, warnings, nil
}
