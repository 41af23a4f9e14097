package grounding

import (
	"fmt"
	"math"
)

// "None of these" on a tool library. The softmax's none candidate (a
// constant score the best tool must beat) was fitted on the built-in
// tools, whose S is the encoder's cosine; on a library scored by
// relevance one constant on S either lets near misses through or refuses
// right tools whose description shares few of the query's words
// (BENCHMARKS.md, "Where 'none' begins"). The none model weighs several
// signals of the best tool's fit (NoneEvidence: the share of the query's
// words it has, whether it lacks the rarest one, whether the query states
// values for the parameters it requires, …) with a logistic regression
// fitted on the dev sets (FitLibraryNone); its probability that the query
// needs a tool decides, against a threshold fitted with it, and feeds the
// confidence.

// WordEvidence is how a query's words fall on one tool of a library.
type WordEvidence struct {
	// Plain is the share of the query's words the tool has, every word
	// weighing alike: in a library of a few tools idf says little about
	// which words matter.
	Plain float64 `json:"plain"`
	// Unknown is the share of the query's word weight no tool of the
	// library has.
	Unknown float64 `json:"unknown"`
	// MissingTop is the largest idf among the query's words the tool
	// lacks over the largest idf among all its words: 1 when the query's
	// rarest word is not the tool's, 0 when the tool has every word.
	MissingTop float64 `json:"missing_top"`
	// Legible is the share of the query's words the engine can read at
	// all (the offline engine's: those in Latin letters): a query it
	// cannot read gives no evidence of "none".
	Legible float64 `json:"legible"`
}

// NoneEvidence are the signals of one query's best tool's fit that the
// none model weighs.
type NoneEvidence struct {
	// S is the best tool's semantic score, Explained its share of the
	// query (LibraryRelevance.Explained), Words the rest of the query.
	S         float64      `json:"s"`
	Explained float64      `json:"explained"`
	Words     WordEvidence `json:"words"`
	// Margin is the best tool's f over the second's (0 with one tool):
	// shown, not weighed — see BENCHMARKS.md, "None on libraries".
	Margin float64 `json:"margin"`
	// Tools is how many tools the query was judged among (shown, not
	// weighed, for the same reason).
	Tools int `json:"tools"`
	// P is the best tool's pattern score, Call the prober's confidence in
	// the call it read for it (ToolScore.Reading; -1 when the prober does
	// not tell, 0 when it read no call).
	P    float64 `json:"p"`
	Call float64 `json:"call"`
	// Need is the softmax's probability that some tool is needed (1 −
	// p_∅, the none candidate against every tool's f): the decision the
	// none model refines.
	Need float64 `json:"need"`
	// Required is how many parameters the best tool's call must have,
	// Values how many values the query states (none_values.go).
	Required int `json:"required"`
	Values   int `json:"values"`
}

// noneDims is the none model's number of weights: a bias and the
// features of NoneEvidence.vector.
const noneDims = 8

// vector is the evidence as the model's inputs: the best tool's S; the
// share of the query's words it has; whether it lacks the query's rarest
// word; the prober's confidence in its call; the softmax's probability
// that a tool is needed, as a logit; the share of the query the engine
// cannot read; and how many of the tool's required parameters the query
// has no value for. Explained, Unknown and P were measured as inputs
// too and left out: with S, Plain and the softmax's probability they
// added nothing held out (BENCHMARKS.md, "None on libraries").
func (e NoneEvidence) vector() [noneDims]float64 {
	call := e.Call
	if call < 0 {
		// A prober that does not tell is taken as a sure reading: the
		// none model then rests on the words alone.
		call = 1
	}
	// The softmax's need is bounded: among hundreds of tools it is near
	// 1 whatever the fit, and its logit would drown the other evidence.
	need := math.Min(math.Max(e.Need, 0.05), 0.95)
	return [noneDims]float64{1, e.S, e.Words.Plain, e.Words.MissingTop, call, math.Log(need / (1 - need)), 1 - e.Words.Legible, e.unfedShare()}
}

// NoneModel is P(the query needs a tool | NoneEvidence) = σ(W·x), and the
// probability below which it abstains. The zero model is off: the
// softmax's none candidate decides, as for the built-in tools.
type NoneModel struct {
	W [noneDims]float64 `json:"w"`
	// Threshold is chosen with W (FitLibraryNone): the probability below
	// which NoneFalseAbstention of the fit's tool queries fall.
	Threshold float64 `json:"threshold"`
}

// On reports whether the model decides.
func (m NoneModel) On() bool { return m.W != [noneDims]float64{} }

// NeedsTool is the probability that the query needs a tool.
func (m NoneModel) NeedsTool(e NoneEvidence) float64 { return m.needs(e.vector()) }

func (m NoneModel) needs(x [noneDims]float64) float64 {
	z := 0.0
	for i := range x {
		z += m.W[i] * x[i]
	}
	return sigmoid(z)
}

// NoneFalseAbstention is the share of tool queries the none model may
// refuse on the sets it is fitted on: the operating point FitLibraryNone
// sets its threshold at. A wrong "none" costs the user a retyped
// request; a wrong tool is caught by the confidence gate and the
// confirmation of tools that change things, so refusals are the scarcer
// budget.
const NoneFalseAbstention = 0.04

// noneEvidence is the best tool's evidence; ok is false when the library
// scorer does not tell how the query's words fall on it.
func noneEvidence(res *Result, words func(int) WordEvidence, best int) (NoneEvidence, bool) {
	if words == nil || best < 0 || !res.Tools[best].ByLibrary {
		return NoneEvidence{}, false
	}
	t := res.Tools[best]
	ev := NoneEvidence{S: t.S, Explained: t.Explained, Words: words(best), Tools: len(res.Tools), P: t.P, Call: -1}
	if t.Reading != nil {
		ev.Call = t.Reading.Confidence
	}
	second := math.Inf(-1)
	for i, o := range res.Tools {
		if i != best && o.F > second {
			second = o.F
		}
	}
	if !math.IsInf(second, -1) {
		ev.Margin = t.F - second
	}
	return ev, true
}

// applyNoneModel turns the softmax's shares into the none model's: the
// tools keep their shares among themselves, scaled to the model's
// probability that some tool is needed.
func applyNoneModel(m NoneModel, ev NoneEvidence, pNone float64, p []float64) (float64, bool) {
	need := m.NeedsTool(ev)
	among := 1 - pNone
	for i := range p {
		if among > 0 {
			p[i] = p[i] / among * need
		}
	}
	return 1 - need, need >= m.Threshold
}

// String is the evidence in a line, for `gear ground`.
func (e NoneEvidence) String() string {
	rarest := "has the query's rarest word"
	if e.Words.MissingTop >= 1 {
		rarest = "lacks the query's rarest word"
	}
	s := fmt.Sprintf("best tool has %.0f%% of the query's words, %s; %d required parameter(s), %d value(s) stated", 100*e.Words.Plain, rarest, e.Required, e.Values)
	if e.Words.Legible < 1 {
		s += fmt.Sprintf("; %.0f%% of the query unreadable", 100*(1-e.Words.Legible))
	}
	return s
}
