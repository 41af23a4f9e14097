package offline

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

// withoutQuestionWords returns the built-in specs with the subjects'
// question grammar (Names aside) taken out of their hints.
func withoutQuestionWords() []tools.Spec {
	var out []tools.Spec
	for _, s := range builtinSpecs() {
		subs := make([]tools.Subject, len(s.Hints.Subjects))
		for i, sub := range s.Hints.Subjects {
			sub.Differences, sub.Offsets, sub.Reaching, sub.Timing, sub.Counts, sub.Outdoors = nil, nil, nil, nil, nil, nil
			sub.SourceCues, sub.TargetCues = nil, nil
			subs[i] = sub
		}
		s.Hints.Subjects = subs
		out = append(out, s)
	}
	return out
}

// TestQuestionWordsComeFromHints: the clock's, the calendar's and the
// weather's question grammar is the tools' data — the same question is
// read as the subject's with the tools' lists and not without them.
func TestQuestionWordsComeFromHints(t *testing.T) {
	t.Parallel()
	full := testEngine()
	bare := full.ForLibrary(withoutQuestionWords())
	asks := map[string]func(e *Engine, a *analysis) bool{
		"time":    func(_ *Engine, a *analysis) bool { return asksTime(a) },
		"date":    func(_ *Engine, a *analysis) bool { return asksDate(a) },
		"weather": func(e *Engine, a *analysis) bool { return e.asksWeather(a) },
	}
	for _, tt := range []struct{ query, asks string }{
		{"how many hours behind is Denver from Boston", "time"}, // Differences
		{"what's the offset of CET from UTC", "time"},           // Offsets
		{"if I phone Tokyo now will they be asleep", "time"},    // Reaching, Timing
		{"how many sleeps until Christmas", "date"},             // Counts
		{"is it nice out in Vancouver", "weather"},              // Outdoors
	} {
		if !asks[tt.asks](full, full.analyze(tt.query)) {
			t.Errorf("with the tools' hints, %q does not ask for the %s", tt.query, tt.asks)
		}
		if asks[tt.asks](bare, bare.analyze(tt.query)) {
			t.Errorf("without the tools' question words, %q still asks for the %s", tt.query, tt.asks)
		}
	}
}

// TestConversionCuesComeFromHints: the clock's target cue ("time in")
// makes the place after it the one asked about, with no given time to
// tell the places apart.
func TestConversionCuesComeFromHints(t *testing.T) {
	t.Parallel()
	full := testEngine()
	bare := full.ForLibrary(withoutQuestionWords())
	q := "the time in Tokyo and Lima"
	if r := placeRoles(full.analyze(q)); r.to != 0 || r.from != 1 {
		t.Errorf("with the tools' hints, %q: from %d to %d, want from 1 (Lima) to 0 (Tokyo)", q, r.from, r.to)
	}
	if r := placeRoles(bare.analyze(q)); r.to == 0 {
		t.Errorf("without the tools' cues, %q still asks about Tokyo: from %d to %d", q, r.from, r.to)
	}
}

// TestNamesAnswer: a subject's Names, and their plurals, name its answer.
func TestNamesAnswer(t *testing.T) {
	t.Parallel()
	q := newQuestionWords([]tools.Spec{{Hints: tools.Hints{Subjects: []tools.Subject{
		{Name: "clock", Answer: tools.AnswerTime, Names: []string{"Hour", "clock"}}}}}})
	for w, want := range map[string]bool{"hour": true, "hours": true, "clocks": true, "s": false, "date": false} {
		if got := q.namesAnswer(tools.AnswerTime, w); got != want {
			t.Errorf("namesAnswer(%q) = %v, want %v", w, got, want)
		}
	}
	if !q.nameStems[tools.AnswerTime][stem("hours")] {
		t.Errorf("name stems %v lack hour's", q.nameStems)
	}
}
