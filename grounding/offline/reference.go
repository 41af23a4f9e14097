package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Questions about the world. Looking things up answers a question about
// the world — who wrote Hamlet, how a black hole forms, tell me about the
// Aztec empire — and not one about the user ("when is my next payday"),
// an opinion ("the best pizza"), or the present moment ("what's on
// tonight"). The question may come with context: a greeting ("Hi! What
// language family does Hungarian belong to?"), a topic set in front ("In
// Greek mythology, who is the goddess of wisdom?"), or how the user came
// across it ("I was reading about the Ottoman Empire — when did it end?",
// "What causes the northern lights? We saw them last night."). Context of
// other kinds — the user's own affairs, the statements of a word problem
// — makes it a question about them, not about the world.

// infoVerbs say how someone came across a subject or holds it in mind:
// reading, watching, hearing or learning about it, remembering or
// forgetting it.
const infoVerbList = `read reading watch watched watching hear heard hearing saw seen see learn learned learnt learning
	study studied studying noticed wondering wondered curious documentary news article book class lecture
	remember remembered remembering forget forgot forgotten forgetting recall`

// worldNouns are what "our" shares with everyone rather than with the
// speaker: "our solar system", "our planet", "our species".
const worldNounList = `planet world solar galaxy universe sun moon species ancestors body bodies brain brains
	history civilization civilisation earth oceans climate language languages`

// introPrepositions open a phrase that sets the topic before a question:
// "In Greek mythology, ...", "According to legend, ...".
const introPrepositionList = `in on at during for according regarding about from among of after before under`

// isPersonalAt reports whether token i is a first- or second-person word,
// or "this"/"these" — except "our" before a word everyone shares.
func (lx *lexicon) isPersonalAt(toks []token, i int) bool {
	for _, w := range expandContraction(toks[i].text) {
		if !isPersonal(w) {
			continue
		}
		if (w == "our" || w == "ours") && i+1 < len(toks) && lx.worldNouns[toks[i+1].text] {
			continue
		}
		if w == "us" && (toks[i].caps || i > 0 && toks[i-1].text == "the") {
			continue // "the US government": the country
		}
		if w == "we" && i >= 2 && toks[i-2].text == "why" && (toks[i-1].text == "do" || toks[i-1].text == "did") {
			continue // "why do we dream": people in general
		}
		if w == "i" && i > 0 && !toks[i].initial && toks[i-1].capital && !toks[i-1].initial && !toks[i-1].caps {
			continue // "World War I", "Elizabeth I": a numeral
		}
		return true
	}
	return false
}

// worldQuestion reads the query as a question about the world: it returns
// the span of what is asked (from the question word, or the subject of a
// request to be told about something, to the end of its sentence), the
// frame that asks it, and whether there is one.
func worldQuestion(a *analysis) (span, frame, bool) {
	if a.command || a.expr != "" && a.explicit {
		return span{}, frameOther, false // an action; arithmetic, which is computed, not looked up
	}
	for _, c := range a.clauses {
		head, f := a.lx.clauseHead(a.toks, c)
		if head >= c.to {
			continue
		}
		switch f {
		case frameReference:
		case frameQuestion:
			if !a.lx.isWhHead(a.toks, head, c.to) && !a.lx.classifies(a.toks, head, c.to) {
				return span{}, frameOther, false // a yes-no question: "is the museum open"
			}
			if head+1 < c.to && a.toks[head+1].text == "to" {
				return span{}, frameOther, false // "where to buy a SIM card", "how to cook rice": advice
			}
		default:
			continue
		}
		q := span{head, a.sentenceOf(c.from).to}
		if !worldSpan(a, q) || !worldContext(a, q, c.from) || isSchedule(a.lx, a.toks, head, c.to) {
			return span{}, frameOther, false
		}
		switch a.lx.questionForm(a.query, a.toks[q.from:q.to]) {
		case formTime, formDate:
			return span{}, frameOther, false // "what time is it", "what day is it": the clock's, not a reference work's
		}
		return q, f, true
	}
	return span{}, frameOther, false
}

// isWhHead reports whether the question word at i asks about the world's
// facts: who, what, which, when, where, why; "how" with an amount ("how
// many", "how old") or a process ("how does a black hole form").
func (lx *lexicon) isWhHead(toks []token, i, end int) bool {
	switch toks[i].text {
	case "who", "whom", "whose", "what", "what's", "whats", "which", "when", "where", "where's", "why", "in", "define":
		return true
	case "how", "how's":
		if i+1 >= end {
			return false
		}
		next := toks[i+1].text
		if isAmountWord(next) || lx.isProperty(toks, i, end) {
			return true
		}
		// "how does a black hole form", "how did the Romans build roads":
		// a process in the world; "how do I", "how is it going" are not.
		return (next == "does" || next == "do" || next == "did") && i+2 < end && !lx.isPersonalAt(toks, i+2) &&
			toks[i+2].text != "it" && toks[i+2].text != "one"
	}
	return false
}

// isSchedule: "what time" (a Name of the clock's answer) asked of the present or the future — "what
// time does the pharmacy close", "what time is the game" — asks for a
// timetable, which a reference work does not keep ("what time did the
// Titanic sink" is history).
func isSchedule(lx *lexicon, toks []token, i, end int) bool {
	if i+2 >= end || toks[i].text != "what" && toks[i].text != "which" || !lx.questionWords.names[tools.AnswerTime][toks[i+1].text] {
		return false
	}
	switch toks[i+2].text {
	case "does", "do", "is", "are", "will", "should", "can", "'s":
		return true
	}
	return false
}

