package timezone

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
	if len(names) != 24 {
		t.Errorf("lists %v, want 24", names)
	}
	for _, spec := range []tools.Spec{NewCurrentTime(Options{}).Spec(), NewConverter(Options{}).Spec()} {
		if err := spec.Hints.Validate(spec.Params); err != nil {
			t.Errorf("%s: %v", spec.Name, err)
		}
		clock, calendar := spec.Hints.Subjects[0], spec.Hints.Subjects[1]
		if clock.Answer != tools.AnswerTime || !slices.Contains(clock.Words, "o'clock") || !slices.Contains(clock.Asking, "quelle heure") {
			t.Errorf("%s: clock subject %+v", spec.Name, clock)
		}
		if !slices.Contains(clock.Modifiers, "vacation") || !slices.Contains(clock.Things, "machine") ||
			!slices.Contains(calendar.Modifiers, "due") || !slices.Contains(calendar.Things, "off") {
			t.Errorf("%s: the other senses of time and date are missing", spec.Name)
		}
		if !slices.Contains(clock.States, "lunchtime") {
			t.Errorf("%s: clock states lack lunchtime", spec.Name)
		}
		if !slices.Contains(clock.Openers, "what time") || !slices.Contains(calendar.Openers, "what day") {
			t.Errorf("%s: openers %v, %v", spec.Name, clock.Openers, calendar.Openers)
		}
		if !slices.Contains(clock.Cues, "time is it") || !slices.Contains(calendar.Cues, "what day is it") && !slices.Contains(calendar.Cues, "day is it") {
			t.Errorf("%s: cues %v, %v", spec.Name, clock.Cues, calendar.Cues)
		}
		// The grammar of clock and calendar questions, as data.
		if !slices.Contains(clock.Names, "hour") || !slices.Contains(calendar.Names, "date") ||
			!slices.Contains(clock.Differences, "ahead") || !slices.Contains(clock.Offsets, "offset") ||
			!slices.Contains(clock.Reaching, "phone") || !slices.Contains(clock.Timing, "asleep") ||
			!slices.Contains(calendar.Counts, "sleeps") || !slices.Contains(clock.SourceCues, "my time in") ||
			!slices.Contains(clock.TargetCues, "time is it in") {
			t.Errorf("%s: the clock's and the calendar's question words are missing: %+v, %+v", spec.Name, clock, calendar)
		}
		if calendar.Answer != tools.AnswerDate || !slices.Contains(calendar.Words, "weekday") {
			t.Errorf("%s: calendar subject %+v", spec.Name, calendar)
		}
	}
	if r := NewConverter(Options{}).Spec().Hints.Params["from_place"].Role; r != tools.RoleFrom {
		t.Errorf("from_place role %q", r)
	}
}
