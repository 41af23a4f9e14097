package grounding_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// fakeTool runs with a function, so tests decide what a run does.
type fakeTool struct {
	spec tools.Spec
	run  func(ctx context.Context, c tools.Call) (tools.Result, error)
	runs atomic.Int32
}

func (f *fakeTool) Spec() tools.Spec { return f.spec }
func (f *fakeTool) Run(ctx context.Context, c tools.Call) (tools.Result, error) {
	f.runs.Add(1)
	return f.run(ctx, c)
}

func answer(text string) func(context.Context, tools.Call) (tools.Result, error) {
	return func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{Text: text}, nil }
}

// library is a small library: a calculator, a clock, a mocked search.
func library(t testing.TB, extra ...tools.Tool) (*tools.Registry, map[string]*fakeTool) {
	t.Helper()
	calc := &fakeTool{spec: tools.Spec{Name: "Calc", Family: tools.FamilyCalc, Description: "arithmetic on numbers",
		Params: []tools.Param{{Name: "expression", Type: tools.TypeExpression}}}, run: answer("96")}
	clock := &fakeTool{spec: tools.Spec{Name: "Clock", Family: tools.FamilyTimezone, Description: "the time in a place",
		Params: []tools.Param{{Name: "place", Type: tools.TypePlace, Optional: true}}, OutputPattern: "time"},
		run: answer("2024-05-01 10:30:00")}
	search := &fakeTool{spec: tools.Spec{Name: "Search", Family: tools.FamilyWiki, Description: "encyclopedia facts about people",
		Params: []tools.Param{{Name: "term", Type: tools.TypeString}}, Mock: "{term} is a topic of an article."},
		run: func(context.Context, tools.Call) (tools.Result, error) {
			t.Error("a tool with a mock must not run during grounding")
			return tools.Result{}, nil
		}}
	all := []tools.Tool{calc, clock, search}
	all = append(all, extra...)
	reg, err := tools.NewRegistry(all...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, map[string]*fakeTool{"Calc": calc, "Clock": clock, "Search": search}
}

// wordEncoder embeds a text as counts of a few words: deterministic and
// enough to make S differ between tools.
type wordEncoder struct {
	calls atomic.Int32
	texts atomic.Int32
	fail  error
}

var vocabulary = []string{"arithmetic", "numbers", "time", "place", "encyclopedia", "people", "what", "who"}

func (e *wordEncoder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	e.texts.Add(int32(len(texts)))
	if e.fail != nil {
		return nil, e.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(vocabulary))
		for k, w := range vocabulary {
			v[k] = float32(strings.Count(strings.ToLower(t), w))
		}
		out[i] = v
	}
	return out, nil
}

// scriptProber answers from maps: the preliminary answer and, per tool,
// the call text.
type scriptProber struct {
	prelim string
	calls  map[string]string
	wait   func(tool string) // called before answering a tool, if set
	err    map[string]error
}

func (p *scriptProber) Preliminary(context.Context, string) (string, error) { return p.prelim, nil }
func (p *scriptProber) Call(_ context.Context, spec tools.Spec, _ string) (string, error) {
	if p.wait != nil {
		p.wait(spec.Name)
	}
	if err := p.err[spec.Name]; err != nil {
		return "", err
	}
	return p.calls[spec.Name], nil
}

func engine(enc grounding.Encoder, pr grounding.Prober) grounding.Engine {
	return grounding.Engine{Name: "test", Model: "words-v1", Encoder: enc, Prober: pr}
}

