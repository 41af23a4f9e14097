package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/sanitize"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// saveTimeout bounds a FinishTurn; it runs even after cancellation.
const saveTimeout = 10 * time.Second

// finish closes the record, stores it and sends the final event.
func (tr *turnRun) finish(err error) {
	rec := &tr.rec
	rec.Timings.Total = tr.a.now().Sub(tr.start)
	switch {
	case err == nil:
		rec.Status = store.StatusDone
	case tr.ctx.Err() != nil || errors.Is(err, context.Canceled):
		rec.Status, rec.Error = store.StatusCancelled, cancelledByUser
	default:
		rec.Status, rec.Error = store.StatusFailed, sanitizeLine(err.Error())
	}
	tr.mu.Lock()
	tr.closed = true
	rec.ModelCalls = append([]ModelCall{}, tr.calls...)
	tr.mu.Unlock()
	rec.Usage = usageByRole(rec.ModelCalls)
	if serr := tr.save(); serr != nil {
		tr.notice("The turn could not be saved to the history: " + serr.Error())
	}
	final := *rec
	switch rec.Status {
	case store.StatusDone:
		tr.t.emit(Done{Record: final})
	case store.StatusCancelled:
		tr.t.emit(Cancelled{Record: final})
	default:
		// The cause stays reachable for errors.Is / errors.As (exit codes).
		tr.t.emit(Failed{Err: oneLineError{err}, Record: final})
	}
}

// save writes the record as it stands (also while awaiting confirmation).
func (tr *turnRun) save() error {
	rec := tr.a.cfg.Recorder
	if rec == nil || tr.rec.TurnID == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(tr.ctx), saveTimeout)
	defer cancel()
	return rec.FinishTurn(ctx, tr.rec.StoreRecord())
}

// oneLineError prints its cause on one sanitised line and unwraps to it.
type oneLineError struct{ err error }

func (e oneLineError) Error() string { return sanitizeLine(e.err.Error()) }
func (e oneLineError) Unwrap() error { return e.err }

// usageByRole sums the model calls per role, every role listed.
func usageByRole(calls []ModelCall) []store.RoleUsage {
	out := []store.RoleUsage{{Role: store.RoleChat}, {Role: store.RoleGrounding}, {Role: store.RoleEmbedding}}
	for _, c := range calls {
		for i := range out {
			if out[i].Role == c.Role {
				out[i].Calls++
				out[i].PromptTokens += c.PromptTokens
				out[i].CompletionTokens += c.CompletionTokens
				out[i].Estimated = out[i].Estimated || c.Estimated
			}
		}
	}
	return out
}

// StoreRecord is the record in the store's terms. The store's Grounded
// says grounding ran, so it is also set for a turn routed to no tool;
// Input is kept when it is not the query answered.
func (r Record) StoreRecord() store.TurnRecord {
	out := store.TurnRecord{TurnID: r.TurnID, Status: r.Status, Tool: r.Tool, ToolFamily: r.Family,
		ChosenBy: r.ChosenBy, Confidence: r.Confidence, Grounded: r.Grounded || r.Grounding != nil,
		Error: r.Error, Answer: r.Answer, AnsweredBy: r.AnsweredBy, Usage: r.Usage,
		Latency: store.Latency{Route: r.Timings.Route, Ground: r.Timings.Ground, Emit: r.Timings.Emit,
			Tool: r.Timings.Tool, Answer: r.Timings.Answer, Total: r.Timings.Total}}
	if in := strings.TrimSpace(r.Input); in != r.Query {
		out.Input = in
	}
	out.CallReading = StoredReading(r.CallReading)
	if r.Route != nil {
		out.Route = store.RouteNone
		if r.Route.NeedsTool {
			out.Route = store.RouteTool
		}
		out.RouteBy = r.Route.By
		out.RouteProbability, out.RouteThreshold = r.Route.Probability, r.Route.Threshold
	}
	if r.Grounding != nil {
		for i, s := range r.Grounding.Tools {
			out.Grounding = append(out.Grounding, store.GroundingScore{Rank: i + 1, Tool: s.Tool, Family: s.Family,
				Semantic: s.S, Pattern: s.P, Final: s.F, Probability: s.Probability, Call: s.Call,
				Response: clip(s.Response, store.MaxExcerpt-8), ResponseKind: responseKind(s.Status)})
		}
	}
	if e := r.Emission; e != nil {
		out.Emission = e.Path
		out.RepairNote = strings.Join(e.Repairs, "; ")
		if e.Rejected {
			var errs []string
			for _, at := range e.Attempts {
				if at.Error != "" {
					errs = append(errs, string(at.Path)+": "+at.Error)
				}
			}
			out.RepairNote = strings.Join(errs, "; ")
			out.Calls = append(out.Calls, store.ToolCall{Tool: e.Tool, Source: storeSource(r.Source), Call: e.Original, Check: store.CallRejected,
				Original: e.Original, Error: "rejected by the ToolDec machine; not run"})
		}
	}
	if c := r.Call; c != nil {
		check := store.CallValidated
		original := ""
		if r.Emission != nil && len(r.Emission.Repairs) > 0 {
			check, original = store.CallRepaired, r.Emission.Original
		}
		out.Calls = append(out.Calls, store.ToolCall{Tool: c.Tool, Source: storeSource(&c.Source), Call: c.Call, Check: check, Original: original,
			Response: c.Response, Error: c.Error, Duration: c.Duration})
	}
	return out
}

