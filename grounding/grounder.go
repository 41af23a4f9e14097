// Package grounding is GEAR (“GEAR: Augmenting Language Models with Generalizable and
// Efficient Tool Resolution”, Lu, Yu and Khashabi, EACL 2024,
// arXiv:2307.08775; §3, Algorithm 1): it decides
// which tool of the library a query needs — or that it needs none — and how
// sure it is.
//
// For a query Q it asks the engine's small model for a preliminary answer
// â and, for every tool at once, a call q_i; it parses each call against the
// registry, takes the tool's mock response when the tool declares one and
// otherwise runs it under a per-tool deadline; then it scores each tool
//
//	f_i = γ·S(Q, d_i) + (1−γ)·P(â, â_i)
//
// (S semantic, see semantic.go; P pattern, see pattern.go) and turns the
// scores into probabilities over the tools and "none" (see confidence.go).
// Routing ("does this need a tool?") is part of the same decision (see
// route.go). Every tool's numbers are kept in the Result.
//
// The engine fills the model roles through small interfaces defined here
// (Encoder, SLM via SLMProber, YesNo, EmbeddingCache): the llm package
// satisfies them with a model, package grounding/offline with rules.
package grounding

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gear-chat/gear/tools"
)

// Grounder grounds queries against one tool library with one engine. It is
// safe for concurrent use; tool embeddings are computed on the first query
// (or by Prepare) and kept.
type Grounder struct {
	reg    *tools.Registry
	specs  []tools.Spec
	engine Engine
	opts   Options

	texts libraryTexts

	mu       sync.Mutex
	memo     map[string]vector // text -> unit vector, this engine's model
	vectors  []vector          // per library text (texts); nil until prepared
	warnings []string
	// embedding is the library's embedding under way (Prepare's, or a
	// query's), which others join instead of sending the library again.
	embedding *libraryEmbedding

	libOnce     sync.Once
	library     LibraryScores // nil without Engine.Library
	libWarnings []string      // the library index cache's, under mu

	preOnce    sync.Once
	preVectors []vector // the prefilter's, per library text
	preErr     error
}

// New makes a grounder. The engine needs an Encoder and a Prober.
func New(reg *tools.Registry, eng Engine, opts Options) (*Grounder, error) {
	if reg == nil {
		return nil, errors.New("grounding: no tool library")
	}
	if eng.Encoder == nil || eng.Prober == nil {
		return nil, errors.New("grounding: the engine needs an encoder and a prober")
	}
	if eng.Name == "" {
		return nil, errors.New("grounding: the engine has no name")
	}
	if eng.Model == "" {
		eng.Model = eng.Name
	}
	opts = opts.withDefaults()
	if opts.Gamma < 0 || opts.Gamma > 1 {
		return nil, fmt.Errorf("grounding: gamma %v not in [0, 1]", opts.Gamma)
	}
	if opts.GammaArguments < 0 || opts.GammaArguments > 1 {
		return nil, fmt.Errorf("grounding: gamma for tools scored by their arguments %v not in [0, 1]", opts.GammaArguments)
	}
	if opts.Lambda < 0 {
		return nil, fmt.Errorf("grounding: lambda %v is negative", opts.Lambda)
	}
	if opts.Threshold < 0 || opts.Threshold > 1 {
		return nil, fmt.Errorf("grounding: threshold %v not in [0, 1]", opts.Threshold)
	}
	if err := opts.Route.valid(); err != nil {
		return nil, err
	}
	for _, s := range reg.Specs() {
		if s.OutputPattern != "" && !opts.Patterns.Has(s.OutputPattern) {
			return nil, fmt.Errorf("grounding: tool %s: unknown output pattern %q", s.Name, s.OutputPattern)
		}
	}
	g := &Grounder{reg: reg, specs: reg.Specs(), engine: eng, opts: opts, memo: map[string]vector{}}
	g.texts = newLibraryTexts(g)
	if eng.Prefilter != nil {
		// The prefilter is local work (no request, nothing to cancel):
		// start it now, so that the first query finds it done or under
		// way rather than starting it.
		go g.prefilterLibrary(context.Background())
	}
	return g, nil
}