func TestGroundScoresEveryTool(t *testing.T) {
	reg, tl := library(t)
	pr := &scriptProber{prelim: "96", calls: map[string]string{
		"Calc":   "Calc(48 * 4 / 2)",
		"Clock":  `Clock("Adelaide")`,
		"Search": `Search("what is 48 times 4")`,
	}}
	opts := grounding.DefaultOptions()
	g, err := grounding.New(reg, engine(&wordEncoder{}, pr), opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "  what is 48 multiplied by 4 divided by 2 with numbers ")
	if err != nil {
		t.Fatal(err)
	}
	if res.Query != "what is 48 multiplied by 4 divided by 2 with numbers" || res.Engine != "test" || res.Preliminary != "96" {
		t.Errorf("result header %q %q %q", res.Query, res.Engine, res.Preliminary)
	}
	byName := map[string]grounding.ToolScore{}
	sum := res.NoneProbability
	for _, ts := range res.Tools {
		byName[ts.Tool] = ts
		sum += ts.Probability
		if want := opts.Gamma*ts.S + (1-opts.Gamma)*ts.P; math.Abs(ts.F-want) > 1e-12 {
			t.Errorf("%s: f = %v, want γS + (1−γ)P = %v", ts.Tool, ts.F, want)
		}
		if ts.S < 0 || ts.S > 1 || ts.P < 0 {
			t.Errorf("%s: S %v P %v out of range", ts.Tool, ts.S, ts.P)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("probabilities sum to %v", sum)
	}
	if c := byName["Calc"]; c.Status != grounding.StatusRun || c.Response != "96" || c.Call != "Calc(48 * 4 / 2)" {
		t.Errorf("Calc %+v", c)
	}
	if s := byName["Search"]; s.Status != grounding.StatusMock || s.Response != "what is 48 times 4 is a topic of an article." {
		t.Errorf("Search %+v", s)
	}
	if tl["Search"].runs.Load() != 0 {
		t.Error("the mocked tool ran")
	}
	if res.Choice.Tool != "Calc" || res.Choice.Family != "calc" || res.Choice.Response != "96" {
		t.Errorf("choice %+v", res.Choice)
	}
	want := grounding.DefaultConfidenceMap().Apply(byName["Calc"].Probability, false)
	if c := res.Choice.Confidence; c < 0 || c > 1 || c != want {
		t.Errorf("confidence %v, want Calc's probability %v mapped: %v", c, byName["Calc"].Probability, want)
	}
	if best, _ := res.Best(); best.Tool != "Calc" {
		t.Errorf("best %s", best.Tool)
	}
	if r := res.Ranked(); r[0].Tool != "Calc" || r[0].F < r[1].F || r[1].F < r[2].F {
		t.Errorf("ranked %v", r)
	}
}

func TestGroundProbeFailures(t *testing.T) {
	failing := &fakeTool{spec: tools.Spec{Name: "Broken", Family: "broken", Description: "fails",
		Params: []tools.Param{{Name: "x", Type: tools.TypeNumber}}},
		run: func(context.Context, tools.Call) (tools.Result, error) {
			return tools.Result{}, tools.Inputf("no such x")
		}}
	reg, _ := library(t, failing)
	pr := &scriptProber{prelim: "42", calls: map[string]string{
		"Calc":   "Calc(2 +",    // unparsable
		"Clock":  `Search("x")`, // a call of another tool
		"Search": "",            // no call at all
		"Broken": "Broken(3)",   // parses, the tool fails
	}}
	g, err := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "anything")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]grounding.ProbeStatus{"Calc": grounding.StatusUnparsable, "Clock": grounding.StatusUnparsable,
		"Search": grounding.StatusNoCall, "Broken": grounding.StatusFailed}
	for _, ts := range res.Tools {
		if ts.Status != want[ts.Tool] || ts.P != 0 || ts.Response != "" {
			t.Errorf("%s: status %q P %v response %q, want %q and P = 0", ts.Tool, ts.Status, ts.P, ts.Response, want[ts.Tool])
		}
		if ts.Status != grounding.StatusNoCall && ts.Error == "" {
			t.Errorf("%s: no error recorded", ts.Tool)
		}
	}
}

