package timezone

import (
	"embed"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are the clock tools' word lists (hints/*.txt), which an
// offline grounding engine reads through Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

// subjects are the clock's and the calendar's vocabularies, shared by
// CurrentTime and TimezoneConverter; read once, never changed.
var subjects = sync.OnceValue(func() []tools.Subject {
	return []tools.Subject{{
		Name:        "clock",
		Answer:      tools.AnswerTime,
		Example:     "10:30",
		Words:       tools.EmbeddedList(hintFiles, "clock-words"),
		Cues:        tools.EmbeddedList(hintFiles, "clock-cues"),
		Openers:     tools.EmbeddedList(hintFiles, "clock-openers"),
		Things:      tools.EmbeddedList(hintFiles, "clock-things"),
		Modifiers:   tools.EmbeddedList(hintFiles, "clock-modifiers"),
		Asking:      tools.EmbeddedList(hintFiles, "clock-asking"),
		States:      tools.EmbeddedList(hintFiles, "clock-states"),
		Spellings:   tools.EmbeddedList(hintFiles, "clock-spellings"),
		Names:       tools.EmbeddedList(hintFiles, "clock-names"),
		Differences: tools.EmbeddedList(hintFiles, "clock-differences"),
		Offsets:     tools.EmbeddedList(hintFiles, "clock-offsets"),
		Reaching:    tools.EmbeddedList(hintFiles, "clock-reaching"),
		Timing:      tools.EmbeddedList(hintFiles, "clock-timing"),
		SourceCues:  tools.EmbeddedList(hintFiles, "clock-source-cues"),
		TargetCues:  tools.EmbeddedList(hintFiles, "clock-target-cues"),
	}, {
		Name:      "calendar",
		Answer:    tools.AnswerDate,
		Example:   "2024-05-01",
		Words:     tools.EmbeddedList(hintFiles, "calendar-words"),
		Cues:      tools.EmbeddedList(hintFiles, "calendar-cues"),
		Openers:   tools.EmbeddedList(hintFiles, "calendar-openers"),
		Things:    tools.EmbeddedList(hintFiles, "calendar-things"),
		Modifiers: tools.EmbeddedList(hintFiles, "calendar-modifiers"),
		Spellings: tools.EmbeddedList(hintFiles, "calendar-spellings"),
		Names:     tools.EmbeddedList(hintFiles, "calendar-names"),
		Counts:    tools.EmbeddedList(hintFiles, "calendar-counts"),
	}}
})

// currentTimeHints: CurrentTime's place is the one the question is about,
// a time zone or anywhere with a clock.
func currentTimeHints() tools.Hints {
	return tools.Hints{Aliases: tools.EmbeddedList(hintFiles, "timezone-aliases"), Subjects: subjects(),
		Params: map[string]tools.ParamHint{"place": {Place: tools.PlaceZone}}}
}

// converterHints: the converter's from_place is where the given time is,
// its to_place where it is wanted.
func converterHints() tools.Hints {
	return tools.Hints{
		Aliases:  tools.EmbeddedList(hintFiles, "timezone-aliases"),
		Subjects: subjects(),
		Params: map[string]tools.ParamHint{
			"from_place": {Role: tools.RoleFrom, Place: tools.PlaceZone},
			"to_place":   {Role: tools.RoleTo, Place: tools.PlaceZone},
		},
	}
}
