package store

import (
	"fmt"
	"math"
	"strings"
)

// What a turn record passes before it is written (turns.go): every text
// capped to MaxText (capped), and the values the schema would refuse
// refused first with a clearer message (check).

// capped is the record with every text cut to MaxText.
func (rec TurnRecord) capped() TurnRecord {
	rec.Input, rec.Answer, rec.Error, rec.RepairNote = capText(rec.Input), capText(rec.Answer), capText(rec.Error), capText(rec.RepairNote)
	rec.Calls = append([]ToolCall(nil), rec.Calls...)
	for i := range rec.Calls {
		c := &rec.Calls[i]
		c.Call, c.Original, c.Response, c.Error = capText(c.Call), capText(c.Original), capText(c.Response), capText(c.Error)
	}
	if r := rec.CallReading; r != nil {
		c := CallReading{Confidence: r.Confidence}
		for _, d := range r.Doubts {
			if d = capText(oneLine(d)); strings.TrimSpace(d) != "" {
				c.Doubts = append(c.Doubts, d)
			}
		}
		rec.CallReading = &c
	}
	rec.Grounding = append([]GroundingScore(nil), rec.Grounding...)
	for i := range rec.Grounding {
		rec.Grounding[i].Call = capText(rec.Grounding[i].Call)
	}
	return rec
}

// check refuses values the schema would refuse, with a clearer message.
func (rec TurnRecord) check() error {
	switch rec.Status {
	case StatusRunning, StatusDone, StatusFailed, StatusCancelled, StatusAwaitingConfirmation, StatusInterrupted:
	default:
		return fmt.Errorf("status %q: want running, done, failed, cancelled, awaiting-confirmation or interrupted", rec.Status)
	}
	switch rec.Route {
	case RouteUndecided, RouteTool, RouteNone:
	default:
		return fmt.Errorf("route %q: want tool, none or empty", rec.Route)
	}
	switch rec.RouteBy {
	case "", RouteByModel, RouteByThreshold, RouteByDecisive, RouteByMode, RouteByUser:
	default:
		return fmt.Errorf("route method %q: want model, threshold, decisive, mode, user or empty", rec.RouteBy)
	}
	switch rec.ChosenBy {
	case "", ChosenByGrounding, ChosenByUser, ChosenByCall:
	default:
		return fmt.Errorf("chosen by %q: want grounding, user, call or empty", rec.ChosenBy)
	}
	switch rec.AnsweredBy {
	case "", AnsweredByModel, AnsweredByTool, AnsweredByGear:
	default:
		return fmt.Errorf("answered by %q: want model, tool, gear or empty", rec.AnsweredBy)
	}
	switch rec.Emission {
	case "", EmissionGuided, EmissionStepped, EmissionPrompted, EmissionRepaired, EmissionExact, EmissionOffline, EmissionGrounding:
	default:
		return fmt.Errorf("emission path %q: want guided, stepped, prompted, repaired, exact, offline, grounding or empty", rec.Emission)
	}
	if rec.HasConfidence() && !unit(rec.Confidence) {
		return fmt.Errorf("confidence %v: want 0..1", rec.Confidence)
	}
	if r := rec.CallReading; r != nil && !unit(r.Confidence) {
		return fmt.Errorf("call confidence %v: want 0..1", r.Confidence)
	}
	if rec.routeScored() && (!unit(rec.RouteProbability) || math.IsNaN(rec.RouteThreshold) || math.IsInf(rec.RouteThreshold, 0)) {
		return fmt.Errorf("route probability %v, threshold %v: want a probability 0..1 and a finite threshold",
			rec.RouteProbability, rec.RouteThreshold)
	}
	seen := make(map[ModelRole]bool, len(rec.Usage))
	for _, u := range rec.Usage {
		switch u.Role {
		case RoleChat, RoleGrounding, RoleEmbedding:
		default:
			return fmt.Errorf("usage role %q: want chat, grounding or embedding", u.Role)
		}
		if seen[u.Role] {
			return fmt.Errorf("usage role %q given twice", u.Role)
		}
		seen[u.Role] = true
	}
	tools := make(map[string]bool, len(rec.Grounding))
	for _, g := range rec.Grounding {
		switch g.ResponseKind {
		case ResponseReal, ResponseMock, ResponseTimeout, ResponseError, ResponseEmpty, ResponseCut:
		default:
			return fmt.Errorf("grounding row %q: response kind %q: want real, mock, timeout, error, empty or cut", g.Tool, g.ResponseKind)
		}
		if g.Tool == "" || tools[g.Tool] {
			return fmt.Errorf("grounding row %q: every row needs a distinct tool name", g.Tool)
		}
		tools[g.Tool] = true
		for _, v := range []float64{g.Semantic, g.Pattern, g.Final} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("grounding row %q: scores must be finite numbers", g.Tool)
			}
		}
		if !unit(g.Probability) {
			return fmt.Errorf("grounding row %q: probability %v: want 0..1", g.Tool, g.Probability)
		}
	}
	for _, c := range rec.Calls {
		switch c.Check {
		case CallValidated, CallRepaired, CallRejected:
		default:
			return fmt.Errorf("call %q: check %q: want validated, repaired or rejected", c.Call, c.Check)
		}
	}
	return nil
}

// routeScored says whether the route has grounding's probability: it was
// decided after grounding ran.
func (rec TurnRecord) routeScored() bool { return rec.Route != RouteUndecided && rec.Grounded }

// unit says whether p is a probability (NaN is not).
func unit(p float64) bool { return p >= 0 && p <= 1 }
