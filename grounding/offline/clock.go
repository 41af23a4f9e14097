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

// clockAtPlace: a word for the clock's time followed by a place — "clock
// in Doha", "the hour in Quito", "time in Lima".
func (a *analysis) clockAtPlace() bool {
	for i := 0; i+2 < len(a.toks); i++ {
		switch w := a.toks[i].text; {
		case w == "clock" || w == "time" && a.lx.clockSense(a.toks, i) || a.lx.askingWords[tools.AnswerTime][w]:
		case w == "hour" && i > 0 && (a.toks[i-1].text == "the" || a.toks[i-1].text == "what" || a.toks[i-1].text == "which"):
		default:
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
// "the offset of IST from GMT".
func (a *analysis) zoneDifference() bool {
	if len(a.places) == 0 {
		return false
	}
	clockWord := a.hasWord("hour", "hours", "time", "clock", "clocks")
	for _, t := range a.toks {
		switch t.text {
		case "ahead", "behind":
			if len(a.places) >= 2 || clockWord {
				return true
			}
		case "offset":
			return true
		}
	}
	return false
}

// callingNow: whether it is a good time to call someone in a place — "if
// I call Oslo now will I wake anyone up", "can I phone my sister in Perth
// now or is she asleep" — is a question of the time there.
func (a *analysis) callingNow() bool {
	if !a.hasWord("now", "late", "early", "asleep", "awake", "wake", "sleeping") {
		return false
	}
	for i, t := range a.toks {
		switch t.text {
		case "call", "phone", "ring", "calling", "phoning", "ringing", "facetime", "skype":
		default:
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
	// holidays": counted from today — to a date of the calendar, not to an
	// event of the user's ("until I get paid").
	for i := 0; i+3 < len(a.toks); i++ {
		if a.toks[i].text != "how" || a.toks[i+1].text != "many" {
			continue
		}
		switch a.toks[i+2].text {
		case "days", "weeks", "months", "sleeps":
			switch a.toks[i+3].text {
			case "until", "till", "til", "before":
				personal := false
				for k := i + 4; k < len(a.toks); k++ {
					personal = personal || a.lx.isPersonalAt(a.toks, k)
				}
				return !personal
			}
		}
	}
	// "is today Monday?"
	return followedBy(a.words, "is today", weekdays...) || followedBy(a.words, "is it", weekdays...)
}
