package offline

import (
	"context"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gear-chat/gear/tools"
)

// declaredHints are hints as a declared tool's YAML file writes them.
const declaredHints = `
aliases: [tides, tide tables]
subjects:
  - name: tides
    answer: time
    words: [tide, tides, ebb, flood, neap, spring]
    cues: [high tide, low tide, tide times]
    idioms: [the tide turned, go with the flow]
params:
  harbour: {here: true}
`

// TestDeclaredHints: a tool's hints read from YAML give the engine its
// subject — a query in words the description does not use shares the
// subject's feature with it — and say what its parameters mean.
func TestDeclaredHints(t *testing.T) {
	var h tools.Hints
	if err := yaml.Unmarshal([]byte(declaredHints), &h); err != nil {
		t.Fatal(err)
	}
	spec := tools.Spec{Name: "TideTimes", Family: "tides", Description: "Tide tables: high and low water for a harbour",
		OutputPattern: "time", Params: []tools.Param{{Name: "harbour", Type: tools.TypePlace}}, Hints: h}
	if err := h.Validate(spec.Params); err != nil {
		t.Fatal(err)
	}
	bare := spec
	bare.Hints = tools.Hints{}
	ctx := context.Background()
	similarity := func(s tools.Spec, query string) float64 {
		e := New(Options{Tools: []tools.Spec{s}})
		v, err := e.Embed(ctx, []string{s.Description, query})
		if err != nil {
			t.Fatal(err)
		}
		return cosine(v[0], v[1])
	}
	q := "when is the ebb at Brest"
	if with, without := similarity(spec, q), similarity(bare, q); with <= without || with < 0.1 {
		t.Errorf("%q: similarity %.3f with the hints, %.3f without; want the hints to raise it", q, with, without)
	}
	e := New(Options{Tools: []tools.Spec{spec}})
	if a := e.analysisOf("the tide turned for us"); a.idiom == nil {
		t.Error("the declared idiom is not read")
	}
	if got, _ := e.Call(ctx, spec, "when is high tide"); got != `TideTimes("here")` {
		t.Errorf(`a question of the tool's answer with no place: %q, want TideTimes("here")`, got)
	}
}
