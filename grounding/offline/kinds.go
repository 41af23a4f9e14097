package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Questions about the world of three more shapes: the degree of a
// property ("how hot is the surface of the Sun"), a yes-no question of
// what a thing is ("is Iceland part of the EU"), and a question of what a
// kind of thing is or how two differ ("what is a time zone", "the
// difference between weather and climate"), whose subject words name a
// concept rather than the conditions or the clock now.

// propertyWordList are adjectives that "how" asks the degree of: "how hot
// is the surface of the Sun", "how dangerous is a box jellyfish".
const propertyWordList = `hot cold warm bright loud wide thick dense strong hard soft dangerous common rare poisonous
	toxic venomous heavy light fast`

// isProperty: "how" and a property of a thing — not of "it" or "there",
// which are the weather ("how cold is it in Oslo").
func (lx *lexicon) isProperty(toks []token, i, end int) bool {
	if i+3 >= end || toks[i].text != "how" || !lx.propertyWords[toks[i+1].text] || !isAuxiliary(toks[i+2].text) {
		return false
	}
	switch w := toks[i+3].text; {
	case w == "it" || w == "there" || lx.questionWords.outdoors[tools.AnswerWeather][w]:
		return false // "how cold is it", "how warm is outside": the weather's Outdoors
	}
	return !isPersonal(toks[i+3].text)
}

// classifies reads a yes-no question of what a thing is: "is Iceland part
// of the EU", "is a tomato botanically a fruit", "was Pluto a planet". A
// copula, a subject of a few words (no pronoun, no number, nothing of the
// present moment, no preposition: "is the museum open on a Sunday" is
// not one), then "a" or "an" and a class ("a substitute for oil" is a
// use), "part of", "one of", "a member of".
func (lx *lexicon) classifies(toks []token, i, end int) bool {
	switch toks[i].text {
	case "is", "are", "was", "were":
	default:
		return false
	}
	words := 0
	for k := i + 1; k < end && k <= i+7; k++ {
		w := toks[k].text
		if words > 0 && (w == "a" || w == "an") {
			// "a fruit", not "a substitute for oil": a class, not a use
			return k+2 >= end || toks[k+2].text != "for"
		}
		if words > 0 && (w == "part" || w == "one" || w == "member") && k+1 < end && toks[k+1].text == "of" {
			return true
		}
		switch {
		case isPersonal(w) || w == "it" || w == "there" || isNumeric(w) || lx.presentWords[w]:
			return false
		case strings.HasSuffix(w, "ly") && words > 0:
			continue // "botanically"
		case lx.stop[w] && w != "the" && w != "of" && !(words == 0 && (w == "a" || w == "an")):
			return false
		}
		words++
	}
	return false
}

// definitional: the query asks what a kind of thing is ("what is a time
// zone", "what's an isobar", "what is humidity"), what a word means ("define monsoon", "what
// does UTC stand for"), or how two things differ ("the difference between
// weather and climate"). Such a question is about a concept, which a
// reference work explains, not about the conditions or the clock now —
// unless it names a place or a day.
func definitional(a *analysis) bool {
	if focusIsDefinition(a.lower) || containsPhrase(a.lower, "difference between") ||
		containsPhrase(a.lower, "differences between") || containsPhrase(a.lower, "stand for") {
		return true
	}
	for _, c := range a.clauses {
		head, f := a.lx.clauseHead(a.toks, c)
		if f != frameQuestion {
			continue
		}
		k := head + 1
		switch a.toks[head].text {
		case "what's", "whats":
		case "what":
			if k >= c.to || a.toks[k].text != "is" && a.toks[k].text != "are" {
				return false
			}
			k++
		default:
			return false
		}
		if k >= c.to {
			return false
		}
		if a.toks[k].text == "a" || a.toks[k].text == "an" {
			return true
		}
		// "what is daylight saving time", "what is humidity": a bare noun,
		// with nothing of a place, a moment or a comparison ("what is
		// weather like in May", "what's temperature outside").
		if a.lx.stop[a.toks[k].text] || isNumeric(a.toks[k].text) {
			return false
		}
		for i := k; i < len(a.toks); i++ {
			switch w := a.toks[i].text; {
			case w == "like" || w == "outside" || w == "in" || w == "at" || w == "for" || a.lx.presentWords[w] || a.lx.isPersonalAt(a.toks, i):
				return false
			}
		}
		return true
	}
	return false
}

// aboutConcept: a definitional question (see definitional) that names no
// place, day or time and computes nothing — its subject words are the
// concept asked about.
func (a *analysis) aboutConcept() bool {
	return a.definitional && len(a.places) == 0 && len(a.dates) == 0 && len(a.datetimes) == 0 && !(a.expr != "" && a.explicit)
}