// TestGroundProbesConcurrently makes every tool's call wait until all of
// them have started: sequential probes would never get there.
func TestGroundProbesConcurrently(t *testing.T) {
	reg, _ := library(t)
	var wg sync.WaitGroup
	wg.Add(reg.Len())
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	pr := &scriptProber{prelim: "1", calls: map[string]string{}, wait: func(string) {
		wg.Done()
		select {
		case <-all:
		case <-time.After(5 * time.Second):
		}
	}}
	g, _ := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := g.Ground(context.Background(), "q"); err != nil {
			t.Error(err)
		}
	}()
	select {
	case <-all:
	case <-time.After(5 * time.Second):
		t.Fatal("the probes did not all start together")
	}
	<-done
}

// TestGroundToolDeadline: a tool that ignores its context cannot hold
// grounding past ToolTimeout; it shows "timed out" and scores P = 0.
func TestGroundToolDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := &fakeTool{spec: tools.Spec{Name: "Slow", Family: "slow", Description: "takes forever",
		Params: []tools.Param{{Name: "x", Type: tools.TypeNumber}}},
		run: func(context.Context, tools.Call) (tools.Result, error) {
			<-release // ignores ctx on purpose
			return tools.Result{Text: "late"}, nil
		}}
	reg, _ := library(t, slow)
	pr := &scriptProber{prelim: "1", calls: map[string]string{"Slow": "Slow(1)", "Calc": "Calc(1 + 1)"}}
	opts := grounding.DefaultOptions()
	opts.ToolTimeout = 20 * time.Millisecond
	g, _ := grounding.New(reg, engine(&wordEncoder{}, pr), opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := g.Ground(ctx, "q")
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range res.Tools {
		switch ts.Tool {
		case "Slow":
			if ts.Status != grounding.StatusTimedOut || ts.Response != "timed out" || ts.P != 0 {
				t.Errorf("Slow: %+v", ts)
			}
		case "Calc":
			if ts.Status != grounding.StatusRun {
				t.Errorf("Calc: %+v", ts)
			}
		}
	}
}

