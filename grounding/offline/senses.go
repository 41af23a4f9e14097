package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Word senses and question forms: the encoder's small amount of syntax.

func isNumeric(w string) bool { return isNumeral(w) || isNumberWord(w) }

func isPersonal(w string) bool {
	switch w {
	case "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "you", "your", "yours", "yourself", "i'm", "i'd", "i've", "i'll",
		"this", "these":
		return true
	}
	return false
}

func isQuestionWord(w string) bool {
	switch w {
	case "who", "whom", "whose", "what", "whats", "which", "when", "where", "why", "how":
		return true
	}
	return false
}

// questionForm names the kind of answer a question asks for, or "" when
// the text is not a question or its form says little about the answer
// (what/which + noun, why, how, yes/no). The question word may follow a
// request ("can you tell me who...", "I want to know when...").
func (lx *lexicon) questionForm(text string, toks []token) string {
	word := func(i int) string { return strings.TrimSuffix(wordAt(toks, i), "'s") }
	// The first eight words of each sentence; a word problem asks its
	// question last ("... How many apples are left?").
	near := 0
	for i := 0; i+1 < len(toks); i++ {
		// "how many" and "how much" ask for an amount wherever they stand
		// ("If Tom fixes 12 a day, how many days...").
		if toks[i].text == "how" && (toks[i+1].text == "many" || toks[i+1].text == "much") {
			return askAmount
		}
	}
	for i := 0; i < len(toks); i++ {
		if i > 0 && strings.ContainsAny(text[toks[i-1].end:toks[i].start], ".?!") {
			near = 0
		}
		near++
		if near > 8 {
			continue
		}
		switch w := word(i); w {
		case "who", "whom", "whose":
			return askPerson
		case "when":
			return askDate
		case "where":
			return askPlace
		case "why":
			return ""
		case "how":
			if isAmountWord(word(i + 1)) {
				return askAmount
			}
			return ""
		case "what", "whats", "which":
			// "what's the time", "what is the current date": the noun
			// after the article and its adjective.
			k := i + 1
			for k < i+4 && (word(k) == "is" || word(k) == "the" || word(k) == "current" || word(k) == "local" || word(k) == "exact") {
				k++
			}
			switch n := word(k); {
			case lx.questionWords.names[tools.AnswerTime][n] && lx.clockSense(toks, k):
				return formTime
			case lx.questionWords.names[tools.AnswerDate][n] && lx.calendarSense(toks, k):
				return formDate
			case n == "year":
				return askDate
			}
			for _, t := range toks[i+1:] {
				if t.text == "mean" || t.text == "means" || t.text == "meaning" || t.text == "definition" {
					return askDefinition
				}
			}
			return ""
		case "define", "definition", "meaning":
			return askDefinition
		}
	}
	return ""
}

// isSubjective marks a request for an opinion or a recommendation ("the
// best pizza", "a good apr", "a catchy name"), which no reference work
// settles.
func isSubjective(w string) bool {
	switch w {
	case "best", "good", "better", "recommend", "recommended", "favorite", "favourite", "worth", "fun", "funny",
		"funniest", "catchy", "cute", "cool", "nice", "interesting", "creative", "clever", "awesome":
		return true
	}
	return false
}

// weightOf is a concept feature's weight: one weight per concept, whether
// a question's form or a description's words raised it.
func weightOf(concept string) float64 {
	switch {
	case concept == askFact:
		return factWeight
	case strings.HasPrefix(concept, "ask:"):
		return askWeight
	}
	return conceptWeight
}

// clockSense tells the clock's "time" ("what time is it", "the time in
// Lima", "time zone") from the other senses of the word — a span of time
// or an occasion ("vacation time", "free time", "next time", "time off",
// "a long time", "time to change the oil"), known by the words around it:
// the clock tools' Modifiers before it and Things after it, and the shape
// of a question about an event.
func (lx *lexicon) clockSense(toks []token, i int) bool {
	if i+1 < len(toks) && (toks[i+1].text == "zone" || toks[i+1].text == "zones") {
		return true // "a time zone"
	}
	if i > 0 {
		if lx.modifiers[tools.AnswerTime][toks[i-1].text] {
			// "on time", "just in time", "the second time", "cooking
			// time", "flight time": punctual, an occasion or a length.
			return false
		}
	}
	if i+2 < len(toks) && toks[i+1].text == "of" && toks[i+2].text == "day" {
		return true // "what time of day is it"
	}
	if lx.things[tools.AnswerTime][wordAt(toks, i+1)] {
		return false // "time off", "a time machine"
	}
	// "what time does the pharmacy close", "what time is my appointment":
	// the time of an event; "what time is it", "what time will it be
	// there" ask the clock.
	if i > 0 && i+2 < len(toks) && (toks[i-1].text == "what" || toks[i-1].text == "which") && isAuxiliary(toks[i+1].text) {
		after := wordAt(toks, i+3)
		switch toks[i+2].text {
		case "it", "there", "in", "at", "now", "here", "right":
		case "that", "this": // "what time is that in Paris", not "what time is that meeting"
			if after != "" && after != "in" && after != "for" && after != "at" && after != "there" && after != "here" {
				return false
			}
		case "they", "you", "we": // "what time do they have in Mumbai", not "what time do they open"
			if after != "have" && after != "got" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// calendarSense tells today's date ("what's the date", "what day is it")
// from the date of an event ("due date", "date of birth", "pay day", "the
// date my card expires", "days off"), known by the words around it (the
// calendar's Modifiers and Things).
func (lx *lexicon) calendarSense(toks []token, i int) bool {
	if strings.HasSuffix(toks[i].text, "'s") {
		return false // "the day's high": a possessive, not a question of the date
	}
	if i > 0 && toks[i-1].text == "a" && strings.HasPrefix(toks[i].text, "day") {
		return false // "once a day", "a day off": a length of time
	}
	if i > 0 {
		if lx.modifiers[tools.AnswerDate][toks[i-1].text] {
			return false // "due date", "pay day"
		}
		if isNumeric(toks[i-1].text) {
			return false // "3 days", "in two days": a length of time
		}
	}
	if lx.things[tools.AnswerDate][wordAt(toks, i+1)] {
		return false // "date of birth", "days off"
	}
	return true
}

// isAmountWord is the word after "how" that asks for an amount: "how
// many", "how old", "how far".
func isAmountWord(w string) bool {
	switch w {
	case "many", "much", "old", "long", "far", "tall", "big", "large", "often", "fast", "high", "deep", "heavy":
		return true
	}
	return false
}
