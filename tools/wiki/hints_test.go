package wiki

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
	if len(names) != 3 {
		t.Errorf("lists %v, want reference-words, reference-spellings and wiki-aliases", names)
	}
	spec := New(Config{}).Spec()
	if err := spec.Hints.Validate(spec.Params); err != nil {
		t.Fatal(err)
	}
	s := spec.Hints.Subjects[0]
	if !slices.Contains(s.Words, "definition") || !slices.Contains(s.Words, "invented") {
		t.Errorf("reference words lack definition or invented: %v", s.Words)
	}
	if !slices.Contains(s.Spellings, "encyclopedia") {
		t.Errorf("spellings %v lack encyclopedia", s.Spellings)
	}
}
