package calc

import (
	"slices"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestHintLists(t *testing.T) {
	names, err := tools.CheckEmbeddedLists(hintFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 {
		t.Errorf("lists %v, want arithmetic-words and calc-aliases", names)
	}
	h := New().Spec().Hints
	if err := h.Validate(New().Spec().Params); err != nil {
		t.Fatal(err)
	}
	if w := h.Subjects[0].Words; !slices.Contains(w, "multiply") || !slices.Contains(w, "percentage") {
		t.Errorf("arithmetic words lack multiply or percentage: %v", w)
	}
	if !slices.Contains(h.Aliases, "maths") {
		t.Errorf("aliases %v lack maths", h.Aliases)
	}
}
