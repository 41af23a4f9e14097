package weather

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
	if len(names) != 14 {
		t.Errorf("lists %v, want 14", names)
	}
	for _, spec := range []tools.Spec{NewSearch(Config{}).Spec(), NewLocationSearch(Config{}).Spec()} {
		if err := spec.Hints.Validate(spec.Params); err != nil {
			t.Errorf("%s: %v", spec.Name, err)
		}
	}
	w := NewSearch(Config{}).Spec().Hints.Subjects[0]
	for _, c := range []struct {
		list []string
		want string
	}{
		{w.Words, "drizzle"}, {w.Words, "=shorts"}, {w.Words, "regen"}, {w.Asking, "quel temps"}, {w.Cues, "forecast"},
		{w.Idioms, "under the weather"}, {w.Things, "jacket"}, {w.Readings, "humidity"},
		{w.Conditions, "nice"}, {w.Gradable, "windy"}, {w.Spellings, "temperature"}, {w.Outdoors, "outside"},
	} {
		if !slices.Contains(c.list, c.want) {
			t.Errorf("a weather list lacks %q", c.want)
		}
	}
	if !NewSearch(Config{}).Spec().Hints.Params["place"].Here {
		t.Error("WeatherSearch's place is not the user's own when unnamed")
	}
	if p := NewLocationSearch(Config{}).Spec().Hints.Subjects[0]; p.Answer != tools.AnswerPlace || !slices.Contains(p.Words, "latitude") {
		t.Errorf("location subject %+v", p)
	}
}
