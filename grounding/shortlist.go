package grounding

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// The shortlist: Algorithm 1 asks the small model for a call from every
// tool, n + 1 model calls a query — 4,077 at Seal-Tools' size. Grounding
// ranks every tool by its semantic score first (vectors kept in memory and
// in the store), then runs the pattern stage — the call, the mock response
// or run, P — on the top k only; the other tools keep f = γS. A query then
// costs k + 1 small-model calls and one embedding, whatever n is.
//
// The rank is max(cos(Q, d_i), max_e cos(Q, example_e)) (see semantic.go
// for why, with figures). k defaults to DefaultShortlist for the model
// engine and DefaultOfflineShortlist for the offline one, whose pattern
// stage costs no model call but tens of microseconds a tool.
//
// With a model encoder the rank needs the query's embedding, one round
// trip, before the calls could start: a second round trip in sequence.
// When the engine has a Prefilter (a local encoder, no model call), the
// calls of its top k start at once, alongside the embedding; when the
// embedding arrives, shortlisted tools the prefilter missed are called
// then, a round trip later (Shortlist.Late) — unless no response could lift
// their f to the choice made without them (Shortlist.Pruned): P is at most
// PatternSet.Bound against â, so γS + (1−γ)·bound below the best f rules a
// tool out exactly. The tools called are the union.

// Defaults of the shortlist and of grounding's concurrency.
//
// DefaultShortlist is k. With the offline encoder (TestMeasureShortlistRank),
// the right tool is in the top 8 for 99.7% of BFCL's queries (each among
// its own candidates) and 65.5% of Seal-Tools' (4,076 tools; 68.5% at 16,
// 73.0% at 32), 34.2% of MetaTool's (42.7% at 16): beyond 8 each added
// point of recall costs about one more model call per query, so 8 it is;
// grounding.shortlist raises it, and a model encoder ranks better.
//
// DefaultConcurrency bounds the small-model requests grounding has in
// flight at once: at least k + 1, so that â and the shortlist's calls go
// out in one wave (one round trip) at the default k; a larger k or an
// unshortlisted library waits in turn instead of opening hundreds of
// connections.
//
// DefaultOfflineShortlist is k for the offline engine (and any engine but
// the model's). Its pattern stage costs no model call, but at 4,076 tools
// it cost 130 ms a query (p50; every tool's call extracted, parsed, checked
// against its schema and its response encoded) against 10 ms at k = 32.
// Measured with gear eval --offline --library on the dev sets
// (BENCHMARKS.md, "Tool-selection benchmarks"): Seal-Tools top-1 0.460 with
// every tool, 0.455 at k = 16, 32 and 64, 0.460 at 128 (top-5 0.65
// throughout); MetaTool top-1 0.090 with every tool, 0.102 at 16, 0.100 at
// 32, 0.095 at 64 — the examples rank the shortlist, which S alone does
// not — at p50 10 ms against 1.8 ms at 32. A library of at most k tools
// (gear's own, a BFCL item's candidates) is scored whole as before.
const (
	DefaultShortlist        = 8
	DefaultOfflineShortlist = 32
	DefaultConcurrency      = 16
)

// Shortlist says which tools the pattern stage ran on.
type Shortlist struct {
	// K is the shortlist's size asked for; Of the library's size.
	K  int `json:"k"`
	Of int `json:"of"`
	// Scored is how many tools the pattern stage ran on: K, plus tools
	// the prefilter called that ranked below the cut, plus tools the
	// caller asked for.
	Scored int `json:"scored"`
	// Cut is the rank score of the K-th tool: tools ranked below it
	// (unless called anyway) have f = γS.
	Cut float64 `json:"cut"`
	// By says what ranked the tools.
	By string `json:"by"`
	// Speculative is how many calls started on the prefilter's rank, Late
	// how many shortlisted tools it missed (called after the embedding
	// arrived, a round trip later).
	Speculative int `json:"speculative,omitempty"`
	Late        int `json:"late,omitempty"`
	// Pruned is how many shortlisted tools the prefilter missed were not
	// called: even the best possible response (P at its bound against â)
	// would leave their f below the choice's.
	Pruned int `json:"pruned,omitempty"`
}

