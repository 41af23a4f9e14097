package offline

import (
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// A request in another language ("Cómo se dice buenos días en japonés",
// "Wie sagt man guten Morgen auf Japanisch") opens with a phrase of the
// tool's own Asking list (tools.Subject.Asking: "cómo se dice", "wie sagt
// man", data of the tool) that the English question grammar (focus) cannot
// read: taken as an English question, the whole sentence, question words
// and all, would be the text. Such a frame is the phrase, the text, and
// the tool's other arguments — an enum value of another parameter (the
// language, "japonés") led in by a short function word of that language
// ("en", "auf", "em", "in", "ins"). askedText is what is left of the
// sentence after the phrase once those are gone; it knows no word of any
// language itself.

// maxLinkRunes bounds a word that leads into an argument ("en", "auf",
// "ins", "au"): the prepositions and articles that do are short in every
// language the Asking lists hold, and a longer word is part of the text.
const maxLinkRunes = 3

// askedText is the text a string parameter takes from a request that
// opens with one of spec's Asking phrases, or "" when no such phrase
// stands in the query.
func askedText(a *analysis, spec tools.Spec, own map[string]bool) string {
	phrases := askingPhrases(spec)
	if len(phrases) == 0 {
		return ""
	}
	for i := range a.toks {
		n := matchPhrase(a.toks, i, len(a.toks), phrases)
		if n == 0 {
			continue
		}
		rest := a.toks[i+n:]
		from, to := 0, len(rest)
		isOwn := func(k int) bool { return own[stem(rest[k].text)] }
		isLink := func(k int) bool { return utf8.RuneCountInString(rest[k].text) <= maxLinkRunes }
		// "… en japonés": the argument and the word leading into it end
		// the text; "en japonés …" may open it.
		for to > from && isOwn(to-1) {
			to--
			if to > from && isLink(to-1) {
				to--
			}
		}
		for from < to && (isOwn(from) || isLink(from) && from+1 < to && isOwn(from+1)) {
			if !isOwn(from) {
				from++
			}
			from++
		}
		if from >= to {
			return ""
		}
		return strings.Trim(a.query[rest[from].start:rest[to-1].end], "¿?¡!.,;:\"'«»„“” ")
	}
	return ""
}

// askingPhrases are spec's Asking phrases as token lists, longest first
// (so "cómo se dice" is read before a shorter phrase it starts with).
func askingPhrases(spec tools.Spec) [][]string {
	var out [][]string
	for _, sub := range spec.Hints.Subjects {
		for _, p := range sub.Asking {
			var words []string
			for _, t := range tokenize(strings.ToLower(p)) {
				words = append(words, t.text)
			}
			if len(words) > 0 {
				out = append(out, words)
			}
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
