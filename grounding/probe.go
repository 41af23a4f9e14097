package grounding

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gear-chat/gear/tools"
)

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
