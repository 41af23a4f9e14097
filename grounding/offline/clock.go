package offline

import (
	"slices"

	"github.com/gear-chat/gear/tools"
)

// Questions about the clock and the calendar. A question about the clock
// asks what time it is — somewhere or here — in whatever words: "what
// time is it in Lima", "clock in Doha?", "tell me the hour in Quito", "is
// it past midnight in Taipei", "is it still Friday in Samoa", "how late
// is it in Vladivostok", "how many hours ahead is Moscow", "what is 9am
// GMT in IST", or in another language ("wie spät ist es in Wien"). It is
// not a question about when something happens ("what time does the
// pharmacy close", "what time is my appointment"; see clockSense), nor a
// request for an action ("set an alarm for 7:45", "move my 2 o'clock").

// dayStateAdverbList are the words that may stand between "is it" and a
// part of the day: "is it already evening", "is it past midnight", "is it
// too late".
const dayStateAdverbList = `still already yet now currently really actually almost nearly past after before too
	getting very quite so the`

// The words after an opening of a clock or a calendar question (the
// tools' Openers: "what time", "what's the date") that keep it a question
// of the time or the date now or somewhere: the end of the question, a
// place or a moment. "" is the end.
var (
	timeOpenerFollowers = []string{"", "in", "now", "there", "here", "at", "please", "right", "currently", "for", "where"}
	dateOpenerFollowers = []string{"", "today", "now", "please", "in", "there", "here", "right", "currently"}
)

// asksTime: the question is about the clock itself — the time now or
// somewhere, a time zone, a difference between zones, a conversion.
func asksTime(a *analysis) bool {
	if a.command || a.aboutConcept() {
		return false // "what is a time zone": a concept, not the clock
	}
	if a.foreignClock {
		return true
	}
	low := a.lower
	for _, cue := range a.lx.cues[tools.AnswerTime] {
		if containsPhrase(low, cue) {
			return true
		}
	}
	for _, cue := range a.lx.questionOpeners[tools.AnswerTime] {
		if followedBy(a.words, cue, timeOpenerFollowers...) {
			return true
		}
	}
	// "what time do they have in Cairo", "what time of day is it in Lima":
	// the clock's time (clockSense), somewhere or now.
	if a.lx.questionForm(a.query, a.toks) == formTime && (len(a.places) > 0 || a.hasWord("now", "there", "here", "currently")) {
		return true
	}
	if a.clockAtPlace() || a.dayState() || a.zoneDifference() || a.callingNow() {
		return true
	}
	// A given date-time and a place to convert it to.
	return len(a.datetimes) > 0 && len(a.places) >= 2
}

// clockAtPlace: a word that names the clock's time (the subjects' Names
// for a time), followed by a place — "clock in Doha", "the hour in
// Quito", "time in Lima".
func (a *analysis) clockAtPlace() bool {
	for i := 0; i+2 < len(a.toks); i++ {
		if w := a.toks[i].text; !a.namesTimeAt(i) && !a.lx.askingWords[tools.AnswerTime][w] {
			continue
		}
		k := i + 1
		// "time now in Hanoi", "the time right now in Lima"
		for k+2 < len(a.toks) && (a.toks[k].text == "now" || a.toks[k].text == "right" || a.toks[k].text == "currently") {
			k++
		}
		switch a.toks[k].text {
		case "in", "at", "for", "en", "à", "a", "em", "von":
			if a.placeAt(a.toks[k+1].start) {
				return true
			}
		}
	}
	return false
}

// namesTimeAt: token i names the clock's time in the clock's sense. A
// name that is also a unit of measure asks for the time only after "the",
// "what" or "which" ("the hour in Quito"; "an hour in Paris" is a
// length).
func (a *analysis) namesTimeAt(i int) bool {
	w := a.toks[i].text
	if !a.lx.questionWords.names[tools.AnswerTime][w] {
		return false
	}
	if _, unit := a.lx.units[w]; unit {
		return i > 0 && (a.toks[i-1].text == "the" || a.toks[i-1].text == "what" || a.toks[i-1].text == "which")
	}
	return a.lx.clockSense(a.toks, i)
}

