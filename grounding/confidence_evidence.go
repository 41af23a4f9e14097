package grounding

import (
	"math"

	"github.com/gear-chat/gear/tools"
)

// Evidence is what the chosen tool's call says about the choice, apart
// from its score. A tool chosen though its prober wrote no call for it
// (NoCall: the query gave it nothing it could take) or whose required
// arguments are all free text, read from the query's words rather than
// quoted (FreeText: any query fills them, so the call is no sign that the
// query is for this tool), is less often right than its share says —
// measured on the dev file, where such choices are right 30% and 72% of
// the time against 98% for the others. The tool side of the confidence
// map weighs both (Platt.NoCall, Platt.FreeText), fitted with A and B.
type Evidence struct {
	NoCall   bool `json:"no_call,omitempty"`
	FreeText bool `json:"free_text,omitempty"`
	// Doubted is free text the prober doubts it read as what the tool
	// takes (its call reading states a doubt): a text that is a clause
	// where a name was wanted, words left over around the tool's own.
	Doubted bool `json:"doubted,omitempty"`
}

// evidenceOf is t's evidence: spec is t's tool.
func evidenceOf(t ToolScore, spec tools.Spec) Evidence {
	quoted := t.Reading != nil && t.Reading.Confidence >= 1
	free := t.Call != "" && !quoted && freeTextOnly(spec)
	return Evidence{NoCall: t.Call == "", FreeText: free, Doubted: free && t.Reading != nil && len(t.Reading.Doubts) > 0}
}

// freeTextOnly reports whether every required parameter of spec takes
// any text: a string without a pattern. A tool without required
// parameters has none.
func freeTextOnly(spec tools.Spec) bool {
	n := 0
	for _, p := range spec.Params {
		if p.Optional {
			continue
		}
		if p.Type != tools.TypeString || p.Pattern != "" {
			return false
		}
		n++
	}
	return n > 0
}

// terms are the evidence's terms of the map: 1 for each that holds.
func (e Evidence) terms() (noCall, freeText, doubted float64) {
	one := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	return one(e.NoCall), one(e.FreeText), one(e.Doubted)
}

// ApplyTool maps the share of a tool chosen among n tools with the
// evidence of its call.
func (m ConfidenceMap) ApplyTool(share float64, n int, ev Evidence) float64 {
	if m.Tool == (Platt{}) {
		return clamp01(share)
	}
	noCall, freeText, doubted := ev.terms()
	x := math.Min(math.Max(share, 1e-9), 1-1e-9)
	z := m.Tool.A + m.Tool.B*math.Log(x/(1-x)) + m.Tool.C*math.Log(float64(max(n, 1))) +
		m.Tool.NoCall*noCall + m.Tool.FreeText*freeText + m.Tool.Doubted*doubted
	return clamp01(sigmoid(z))
}

// evidence is t's evidence, t one of g's tools.
func (g *Grounder) evidence(t ToolScore) Evidence {
	for _, s := range g.specs {
		if s.Name == t.Tool {
			return evidenceOf(t, s)
		}
	}
	return Evidence{NoCall: t.Call == ""}
}

// doubtedText is the factor on P of a tool's probe: its call confidence
// when the call's free text is Doubted (the response answers a text the
// prober doubts it read as the tool's input, so its agreement with â is
// weaker evidence for the tool), else 1.
func doubtedText(t ToolScore, spec tools.Spec) float64 {
	if evidenceOf(t, spec).Doubted {
		return t.Reading.Confidence
	}
	return 1
}