// ShortlistBy is Shortlist.By.
const ShortlistBy = "max(description, best example)"

// ShortlistByLibrary is Shortlist.By when the engine scores the library
// as a whole (Engine.Library): the tools are ranked by S itself.
const ShortlistByLibrary = "S (cosine and library relevance)"

// StatusCut is a tool outside the shortlist: no call, P = 0, f = γS.
const StatusCut ProbeStatus = "not shortlisted"

// libraryTexts is where each tool's texts are in one list: its
// description, then its usage examples' queries.
type libraryTexts struct {
	texts    []string
	desc     []int   // tool -> index of its description
	examples [][]int // tool -> indexes of its examples
}

func newLibraryTexts(g *Grounder) libraryTexts {
	var lt libraryTexts
	for _, s := range g.specs {
		lt.desc = append(lt.desc, len(lt.texts))
		lt.texts = append(lt.texts, s.Description)
		var ex []int
		for _, e := range s.Examples {
			if e.Query != "" {
				ex = append(ex, len(lt.texts))
				lt.texts = append(lt.texts, e.Query)
			}
		}
		lt.examples = append(lt.examples, ex)
	}
	return lt
}

// rank is every tool's rank score against the query's vector q, with the
// library's vectors in libraryTexts order.
func (lt libraryTexts) rank(q []float32, vecs []vector) []float64 {
	out := make([]float64, len(lt.desc))
	for i, d := range lt.desc {
		best := similarityTo(q, vecs[d])
		for _, e := range lt.examples[i] {
			if s := similarityTo(q, vecs[e]); s > best {
				best = s
			}
		}
		out[i] = best
	}
	return out
}

// topK is the indexes of the k highest scores (the first on ties).
func topK(scores []float64, k int) []int {
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	if k < len(order) {
		order = order[:k]
	}
	return order
}

// shortlistSize is k for this grounder; 0 means every tool.
func (g *Grounder) shortlistSize() int {
	k := g.opts.Shortlist
	switch {
	case k < 0:
		return 0
	case k == 0 && g.engine.Name == EngineModel:
		k = DefaultShortlist
	case k == 0:
		k = DefaultOfflineShortlist
	}
	if k >= len(g.specs) {
		return 0
	}
	return k
}

// libraryEmbedding is one computation of the library's vectors under way;
// done closes when it has ended, well or not (err).
type libraryEmbedding struct {
	done chan struct{}
	err  error
}

// libraryVectors are the engine's vectors of the library's texts, computed
// once (Prepare, or the first query, which embeds them with the query in
// one request) and kept; extra texts are embedded alongside. A query that
// comes while the library is being embedded (the chat's start-up Prepare
// not yet done) does not send the library again: it embeds its own text
// alone, meanwhile, and takes the library's vectors when they arrive.
func (g *Grounder) libraryVectors(ctx context.Context, extra []string) (lib []vector, ex [][]float32, err error) {
	g.mu.Lock()
	lib, under := g.vectors, g.embedding
	if lib == nil && under == nil {
		g.embedding = &libraryEmbedding{done: make(chan struct{})}
	}
	g.mu.Unlock()
	switch {
	case lib != nil:
		if len(extra) == 0 {
			return lib, nil, nil
		}
		ex, err = embedUnit(ctx, g.engine.Encoder, extra)
		return lib, ex, err
	case under != nil:
		return g.joinLibraryVectors(ctx, under, extra)
	}
	lib, ex, err = g.computeLibraryVectors(ctx, extra)
	g.mu.Lock()
	e := g.embedding
	g.embedding = nil
	g.mu.Unlock()
	e.err = err
	close(e.done)
	return lib, ex, err
}

