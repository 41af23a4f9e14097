package grounding

import (
	"sort"

	"github.com/gear-chat/gear/store"
)

// ProbeStatus is what became of a tool's call during grounding. The
// history keeps it as a store.ResponseKind (agent maps one onto the
// other: the two vocabularies were recorded before they met).
type ProbeStatus string

// Probe statuses.
const (
	StatusRun        ProbeStatus = "run"        // the tool ran; Response is its answer
	StatusMock       ProbeStatus = "mock"       // the tool's mock response was used (Appendix A.3)
	StatusTimedOut   ProbeStatus = "timed out"  // the run passed ToolTimeout; P = 0
	StatusFailed     ProbeStatus = "failed"     // the tool returned an error; P = 0
	StatusNoCall     ProbeStatus = "no call"    // the engine produced no call; P = 0
	StatusUnparsable ProbeStatus = "unparsable" // the call did not parse; P = 0
)

// None is the choice and family of a query that needs no tool.
const None = "none"

// ToolScore is one tool's line of Algorithm 1.
type ToolScore struct {
	Tool   string `json:"tool"`
	Family string `json:"family"`
	// Generated is q_i as the engine wrote it; Call is it parsed and
	// re-formatted (empty when it did not parse).
	Generated string `json:"generated"`
	Call      string `json:"call"`
	// Status says whether Response is a run, a mock, or why there is none.
	Status   ProbeStatus `json:"status"`
	Response string      `json:"response"`
	Error    string      `json:"error,omitempty"`
	// S, P and F are the semantic, pattern and final scores.
	S float64 `json:"s"`
	P float64 `json:"p"`
	F float64 `json:"f"`
	// Explained is the share of the query's words the tool's texts
	// contain, weighted by their rarity in the library (see
	// LibraryRelevance); 0 when the engine does not score the library.
	Explained float64 `json:"explained,omitempty"`
	// ByLibrary says S came from the engine's library relevance (a tool
	// whose subject the engine does not know): its decisions are
	// calibrated by Options.LibraryConfidence.
	ByLibrary bool `json:"by_library,omitempty"`
	// ByArguments says P is the fit of the tool's arguments to the query
	// (ArgumentFit.Score), weighed by Options.GammaArguments: a tool that
	// is never run, whose answer has no pattern to compare.
	ByArguments bool `json:"by_arguments,omitempty"`
	// Probability is the tool's share of the calibrated softmax over the
	// tools and "none".
	Probability float64 `json:"probability"`
	ProbeMS     float64 `json:"probe_ms"`
	// Shortlisted says the pattern stage ran on the tool (see
	// Result.Shortlist); a tool outside has Status StatusCut and f = γS.
	Shortlisted bool `json:"shortlisted"`
	// Reading is the prober's call confidence for Call; nil when the
	// prober does not give one (see CallReader).
	Reading *CallReading `json:"call_reading,omitempty"`
}

// Route is the "needs a tool?" decision.
type Route struct {
	NeedsTool bool `json:"needs_tool"`
	// By says who decided: RouteByThreshold (grounding's probability
	// against Threshold), RouteByModel (the engine's yes/no),
	// RouteByDecisive (combined mode, grounding sure enough that the model
	// was not asked) or RouteByCaller (Ask.ToolNeeded).
	By store.RouteMethod `json:"by"`
	// Probability is grounding's probability that a tool is needed
	// (1 − the "none" probability).
	Probability float64 `json:"probability"`
	Threshold   float64 `json:"threshold"`
	// ModelAsked and ModelSaid record the yes/no call, when made.
	ModelAsked bool   `json:"model_asked"`
	ModelSaid  string `json:"model_said,omitempty"`
	// ModelMS is the yes/no call's wall time, from its start with the
	// grounding requests (or after them, when it was not started with
	// them) to its answer; 0 when no call was made.
	ModelMS float64 `json:"model_ms,omitempty"`
	// Speculative says the call was started with grounding's requests in
	// the combined mode, before grounding knew whether it would be needed;
	// Cancelled that grounding was decisive and stopped it.
	Speculative bool `json:"speculative,omitempty"`
	Cancelled   bool `json:"cancelled,omitempty"`
}

// Choice is the decision: a tool, or None.
type Choice struct {
	Tool   string `json:"tool"`
	Family string `json:"family"`
	// Call and Response are the chosen tool's grounding probe (empty for
	// None). The agent emits its own call for execution (Algorithm 1,
	// line 8); this one is what grounding saw.
	Call     string `json:"call"`
	Response string `json:"response"`
	// Confidence is the calibrated probability that the choice is right,
	// in [0, 1].
	Confidence float64 `json:"confidence"`
	// Reading is the chosen tool's call confidence (nil for None, or when
	// the prober gives none): grounding may be sure of the tool and unsure
	// of its arguments.
	Reading *CallReading `json:"call_reading,omitempty"`
}

// Result is one query's grounding: every tool's numbers, the route and
// the choice.
type Result struct {
	Query  string `json:"query"`
	Engine string `json:"engine"`
	// Preliminary is â.
	Preliminary string      `json:"preliminary"`
	Tools       []ToolScore `json:"tools"`
	// Shortlist says which tools the pattern stage ran on; nil when it ran
	// on all of them.
	Shortlist *Shortlist `json:"shortlist,omitempty"`
	// NoneProbability is the "none" candidate's share of the softmax.
	NoneProbability float64  `json:"none_probability"`
	Route           Route    `json:"route"`
	Choice          Choice   `json:"choice"`
	ElapsedMS       float64  `json:"elapsed_ms"`
	Warnings        []string `json:"warnings,omitempty"`
	// NoneEvidence is the best tool's fit as the none model weighs it,
	// when the best tool was scored by library relevance.
	NoneEvidence *NoneEvidence `json:"none_evidence,omitempty"`
	// words is the library scorer's WordEvidence, while deciding.
	words func(int) WordEvidence
}

// Best returns the highest-scoring tool (by F, first on ties), whatever
// the route; ok is false for an empty library.
func (r *Result) Best() (ToolScore, bool) {
	if len(r.Tools) == 0 {
		return ToolScore{}, false
	}
	best := 0
	for i, t := range r.Tools {
		if t.F > r.Tools[best].F {
			best = i
		}
	}
	return r.Tools[best], true
}

// Ranked returns the tools by decreasing final score (stable).
func (r *Result) Ranked() []ToolScore {
	out := append([]ToolScore(nil), r.Tools...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].F > out[j].F })
	return out
}
