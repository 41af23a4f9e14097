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
	"github.com/gear-chat/gear/store"
)

type fakeYesNo struct {
	answer bool
	err    error
	calls  atomic.Int32
	prompt string
}

func (y *fakeYesNo) YesNo(_ context.Context, prompt string) (bool, error) {
	y.calls.Add(1)
	y.prompt = prompt
	return y.answer, y.err
}

// undecided marks a case whose none score is set to make grounding
// exactly undecided.
const undecided = -99

// TestRouting covers the three modes. The library's calculator answers
// "96" to a "96" preliminary answer: with the default calibration the
// query is decisively a tool query; with a high none score it is
// decisively not; in between it is for the model to say.
func TestRouting(t *testing.T) {
	reg, _ := library(t)
	pr := &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)"}}
	tests := []struct {
		name      string
		mode      grounding.RouteMode
		noneScore float64
		router    *fakeYesNo
		wantAsked bool
		wantBy    store.RouteMethod
		wantTool  string
		warning   string
	}{
		{"threshold, tool", grounding.RouteThreshold, -1, &fakeYesNo{}, false, "threshold", "Calc", ""},
		{"threshold, none", grounding.RouteThreshold, 5, &fakeYesNo{answer: true}, false, "threshold", grounding.None, ""},
		{"model says no", grounding.RouteModel, -1, &fakeYesNo{answer: false}, true, "model", grounding.None, ""},
		{"model says yes", grounding.RouteModel, 5, &fakeYesNo{answer: true}, true, "model", "Calc", ""},
		{"combined, decisive yes", grounding.RouteCombined, -1, &fakeYesNo{}, false, "decisive", "Calc", ""},
		{"combined, decisive no", grounding.RouteCombined, 5, &fakeYesNo{answer: true}, false, "decisive", grounding.None, ""},
		{"combined, undecided", grounding.RouteCombined, undecided, &fakeYesNo{answer: true}, true, "model", "Calc", ""},
		{"auto with a router is combined", grounding.RouteAuto, undecided, &fakeYesNo{answer: false}, true, "model", grounding.None, ""},
		{"model fails", grounding.RouteModel, -1, &fakeYesNo{err: errors.New("timeout")}, true, "threshold", "Calc", "routing: timeout"},
		{"model mode, no router", grounding.RouteModel, -1, nil, false, "threshold", "Calc", "no yes/no model"},
	}
	// undecided is the none score that makes "needs a tool" exactly 0.5.
	probe, _ := grounding.New(reg, engine(&wordEncoder{}, pr), grounding.DefaultOptions())
	first, err := probe.Ground(context.Background(), "what is 96 with numbers")
	if err != nil {
		t.Fatal(err)
	}
	const temperature = 0.05
	var z float64
	for _, ts := range first.Tools {
		z += math.Exp(ts.F / temperature)
	}
	undecidedScore := temperature * math.Log(z)
	for _, tt := range tests {
		if tt.noneScore == undecided {
			tt.noneScore = undecidedScore
		}
		eng := engine(&wordEncoder{}, pr)
		if tt.router != nil {
			eng.Router = tt.router
		}
		opts := grounding.DefaultOptions()
		opts.Route, opts.NoneScore, opts.Temperature = tt.mode, tt.noneScore, temperature
		g, err := grounding.New(reg, eng, opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Ground(context.Background(), "what is 96 with numbers")
		if err != nil {
			t.Fatal(err)
		}
		asked := tt.router != nil && tt.router.calls.Load() > 0
		if asked != tt.wantAsked || res.Route.ModelAsked != tt.wantAsked || res.Route.By != tt.wantBy || res.Choice.Tool != tt.wantTool {
			t.Errorf("%s: asked %v (recorded %v), by %q, choice %q; want asked %v, by %q, choice %q (need p %.3f)",
				tt.name, asked, res.Route.ModelAsked, res.Route.By, res.Choice.Tool, tt.wantAsked, tt.wantBy, tt.wantTool, res.Route.Probability)
		}
		if tt.warning != "" && !strings.Contains(strings.Join(res.Warnings, "\n"), tt.warning) {
			t.Errorf("%s: warnings %q, want %q", tt.name, res.Warnings, tt.warning)
		}
		if c := res.Choice.Confidence; c < 0 || c > 1 {
			t.Errorf("%s: confidence %v", tt.name, c)
		}
		if asked && !strings.Contains(tt.router.prompt, "what is 96 with numbers") || asked && !strings.Contains(tt.router.prompt, "Calc:") {
			t.Errorf("%s: the routing prompt lacks the query or the tools: %q", tt.name, tt.router.prompt)
		}
	}
}

