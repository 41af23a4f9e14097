package grounding_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// bigLibrary is the test library plus synthetic tools with mocks, up to n.
func bigLibrary(t testing.TB, n int) *tools.Registry {
	t.Helper()
	var extra []tools.Tool
	for i := 3; i < n; i++ {
		name := fmt.Sprintf("Lookup%04d", i)
		extra = append(extra, &fakeTool{spec: tools.Spec{Name: name, Family: tools.Family(fmt.Sprintf("x%04d", i)),
			Description: fmt.Sprintf("looks up record %d of the archive", i),
			Params:      []tools.Param{{Name: "topic", Type: tools.TypeString}}, Mock: "record about {topic}"},
			run: func(context.Context, tools.Call) (tools.Result, error) {
				t.Error("a tool with a mock must not run during grounding")
				return tools.Result{}, nil
			}})
	}
	reg, _ := library(t, extra...)
	return reg
}

// With a test server standing in for the small model and the embedding
// model, grounding over a 1,000-tool library makes k + 1 small-model calls
// (â and the shortlist's calls), not 1,001, and one embedding request — the
// library's texts travel with the first query's.
func TestShortlistOf1000Tools(t *testing.T) {
	reg := bigLibrary(t, 1000)
	srv, hs := newOpenAIServer(t, scriptedModel)
	client := openAIClient{base: hs.URL, http: hs.Client()}
	eng := grounding.Engine{Name: grounding.EngineModel, Model: "text-embedding-3-small", Encoder: client, Prober: grounding.SLMProber{SLM: client}}
	g, err := grounding.New(reg, eng, grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "what is 48 multiplied by 4 divided by 2 with numbers")
	if err != nil {
		t.Fatal(err)
	}
	k := grounding.DefaultShortlist
	chat, embedCalls, _ := srv.counts()
	if chat != k+1 || embedCalls != 1 {
		t.Errorf("%d small-model calls and %d embedding requests, want k + 1 = %d and 1", chat, embedCalls, k+1)
	}
	sl := res.Shortlist
	if sl == nil || sl.K != k || sl.Of != 1000 || sl.Scored != k || sl.By != grounding.ShortlistBy {
		t.Fatalf("shortlist %+v", sl)
	}
	scored := 0
	for _, ts := range res.Tools {
		switch {
		case ts.Shortlisted:
			scored++
			if ts.S < sl.Cut-1e-9 && ts.Tool != "Calc" {
				// S is the description's cosine; the rank may also use examples.
				t.Logf("%s shortlisted with S %v below the cut %v", ts.Tool, ts.S, sl.Cut)
			}
		case ts.Status != grounding.StatusCut || ts.P != 0 || ts.Call != "":
			t.Errorf("%s is outside the shortlist but has status %q, P %v, call %q", ts.Tool, ts.Status, ts.P, ts.Call)
		}
	}
	if scored != k {
		t.Errorf("%d tools marked shortlisted, want %d", scored, k)
	}
	if res.Choice.Tool != "Calc" || res.Choice.Call != "Calc(48 * 4 / 2)" {
		t.Errorf("choice %+v", res.Choice)
	}

	// The next query embeds only itself and again calls k + 1 times.
	if _, err := g.Ground(context.Background(), "what time is it in Adelaide"); err != nil {
		t.Fatal(err)
	}
	chat2, embedCalls2, _ := srv.counts()
	if chat2-chat != k+1 || embedCalls2-embedCalls != 1 {
		t.Errorf("second query: %d small-model calls, %d embedding requests", chat2-chat, embedCalls2-embedCalls)
	}
}

// gatedSLM counts the small-model requests in flight.
type gatedSLM struct {
	inflight, most, calls atomic.Int32
	hold                  time.Duration
}

