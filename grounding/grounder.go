// Package grounding is GEAR (papers/gear.txt §3, Algorithm 1): it decides
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
	// Route says who decides "needs a tool?"; see RouteMode.
	Route RouteMode
	// DecisiveBelow and DecisiveAbove bound the band of "needs a tool"
	// probabilities in which RouteCombined asks the model; outside it
	// grounding is decisive and the model call is skipped.
	DecisiveBelow, DecisiveAbove float64
	// ToolTimeout bounds each tool's run during grounding; a tool that
	// takes longer scores P = 0 and shows "timed out".
	ToolTimeout time.Duration
	// Patterns is the pattern set 𝒮 with its prior; nil means
	// DefaultPatterns.
	Patterns *PatternSet
	// Cache keeps tool embeddings across runs; nil keeps them in memory
	// only.
	Cache EmbeddingCache
}

// Defaults. Gamma and Lambda are the paper's (Appendix B.1). Temperature,
// NoneScore and Threshold were fitted on the even-numbered lines of
// testdata/grounding-dev.jsonl with the offline engine and the built-in
// tools — temperature and none score by log loss, then the threshold by
// mean recall over the labels — and the CLI's defaults (config.Defaults)
// carry the same values; TestCalibrationIsFitted in package cli re-fits
// them and fails when they drift. A model engine's scores have another
// scale: re-fit with gear eval --out and the same procedure.
const (
	DefaultGamma         = 0.75
	DefaultLambda        = 1.0
	DefaultTemperature   = 0.0394
	DefaultNoneScore     = 0.2894
	DefaultThreshold     = 0.16
	DefaultDecisiveBelow = 0.1
	DefaultDecisiveAbove = 0.9
	DefaultToolTimeout   = 2 * time.Second
)

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{
		Gamma: DefaultGamma, Lambda: DefaultLambda, Temperature: DefaultTemperature,
		NoneScore: DefaultNoneScore, Threshold: DefaultThreshold,
		DecisiveBelow: DefaultDecisiveBelow, DecisiveAbove: DefaultDecisiveAbove,
		ToolTimeout: DefaultToolTimeout,
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
	if o.DecisiveBelow == 0 && o.DecisiveAbove == 0 {
		o.DecisiveBelow, o.DecisiveAbove = d.DecisiveBelow, d.DecisiveAbove
	}
	if o.Patterns == nil {
		o.Patterns = DefaultPatterns()
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

	mu       sync.Mutex
	memo     map[string][]float32 // text -> unit vector, this engine's model
	vectors  [][]float32          // per tool description, in registry order; nil until prepared
	warnings []string
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
	return &Grounder{reg: reg, specs: reg.Specs(), engine: eng, opts: opts, memo: map[string][]float32{}}, nil
}

// Engine returns the grounder's engine name ("offline", "model").
func (g *Grounder) Engine() string { return g.engine.Name }

// Options returns the options in force.
func (g *Grounder) Options() Options { return g.opts }

// Prepare computes (or loads from the cache) the tool embeddings, so the
// first query does not pay for them. Ground calls it when needed.
func (g *Grounder) Prepare(ctx context.Context) error {
	_, err := g.toolVectors(ctx)
	return err
}

func (g *Grounder) toolVectors(ctx context.Context) ([][]float32, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.vectors != nil {
		return g.vectors, nil
	}
	vecs, warnings, err := embedTools(ctx, g.engine, g.opts.Cache, g.memo, g.specs)
	if err != nil {
		return nil, err
	}
	g.vectors, g.warnings = vecs, warnings
	return vecs, nil
}

// Ground runs Algorithm 1 on query, with routing, and returns every
// tool's numbers and the decision. It fails only when the query is empty,
// the encoder fails, or ctx ends; a tool or a probe that fails scores P = 0
// and says why.
func (g *Grounder) Ground(ctx context.Context, query string) (*Result, error) {
	start := time.Now()
	query = strings.TrimSpace(bounded(query, MaxQueryBytes))
	if query == "" {
		return nil, tools.Inputf("grounding: the query is empty")
	}
	vecs, err := g.toolVectors(ctx)
	if err != nil {
		return nil, err
	}
	res := &Result{Query: query, Engine: g.engine.Name, Tools: make([]ToolScore, len(g.specs))}

	var wg sync.WaitGroup
	var qvec []float32
	var qerr error
	wg.Add(2 + len(g.specs))
	go func() {
		defer wg.Done()
		v, err := g.engine.Encoder.Embed(ctx, []string{query})
		switch {
		case err != nil:
			qerr = fmt.Errorf("grounding: embed query: %w", err)
		case len(v) != 1:
			qerr = fmt.Errorf("grounding: encoder returned %d vectors for 1 text", len(v))
		default:
			qvec = normalize(v[0])
		}
	}()
	go func() {
		defer wg.Done()
		a, err := g.engine.Prober.Preliminary(ctx, query)
		if err != nil {
			res.Warnings = append(res.Warnings, "preliminary answer: "+err.Error())
		}
		res.Preliminary = a
	}()
	for i := range g.specs {
		go func(i int) {
			defer wg.Done()
			res.Tools[i] = g.probe(ctx, g.specs[i], query)
		}(i)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if qerr != nil {
		return nil, qerr
	}
	g.mu.Lock()
	res.Warnings = append(res.Warnings, g.warnings...)
	g.mu.Unlock()

	ps := g.opts.Patterns
	prelim := ps.Encode(bounded(res.Preliminary, maxScoredBytes))
	for i := range res.Tools {
		ts := &res.Tools[i]
		ts.S = similarity(qvec, vecs[i])
		if ts.Status == StatusRun || ts.Status == StatusMock {
			ts.P = ps.Score(prelim, ps.EncodeAs(bounded(ts.Response, maxScoredBytes), g.specs[i].OutputPattern), g.opts.Lambda)
		}
		ts.F = g.opts.Gamma*ts.S + (1-g.opts.Gamma)*ts.P
	}
	g.decide(ctx, res)
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// probe is lines 3–4 of Algorithm 1 for one tool: generate the call, parse
// it, and get the response — the mock if the tool declares one, else a run
// bounded by ToolTimeout.
func (g *Grounder) probe(ctx context.Context, spec tools.Spec, query string) (ts ToolScore) {
	start := time.Now()
	ts = ToolScore{Tool: spec.Name, Family: string(spec.Family)}
	defer func() { ts.ProbeMS = float64(time.Since(start).Microseconds()) / 1000 }()
	text, err := g.engine.Prober.Call(ctx, spec, query)
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
	tool, _ := g.reg.Tool(spec.Name)
	runCtx, cancel := context.WithTimeout(ctx, g.opts.ToolTimeout)
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
	}
	return ts
}
