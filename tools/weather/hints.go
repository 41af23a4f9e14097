package weather

import (
	"embed"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// hintFiles are the weather and location tools' word lists
// (hints/*.txt), which an offline grounding engine reads through
// Spec().Hints.
//
//go:embed hints/*.txt
var hintFiles embed.FS

// searchHints: the weather's vocabulary and its senses; a weather
// question that names no place is about the user's own, and a time zone
// alone is no place to forecast.
var searchHints = sync.OnceValue(func() tools.Hints {
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "weather-aliases"),
		Subjects: []tools.Subject{{
			Name:       "weather",
			Answer:     tools.AnswerWeather,
			Example:    "sunny, 21 °C",
			Words:      tools.EmbeddedList(hintFiles, "weather-words"),
			Cues:       tools.EmbeddedList(hintFiles, "weather-cues"),
			Asking:     tools.EmbeddedList(hintFiles, "weather-asking"),
			Idioms:     tools.EmbeddedList(hintFiles, "weather-idioms"),
			Things:     tools.EmbeddedList(hintFiles, "weather-things"),
			Readings:   tools.EmbeddedList(hintFiles, "weather-readings"),
			Conditions: tools.EmbeddedList(hintFiles, "weather-conditions"),
			Gradable:   tools.EmbeddedList(hintFiles, "weather-gradable"),
			Spellings:  tools.EmbeddedList(hintFiles, "weather-spellings"),
			Outdoors:   tools.EmbeddedList(hintFiles, "weather-outdoors"),
		}},
		Params: map[string]tools.ParamHint{"place": {Here: true, Place: tools.PlaceLocation}},
	}
})

// locationHints: the words of asking where a place is; a time zone alone
// is no location.
var locationHints = sync.OnceValue(func() tools.Hints {
	return tools.Hints{
		Aliases: tools.EmbeddedList(hintFiles, "location-aliases"),
		Params:  map[string]tools.ParamHint{"place": {Place: tools.PlaceLocation}},
		Subjects: []tools.Subject{{
			Name:      "place",
			Answer:    tools.AnswerPlace,
			Words:     tools.EmbeddedList(hintFiles, "place-words"),
			Spellings: tools.EmbeddedList(hintFiles, "place-spellings"),
		}},
	}
})
