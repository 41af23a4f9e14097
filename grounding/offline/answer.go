package offline

import (
	"strings"

	"github.com/gear-chat/gear/grounding"
	"github.com/gear-chat/gear/tools"
)

// The preliminary answer. (The examples of a number, a clock time, a date
// and a weather reading are the library's own when a tool's hints give
// one — Subject.Example — and those below otherwise.) A small model
// answering zero-shot is often
// wrong, but the *shape* of its answer — a number, a clock time, English
// words — is what GEAR's pattern score compares with each tool's response
// (GEAR, arXiv:2307.08775, §3.2, §6.2). The offline engine has no model, so it
// answers with the shape alone: it decides what kind of answer the
// question asks for and writes a short, fixed example of that kind. The
// examples are deliberately bare (no surrounding sentence), and are shown
// as what they are: the engine's guess at the answer's form.
//
// Kinds, first match wins:
//
//	explicit arithmetic                      -> its value (the calculator's evaluator) or "12"
//	a request for an action ("play ...")     -> "Sure, I can help with that."
//	the clock now or somewhere, a time zone,
//	  a conversion ("what time is it in X")  -> "10:30"
//	today's date ("what day is it")          -> "2024-05-01"
//	the weather ("will it rain", "forecast") -> "sunny, 21 °C"
//	how many / how much / a word problem     -> "12"
//	when, what year                          -> "1969"
//	define / what does X mean                -> "a short definition"
//	who / what / which / where / why / how   -> "John Smith"
//	a yes-no question                        -> "yes"
//	anything else (a request, a remark)      -> "Sure, I can help with that."
const (
	shapeNumber     = "12"
	shapeTime       = "10:30"
	shapeDate       = "2024-05-01"
	shapeWeather    = "sunny, 21 °C"
	shapeYear       = "1969"
	shapeDefinition = "a short definition"
	shapeEntity     = "John Smith"
	shapeYesNo      = "yes"
	shapeOther      = "Sure, I can help with that."
)

// answerKind is the kind of answer a query asks for.
type answerKind int

const (
	kindOther answerKind = iota
	kindNumber
	kindTime
	kindDate
	kindWeather
	kindYear
	kindDefinition
	kindEntity
	kindYesNo
)

// answerKindOf classifies the query; the first rule that applies wins.
func (e *Engine) answerKindOf(a *analysis) answerKind {
	low := a.lower
	first := a.firstWord()
	switch {
	case a.expr != "" && a.explicit:
		return kindNumber
	case strings.HasPrefix(a.opExpr, opTemplate(tools.OpCalendarDate)):
		// "what date is 90 days after march 3 2025": a date, read.
		return kindDate
	case a.command, asksInstructions(a):
		return kindOther
	case asksTime(a):
		return kindTime
	case asksDate(a):
		return kindDate
	case e.asksWeather(a):
		return kindWeather
	case a.expr != "" || a.asksQuantity():
		return kindNumber
	case first == "when" || strings.HasPrefix(low, "what year") || strings.HasPrefix(low, "in what year") || strings.HasPrefix(low, "in which year"):
		return kindYear
	case focusIsDefinition(low):
		return kindDefinition
	case isWhQuestion(first):
		return kindEntity
	case isYesNoQuestion(a):
		return kindYesNo
	}
	return kindOther
}

// asksInstructions reports whether the query asks how to do something
// ("how to set the timezone in a Docker container", "how do I round to 2
// decimals"): its answer is instructions in words, whatever the words
// name — not a time, a number or a place. Saying something in another
// language is a translation (saying), and arithmetic written out keeps
// its number (answerKindOf reads it first).
func asksInstructions(a *analysis) bool {
	toks := a.toks
	if len(toks) < 3 || toks[0].text != "how" || saying(toks, 0, len(toks)) {
		return false
	}
	switch toks[1].text {
	case "to":
		return true
	case "do", "can", "should", "would", "could":
		switch toks[2].text {
		case "i", "you", "we", "one":
			return true
		}
	}
	return false
}

// example is the library's example of an answer of the shape (the
// Example of its first subject of that shape), or def.
func (lx *lexicon) example(shape tools.Answer, def string) string {
	if ex, ok := lx.examples[shape]; ok {
		return ex
	}
	return def
}

// pattern is the GEAR output pattern an answer of this kind has ("" for
// plain English or a number).
func (k answerKind) pattern() string {
	switch k {
	case kindTime, kindDate:
		return grounding.PatternTime
	case kindWeather:
		return grounding.PatternWeather
	case kindNumber, kindYear:
		return grounding.PatternNumber
	}
	return ""
}

func (e *Engine) preliminary(a *analysis) string {
	switch a.kind {
	case kindNumber:
		if a.expr != "" && a.explicit && e.evaluate != nil {
			if v, err := e.evaluate(a.expr); err == nil {
				return v
			}
		}
		return e.lex.example(tools.AnswerNumber, shapeNumber)
	case kindTime:
		return e.lex.example(tools.AnswerTime, shapeTime)
	case kindDate:
		return e.lex.example(tools.AnswerDate, shapeDate)
	case kindWeather:
		return e.lex.example(tools.AnswerWeather, shapeWeather)
	case kindYear:
		return shapeYear
	case kindDefinition:
		return shapeDefinition
	case kindEntity:
		return shapeEntity
	case kindYesNo:
		return shapeYesNo
	}
	return shapeOther
}

// followedBy reports whether the phrase occurs in the tokens and the next
// word is one of next ("" meaning the end of the text).
func followedBy(toks []token, phrase string, next ...string) bool {
	words := strings.Fields(phrase)
	for i := 0; i+len(words) <= len(toks); i++ {
		match := true
		for k, w := range words {
			if toks[i+k].text != w {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		after := ""
		if i+len(words) < len(toks) {
			after = toks[i+len(words)].text
		}
		for _, n := range next {
			if after == n {
				return true
			}
		}
	}
	return false
}

func isWhQuestion(w string) bool {
	switch w {
	case "who", "whom", "whose", "what", "what's", "whats", "which", "where", "where's", "why", "how":
		return true
	}
	return false
}

// isQuestionish: a question by its mark, its first word, or a request to
// be told something ("tell me if it will rain").
func isQuestionish(a *analysis) bool {
	if strings.Contains(a.query, "?") {
		return true
	}
	if first := a.firstWord(); opensYesNo(first) || isWhQuestion(first) || first == "when" {
		return true
	}
	return containsPhrase(a.lower, "tell me") || containsPhrase(a.lower, "i want to know") ||
		containsPhrase(a.lower, "i need to know") || containsPhrase(a.lower, "let me know")
}

// isYesNoQuestion: an auxiliary verb first ("is it open", "can you ...")
// or a question mark.
func isYesNoQuestion(a *analysis) bool {
	return opensYesNo(a.firstWord()) || strings.HasSuffix(strings.TrimSpace(a.query), "?")
}

// opensYesNo: the auxiliary verbs a yes-no question opens with.
func opensYesNo(w string) bool {
	switch w {
	case "is", "are", "was", "were", "do", "does", "did", "will", "would", "can", "could", "should", "has", "have":
		return true
	}
	return false
}

func focusIsDefinition(low string) bool {
	for _, cue := range []string{"define", "definition", "meaning of", "what does", "what do"} {
		if containsPhrase(low, cue) {
			return cue != "what does" && cue != "what do" || endsWithAny(strings.TrimRight(low, "?.! "), " mean", " means")
		}
	}
	return false
}
