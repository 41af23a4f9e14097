package agent

import (
	"fmt"
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
	"github.com/gear-chat/gear/tools"
)

// The gate asks before gear acts on something it is not sure of. It knows
// two confidences: grounding's (is this the right tool? — Config.ConfirmBelow,
// the question which tool, in confirm) and the call's (did the prober read
// the query's arguments right? — Config.ConfirmCallBelow, the question
// whether to run the call as read, in checkCall). A "no tool" choice it is
// unsure of, on a query put as a request for information, is offered the
// closest tools (Config.OfferToolsBelow, in offersTools).

// ConfirmCall is Confirmation.Kind for the question asked before a call
// whose call confidence is under Config.ConfirmCallBelow runs: the call is
// shown with the prober's doubts, and runs only on a yes.
const ConfirmCall = "call"

// ConfirmNone is Confirmation.Kind for the closest tools offered when
// grounding chose no tool, unsure, for a request for information.
const ConfirmNone = "none"

// candidatesShown bounds the tools a question offers.
const candidatesShown = 3

// checkCall asks, when the call's reading is under ConfirmCallBelow,
// whether to run the call as read; a tool that is also not read-only is
// asked about in the same question. It reports whether the call may run.
// A call the user already saw with its doubts and picked at the tool
// question is not asked about again.
func (tr *turnRun) checkCall(spec tools.Spec, em Emission) (bool, error) {
	r := em.Reading
	if r == nil || r.Confidence >= tr.a.cfg.ConfirmCallBelow {
		return true, nil
	}
	if c := tr.rec.Confirmation; c != nil && !c.Auto && c.Chosen == spec.Name {
		for _, cand := range c.Candidates {
			if cand.Tool == spec.Name && cand.Call == em.Call {
				return true, nil
			}
		}
	}
	c := Confirmation{Kind: ConfirmCall, Threshold: tr.a.cfg.ConfirmCallBelow, Candidates: []Candidate{{
		Tool: spec.Name, Family: string(spec.Family), Confidence: tr.rec.Confidence, Call: em.Call, Reading: r}}}
	if !tr.a.permitted(spec) {
		c.Effect, c.Source = spec.Effect, spec.Source.String()
	}
	tr.rec.Permission = &c
	return tr.askYesNo(&c, spec.Name)
}

// askYesNo asks a question whose only candidate is tool, and reports
// whether the answer was that tool; Request.Yes answers yes.
func (tr *turnRun) askYesNo(c *Confirmation, tool string) (bool, error) {
	if tr.req.Yes {
		c.Chosen, c.Auto = tool, true
		return true, nil
	}
	tr.rec.Status = store.StatusAwaitingConfirmation
	tr.save()
	tr.t.ask(*c)
	tr.t.emit(ConfirmationNeeded{Confirmation: *c})
	select {
	case picked := <-tr.t.answer:
		tr.rec.Status = store.StatusRunning
		c.Chosen = NoTool
		if picked == tool {
			c.Chosen = picked
		}
		return c.Chosen == tool, nil
	case <-tr.ctx.Done():
		tr.t.closeQuestion()
		return false, tr.ctx.Err()
	}
}

// answerCallNotRun ends a turn whose doubtful call the user did not let
// run: what would have run, and why gear asked.
func (tr *turnRun) answerCallNotRun(spec tools.Spec, em Emission) error {
	tr.say(fmt.Sprintf("%s was not run: gear is only %s sure it read your question right (it asks under %s)%s. "+
		"Rephrase the question, or type the call you mean: /GEAR %s", em.Call, percent(em.Reading.Confidence),
		percent(tr.a.cfg.ConfirmCallBelow), doubtsClause(em.Reading), em.Call))
	return nil
}

// doubtsClause is ": doubt; doubt" or "".
func doubtsClause(r *grounding.CallReading) string {
	if r == nil || len(r.Doubts) == 0 {
		return ""
	}
	return ": " + strings.Join(r.Doubts, "; ")
}

// offersTools says whether a "no tool" choice is offered the closest
// tools: grounding chose none with a certainty under OfferToolsBelow, no
// chat model said no, and the query is put as a request for information.
func (tr *turnRun) offersTools(res *grounding.Result) bool {
	below := tr.a.cfg.OfferToolsBelow
	if below <= 0 || res.Choice.Tool != grounding.None || res.Choice.Confidence >= below {
		return false
	}
	if res.Route.By == "model" && tr.a.cfg.Chat != nil {
		// The chat model said no tool is needed, and it will answer.
		return false
	}
	return looksLikeInformationRequest(res.Query)
}

// candidates are the top tools for a question, best first. Without the
// chat LLM to write a call (or in direct mode), only tools grounding
// found a call for can run. A ConfirmNone question gives each tool's
// probability given that some tool is needed.
func (tr *turnRun) candidates(res *grounding.Result, kind string) []Candidate {
	needCall := tr.a.cfg.Chat == nil || tr.rec.Mode == store.ModeDirect
	scale := 1.0
	if kind == ConfirmNone && res.NoneProbability < 1 {
		scale = 1 / (1 - res.NoneProbability)
	}
	var out []Candidate
	for _, ts := range res.Ranked() {
		if len(out) == candidatesShown {
			break
		}
		if needCall && ts.Call == "" {
			continue
		}
		conf := clamp01(ts.Probability * scale)
		if kind != ConfirmNone && ts.Tool == res.Choice.Tool {
			// The choice's own confidence (calibrated), the number the
			// gate compared with its threshold, not its softmax share.
			conf = res.Choice.Confidence
		}
		out = append(out, Candidate{Tool: ts.Tool, Family: ts.Family, Confidence: conf,
			Score: ts.F, Call: sanitizeLine(ts.Call), Reading: sanitizeReading(ts.Reading)})
	}
	return out
}

// offerText is the answer when the closest tools were offered and none
// was taken without a chat model: the tools, and how to run one.
func offerText(c *Confirmation) string {
	var names, calls []string
	for _, cand := range c.Candidates {
		names = append(names, fmt.Sprintf("%s %s", cand.Tool, percent(cand.Confidence)))
		if cand.Call != "" {
			calls = append(calls, "/GEAR "+cand.Call)
		}
	}
	s := "I'm not sure this needs a tool. Closest: " + strings.Join(names, ", ") + " — pick one or rephrase."
	if len(calls) > 0 {
		s += " To run one, type its call: " + strings.Join(calls, " or ")
	}
	return s
}
