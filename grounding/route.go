package grounding

import (
	"context"
	"fmt"
	"time"

	"github.com/gear-chat/gear/store"
)

// RouteMode says who answers "does this query need a tool?".
type RouteMode string

const (
	// RouteAuto is RouteCombined when the engine has a yes/no model and
	// RouteThreshold otherwise.
	RouteAuto RouteMode = ""
	// RouteThreshold decides by grounding's own probability that a tool
	// is needed (1 − p_∅) against Options.Threshold. The offline engine
	// routes this way.
	RouteThreshold RouteMode = "threshold"
	// RouteModel always asks the engine's yes/no model, as the paper's
	// chatbot does (Appendix G).
	RouteModel RouteMode = "model"
	// RouteCombined asks the model only when grounding is not decisive:
	// a "needs a tool" probability inside [DecisiveBelow, DecisiveAbove].
	RouteCombined RouteMode = "combined"
)

func (m RouteMode) valid() error {
	switch m {
	case RouteAuto, RouteThreshold, RouteModel, RouteCombined:
		return nil
	}
	return fmt.Errorf("grounding: unknown route mode %q (want threshold, model or combined)", m)
}

// mode is the route mode in force.
func (g *Grounder) mode() RouteMode {
	if g.opts.Route != RouteAuto {
		return g.opts.Route
	}
	if g.engine.Router != nil {
		return RouteCombined
	}
	return RouteThreshold
}

// routeCall is one query's yes/no call, started with grounding's requests.
type routeCall struct {
	start       time.Time
	done        chan struct{}
	yes         bool
	err         error
	elapsed     time.Duration
	cancel      context.CancelFunc
	speculative bool
}

// startRoute starts the yes/no question now when it will be asked anyway
// (RouteModel) or, with SpeculativeRoute, when it may be (RouteCombined);
// nil when it is not started now.
func (g *Grounder) startRoute(ctx context.Context, query string, ask Ask) *routeCall {
	if g.engine.Router == nil || ask.ToolNeeded {
		return nil
	}
	mode := g.mode()
	if mode != RouteModel && !(mode == RouteCombined && g.opts.SpeculativeRoute) {
		return nil
	}
	cctx, cancel := context.WithCancel(ctx)
	rc := &routeCall{start: time.Now(), done: make(chan struct{}), cancel: cancel, speculative: mode == RouteCombined}
	go func() {
		defer close(rc.done)
		rc.yes, rc.err = g.engine.Router.YesNo(cctx, RoutePrompt(g.specs, query))
		rc.elapsed = time.Since(rc.start)
	}()
	return rc
}

// stop cancels a call nobody waits for any more.
func (rc *routeCall) stop() {
	if rc != nil {
		rc.cancel()
	}
}

// answer waits for the started call.
func (rc *routeCall) answer(ctx context.Context) (bool, time.Duration, error) {
	select {
	case <-rc.done:
		return rc.yes, rc.elapsed, rc.err
	case <-ctx.Done():
		return false, time.Since(rc.start), ctx.Err()
	}
}

// decide fills the probabilities, the route and the choice. route is the
// yes/no call started with the grounding requests, or nil.
func (g *Grounder) decide(ctx context.Context, res *Result, ask Ask, route *routeCall) {
	scores := make([]float64, len(res.Tools))
	for i, t := range res.Tools {
		scores[i] = t.F
	}
	pNone, p, best, needsTool := thresholdChoice(scores, g.opts.NoneScore, g.opts.Temperature, g.opts.Threshold)
	threshold := g.opts.Threshold
	if ev, ok := noneEvidence(res, res.words, best); ok {
		ev.Need = 1 - pNone
		ev.Required, ev.Values = requiredParams(g.specs[best]), queryValues(res.Query)
		res.NoneEvidence = &ev
		if g.opts.LibraryNone.On() {
			pNone, needsTool = applyNoneModel(g.opts.LibraryNone, ev, pNone, p)
			threshold = g.opts.LibraryNone.Threshold
		}
	}
	res.words = nil
	res.NoneProbability = pNone
	for i := range res.Tools {
		res.Tools[i].Probability = p[i]
	}
	need := 1 - pNone
	res.Route = Route{Probability: need, Threshold: threshold, By: store.RouteByThreshold, NeedsTool: needsTool}

	mode := g.mode()
	askModel := !ask.ToolNeeded && g.engine.Router != nil && (mode == RouteModel ||
		mode == RouteCombined && need > g.opts.DecisiveBelow && need < g.opts.DecisiveAbove)
	if mode == RouteCombined && !askModel && g.engine.Router != nil && !ask.ToolNeeded {
		res.Route.By = store.RouteByDecisive
	}
	if mode != RouteThreshold && g.engine.Router == nil {
		res.Warnings = append(res.Warnings, "routing: no yes/no model; decided by the threshold")
	}
	if route != nil && !askModel {
		route.stop()
		res.Route.Speculative, res.Route.Cancelled = route.speculative, true
	}
	switch {
	case ask.ToolNeeded:
		res.Route.NeedsTool, res.Route.By = true, store.RouteByCaller
	case askModel:
		res.Route.ModelAsked = true
		var yes bool
		var took time.Duration
		var err error
		if route != nil {
			res.Route.Speculative = route.speculative
			yes, took, err = route.answer(ctx)
		} else {
			t0 := time.Now()
			yes, err = g.engine.Router.YesNo(ctx, RoutePrompt(g.specs, res.Query))
			took = time.Since(t0)
		}
		res.Route.ModelMS = float64(took.Microseconds()) / 1000
		if err != nil {
			res.Warnings = append(res.Warnings, "routing: "+err.Error()+"; decided by the threshold")
		} else {
			res.Route.By = store.RouteByModel
			res.Route.NeedsTool = yes
			res.Route.ModelSaid = map[bool]string{true: "yes", false: "no"}[yes]
		}
	}

	cmap := g.opts.Confidence
	if best >= 0 && res.Tools[best].ByLibrary {
		cmap = g.opts.LibraryConfidence
	}
	if !res.Route.NeedsTool || best < 0 {
		conf := pNone
		if res.Route.By != store.RouteByModel {
			conf = cmap.ApplyAmong(pNone, true, len(res.Tools))
		}
		res.Choice = Choice{Tool: None, Family: None, Confidence: conf}
		return
	}
	conf := cmap.ApplyTool(p[best], len(res.Tools), g.evidence(res.Tools[best]))
	if (res.Route.By == store.RouteByModel || res.Route.By == store.RouteByCaller) && need > 0 {
		// The model (or the caller) said a tool is needed: the choice is
		// right if this tool is the one, given that some tool is. The map
		// was fitted on the threshold's decisions, so it is not applied.
		conf = p[best] / need
	}
	t := res.Tools[best]
	res.Choice = Choice{Tool: t.Tool, Family: t.Family, Call: t.Call, Response: t.Response, Confidence: clamp01(conf), Reading: t.Reading}
}

// thresholdChoice is the decision by threshold alone, from the tools'
// final scores: p_∅, each tool's p_i, the likeliest tool (the first on
// ties, -1 when there is none) and whether a tool is needed (1 − p_∅ at or
// above threshold). decide starts from it; Redecide is it.
func thresholdChoice(scores []float64, noneScore, temperature, threshold float64) (pNone float64, p []float64, best int, needsTool bool) {
	pNone, p = probabilities(scores, noneScore, temperature)
	best = -1
	for i := range p {
		if best < 0 || p[i] > p[best] {
			best = i
		}
	}
	return pNone, p, best, 1-pNone >= threshold
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
