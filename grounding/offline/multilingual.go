package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Requests in other languages — German, French, Spanish, Italian and
// Portuguese. The phrases that ask for a subject's answer ("quel temps",
// "wie spät") are the tools' (tools.Subject.Asking): the weather's and the
// clock's questions are short and formulaic. What stays here is English
// grammar's counterpart in those languages — the words for today and
// tomorrow that a date parameter reads, the operator words of arithmetic,
// the openings of a question about the world. It is a dictionary of
// everyday words, not a translator: the rest of such a query is matched as
// it is (place names are the same in any language, and the gazetteer
// ignores accents).

// foreignDayList maps the words for today and tomorrow to the English the
// tools read.
const foreignDayList = `heute:today aujourd'hui:today hoy:today oggi:today hoje:today
	morgen:tomorrow demain:tomorrow mañana:tomorrow domani:tomorrow amanhã:tomorrow`

// foreignDays reads foreignDayList.
func foreignDays() map[string]string {
	m := map[string]string{}
	for _, pair := range strings.Fields(foreignDayList) {
		w, en, _ := strings.Cut(pair, ":")
		m[w] = en
	}
	return m
}

// foreignDays are the days the words of other languages name ("mañana").
func (t tokenStage) foreignDays() []string {
	var days []string
	for _, tok := range t.toks {
		if en, ok := t.lx.foreignDays[tok.text]; ok {
			days = append(days, en)
		}
	}
	return days
}

// asking reports whether a phrase of the tools' Asking lists for the
// shape occurs in the tokens: a weather or clock question in another
// language ("quel temps", "wie spät").
func (t tokenStage) asking(shape tools.Answer) bool {
	for i := range t.toks {
		if matchPhrase(t.toks, i, len(t.toks), t.lx.asking[shape]) > 0 {
			return true
		}
	}
	return false
}

// foreignOperator reads the arithmetic operator words of French, Spanish,
// Italian, German and Portuguese at token i ("144 divisé par 12", "25 por
// 48", "7 mal 8"): the lexeme and how many tokens it spans, or 0. Like
// the English operator words they count only between two numbers (see
// infix in arith.go). Italian "per" (times) is left out: in English it
// makes a rate.
func foreignOperator(toks []token, i int) (lexeme, int) {
	next := wordAt(toks, i+1)
	op := func(text string) lexeme { return lexeme{kind: lexOp, text: text} }
	switch toks[i].text {
	case "más", "mas", "mais", "più", "piu":
		return op("+"), 1
	case "moins", "menos", "meno", "weniger":
		return op("-"), 1
	case "fois", "por", "mal", "vezes", "veces":
		return op("*"), 1
	case "multiplié", "multiplie", "multiplicado", "moltiplicato", "multipliziert":
		switch next {
		case "par", "por", "per", "mit":
			return op("*"), 2
		}
		return op("*"), 1
	case "divisé", "divise", "dividido", "diviso", "geteilt", "dividida":
		switch next {
		case "par", "por", "entre", "per", "durch":
			return op("/"), 2
		}
		return op("/"), 1
	case "durch":
		return op("/"), 1
	}
	return lexeme{}, 0
}

// foreignQuestionList open a question about the world — who, what, when,
// where, which, why — in French, Spanish, German, Italian and Portuguese:
// "qu'est-ce que la photosynthèse", "¿quién fue Simón Bolívar?", "wer war
// Goethe". The tokenizer splits "qu'est-ce" into "qu'est" and "ce".
const foreignQuestionList = `qu'est ce que|qu'est ce qu|qui est|qui était|qui a|qui sont|quand|où est|où se trouve|quelle est
	|quel est|pourquoi|qué es|que es|qué son|quién es|quien es|quién fue|quien fue|quién era|quién inventó|cuándo|cuando fue
	|dónde está|donde esta|cuál es|cual es|por qué|was ist|was sind|was war|wer ist|wer war|wann|wo ist|wo liegt|warum
	|cos'è|che cos'è|cosa è|chi è|chi era|chi ha|dove si trova|dov'è|qual è|perché|o que é|quem é|quem foi|onde fica|qual é`

// foreignQuestion reads a question about the world in another language:
// it opens with a phrase of foreignQuestionList and names something after
// it. It returns the span after the opening phrase.
func foreignQuestion(a *analysis) (span, bool) {
	if a.command || a.expr != "" || a.foreignClock || a.foreignWeather || len(a.toks) < 2 {
		return span{}, false
	}
	i := 0
	for i < len(a.toks) && isFiller(a.toks[i].text) {
		i++
	}
	n := matchPhrase(a.toks, i, len(a.toks), a.lx.foreignQuestions)
	if n == 0 || i+n >= len(a.toks) {
		return span{}, false
	}
	return span{i + n, len(a.toks)}, true
}