func (s *gatedSLM) Complete(ctx context.Context, prompt string) (string, error) {
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	s.calls.Add(1)
	for {
		m := s.most.Load()
		if n <= m || s.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(s.hold)
	return scriptedModel(prompt), nil
}

// Grounding's concurrent small-model requests are bounded: a library
// scored in full never has more than Options.Concurrency in flight.
func TestConcurrencyBound(t *testing.T) {
	t.Parallel()
	reg := bigLibrary(t, 40)
	slm := &gatedSLM{hold: 5 * time.Millisecond}
	opts := grounding.DefaultOptions()
	opts.Shortlist, opts.Concurrency = -1, 4
	g, err := grounding.New(reg, engine(&wordEncoder{}, grounding.SLMProber{SLM: slm}), opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "what is 48 multiplied by 4 divided by 2 with numbers")
	if err != nil {
		t.Fatal(err)
	}
	if slm.calls.Load() != 41 || res.Shortlist != nil {
		t.Errorf("%d calls, shortlist %+v; want all 40 tools and â", slm.calls.Load(), res.Shortlist)
	}
	if m := slm.most.Load(); m > 4 || m < 2 {
		t.Errorf("%d requests in flight at once, want at most 4 (and some concurrency)", m)
	}
}

// With a prefilter, the shortlist's calls start before the query's
// embedding has come back; shortlisted tools the prefilter missed are
// called afterwards (Late) unless they could not reach the choice (Pruned),
// and a tool the caller names is called whatever its rank.
func TestPrefilterStartsCallsAtOnce(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	calls := map[string]string{"Calc": "Calc(96)", "Clock": "Clock()", "Search": `Search("numbers")`}
	opts := grounding.DefaultOptions()
	opts.Shortlist = 1

	// The encoder holds the query's embedding until a call has started:
	// proof, without timing, that the calls do not wait for it.
	started := make(chan struct{})
	var once sync.Once
	pr := &scriptProber{prelim: "96", calls: calls, wait: func(string) { once.Do(func() { close(started) }) }}
	enc := &blockingEncoder{until: started}
	eng := engine(enc, pr)
	eng.Prefilter = &wordEncoder{}
	g, err := grounding.New(reg, eng, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	enc.armed.Store(true)
	res, err := g.Ground(context.Background(), "arithmetic with numbers: 48 times 2")
	if err != nil {
		t.Fatal(err)
	}
	if sl := res.Shortlist; sl == nil || sl.Speculative != 1 || sl.Late != 0 || sl.Scored != 1 || res.Choice.Tool != "Calc" {
		t.Errorf("shortlist %+v, choice %s", sl, res.Choice.Tool)
	}

	// A prefilter that ranks the clock first calls the wrong tool; the
	// right one is called late.
	eng.Encoder = &wordEncoder{}
	eng.Prefilter = fixedEncoder(map[string][]float32{"arithmetic on numbers": {0, 1}, "encyclopedia facts about people": {0, 1}, "the time in a place": {1, 0}})
	g, err = grounding.New(reg, eng, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err = g.GroundWith(context.Background(), "arithmetic with numbers: 48 times 2", grounding.Ask{Include: []string{"Search"}})
	if err != nil {
		t.Fatal(err)
	}
	sl := res.Shortlist
	if sl == nil || sl.Late != 1 || res.Choice.Tool != "Calc" {
		t.Fatalf("shortlist %+v, choice %s", sl, res.Choice.Tool)
	}
	for _, ts := range res.Tools {
		if ts.Tool == "Search" && !ts.Shortlisted {
			t.Errorf("the named tool was not called: %+v", ts)
		}
	}
}

// blockingEncoder holds a query's embedding (a single text), once armed,
// until until is closed.
type blockingEncoder struct {
	wordEncoder
	until chan struct{}
	armed atomic.Bool
}

func (e *blockingEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.armed.Load() && len(texts) == 1 {
		select {
		case <-e.until:
		case <-time.After(5 * time.Second):
			return nil, fmt.Errorf("no call started while the query was being embedded")
		}
	}
	return e.wordEncoder.Embed(ctx, texts)
}

// A shortlisted tool the prefilter missed is not called when even the best
// possible response could not lift it to the choice.
func TestLateCallsPruned(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	opts := grounding.DefaultOptions()
	opts.Shortlist = 2
	pr := &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)", "Clock": "Clock()", "Search": `Search("x")`}}
	eng := engine(&wordEncoder{}, pr)
	// The prefilter ranks Calc and Search first; the encoder ranks Calc
	// first and Clock (no shared word, S = 0) second.
	eng.Prefilter = fixedEncoder(map[string][]float32{"arithmetic on numbers": {1, 0}, "encyclopedia facts about people": {0.5, 0}, "the time in a place": {0, 1}})
	g, err := grounding.New(reg, eng, opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "arithmetic numbers numbers")
	if err != nil {
		t.Fatal(err)
	}
	sl := res.Shortlist
	if sl == nil || sl.Speculative != 2 || sl.Late+sl.Pruned != 1 || res.Choice.Tool != "Calc" {
		t.Fatalf("shortlist %+v, choice %s", sl, res.Choice.Tool)
	}
	if sl.Pruned != 1 {
		t.Errorf("Clock (S = 0) could not reach Calc, yet it was called: %+v", sl)
	}
}

// fixedEncoder gives each library text a fixed vector and any other text
// (the query) the first axis.
type fixedEncoder map[string][]float32

func (f fixedEncoder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if v, ok := f[t]; ok {
			out[i] = v
		} else if strings.TrimSpace(t) != "" {
			out[i] = []float32{1, 0}
		}
	}
	return out, nil
}

// budgetSLM records the shared budgets grounding asks for.
type budgetSLM struct {
	mu      sync.Mutex
	budgets []int64
	calls   []int // calls made through each budget
}

func (s *budgetSLM) Complete(ctx context.Context, prompt string) (string, error) {
	return "", fmt.Errorf("called outside a shared budget")
}

func (s *budgetSLM) WithSharedBudget(size int64) func(context.Context, string) (string, error) {
	s.mu.Lock()
	i := len(s.budgets)
	s.budgets = append(s.budgets, size)
	s.calls = append(s.calls, 0)
	s.mu.Unlock()
	return func(_ context.Context, prompt string) (string, error) {
		s.mu.Lock()
		s.calls[i]++
		s.mu.Unlock()
		return scriptedModel(prompt), nil
	}
}

// Every small-model request of one query goes through one shared
// response budget, a new one per query.
func TestOneResponseBudgetPerQuery(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	slm := &budgetSLM{}
	g, err := grounding.New(reg, engine(&wordEncoder{}, grounding.SLMProber{SLM: slm}), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"what is 48 times 2 with numbers", "what time is it"} {
		res, err := g.Ground(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			t.Errorf("warning: %s", w)
		}
	}
	if len(slm.budgets) != 2 || slm.budgets[0] != grounding.DefaultResponseBudget || slm.calls[0] != reg.Len()+1 || slm.calls[1] != reg.Len()+1 {
		t.Errorf("budgets %v with %v calls; want one of %d bytes per query, each for all %d calls", slm.budgets, slm.calls,
			grounding.DefaultResponseBudget, reg.Len()+1)
	}
}

// The prefilter's vectors of the library are computed once and kept in
// the cache under Engine.PrefilterModel: a second grounder (a new process)
// over the same cache asks the prefilter for the query's vector only.
func TestPrefilterVectorsCached(t *testing.T) {
	t.Parallel()
	reg := bigLibrary(t, 20)
	cache := &memoryCache{}
	opts := grounding.DefaultOptions()
	opts.Shortlist, opts.Cache = 4, cache
	newGrounder := func(pre *wordEncoder) *grounding.Grounder {
		eng := engine(&wordEncoder{}, &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)"}})
		eng.Prefilter, eng.PrefilterModel = pre, "words-prefilter"
		g, err := grounding.New(reg, eng, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		return g
	}
	first := &wordEncoder{}
	newGrounder(first)
	if got := first.texts.Load(); got != int32(reg.Len()) {
		t.Errorf("the first grounder's prefilter embedded %d texts, want the %d descriptions", got, reg.Len())
	}
	second := &wordEncoder{}
	g := newGrounder(second)
	if _, err := g.Ground(context.Background(), "arithmetic numbers"); err != nil {
		t.Fatal(err)
	}
	if got := second.texts.Load(); got != 1 {
		t.Errorf("a new grounder's prefilter embedded %d texts, want the query alone", got)
	}
}
