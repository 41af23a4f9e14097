package agent

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
)

// ConfirmRun is Confirmation.Kind for the question asked before a tool
// that is not read-only runs (an MCP or declared tool that may write or
// cost); the empty Kind is the confidence gate's question.
const ConfirmRun = "run"

// Allow lets tool run without asking for the rest of this agent's life
// ("always allow this tool"; the caller remembers it in the config).
func (a *Agent) Allow(tool string) {
	a.allowMu.Lock()
	defer a.allowMu.Unlock()
	if a.allowed == nil {
		a.allowed = map[string]bool{}
	}
	a.allowed[tool] = true
}

// permitted reports whether spec's tool may run without asking: it only
// reads, or the user allowed it (config agent.allowed_tools, or Allow).
func (a *Agent) permitted(spec tools.Spec) bool {
	if spec.Effect.ReadOnly() {
		return true
	}
	if a.cfg.Allowed != nil && a.cfg.Allowed(spec.Name) {
		return true
	}
	a.allowMu.Lock()
	defer a.allowMu.Unlock()
	return a.allowed[spec.Name]
}

// permit asks, with the confidence gate's question (ConfirmationNeeded,
// Kind ConfirmRun, the tool as the only candidate), before a tool that may
// change something runs; Request.Yes answers yes. It reports whether the
// tool may run. Grounding never ran it: it read the tool's mock.
func (tr *turnRun) permit(spec tools.Spec, call string) (bool, error) {
	if tr.a.permitted(spec) {
		return true, nil
	}
	if p := tr.rec.Permission; p != nil && p.Kind == ConfirmCall && p.Chosen == spec.Name {
		// The call's question named the tool's effect too, and was answered yes.
		return true, nil
	}
	c := Confirmation{Kind: ConfirmRun, Effect: spec.Effect, Source: spec.Source.String(),
		Candidates: []Candidate{{Tool: spec.Name, Family: string(spec.Family), Confidence: tr.rec.Confidence, Call: call}}}
	tr.rec.Permission = &c
	return tr.askYesNo(&c, spec.Name)
}

// permitTyped records that a call the user typed whole ("/GEAR
// SendMail(…)") runs without the question: typing the exact call
// of a tool that is not read-only is the consent the question would ask
// for.
func (tr *turnRun) permitTyped(spec tools.Spec) {
	if tr.a.permitted(spec) {
		return
	}
	tr.rec.Permission = &Confirmation{Kind: ConfirmRun, Effect: spec.Effect, Source: spec.Source.String(),
		Candidates: []Candidate{{Tool: spec.Name, Family: string(spec.Family), Confidence: 1}},
		Chosen:     spec.Name, Typed: true}
}

// answerNotPermitted ends a turn whose tool the user did not let run.
func (tr *turnRun) answerNotPermitted(spec tools.Spec, call string) error {
	tr.say(fmt.Sprintf("%s was not run: it is not read-only (it %s, from %s) and you said no. "+
		"The call would have been: %s", spec.Name, effectWords(spec.Effect), spec.Source, call))
	return nil
}

func effectWords(e tools.Effect) string {
	if e == tools.EffectCosts {
		return "may cost money or quota"
	}
	return "may change things"
}

// sourceOf is where spec's tool came from, a built-in's spelled out.
func sourceOf(spec tools.Spec) *tools.Source {
	s := spec.Source
	if s.IsBuiltin() {
		s = tools.Builtin
	}
	return &s
}