// libraryScores is the engine's index of the library, built on first use;
// nil when the engine has no LibraryScorer.
func (g *Grounder) libraryScores(ctx context.Context) LibraryScores {
	if g.engine.Library == nil {
		return nil
	}
	g.libOnce.Do(func() {
		var warnings []string
		g.library, warnings = g.indexLibrary(ctx) // library_cache.go
		g.mu.Lock()
		g.libWarnings = warnings
		g.mu.Unlock()
	})
	return g.library
}

// Engine returns the grounder's engine name ("offline", "model").
func (g *Grounder) Engine() string { return g.engine.Name }

// Options returns the options in force.
func (g *Grounder) Options() Options { return g.opts }

// Prepare computes (or loads from the cache) the embeddings of the tool
// descriptions and usage examples, so that no query pays for them: call it
// in the background at start-up. A query that comes first embeds them with
// its own text, in the same request.
func (g *Grounder) Prepare(ctx context.Context) error {
	if g.engine.Prefilter != nil {
		if _, err := g.prefilterLibrary(ctx); err != nil {
			return err
		}
	}
	// The scorer's index and the encoder's vectors do not depend on each
	// other: built (or read from the store) at the same time, the index
	// on one core while the encoder takes the others.
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		g.libraryScores(ctx)
	}()
	_, _, err := g.libraryVectors(ctx, nil)
	<-indexed
	return err
}

// Ask is what the caller already knows about one query.
type Ask struct {
	// ToolNeeded says a tool is needed (the user typed /GEAR, or named a
	// tool): no model is asked whether one is, and the choice's
	// confidence is given that some tool is needed.
	ToolNeeded bool
	// Include are tools the pattern stage runs on whatever their rank (a
	// tool the user named).
	Include []string
}

// Ground runs Algorithm 1 on query, with routing, and returns every
// tool's numbers and the decision. It fails only when the query is empty,
// the encoder fails, or ctx ends; a tool or a probe that fails scores P = 0
// and says why.
func (g *Grounder) Ground(ctx context.Context, query string) (*Result, error) {
	return g.GroundWith(ctx, query, Ask{})
}

