package tools

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestWordList(t *testing.T) {
	t.Parallel()
	got := WordList("# a comment\n\nrain\n  under   the weather \n#another\nsnow")
	want := []string{"rain", "under the weather", "snow"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("WordList = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		list  []string
		words bool
		bad   string
	}{
		{nil, false, "empty"},
		{[]string{"Rain"}, false, "lower case"},
		{[]string{"rain", "rain"}, false, "twice"},
		{[]string{"rain check"}, true, "phrase"},
		{[]string{"rain check"}, false, ""},
	} {
		err := CheckWordList(tt.list, tt.words)
		if (err == nil) != (tt.bad == "") || err != nil && !strings.Contains(err.Error(), tt.bad) {
			t.Errorf("CheckWordList(%q, %v) = %v, want %q", tt.list, tt.words, err, tt.bad)
		}
	}
}

func TestCheckEmbeddedLists(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"hints/x-words.txt":  {Data: []byte("rain\nsnow\n")},
		"hints/x-idioms.txt": {Data: []byte("rain check\n")},
	}
	if names, err := CheckEmbeddedLists(fsys); err != nil || len(names) != 2 {
		t.Errorf("CheckEmbeddedLists = %v, %v", names, err)
	}
	fsys["hints/y-words.txt"] = &fstest.MapFile{Data: []byte("two words\n")}
	if _, err := CheckEmbeddedLists(fsys); err == nil || !strings.Contains(err.Error(), "y-words") {
		t.Errorf("a phrase in a word list: %v", err)
	}
}

func TestHintsValidate(t *testing.T) {
	t.Parallel()
	params := []Param{{Name: "place", Type: TypePlace}}
	for _, tt := range []struct {
		h   Hints
		bad string
	}{
		{Hints{Subjects: []Subject{{Name: "weather", Answer: AnswerWeather}}, Params: map[string]ParamHint{"place": {Here: true}}}, ""},
		{Hints{Subjects: []Subject{{Answer: AnswerWeather}}}, "no name"},
		{Hints{Subjects: []Subject{{Name: "x", Answer: "colour"}}}, "unknown answer"},
		{Hints{Subjects: []Subject{{Name: "x", Names: []string{" "}}}}, "names: entry 1 is empty"},
		{Hints{Subjects: []Subject{{Name: "x", Outdoors: []string{"out|side"}}}}, "outdoors: entry 1 contains |"},
		{Hints{Params: map[string]ParamHint{"city": {}}}, "no parameter"},
		{Hints{Params: map[string]ParamHint{"place": {Role: "via"}}}, "unknown role"},
		{Hints{Params: map[string]ParamHint{"place": {Place: "planet"}}}, "unknown place"},
		{Hints{Subjects: []Subject{{Name: "x", Words: []string{"rain", " "}}}}, "words: entry 2 is empty"},
		{Hints{Subjects: []Subject{{Name: "x", Idioms: []string{"a|b"}}}}, "contains |"},
		{Hints{Subjects: []Subject{{Name: "x", Cues: []string{strings.Repeat("a", 81)}}}}, "longer than 80"},
		{Hints{Params: map[string]ParamHint{"place": {Functions: map[Operation]string{OpRangeSum: "sum_range", OpDate: "date"}}}}, ""},
		{Hints{Params: map[string]ParamHint{"place": {Functions: map[Operation]string{"integral": "integrate"}}}}, "unknown operation"},
		{Hints{Params: map[string]ParamHint{"place": {Functions: map[Operation]string{OpRangeSum: "sum range"}}}}, "not a function name"},
		{Hints{Params: map[string]ParamHint{"place": {Functions: map[Operation]string{OpRangeSum: "f(x)"}}}}, "not a function name"},
	} {
		err := tt.h.Validate(params)
		if (err == nil) != (tt.bad == "") || err != nil && !strings.Contains(err.Error(), tt.bad) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.h, err, tt.bad)
		}
	}
}

// A spec is refused when its hints are: the registry, declared files and
// MCP servers all reach hints through Spec.Validate.
func TestSpecValidateChecksHints(t *testing.T) {
	t.Parallel()
	spec := Spec{Name: "Lookup", Family: "lookup", Description: "Looks a place up.", Effect: EffectReadOnly,
		Params: []Param{{Name: "place", Type: TypePlace}},
		Hints:  Hints{Params: map[string]ParamHint{"city": {}}}}
	err := spec.Validate()
	if err == nil || !strings.Contains(err.Error(), "tool Lookup") || !strings.Contains(err.Error(), "no parameter") {
		t.Fatalf("Validate() = %v, want the hints' error naming the tool", err)
	}
	spec.Hints = Hints{}
	if err := spec.Validate(); err != nil {
		t.Fatalf("Validate() without hints = %v", err)
	}
}
