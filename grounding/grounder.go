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

	"github.com/gear-chat/gear/grounding/calibration"
	"github.com/gear-chat/gear/tools"
)

// Options are GEAR's parameters. Zero values take the defaults of
// DefaultOptions; config.Grounding maps onto them.
type Options struct {
	// Gamma weighs S against P (paper: 0.75).
	Gamma float64
	// Lambda is P's add-λ smoothing (paper: 1).
	Lambda float64
	// Temperature divides the scores before the softmax that makes them
	// probabilities; fitted on the dev file (see confidence.go).
	Temperature float64
	// NoneScore is the score of the "none" candidate: a tool must score
	// above it to be likelier than no tool at all. Fitted with Temperature.
	NoneScore float64
	// Threshold is the probability that the query needs a tool below which
	// it routes to none.
	Threshold float64
	// Confidence maps the choice's softmax share to the confidence shown
	// when the threshold routes (confidence.go); the zero map shows the
	// share itself.
	Confidence ConfidenceMap
	// LibraryConfidence is the map for a decision whose best tool the
	// engine scored by library relevance (ToolScore.ByLibrary: a tool
	// whose subject the engine does not know, among a library's): those
	// scores have another scale than the known tools', so they are
	// calibrated on tool libraries' labelled queries instead.
	LibraryConfidence ConfidenceMap
	// Route says who decides "needs a tool?"; see RouteMode.
	Route RouteMode
	// DecisiveBelow and DecisiveAbove bound the band of "needs a tool"
	// probabilities in which RouteCombined asks the model; outside it
	// grounding is decisive and the model call is skipped.
	DecisiveBelow, DecisiveAbove float64
	// ToolTimeout bounds each tool's run during grounding; a tool that
	// takes longer scores P = 0 and shows "timed out".
	ToolTimeout time.Duration
	// ExternalToolTimeout bounds the scoring run of a tool gear did not
	// write (an MCP server's, a declared one's): such a tool may be slow
	// or hang (a server waiting on a request gear never answers), and an
	// answer the built-in tools can give must not wait on it. Past the
	// budget the tool is scored as one that is never run is — by its
	// arguments read with its output pattern — and says so in Error.
	ExternalToolTimeout time.Duration
	// Patterns is the pattern set 𝒮 with its prior; nil means
	// DefaultPatterns.
	Patterns *PatternSet
	// Cache keeps tool embeddings across runs; nil keeps them in memory
	// only.
	Cache EmbeddingCache
	// CacheLibrary keeps a large library's vectors (LibraryIndexMinTexts
	// texts or more) in Cache as one record, keyed by a digest of every
	// text, instead of one record a text, and a smaller library's not at
	// all (see index_cache.go): for a local encoder, whose vectors cost
	// little to compute and much to store one by one.
	CacheLibrary bool
	// Shortlist is k, the number of tools (ranked by the semantic score)
	// the pattern stage runs on; see shortlist.go. 0 means
	// DefaultShortlist for the model engine and DefaultOfflineShortlist
	// for the offline engine; negative means every tool.
	Shortlist int
	// Concurrency bounds the small-model requests in flight at once (0
	// means DefaultConcurrency).
	Concurrency int
	// SpeculativeRoute, in RouteCombined, starts the yes/no question with
	// grounding's requests and cancels it when grounding is decisive: a
	// query that is not decisive then costs no extra round trip, and
	// every query one more request.
	SpeculativeRoute bool
}

// Defaults. Gamma and Lambda are the paper's (Appendix B.1). Temperature,
// NoneScore, Threshold and the confidence map are fitted on the labelled
// dev file with the offline engine and the built-in tools (FitShipped) and
// generated into package calibration, which config.Defaults reads too:
// go generate ./grounding/calibration re-fits them, and a test in package
// cli fails when they drift. A model engine's scores have another scale:
// re-fit with gear tune.
const (
	DefaultGamma         = 0.75
	DefaultLambda        = 1.0
	DefaultTemperature   = calibration.Temperature
	DefaultNoneScore     = calibration.NoneScore
	DefaultThreshold     = calibration.Threshold
	DefaultDecisiveBelow = 0.1
	DefaultDecisiveAbove = 0.9
	DefaultToolTimeout   = 2 * time.Second
	// DefaultExternalToolTimeout is a local server's round trip with room
	// to spare, far under a person's notice.
	DefaultExternalToolTimeout = 300 * time.Millisecond
)