// GroundWith is Ground with what the caller knows. Everything that does
// not wait for something else starts at once: the routing question (when
// it will be asked, or speculatively), â, the query's embedding (with any
// library text not yet embedded), and the shortlist's calls — at once when
// the library fits in the shortlist or a prefilter ranks it, otherwise when
// the embedding has ranked the tools. Small-model requests are bounded by
// Options.Concurrency and, when the engine's prober can, share one
// response-size budget.
func (g *Grounder) GroundWith(ctx context.Context, query string, ask Ask) (*Result, error) {
	start := time.Now()
	query = strings.TrimSpace(bounded(query, MaxQueryBytes))
	if query == "" {
		return nil, tools.Inputf("grounding: the query is empty")
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	n := len(g.specs)
	res := &Result{Query: query, Engine: g.engine.Name, Tools: make([]ToolScore, n)}
	for i, s := range g.specs {
		res.Tools[i] = ToolScore{Tool: s.Name, Family: string(s.Family), Status: StatusCut}
	}
	route := g.startRoute(ctx, query, ask)
	defer route.stop()

	prober := g.engine.Prober
	if b, ok := prober.(PerQuery); ok {
		prober = b.ForQuery()
	}
	lim := make(limiter, g.opts.Concurrency)
	var wg sync.WaitGroup
	var wmu sync.Mutex
	warn := func(w string) {
		wmu.Lock()
		res.Warnings = append(res.Warnings, w)
		wmu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := lim.acquire(ctx); err != nil {
			return
		}
		a, err := prober.Preliminary(ctx, query)
		lim.release()
		if err != nil {
			warn("preliminary answer: " + err.Error())
		}
		res.Preliminary = a
	}()
	called := make([]bool, n)
	call := func(i int) {
		if called[i] {
			return
		}
		called[i] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Tools[i] = g.probe(ctx, prober, lim, g.specs[i], query)
		}()
	}
	k := g.shortlistSize()
	included := map[int]bool{}
	for _, name := range ask.Include {
		for i, s := range g.specs {
			if s.Name == name {
				included[i] = true
			}
		}
	}
	// The query's embedding (with any library text not yet embedded) is
	// the one request S waits for: send it first, and rank by the
	// prefilter while it is on its way.
	type embedded struct {
		lib []vector
		q   [][]float32
		err error
	}
	embedDone := make(chan embedded, 1)
	go func() {
		lib, q, err := g.libraryVectors(ctx, []string{query})
		embedDone <- embedded{lib, q, err}
	}()
	var sl *Shortlist
	speculated := false
	if k == 0 {
		for i := range g.specs {
			call(i)
		}
	} else {
		sl = &Shortlist{K: k, Of: n, By: ShortlistBy}
		for i := range included {
			call(i)
		}
		if g.engine.Prefilter != nil {
			if lib, q, err := g.prefilterVectors(ctx, query); err != nil {
				warn("prefilter: " + err.Error())
			} else {
				speculated = true
				for _, i := range topK(g.texts.rank(q, lib), k) {
					if !called[i] {
						sl.Speculative++
					}
					call(i)
				}
			}
		}
	}

	e := <-embedDone
	lib, qv, err := e.lib, e.q, e.err
	if err != nil {
		stop()
		wg.Wait()
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return nil, cerr
		}
		return nil, err
	}
	qvec := qv[0]
	S := make([]float64, n)
	for i := range S {
		S[i] = similarityTo(qvec, lib[g.texts.desc[i]])
	}
	// explained is the library scorer's, for the tools it scores.
	explained := make([]float64, n)
	byLibrary := make([]bool, n)
	if ls := g.libraryScores(ctx); ls != nil {
		rel := ls.Relevance(query)
		res.words = rel.Words
		for i := range S {
			if i < len(rel.Scores) && rel.Scores[i] >= 0 {
				S[i] = combineSemantic(S[i], rel.Scores[i])
				byLibrary[i] = true
				if i < len(rel.Explained) {
					explained[i] = rel.Explained[i]
				}
			}
		}
	}
	var top []int
	if sl != nil {
		ranks := g.texts.rank(qvec, lib)
		if g.library != nil {
			// S already weighs the examples, by the library's weights.
			ranks, sl.By = S, ShortlistByLibrary
		}
		top = topK(ranks, k)
		sl.Cut = ranks[top[len(top)-1]]
		if !speculated {
			for _, i := range top {
				call(i)
			}
		}
	}
	wg.Wait()
	if speculated {
		// Shortlisted tools the prefilter missed are called now, a round
		// trip later — unless even the best response could not lift them
		// to the choice made without them.
		g.callLate(res, S, top, called, call, sl)
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.mu.Lock()
	res.Warnings = append(res.Warnings, g.warnings...)
	res.Warnings = append(res.Warnings, g.libWarnings...)
	g.mu.Unlock()

	ps := g.opts.Patterns
	prelim := ps.Encode(bounded(res.Preliminary, maxScoredBytes))
	for i := range res.Tools {
		ts := &res.Tools[i]
		ts.S = S[i]
		ts.Explained = explained[i]
		ts.ByLibrary = byLibrary[i]
		ts.Shortlisted = called[i]
		var gamma float64
		ts.P, gamma = g.patternScore(prelim, ts, g.specs[i])
		ts.ByArguments = fitted(ts, g.specs[i])
		ts.F = gamma*ts.S + (1-gamma)*ts.P
		if sl != nil && called[i] {
			sl.Scored++
		}
	}
	res.Shortlist = sl
	g.decide(ctx, res, ask, route)
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// callLate calls the shortlisted tools (top) the prefilter missed, except
// those whose f could not reach the best f among the tools already called
// whatever their response (P at most PatternSet.Bound against â).
func (g *Grounder) callLate(res *Result, S []float64, top []int, called []bool, call func(int), sl *Shortlist) {
	ps := g.opts.Patterns
	prelim := ps.Encode(res.Preliminary)
	best := -1.0
	for i := range res.Tools {
		if !called[i] {
			continue
		}
		p, gamma := g.patternScore(prelim, &res.Tools[i], g.specs[i])
		best = max(best, gamma*S[i]+(1-gamma)*p)
	}
	bound := ps.Bound(prelim, g.opts.Lambda)
	for _, i := range top {
		if called[i] {
			continue
		}
		if g.reach(S[i], bound, g.specs[i]) < best {
			sl.Pruned++
			continue
		}
		sl.Late++
		call(i)
	}
}