// joinLibraryVectors waits for the library's embedding under way while
// embedding extra; if that embedding failed (its caller gave up, say), it
// is tried again here.
func (g *Grounder) joinLibraryVectors(ctx context.Context, under *libraryEmbedding, extra []string) (lib []vector, ex [][]float32, err error) {
	type embedded struct {
		v   [][]float32
		err error
	}
	mine := make(chan embedded, 1)
	if len(extra) > 0 {
		go func() {
			v, err := embedUnit(ctx, g.engine.Encoder, extra)
			mine <- embedded{v, err}
		}()
	} else {
		mine <- embedded{}
	}
	select {
	case <-under.done:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if under.err != nil {
		return g.libraryVectors(ctx, extra)
	}
	e := <-mine
	if e.err != nil {
		return nil, nil, e.err
	}
	g.mu.Lock()
	lib = g.vectors
	g.mu.Unlock()
	return lib, e.v, nil
}

// computeLibraryVectors embeds the library (reading what the cache holds),
// with extra in the same request.
func (g *Grounder) computeLibraryVectors(ctx context.Context, extra []string) (lib []vector, ex [][]float32, err error) {
	cache := g.opts.Cache
	if g.opts.CacheLibrary {
		if g.wholeIndex() {
			return g.indexVectors(ctx, extra)
		}
		cache = nil // a small library's are computed as fast as read
	}
	lib, ex, warnings, err := vectorsOf(ctx, g.engine, cache, &g.mu, g.memo, g.texts.texts, extra)
	if err != nil {
		return nil, nil, err
	}
	g.mu.Lock()
	if g.vectors == nil {
		g.vectors, g.warnings = lib, warnings
	}
	g.mu.Unlock()
	return lib, ex, nil
}

// prefilterDims is the length the prefilter's vectors are folded to: a
// local encoder's vectors can be long (the offline one's are 4,096
// hashed features), and folding them — adding dimension i into i mod
// prefilterDims, feature hashing once more — keeps the cache small (1 KiB
// a text) at a small cost in ranking, which only decides which calls start
// early.
const prefilterDims = 256

// foldEncoder folds an encoder's vectors to prefilterDims.
type foldEncoder struct{ Encoder }

func (f foldEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := f.Encoder.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	for i, v := range vecs {
		if len(v) <= prefilterDims {
			continue
		}
		folded := make([]float32, prefilterDims)
		for j, x := range v {
			folded[j%prefilterDims] += x
		}
		vecs[i] = folded
	}
	return vecs, nil
}

// prefilterLibrary is the prefilter's vectors of the library's texts:
// computed once (when the grounder is built, or by the first query) and
// kept in memory and, with a cache and Engine.PrefilterModel, in the store.
func (g *Grounder) prefilterLibrary(ctx context.Context) ([]vector, error) {
	g.preOnce.Do(func() {
		eng := Engine{Model: g.engine.PrefilterModel, Encoder: foldEncoder{g.engine.Prefilter}}
		var cache EmbeddingCache
		if eng.Model != "" {
			cache = g.opts.Cache
		}
		var mu sync.Mutex
		vecs, _, _, err := vectorsOf(ctx, eng, cache, &mu, map[string]vector{}, g.texts.texts, nil)
		if err != nil {
			g.preErr = err
			return
		}
		g.preVectors = vecs
	})
	return g.preVectors, g.preErr
}

// prefilterVectors are the prefilter's vectors of the library's texts and
// of the query.
func (g *Grounder) prefilterVectors(ctx context.Context, query string) (lib []vector, q []float32, err error) {
	lib, err = g.prefilterLibrary(ctx)
	if err != nil {
		return nil, nil, err
	}
	qv, err := embedUnit(ctx, foldEncoder{g.engine.Prefilter}, []string{query})
	if err != nil {
		return nil, nil, err
	}
	return lib, qv[0], nil
}

func embedUnit(ctx context.Context, enc Encoder, texts []string) ([][]float32, error) {
	v, err := enc.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("grounding: embed: %w", err)
	}
	if len(v) != len(texts) {
		return nil, fmt.Errorf("grounding: encoder returned %d vectors for %d texts", len(v), len(texts))
	}
	for i := range v {
		v[i] = normalize(v[i])
	}
	return v, nil
}

// limiter bounds the model requests in flight.
type limiter chan struct{}

func (l limiter) acquire(ctx context.Context) error {
	select {
	case l <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l limiter) release() { <-l }
