package offline

import (
	"slices"

	"github.com/gear-chat/gear/tools"
)

// Weather words and their senses. A word of the weather vocabulary is
// about the weather when it describes conditions — "will it rain", "a cold
// night in Oslo", "snow tomorrow" — and not when it is part of an idiom
// ("under the weather", "a rain check", "cold feet") or modifies a thing
// that is neither weather nor a time ("a rain jacket", "hot coffee", "a
// cool song", "weather-resistant paint", "snow tires"), or has a person as
// its object ("freeze my card"). The words, idioms, things, measures and
// conditions are the weather tool's (its tools.Subject, read through the
// lexicon); the rules here read any subject whose answer is a weather
// reading.

// mediaNounList are the words of songs and shows: a weather word in a
// query that names one is a title ("lyrics of Let It Snow").
const mediaNounList = `lyrics lyric chords tabs karaoke song songs album soundtrack playlist remix`

// currentReading: "the" and a measure of the weather ending the question
// or followed by a word of here and now — "what's the humidity", "what is
// the temperature outside" — not a measure of a thing ("the temperature
// of the oven").
func (a *analysis) currentReading(i int) bool {
	if i < 1 || a.toks[i-1].text != "the" || !a.lx.readings[a.toks[i].text] {
		return false
	}
	for _, c := range a.clauses {
		if head, _ := a.lx.clauseHead(a.toks, c); c.to <= i && head < c.to {
			return false // "the AC, could you tell me the temperature": of a thing named before
		}
	}
	if i+1 == len(a.toks) {
		return true
	}
	switch w := a.toks[i+1].text; w {
	case "now", "today", "tonight", "here", "like", "right":
		return true
	default:
		return a.lx.questionWords.outdoors[tools.AnswerWeather][w] // "the temperature outside"
	}
}

// weatherSense reports whether token i, a word of the weather vocabulary,
// is about the weather (see the file comment). idiom marks the tokens of
// idioms found in the query.
func (a *analysis) weatherSense(i int) bool {
	if a.idiom[i] || a.measures[i] || a.namesMedia() {
		return false // "under the weather"; "22 degrees Celsius in Fahrenheit"; "Let It Snow lyrics"
	}
	if i+1 >= len(a.toks) {
		return true
	}
	next := a.toks[i+1]
	if gap := a.query[a.toks[i].end:next.start]; gap != " " && gap != "-" {
		return true // punctuation ends the phrase: "it's cold, bring a coat"
	}
	w := next.text
	if a.lx.isPersonalAt(a.toks, i+1) && w != "this" && w != "these" {
		return false // "freeze my card", "warm you up"
	}
	return !a.lx.things[tools.AnswerWeather][w] // "a rain jacket", "a cool song"
}

// placeAt reports whether a place mention starts at byte offset pos.
func (a *analysis) placeAt(pos int) bool {
	for _, p := range a.places {
		if p.Start == pos {
			return true
		}
	}
	return false
}

// idioms marks every token inside one of the subjects' idioms.
func (t tokenStage) idioms() map[int]bool {
	var idiom map[int]bool
	for i := range t.toks {
		if n := matchPhrase(t.toks, i, len(t.toks), t.lx.idioms); n > 0 {
			if idiom == nil {
				idiom = map[int]bool{}
			}
			for k := i; k < i+n; k++ {
				idiom[k] = true
			}
		}
	}
	return idiom
}

// isWeatherWord reports whether token i is a weather word in its weather
// sense.
func (a *analysis) isWeatherWord(i int) bool {
	return a.isWeatherConcept(a.toks[i].text) && a.weatherSense(i)
}

// isWeatherConcept reports whether w is a word of the weather vocabulary.
func (a *analysis) isWeatherConcept(w string) bool {
	return a.lx.hasShape(w, tools.AnswerWeather)
}

// asksWeather: the query asks about the weather — it says "weather" or
// "forecast" (in any of the languages of multilingual.go), or uses a
// weather word about conditions: after the empty "it" or "there" of "will
// it rain", "is it cold", "will there be snow", with a place or a day
// ("snow in Oslo", "rain tomorrow"), or as a chance ("the chance of
// rain": grammar/likelihood.txt). A weather word alone is not enough ("the temperature of the
// AC"), nor is one in a request for an action ("play stormy weather") or
// in a question about a person ("who sang Stormy Weather").
func (e *Engine) asksWeather(a *analysis) bool {
	if a.command || a.lx.questionForm(a.query, a.toks) == askPerson || a.aboutConcept() {
		return false // "who sang Stormy Weather", "the difference between weather and climate"
	}
	if a.foreignWeather || a.conditionsOut() {
		return true
	}
	last := -1
	for i, t := range a.toks {
		if !a.isWeatherWord(i) {
			continue
		}
		if slices.Contains(a.lx.cues[tools.AnswerWeather], t.text) {
			return true // "weather", "forecast"
		}
		last = i
	}
	if last < 0 || !isQuestionish(a) && len(a.places) == 0 {
		return false
	}
	for i := 0; i < last; i++ {
		switch a.toks[i].text {
		case "it", "it's", "there", "there's":
			return true // the empty subject of a weather verb, before it
		}
	}
	if a.currentReading(last) {
		return true
	}
	return a.hasWord("yesterday", "tonight", "weekend") || anyOf(a.toks, a.lx.questionWords.outdoors[tools.AnswerWeather]) ||
		asksLikelihood(a.lower) || len(a.places) > 0 || len(a.dates) > 0
}

// conditionsOut: "it" and then a word for the conditions followed by a
// word of the outdoors (the subjects' Conditions and Outdoors) — "is it nice out in Vancouver", "will it be lovely
// outside tomorrow".
func (a *analysis) conditionsOut() bool {
	sawIt := false
	for i, t := range a.toks {
		switch {
		case t.text == "it" || t.text == "it's":
			sawIt = true
		case a.lx.questionWords.outdoors[tools.AnswerWeather][t.text]:
			if sawIt && i > 0 && a.lx.conditions[a.toks[i-1].text] {
				return true
			}
		}
	}
	return false
}

// namesMedia: the query names a song or its words ("lyrics", "chords").
func (a *analysis) namesMedia() bool {
	for _, t := range a.toks {
		if a.lx.mediaNouns[t.text] {
			return true
		}
	}
	return false
}