func TestGroundErrors(t *testing.T) {
	reg, _ := library(t)
	pr := &scriptProber{calls: map[string]string{}}
	g, _ := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	if _, err := g.Ground(context.Background(), " \t"); !tools.IsInput(err) {
		t.Errorf("empty query: %v, want an input error", err)
	}
	bad := &wordEncoder{fail: errors.New("endpoint down")}
	g2, _ := grounding.New(reg, engine(bad, pr), grounding.DefaultOptions())
	if _, err := g2.Ground(context.Background(), "q"); err == nil || !strings.Contains(err.Error(), "endpoint down") {
		t.Errorf("encoder failure: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Ground(ctx, "q"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	pr2 := &scriptProber{calls: map[string]string{}, err: map[string]error{"Calc": errors.New("model down")}}
	g3, _ := grounding.New(reg, engine(&wordEncoder{}, pr2), grounding.DefaultOptions())
	res, err := g3.Ground(context.Background(), "q")
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Status != grounding.StatusNoCall || !strings.Contains(res.Tools[0].Error, "model down") {
		t.Errorf("a failing probe: %+v", res.Tools[0])
	}
}

func TestNewRejects(t *testing.T) {
	reg, _ := library(t)
	odd := &fakeTool{spec: tools.Spec{Name: "Odd", Family: "odd", Description: "odd", OutputPattern: "smell"}, run: answer("")}
	oddReg, err := tools.NewRegistry(odd)
	if err != nil {
		t.Fatal(err)
	}
	ok := engine(&wordEncoder{}, &scriptProber{})
	tests := []struct {
		name string
		reg  *tools.Registry
		eng  grounding.Engine
		mod  func(*grounding.Options)
		want string
	}{
		{"no library", nil, ok, nil, "no tool library"},
		{"no encoder", reg, grounding.Engine{Name: "x", Prober: &scriptProber{}}, nil, "encoder"},
		{"no name", reg, grounding.Engine{Encoder: &wordEncoder{}, Prober: &scriptProber{}}, nil, "no name"},
		{"gamma", reg, ok, func(o *grounding.Options) { o.Gamma = 1.5 }, "gamma"},
		{"lambda", reg, ok, func(o *grounding.Options) { o.Lambda = -1 }, "lambda"},
		{"threshold", reg, ok, func(o *grounding.Options) { o.Threshold = 2 }, "threshold"},
		{"route", reg, ok, func(o *grounding.Options) { o.Route = "coin" }, "route mode"},
		{"pattern", oddReg, ok, nil, `unknown output pattern "smell"`},
	}
	for _, tt := range tests {
		opts := grounding.DefaultOptions()
		if tt.mod != nil {
			tt.mod(&opts)
		}
		if _, err := grounding.New(tt.reg, tt.eng, opts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// memoryCache is an EmbeddingCache in memory, counting what it is asked.
type memoryCache struct {
	mu     sync.Mutex
	m      map[string][]float32
	loads  int
	stores int
	fail   error
}

func (c *memoryCache) CachedEmbeddings(_ context.Context, model string, texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loads++
	if c.fail != nil {
		return nil, c.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = c.m[model+"\x00"+t]
	}
	return out, nil
}

func (c *memoryCache) PutEmbeddings(_ context.Context, model string, texts []string, vecs [][]float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stores++
	if c.fail != nil {
		return c.fail
	}
	if c.m == nil {
		c.m = map[string][]float32{}
	}
	for i, t := range texts {
		c.m[model+"\x00"+t] = vecs[i]
	}
	return nil
}

// TestDescriptionEmbeddingsCached: descriptions are embedded once per
// grounder, and a second grounder over the same cache embeds none.
func TestDescriptionEmbeddingsCached(t *testing.T) {
	reg, _ := library(t)
	cache := &memoryCache{}
	enc := &wordEncoder{}
	opts := grounding.DefaultOptions()
	opts.Cache = cache
	g, _ := grounding.New(reg, engine(enc, &scriptProber{calls: map[string]string{}}), opts)
	for i := 0; i < 3; i++ {
		if _, err := g.Ground(context.Background(), "what time"); err != nil {
			t.Fatal(err)
		}
	}
	// One batch of 3 descriptions, then one query per turn.
	if got := enc.texts.Load(); got != 3+3 {
		t.Errorf("embedded %d texts, want 3 descriptions + 3 queries", got)
	}
	if cache.loads != 1 || cache.stores != 1 {
		t.Errorf("cache loads %d stores %d, want 1 and 1", cache.loads, cache.stores)
	}
	enc2 := &wordEncoder{}
	g2, _ := grounding.New(reg, engine(enc2, &scriptProber{calls: map[string]string{}}), opts)
	if err := g2.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := g2.Ground(context.Background(), "what time"); err != nil {
		t.Fatal(err)
	}
	if got := enc2.texts.Load(); got != 1 {
		t.Errorf("second grounder embedded %d texts, want the query only", got)
	}
	// Another model's vectors are never used.
	other := engine(&wordEncoder{}, &scriptProber{calls: map[string]string{}})
	other.Model = "words-v2"
	enc3 := other.Encoder.(*wordEncoder)
	g3, _ := grounding.New(reg, other, opts)
	if err := g3.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := enc3.texts.Load(); got != 3 {
		t.Errorf("a new model embedded %d descriptions, want 3", got)
	}
}

// gatedEncoder holds every batch of more than one text (the library's)
// until release closes, and records each batch's texts.
type gatedEncoder struct {
	wordEncoder
	release chan struct{}
	held    chan struct{} // one value when a library batch is held
	mu      sync.Mutex
	batches [][]string
}

func (g *gatedEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	g.mu.Lock()
	g.batches = append(g.batches, append([]string(nil), texts...))
	g.mu.Unlock()
	if len(texts) > 1 {
		g.held <- struct{}{}
		select {
		case <-g.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.wordEncoder.Embed(ctx, texts)
}

// A query that comes while the start-up Prepare is still embedding the
// library does not send the library again: it embeds its own text alone,
// meanwhile, and takes the library's vectors when they arrive — the
// library is embedded once, and the turn waits no longer than Prepare.
func TestQueryJoinsTheLibraryEmbeddingUnderWay(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	enc := &gatedEncoder{release: make(chan struct{}), held: make(chan struct{}, 4)}
	g, err := grounding.New(reg, engine(enc, &scriptProber{calls: map[string]string{}}), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	prepared := make(chan error, 1)
	go func() { prepared <- g.Prepare(context.Background()) }()
	<-enc.held
	grounded := make(chan error, 1)
	go func() {
		_, err := g.Ground(context.Background(), "what time")
		grounded <- err
	}()
	// The query's own embedding goes out while the library's is held.
	deadline := time.After(5 * time.Second)
	for {
		enc.mu.Lock()
		n := len(enc.batches)
		enc.mu.Unlock()
		if n == 2 {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("the query's embedding was not sent while the library's was under way (%d batches)", n)
		case <-time.After(time.Millisecond):
		}
	}
	select {
	case err := <-grounded:
		t.Fatalf("grounding ended (%v) before the library's vectors arrived", err)
	default:
	}
	close(enc.release)
	if err := <-grounded; err != nil {
		t.Fatal(err)
	}
	if err := <-prepared; err != nil {
		t.Fatal(err)
	}
	enc.mu.Lock()
	defer enc.mu.Unlock()
	if len(enc.batches) != 2 || len(enc.batches[0]) != 3 || len(enc.batches[1]) != 1 || enc.batches[1][0] != "what time" {
		t.Errorf("batches %q; want the library's 3 descriptions once, and the query alone", enc.batches)
	}
}

// A query that joined a library embedding which then failed (its caller
// gave up) embeds the library itself.
func TestQueryRetriesAFailedLibraryEmbedding(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	enc := &gatedEncoder{release: make(chan struct{}), held: make(chan struct{}, 4)}
	g, err := grounding.New(reg, engine(enc, &scriptProber{calls: map[string]string{}}), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	prepared := make(chan error, 1)
	go func() { prepared <- g.Prepare(ctx) }()
	<-enc.held
	grounded := make(chan error, 1)
	go func() {
		_, err := g.Ground(context.Background(), "what time")
		grounded <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-prepared; !errors.Is(err, context.Canceled) {
		t.Fatalf("Prepare: %v, want cancelled", err)
	}
	<-enc.held // the query's own attempt at the library
	close(enc.release)
	if err := <-grounded; err != nil {
		t.Fatalf("the query should embed the library itself: %v", err)
	}
}

func TestBrokenCacheIsAWarning(t *testing.T) {
	reg, _ := library(t)
	opts := grounding.DefaultOptions()
	opts.Cache = &memoryCache{fail: errors.New("database is locked")}
	g, _ := grounding.New(reg, engine(&wordEncoder{}, &scriptProber{calls: map[string]string{}}), opts)
	res, err := g.Ground(context.Background(), "q")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[0], "database is locked") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestGroundNeverRunsAToolThatWrites: a tool whose effect says it may
// write is scored on its arguments, never run, even without a mock.
func TestGroundNeverRunsAToolThatWrites(t *testing.T) {
	writer := &fakeTool{spec: tools.Spec{Name: "Save", Family: "files", Description: "save numbers to a file",
		Effect: tools.EffectWrites, Params: []tools.Param{{Name: "a", Type: tools.TypeNumber}, {Name: "b", Type: tools.TypeNumber}}},
		run: func(context.Context, tools.Call) (tools.Result, error) {
			t.Error("a tool that writes ran during grounding")
			return tools.Result{}, nil
		}}
	reg, _ := library(t, writer)
	pr := &scriptProber{prelim: "5", calls: map[string]string{"Save": "Save(2, 3)"}}
	g, err := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := g.Ground(context.Background(), "save the numbers 2 and 3")
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range res.Tools {
		if ts.Tool == "Save" && (ts.Status != grounding.StatusMock || ts.Response != "2, 3") {
			t.Errorf("Save: status %q response %q", ts.Status, ts.Response)
		}
	}
	if writer.runs.Load() != 0 {
		t.Errorf("ran %d times", writer.runs.Load())
	}
}