// DefaultConfidenceMap is the fitted confidence map.
func DefaultConfidenceMap() ConfidenceMap {
	return ConfidenceMap{
		None: Platt{A: calibration.NoneA, B: calibration.NoneB},
		Tool: Platt{A: calibration.ToolA, B: calibration.ToolB},
	}
}

// DefaultLibraryConfidenceMap is the fitted confidence map for choices
// among tools scored by library relevance.
func DefaultLibraryConfidenceMap() ConfidenceMap {
	return ConfidenceMap{
		None: Platt{A: calibration.LibraryNoneA, B: calibration.LibraryNoneB, C: calibration.LibraryNoneC},
		Tool: Platt{A: calibration.LibraryToolA, B: calibration.LibraryToolB, C: calibration.LibraryToolC},
	}
}

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{
		Gamma: DefaultGamma, Lambda: DefaultLambda, Temperature: DefaultTemperature,
		NoneScore: DefaultNoneScore, Threshold: DefaultThreshold, Confidence: DefaultConfidenceMap(),
		LibraryConfidence: DefaultLibraryConfidenceMap(),
		DecisiveBelow:     DefaultDecisiveBelow, DecisiveAbove: DefaultDecisiveAbove,
		ToolTimeout: DefaultToolTimeout, ExternalToolTimeout: DefaultExternalToolTimeout,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Temperature <= 0 {
		o.Temperature = d.Temperature
	}
	if o.ToolTimeout <= 0 {
		o.ToolTimeout = d.ToolTimeout
	}
	if o.ExternalToolTimeout <= 0 {
		o.ExternalToolTimeout = d.ExternalToolTimeout
	}
	o.ExternalToolTimeout = min(o.ExternalToolTimeout, o.ToolTimeout)
	if o.DecisiveBelow == 0 && o.DecisiveAbove == 0 {
		o.DecisiveBelow, o.DecisiveAbove = d.DecisiveBelow, d.DecisiveAbove
	}
	if o.Patterns == nil {
		o.Patterns = DefaultPatterns()
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	return o
}

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

	libOnce sync.Once
	library LibraryScores // nil without Engine.Library

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
func (g *Grounder) libraryScores() LibraryScores {
	if g.engine.Library == nil {
		return nil
	}
	g.libOnce.Do(func() { g.library = g.engine.Library.IndexTools(g.specs) })
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
	g.libraryScores()
	_, _, err := g.libraryVectors(ctx, nil)
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
	if ls := g.libraryScores(); ls != nil {
		rel := ls.Relevance(query)
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
	g.mu.Unlock()

	ps := g.opts.Patterns
	prelim := ps.Encode(bounded(res.Preliminary, maxScoredBytes))
	for i := range res.Tools {
		ts := &res.Tools[i]
		ts.S = S[i]
		ts.Explained = explained[i]
		ts.ByLibrary = byLibrary[i]
		ts.Shortlisted = called[i]
		if ts.Status == StatusRun || ts.Status == StatusMock {
			ts.P = ps.Score(prelim, ps.EncodeAs(bounded(ts.Response, maxScoredBytes), g.specs[i].OutputPattern), g.opts.Lambda)
		}
		ts.F = g.opts.Gamma*ts.S + (1-g.opts.Gamma)*ts.P
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
	for i, ts := range res.Tools {
		if !called[i] {
			continue
		}
		f := g.opts.Gamma * S[i]
		if ts.Status == StatusRun || ts.Status == StatusMock {
			f += (1 - g.opts.Gamma) * ps.Score(prelim, ps.EncodeAs(ts.Response, g.specs[i].OutputPattern), g.opts.Lambda)
		}
		best = max(best, f)
	}
	reach := (1 - g.opts.Gamma) * ps.Bound(prelim, g.opts.Lambda)
	for _, i := range top {
		if called[i] {
			continue
		}
		if g.opts.Gamma*S[i]+reach < best {
			sl.Pruned++
			continue
		}
		sl.Late++
		call(i)
	}
}

// PerQuery is a Prober that makes a view of itself for one query: the
// model prober's view shares one response-size budget among the query's
// requests (see SLMProber.ResponseBudget).
type PerQuery interface {
	ForQuery() Prober
}

// probe is lines 3–4 of Algorithm 1 for one tool: generate the call, parse
// it, and get the response — the mock if the tool declares one, else a run
// bounded by ToolTimeout. The model request waits for a slot of lim.
func (g *Grounder) probe(ctx context.Context, prober Prober, lim limiter, spec tools.Spec, query string) (ts ToolScore) {
	start := time.Now()
	ts = ToolScore{Tool: spec.Name, Family: string(spec.Family)}
	defer func() { ts.ProbeMS = float64(time.Since(start).Microseconds()) / 1000 }()
	if err := lim.acquire(ctx); err != nil {
		ts.Status, ts.Error = StatusNoCall, err.Error()
		return ts
	}
	var text string
	var err error
	if reader, ok := prober.(CallReader); ok {
		var reading *CallReading
		text, reading, err = reader.ReadCall(ctx, spec, query)
		if err == nil {
			ts.Reading = reading
		}
	} else {
		text, err = prober.Call(ctx, spec, query)
	}
	lim.release()
	ts.Generated = text
	if err != nil {
		ts.Status, ts.Error = StatusNoCall, err.Error()
		return ts
	}
	if strings.TrimSpace(text) == "" {
		ts.Status = StatusNoCall
		return ts
	}
	call, err := g.reg.Parse(text)
	if err == nil && call.Tool != spec.Name {
		err = fmt.Errorf("the call is for %s, not %s", call.Tool, spec.Name)
	}
	if err != nil {
		ts.Status, ts.Error = StatusUnparsable, err.Error()
		return ts
	}
	ts.Call = call.String()
	if spec.Mock != "" {
		ts.Status, ts.Response = StatusMock, spec.MockResponse(call)
		return ts
	}
	if spec.Effect != "" && !spec.Effect.ReadOnly() {
		// A tool that may write or cost is never run to score it
		// (Appendix A.3). Without a mock of its own, what is known of its
		// answer is what the call is about: its arguments.
		ts.Status, ts.Response = StatusMock, argumentsText(call)
		return ts
	}
	tool, _ := g.reg.Tool(spec.Name)
	budget := g.opts.ToolTimeout
	if !spec.Source.IsBuiltin() {
		budget = g.opts.ExternalToolTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type outcome struct {
		res tools.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := tool.Run(runCtx, call)
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			ts.Status, ts.Error = StatusFailed, o.err.Error()
			return ts
		}
		ts.Status, ts.Response = StatusRun, o.res.Text
	case <-runCtx.Done():
		// The tool may still be running; its goroutine ends when it
		// notices the cancelled context, and its answer is dropped.
		ts.Status, ts.Response = StatusTimedOut, "timed out"
		if !spec.Source.IsBuiltin() && ctx.Err() == nil {
			ts.Status, ts.Response = StatusMock, argumentsText(call)
			ts.Error = fmt.Sprintf("no answer within %s; scored by its arguments", budget)
		}
	}
	return ts
}

// argumentsText is a call's arguments as a response: their texts, joined.
func argumentsText(c tools.Call) string {
	parts := make([]string, len(c.Args))
	for i, a := range c.Args {
		parts[i] = a.Value.Text()
	}
	return strings.Join(parts, ", ")
}