// dayState: "is it" and a part of the day, or a day after "still",
// "already" or "yet", said of a place or of now — "is it morning in
// Honolulu right now", "is it already tomorrow in Manila", "is it too late
// to phone her now".
func (a *analysis) dayState() bool {
	where := len(a.places) > 0 || a.hasWord("there", "now", "yet")
	if !where {
		return false
	}
	for i := 0; i+2 < len(a.toks); i++ {
		if a.toks[i].text != "is" || a.toks[i+1].text != "it" {
			continue
		}
		marked := false
		j := i + 2
		for j < len(a.toks) && a.lx.dayStateAdverbs[a.toks[j].text] {
			if w := a.toks[j].text; w == "still" || w == "already" || w == "yet" {
				marked = true
			}
			j++
		}
		if j >= len(a.toks) {
			continue
		}
		switch wordAt(a.toks, j+1) {
		case "still", "already", "yet": // "is it tomorrow already in Sydney"
			marked = true
		}
		switch w := a.toks[j].text; {
		case a.lx.states[w]:
			return true
		case marked && (isWeekday(w) || w == "today" || w == "tomorrow" || w == "yesterday"):
			return true
		}
	}
	return false
}

// zoneDifference: how far ahead or behind one place's clock is — "how many
// hours ahead is Moscow compared to Lisbon", "is Tokyo ahead of London",
// "the offset of IST from GMT" (the subjects' Differences and Offsets).
func (a *analysis) zoneDifference() bool {
	if len(a.places) == 0 {
		return false
	}
	qw := a.lx.questionWords
	named := false
	for _, t := range a.toks {
		named = named || qw.namesAnswer(tools.AnswerTime, t.text)
	}
	for _, t := range a.toks {
		switch {
		case qw.differences[tools.AnswerTime][t.text]:
			if len(a.places) >= 2 || named {
				return true
			}
		case qw.offsets[tools.AnswerTime][t.text]:
			return true
		}
	}
	return false
}

// callingNow: whether it is a good time to reach someone in a place — "if
// I call Oslo now will I wake anyone up", "can I phone my sister in Perth
// now or is she asleep" — is a question of the time there (the subjects'
// Reaching and Timing).
func (a *analysis) callingNow() bool {
	qw := a.lx.questionWords
	if !anyOf(a.toks, qw.timing[tools.AnswerTime]) {
		return false
	}
	for i, t := range a.toks {
		if !qw.reaching[tools.AnswerTime][t.text] {
			continue
		}
		// The place is called ("call Oslo") or is where the callee is
		// ("phone my sister in Perth").
		for k := i + 1; k < len(a.toks) && k <= i+4; k++ {
			if a.placeAt(a.toks[k].start) && (k == i+1 || a.toks[k-1].text == "in" || a.toks[k-1].text == "at") {
				return true
			}
		}
	}
	return false
}

var weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

func isWeekday(w string) bool { return slices.Contains(weekdays, w) }

// asksDate: the question is about the calendar day now ("what's the date",
// "what day is it"), not the date of an event ("the date of my paycheck").
func asksDate(a *analysis) bool {
	if a.command {
		return false
	}
	low := a.lower
	for _, cue := range a.lx.cues[tools.AnswerDate] {
		if containsPhrase(low, cue) {
			return true
		}
	}
	for _, cue := range a.lx.questionOpeners[tools.AnswerDate] {
		if followedBy(a.words, cue, dateOpenerFollowers...) {
			return true
		}
	}
	// "how many days until Christmas", "how many weeks till the summer
	// holidays" (the subjects' Counts): counted from today — to a date of the calendar, not to an
	// event of the user's ("until I get paid").
	for i := 0; i+3 < len(a.toks); i++ {
		if a.toks[i].text != "how" || a.toks[i+1].text != "many" {
			continue
		}
		if !a.lx.questionWords.counts[tools.AnswerDate][a.toks[i+2].text] {
			continue
		}
		switch a.toks[i+3].text {
		case "until", "till", "til", "before":
			personal := false
			for k := i + 4; k < len(a.toks); k++ {
				personal = personal || a.lx.isPersonalAt(a.toks, k)
			}
			return !personal
		}
	}
	// "is today Monday?"
	return followedBy(a.words, "is today", weekdays...) || followedBy(a.words, "is it", weekdays...)
}