// worldSpan: the question itself names something ("what's up" does not),
// and is not about the user, an opinion, or the present moment.
func worldSpan(a *analysis, q span) bool {
	content := false
	for i := q.from; i < q.to; i++ {
		for _, w := range expandContraction(a.toks[i].text) {
			if !isQuestionWord(w) && !a.lx.stop[w] {
				content = true
			}
		}
		if a.lx.isPersonalAt(a.toks, i) {
			return false
		}
		for _, w := range expandContraction(a.toks[i].text) {
			if isSubjective(w) || a.lx.presentWords[w] || a.lx.serviceNouns[w] {
				return false // an opinion, the present moment, a service
			}
			if w == "nearest" || w == "closest" {
				return false // near the user: "the nearest pharmacy"
			}
		}
		if i+1 < q.to && a.toks[i].text == "last" && (a.toks[i+1].text == "night" || a.toks[i+1].text == "week" || a.toks[i+1].text == "weekend") {
			return false // "who won the game last night"
		}
		if a.lx.travelNouns[a.toks[i].text] && a.journeyAt(i, q.to) {
			return false // "how long is the drive from Leeds to York": directions
		}
	}
	return content
}

// worldContext: what comes before the question (from its clause at start)
// and after its sentence is a greeting, a topic set in front, or how the
// user came across the subject — nothing about the user's own affairs and
// no statements of a problem.
func worldContext(a *analysis, q span, start int) bool {
	for _, c := range a.clauses {
		if c.to <= start {
			if !harmlessBefore(a, c) {
				return false
			}
		} else if c.from >= q.to && !harmlessAfter(a, c) {
			return false
		}
	}
	return true
}

func harmlessBefore(a *analysis, c span) bool {
	if head, _ := a.lx.clauseHead(a.toks, c); head >= c.to {
		return true // a greeting or a politeness formula alone
	}
	if a.hasInfoVerb(c) {
		return true
	}
	if !a.lx.introPrepositions[a.toks[c.from].text] || c.to-c.from > 6 {
		return false
	}
	for i := c.from; i < c.to; i++ {
		if a.lx.isPersonalAt(a.toks, i) || isNumeral(a.toks[i].text) {
			return false
		}
	}
	return true
}

func harmlessAfter(a *analysis, c span) bool {
	if a.hasInfoVerb(c) {
		return true
	}
	for i := c.from; i < c.to; i++ {
		if a.lx.isPersonalAt(a.toks, i) {
			return false
		}
	}
	return true
}

func (a *analysis) hasInfoVerb(c span) bool {
	for i := c.from; i < c.to; i++ {
		if a.lx.infoVerbs[a.toks[i].text] {
			return true
		}
	}
	return false
}

// sentenceOf returns the sentence that contains token i.
func (a *analysis) sentenceOf(i int) span {
	for _, s := range a.sents {
		if i >= s.from && i < s.to {
			return s
		}
	}
	return span{i, len(a.toks)}
}

// clue reads a quiz clue written as a statement ("This Polish-born
// composer wrote the Minute Waltz.", "He was the first person to walk on
// the Moon."): one sentence, not a question, that opens with "this" or
// "these" and a noun, or with "he" or "she", says nothing else about the
// speaker, and names something — a proper name inside the sentence, a word
// of the reference vocabulary, or a first, last or only. It returns the
// clue's span without its opening word.
func (e *Engine) clue(a *analysis) (span, bool) {
	if a.command || len(a.sents) != 1 || len(a.toks) < 5 || a.expr != "" {
		return span{}, false
	}
	if last := a.query[a.toks[len(a.toks)-1].end:]; strings.ContainsRune(last, '?') {
		return inSituQuestion(a)
	}
	switch first, second := a.toks[0].text, a.toks[1].text; {
	case (first == "this" || first == "these") && !isAuxiliary(second) && !isPersonal(second):
	case (first == "he" || first == "she") && !isPersonal(second):
	default:
		return span{}, false
	}
	named := false
	for i := 1; i < len(a.toks); i++ {
		t := a.toks[i]
		if a.lx.isPersonalAt(a.toks, i) {
			return span{}, false
		}
		switch {
		case isUpper(a.query[t.start]):
			named = true
		case t.text == "first" || t.text == "last" || t.text == "only":
			named = true
		case e.lex.hasShape(t.text, tools.AnswerFact):
			named = true
		}
	}
	return span{1, len(a.toks)}, named
}

// inSituQuestion reads a quiz question whose question word stays where
// its answer would stand: "The Treaty of Versailles ended which war?". It
// is a statement up to a "which", "what" or "who" inside it, ends with a
// question mark, and says nothing about the speaker.
func inSituQuestion(a *analysis) (span, bool) {
	if isWhQuestion(a.toks[0].text) || isAuxiliary(a.toks[0].text) || a.toks[0].text == "when" {
		return span{}, false
	}
	inside := false
	for i := range a.toks {
		if a.lx.isPersonalAt(a.toks, i) {
			return span{}, false
		}
		switch a.toks[i].text {
		case "which", "what", "who", "whom":
			inside = inside || i >= 3
		}
	}
	return span{0, len(a.toks)}, inside
}
