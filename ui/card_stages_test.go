package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gear-chat/gear/agent"
	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/store"
)

// The open card (ctrl+g) shows each stage's own time and, when grounding
// shortlisted, which tools were called and where the cut is.
func TestCardStagesAndShortlist(t *testing.T) {
	t.Parallel()
	p := &painter{st: newStyles(testRenderer(), true)}
	rec := agent.Record{
		Grounding: &agent.Grounding{Engine: "model", Tools: []agent.Score{
			{Tool: "Calculator", S: 0.6, P: 1.1, F: 0.73, Probability: 0.9, Shortlisted: true, Status: grounding.StatusMock},
			{Tool: "WikiSearch", S: 0.3, F: 0.22, Status: grounding.StatusCut},
		}, Shortlist: &grounding.Shortlist{K: 1, Of: 2, Scored: 1, Cut: 0.6}},
		Emission: &agent.Emission{Path: store.EmissionGrounding, Tool: "Calculator", Call: "Calculator(2 + 2)"},
		Call:     &agent.ToolRun{Tool: "Calculator", Call: "Calculator(2 + 2)", Response: "4"},
		Timings: agent.Timings{Ground: 104 * time.Millisecond, Tool: 2 * time.Millisecond,
			Answer: 101 * time.Millisecond, Total: 208 * time.Millisecond},
	}
	text := ansi.Strip(strings.Join(p.detailLines(rec, 100), "\n"))
	for _, want := range []string{"grounding 104 ms", "call from grounding", "tool 2 ms", "answer 101 ms", "total 208 ms",
		"shortlist: the 1 of 2 tools", "cut 0.60", "1 below the cut"} {
		if !strings.Contains(text, want) {
			t.Errorf("card lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "WikiSearch") {
		t.Errorf("a tool below the cut has a row:\n%s", text)
	}

	rec.Emission.Path, rec.Timings.Emit, rec.Timings.Route = store.EmissionGuided, 98*time.Millisecond, 90*time.Millisecond
	text = ansi.Strip(strings.Join(p.detailLines(rec, 100), "\n"))
	for _, want := range []string{"call 98 ms", "routing 90 ms inside"} {
		if !strings.Contains(text, want) {
			t.Errorf("card lacks %q:\n%s", want, text)
		}
	}
}

// A large library scored whole (no shortlist) lists its best tools by f
// in the card, not every tool, and counts the rest.
func TestCardBoundsLargeLibrary(t *testing.T) {
	t.Parallel()
	p := &painter{st: newStyles(testRenderer(), true)}
	var scores []agent.Score
	for i := range 40 {
		scores = append(scores, agent.Score{Tool: fmt.Sprintf("tool_%02d", i), S: float64(i) / 40, F: float64(i) / 40, Status: grounding.StatusMock})
	}
	rec := agent.Record{Grounding: &agent.Grounding{Engine: "offline", Tools: scores}}
	text := ansi.Strip(strings.Join(p.detailLines(rec, 100), "\n"))
	if !strings.Contains(text, "tool_39") || !strings.Contains(text, "tool_28") || strings.Contains(text, "tool_27") ||
		!strings.Contains(text, "… 28 more tools with a lower f") {
		t.Errorf("card:\n%s", text)
	}
}