// StoredReading is a call reading as the history keeps it; nil stays nil.
func StoredReading(r *grounding.CallReading) *store.CallReading {
	if r == nil {
		return nil
	}
	return &store.CallReading{Confidence: r.Confidence, Doubts: append([]string(nil), r.Doubts...)}
}

// ReadingOf is a stored call reading in grounding's terms, its doubts
// sanitised (the history is read as untrusted as any tool's text); nil
// stays nil.
func ReadingOf(r *store.CallReading) *grounding.CallReading {
	if r == nil {
		return nil
	}
	return sanitizeReading(&grounding.CallReading{Confidence: r.Confidence, Doubts: r.Doubts})
}

// probeKinds pairs each probe status with the response kind it is stored
// as; a status not listed is stored as empty, and empty reads as no call.
var probeKinds = [...]struct {
	status grounding.ProbeStatus
	kind   store.ResponseKind
}{
	{grounding.StatusRun, store.ResponseReal},
	{grounding.StatusMock, store.ResponseMock},
	{grounding.StatusTimedOut, store.ResponseTimeout},
	{grounding.StatusFailed, store.ResponseError},
	{grounding.StatusCut, store.ResponseCut},
}

func responseKind(status grounding.ProbeStatus) store.ResponseKind {
	for _, pk := range probeKinds {
		if pk.status == status {
			return pk.kind
		}
	}
	return store.ResponseEmpty
}

// ProbeStatusOf is the probe status a stored response kind was recorded
// from (the inverse of what StoreRecord writes; "empty" reads as no call).
func ProbeStatusOf(kind store.ResponseKind) grounding.ProbeStatus {
	for _, pk := range probeKinds {
		if pk.kind == kind {
			return pk.status
		}
	}
	return grounding.StatusNoCall
}

// groundingOf is grounding's result in the agent's terms, best first,
// its model and tool text sanitised.
func groundingOf(res *grounding.Result) Grounding {
	g := Grounding{Engine: res.Engine, Preliminary: sanitizeText(res.Preliminary), Choice: res.Choice.Tool,
		Confidence: res.Choice.Confidence, NoneProbability: res.NoneProbability, ElapsedMS: res.ElapsedMS,
		Shortlist: res.Shortlist}
	for _, w := range res.Warnings {
		g.Warnings = append(g.Warnings, sanitizeLine(w))
	}
	for _, ts := range res.Ranked() {
		g.Tools = append(g.Tools, Score{Tool: ts.Tool, Family: ts.Family, S: ts.S, P: ts.P, F: ts.F,
			Probability: ts.Probability, Call: sanitizeLine(ts.Call), Response: sanitizeText(ts.Response),
			Status: ts.Status, Error: sanitizeLine(ts.Error), Shortlisted: ts.Shortlisted, Reading: sanitizeReading(ts.Reading)})
	}
	return g
}

func routeOf(r grounding.Route) Route {
	return Route{NeedsTool: r.NeedsTool, By: r.By, Probability: r.Probability, Threshold: r.Threshold,
		ModelAsked: r.ModelAsked, ModelSaid: r.ModelSaid}
}

// MarshalJSON writes the timings in milliseconds.
func (t Timings) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]float64{"route_ms": ms(t.Route), "ground_ms": ms(t.Ground), "emit_ms": ms(t.Emit),
		"tool_ms": ms(t.Tool), "answer_ms": ms(t.Answer), "total_ms": ms(t.Total)})
}

// The record and the events carry text for the terminal: model and tool
// text is untrusted, so it is sanitised where it enters the record.
func sanitizeText(s string) string { return sanitize.Text(s) }
func sanitizeLine(s string) string { return sanitize.Line(s) }

// sanitizeReading copies a call reading with its doubts on one sanitised
// line each: they quote the query and the prober's text. Nil stays nil.
func sanitizeReading(r *grounding.CallReading) *grounding.CallReading {
	if r == nil {
		return nil
	}
	out := grounding.CallReading{Confidence: clamp01(r.Confidence)}
	for _, d := range r.Doubts {
		if d = sanitizeLine(d); d != "" {
			out.Doubts = append(out.Doubts, d)
		}
	}
	return &out
}

// clamp01 keeps a prober's number a probability (NaN reads as 0: no
// confidence at all, so the gate asks).
func clamp01(v float64) float64 {
	switch {
	case v != v || v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}

func sanitizeEmission(e Emission) Emission {
	e.Reading = sanitizeReading(e.Reading)
	e.Call, e.Original = sanitizeLine(e.Call), sanitizeText(e.Original)
	e.Repairs = append([]string(nil), e.Repairs...)
	for i := range e.Repairs {
		e.Repairs[i] = sanitizeLine(e.Repairs[i])
	}
	e.Attempts = append([]Attempt(nil), e.Attempts...)
	for i := range e.Attempts {
		e.Attempts[i].Output, e.Attempts[i].Error = sanitizeText(e.Attempts[i].Output), sanitizeLine(e.Attempts[i].Error)
	}
	return e
}

func sanitizeRun(r ToolRun) ToolRun {
	r.Call, r.Response, r.Error = sanitizeLine(r.Call), sanitizeText(r.Response), sanitizeLine(r.Error)
	return r
}

// storeSource is a tool's source as the store keeps it; unknown (nil)
// reads as built-in, the only source before the library opened.
func storeSource(s *tools.Source) store.ToolSource {
	if s == nil || s.IsBuiltin() {
		return store.ToolSource{Kind: store.SourceBuiltin}
	}
	return store.ToolSource{Kind: string(s.Kind), Name: s.Name}
}
