package grounding

import (
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestExtractCall(t *testing.T) {
	tests := []struct{ text, name, want string }{
		{`Calculator(48 * 4 / 2)`, "Calculator", `Calculator(48 * 4 / 2)`},
		{`<Q>48 times 4 over 2 <API>[Calculator((48 * 4) / 2)].`, "Calculator", `Calculator((48 * 4) / 2)`},
		{`WikiSearch("Ghana flag (red)") and more`, "WikiSearch", `WikiSearch("Ghana flag (red)")`},
		{`WikiSearch("a \") b")`, "WikiSearch", `WikiSearch("a \") b")`},
		{`MyCalculator(1) then Calculator(2)`, "Calculator", `Calculator(2)`},
		{`Calculator(1 + (2`, "Calculator", ``},
		{`no call here`, "Calculator", ``},
		{`{"tool": "Calculator", "args": {"expression": "2 + 2"}}`, "Calculator", `{"tool": "Calculator", "args": {"expression": "2 + 2"}}`},
		{`{"tool": "Other"}`, "Calculator", ``},
	}
	for _, tt := range tests {
		if got := ExtractCall(tt.text, tt.name); got != tt.want {
			t.Errorf("ExtractCall(%q, %s) = %q, want %q", tt.text, tt.name, got, tt.want)
		}
	}
}

// FuzzExtractCall: whatever a model writes, extraction does not panic and
// returns either nothing or a piece of the text that starts the way a call
// of the tool does.
func FuzzExtractCall(f *testing.F) {
	for _, s := range []string{`Calculator(1+2)`, `x Calculator("(" ) y`, `{"tool": "Calculator"}`, `Calculator(((`, `"Calculator("`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := ExtractCall(text, "Calculator")
		if got == "" {
			return
		}
		if !strings.Contains(text, got) {
			t.Fatalf("%q is not part of %q", got, text)
		}
		if !strings.HasPrefix(got, "Calculator(") && !strings.HasPrefix(got, "{") {
			t.Fatalf("%q does not start a call", got)
		}
	})
}

func TestPrompts(t *testing.T) {
	spec := tools.Spec{Name: "WikiSearch", Description: "Looks things up.",
		Params:   []tools.Param{{Name: "term", Type: tools.TypeString, Description: "what to look up"}},
		Examples: []tools.Example{{Query: "Who was Ada Lovelace?", Call: `WikiSearch("Ada Lovelace")`}}}
	p := CallPrompt(spec, "who wrote Hamlet")
	for _, want := range []string{"Looks things up.", "WikiSearch(term: string)", "term (string): what to look up",
		"Input: Who was Ada Lovelace?\nOutput: WikiSearch(\"Ada Lovelace\")", "Input: who wrote Hamlet\nOutput:"} {
		if !strings.Contains(p, want) {
			t.Errorf("call prompt lacks %q:\n%s", want, p)
		}
	}
	if !strings.HasSuffix(p, "Output:") {
		t.Error("the call prompt must end where the call begins")
	}
	if got := PreliminaryPrompt("2+2?"); !strings.Contains(got, "Question: 2+2?") || !strings.HasSuffix(got, "Answer:") {
		t.Errorf("preliminary prompt %q", got)
	}
	r := RoutePrompt([]tools.Spec{spec}, "hello")
	if !strings.Contains(r, "- WikiSearch: Looks things up.") || !strings.Contains(r, "User message: hello") || !strings.Contains(r, "yes or no") {
		t.Errorf("route prompt %q", r)
	}
}