// TestConfidenceAfterModelYes: when the model says a tool is needed, the
// choice's confidence is its probability given that some tool is.
func TestConfidenceAfterModelYes(t *testing.T) {
	reg, _ := library(t)
	pr := &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)"}}
	eng := engine(&wordEncoder{}, pr)
	eng.Router = &fakeYesNo{answer: true}
	opts := grounding.DefaultOptions()
	opts.Route, opts.NoneScore = grounding.RouteModel, 0.5
	g, _ := grounding.New(reg, eng, opts)
	res, err := g.Ground(context.Background(), "q")
	if err != nil {
		t.Fatal(err)
	}
	best, _ := res.Best()
	if want := best.Probability / (1 - res.NoneProbability); abs(res.Choice.Confidence-want) > 1e-12 {
		t.Errorf("confidence %v, want %v", res.Choice.Confidence, want)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// meetingYesNo answers only once a tool's call has started, and the
// prober's calls wait until the question has been asked: the two meet only
// if grounding sends them at the same time.
type meetingYesNo struct {
	asked, called chan struct{}
	cancelled     atomic.Bool
	block         bool // wait for cancellation instead of answering
}

func (y *meetingYesNo) YesNo(ctx context.Context, _ string) (bool, error) {
	close(y.asked)
	if y.block {
		<-ctx.Done()
		y.cancelled.Store(true)
		return false, ctx.Err()
	}
	select {
	case <-y.called:
		return true, nil
	case <-time.After(5 * time.Second):
		return false, errors.New("no tool call started while routing was asked")
	}
}

// Grounding owns routing's concurrency: in the model mode the yes/no
// starts with the grounding requests, not after them; in the combined mode
// with SpeculativeRoute it starts too and is cancelled when grounding is
// decisive; when the caller says a tool is needed no model is asked.
func TestRoutingStartsWithGrounding(t *testing.T) {
	t.Parallel()
	reg, _ := library(t)
	newProber := func(y *meetingYesNo) *scriptProber {
		var once sync.Once
		return &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)"}, wait: func(string) {
			once.Do(func() { close(y.called) })
			select {
			case <-y.asked:
			case <-time.After(5 * time.Second):
			}
		}}
	}

	y := &meetingYesNo{asked: make(chan struct{}), called: make(chan struct{})}
	eng := engine(&wordEncoder{}, newProber(y))
	eng.Router = y
	opts := grounding.DefaultOptions()
	opts.Route = grounding.RouteModel
	g, _ := grounding.New(reg, eng, opts)
	res, err := g.Ground(context.Background(), "what is 96 with numbers")
	if err != nil {
		t.Fatal(err)
	}
	if res.Route.By != "model" || !res.Route.ModelAsked || res.Route.ModelMS <= 0 || res.Route.Speculative {
		t.Errorf("model mode: route %+v, warnings %q", res.Route, res.Warnings)
	}

	y = &meetingYesNo{asked: make(chan struct{}), called: make(chan struct{}), block: true}
	eng = engine(&wordEncoder{}, newProber(y))
	eng.Router = y
	opts.Route, opts.SpeculativeRoute, opts.NoneScore = grounding.RouteCombined, true, -1
	g, _ = grounding.New(reg, eng, opts)
	res, err = g.Ground(context.Background(), "what is 96 with numbers")
	if err != nil {
		t.Fatal(err)
	}
	if res.Route.By != "decisive" || res.Route.ModelAsked || !res.Route.Speculative || !res.Route.Cancelled || res.Choice.Tool != "Calc" {
		t.Errorf("combined, speculative, decisive: route %+v, choice %s", res.Route, res.Choice.Tool)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !y.cancelled.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !y.cancelled.Load() {
		t.Error("the speculative yes/no was not cancelled")
	}

	router := &fakeYesNo{answer: false}
	eng = engine(&wordEncoder{}, &scriptProber{prelim: "96", calls: map[string]string{"Calc": "Calc(96)"}})
	eng.Router = router
	opts.Route, opts.NoneScore = grounding.RouteModel, 5
	g, _ = grounding.New(reg, eng, opts)
	res, err = g.GroundWith(context.Background(), "what is 96 with numbers", grounding.Ask{ToolNeeded: true})
	if err != nil {
		t.Fatal(err)
	}
	if router.calls.Load() != 0 || !res.Route.NeedsTool || res.Route.By != "caller" || res.Choice.Tool != "Calc" {
		t.Errorf("tool needed: %d yes/no calls, route %+v, choice %s", router.calls.Load(), res.Route, res.Choice.Tool)
	}
}
