package offline_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/grounding/offline"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// benchQueries are one query per family and one for none.
var benchQueries = []string{
	"what is 48 multiplied by 4 divided by 2",
	"what time is it in adelaide",
	"I want to talk to someone in Argentina at Apr 12 2012 12:17:18PM in Bogota. What time is it there?",
	"will it rain in Oslo tomorrow?",
	"who wrote the novel Moby-Dick",
	"tell me a joke",
}

type lazyPlaces struct {
	load func() (*place.Gazetteer, error)
}

func (l lazyPlaces) Lookup(name string) (place.Place, bool) {
	g, err := l.load()
	if err != nil {
		return place.Place{}, false
	}
	return g.Lookup(name)
}

// builtin is the built-in library as the CLI builds it, with no network:
// WeatherSearch, LocationSearch and WikiSearch are mocked during
// grounding, and the calculator and the clocks run locally.
func builtin(b testing.TB) (*tools.Registry, *place.Gazetteer) {
	b.Helper()
	places := sync.OnceValues(place.Load)
	g, err := places()
	if err != nil {
		b.Fatal(err)
	}
	wc := weather.Config{Places: lazyPlaces{places}}
	reg, err := tools.NewRegistry(calc.New(),
		timezone.NewCurrentTime(timezone.Options{Places: places}), timezone.NewConverter(timezone.Options{Places: places}),
		weather.NewSearch(wc), weather.NewLocationSearch(wc), wiki.New(wiki.Config{}))
	if err != nil {
		b.Fatal(err)
	}
	return reg, g
}

// runGround grounds the queries in turn and reports the per-query p50 and
// p95 in milliseconds, the figures the targets are stated in.
func runGround(b *testing.B, g *grounding.Grounder, queries []string) {
	ctx := context.Background()
	if err := g.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	// The engine keeps a query's analysis for the tools of one grounding;
	// distinct queries each time keep the benchmark honest.
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := fmt.Sprintf("%s (%d)", queries[i%len(queries)], i)
		start := time.Now()
		if _, err := g.Ground(ctx, q); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	ms := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))].Microseconds()) / 1000 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}

// BenchmarkGroundOffline: the built-in library (the four families, six
// tools). Target: p50 ≤ 2 ms.
func BenchmarkGroundOffline(b *testing.B) {
	reg, gaz := builtin(b)
	eng := offline.New(offline.Options{Places: gaz, Tools: reg.Specs(), Evaluate: func(e string) (string, error) {
		v, err := calc.Eval(e)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	}})
	g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	runGround(b, g, benchQueries)
}

// syntheticTool is one of a thousand generated tools: mocked, like any
// slow or costly tool in a large library.
type syntheticTool struct{ spec tools.Spec }

func (s syntheticTool) Spec() tools.Spec { return s.spec }
func (syntheticTool) Run(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{}, fmt.Errorf("synthetic tools are only grounded")
}

var (
	subjects = []string{"invoice", "flight", "recipe", "song", "package", "stock", "movie", "hotel", "train", "account",
		"recipe", "podcast", "meeting", "parcel", "ticket", "loan", "order", "route", "battery", "garden"}
	verbs  = []string{"Finds", "Books", "Tracks", "Cancels", "Lists", "Rates", "Converts", "Explains", "Counts", "Schedules"}
	params = []tools.Param{{Name: "place", Type: tools.TypePlace}, {Name: "term", Type: tools.TypeString},
		{Name: "amount", Type: tools.TypeNumber}, {Name: "when", Type: tools.TypeDateTime}, {Name: "day", Type: tools.TypeDate, Optional: true}}
	outputs = []string{"", "time", "weather", "", ""}
)

// syntheticLibrary makes n tools with varied descriptions, parameter types,
// output patterns and mocks, plus the built-in calculator.
func syntheticLibrary(b *testing.B, n int) *tools.Registry {
	b.Helper()
	ts := []tools.Tool{calc.New()}
	for i := 0; i < n-1; i++ {
		subj, verb := subjects[i%len(subjects)], verbs[(i/len(subjects))%len(verbs)]
		p := params[i%len(params)]
		if p.Optional {
			p.Optional = false
		}
		ts = append(ts, syntheticTool{tools.Spec{
			Name:          fmt.Sprintf("Tool%04d", i),
			Family:        tools.Family(fmt.Sprintf("family%d", i%37)),
			Description:   fmt.Sprintf("%s the %s you ask about, number %d of the library: its status, price and schedule.", verb, subj, i),
			Params:        []tools.Param{p},
			OutputPattern: outputs[i%len(outputs)],
			Mock:          fmt.Sprintf("The %s {%s} is confirmed for 2024-05-01 10:30, total 42.50.", subj, p.Name),
		}})
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkGroundOffline1000Tools: a library of 1,000 tools. Target: p50
// ≤ 50 ms.
func BenchmarkGroundOffline1000Tools(b *testing.B) {
	_, gaz := builtin(b)
	reg := syntheticLibrary(b, 1000)
	eng := offline.New(offline.Options{Places: gaz, Tools: reg.Specs()})
	g, err := grounding.New(reg, eng.Grounding(), grounding.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	runGround(b, g, benchQueries)
}
