package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The request of a longer message. People write a question with context
// around it — how they feel, what happened, why they ask: "My grandmother
// was diagnosed last month and we're all scared. What is Parkinson's
// disease? I want to understand it." The request is the sentence that
// asks — the question — and it decides which tool the message needs: the engine reads that sentence
// alone, and the rest of the message only as context, at contextWeight in
// the encoder. It does so only when the question stands on its own: one
// sentence asks, and it does not point back into the context ("How far
// is it from there?", "What percent increase is that?", "How many apples
// does she have now?"), nor is it the question of a story problem, whose
// numbers are in the statements before it.

// contextWeight is the weight of the context's features against the
// request's in the encoder: enough to say what the message is about,
// not enough to outweigh what it asks.
const contextWeight = 0.3

// focusSpan returns the byte span of the message's request sentence,
// when it has one that stands on its own.
func (a *analysis) focusSpan() (int, int, bool) {
	if len(a.sents) < 2 {
		return 0, 0, false
	}
	var asks []span
	for _, s := range a.sents {
		if a.asksIn(s) {
			asks = append(asks, s)
		}
	}
	if len(asks) != 1 {
		return 0, 0, false
	}
	f := asks[0]
	if a.pointsBack(f) || f.from > 0 && !a.toks[f.from].capital || f.to < len(a.toks) && !a.toks[f.to].capital {
		// Pointing back, or not a sentence of its own: a question mark
		// inside a line ("5 pm pacific = ? eastern").
		return 0, 0, false
	}
	outside := func(start int) bool { return start < a.toks[f.from].start || start >= a.toks[f.to-1].end }
	story := (a.expr != "" || a.asksQuantity() || a.asksMeasure(f)) && !isAdviceOrGeneral(a.questionSentence())
	for _, n := range a.numbers {
		if outside(n.start) && story {
			return 0, 0, false // a story problem: its numbers are in the story
		}
	}
	end := a.toks[f.to-1].end
	for end < len(a.query) && strings.ContainsRune("?!.\"')", rune(a.query[end])) {
		end++
	}
	return a.toks[f.from].start, end, true
}

// asksIn reports whether sentence s asks: it ends with a question mark.
// A written message marks its question so; a sentence that asks without
// one ("Tell me about the temples.") is left to the reading of the whole,
// and so is a tool's description, which instructs ("Call it with ...")
// but does not ask.
func (a *analysis) asksIn(s span) bool {
	end := a.toks[s.to-1].end
	next := len(a.query)
	if s.to < len(a.toks) {
		next = a.toks[s.to].start
	}
	return strings.Contains(a.query[end:next], "?")
}

// pointsBack reports whether sentence s refers to something only the
// context names: a third-person pronoun with no noun or name before it in
// the sentence ("was she Egyptian" after "Who was Cleopatra" is fine),
// "there" or "then" as a place or a time ("is it cold there"), "that"
// standing for a thing ("what's that in euros"), or "one" standing for a
// noun ("the next one").
func (a *analysis) pointsBack(s span) bool {
	named := false
	for i := s.from; i < s.to; i++ {
		t := a.toks[i]
		prev, next := "", ""
		if i > s.from {
			prev = a.toks[i-1].text
		}
		if i+1 < s.to {
			next = a.toks[i+1].text
		}
		switch t.text {
		case "he", "she", "him", "her", "his", "hers", "they", "them", "their", "theirs", "its":
			if !named {
				return true
			}
		case "there":
			if !isAuxiliary(prev) && !isAuxiliary(next) && prev != "be" {
				return true // "is it raining there", not "are there" or "there is"
			}
		case "then":
			return true
		case "that", "those", "this":
			switch {
			case i == s.to-1, isAuxiliary(prev), prev == "what's", prev == "whats", prev == "what", prev == "how",
				next == "in", next == "to", next == "per", next == "for", next == "as":
				return true // "what percent is that", "what's that in Paris time"
			}
		case "one", "ones":
			switch prev {
			case "the", "a", "which", "next", "new", "other", "that", "this", "last", "first":
				return true
			}
		}
		if !a.lx.stop[t.text] && !isQuestionWord(t.text) && !isAuxiliary(t.text) && !isPersonal(t.text) {
			named = true
		}
	}
	return false
}

// focusOn returns the analysis of the message's request sentence with
// the rest of the message as its context, or a itself.
func (e *Engine) focusOn(a *analysis) *analysis {
	from, to, ok := a.focusSpan()
	if !ok {
		return a
	}
	f := e.analyzeText(a.query[from:to])
	if (f.kind.situated() || a.kind.situated()) &&
		(len(f.places) < len(a.places) || f.clockTimes() < a.clockTimes() || len(f.dates) < len(a.dates)) {
		// A question of the clock or the weather whose place or time the
		// context gives: "I'm flying to Oslo on Friday. Will it snow?"
		return a
	}
	f.context = e.analyzeText(strings.TrimSpace(a.query[:from] + " " + a.query[to:]))
	return f
}

// asksMeasure reports whether sentence s names a quantity of arithmetic:
// "What is the platform's area?", "what percentage are girls?".
func (a *analysis) asksMeasure(s span) bool {
	for i := s.from; i < s.to; i++ {
		if a.lx.hasShape(a.toks[i].text, tools.AnswerNumber) {
			return true
		}
	}
	return false
}

// situated: an answer of this kind depends on a place and a time — the
// clock, the date, the weather.
func (k answerKind) situated() bool {
	return k == kindTime || k == kindDate || k == kindWeather
}

// clockTimes counts the date-times of the query other than "now", which
// any remark may contain ("I can't afford one right now").
func (a *analysis) clockTimes() int {
	n := 0
	for _, d := range a.datetimes {
		if !strings.EqualFold(d, "now") {
			n++
		}
	}
	return n
}
