package offline

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// speechVerbs reads grammar/speech-verbs.txt once.
var speechVerbs = sync.OnceValue(func() map[string]bool {
	return setOf(stripComments(mustGrammar("speech-verbs")))
})

// renderedInTarget reports whether the query asks for words rendered in
// one of targets — the values (lower case) a tool's target parameter
// names ("japanese", "deutsch") — without a word of the subject: a
// quoted text followed, at the end of the sentence, by "in", "into" or
// "to" and a target ("\"fork\" in Italian?", "what does \"ojalá\" mean
// in English"), or a verb of saying followed, at the end of the
// sentence, by "in" and a target ("say thank you in Swahili"). A target
// said anywhere else is none: "Thai food", "answer in English", "a
// documentary in French about whales".
func renderedInTarget(query string, toks []token, targets map[string]bool) bool {
	if len(targets) == 0 {
		return false
	}
	quoteEnd := closingQuote(query)
	for end := 0; end < len(toks); {
		// One sentence at a time: toks[start:end].
		start := end
		for end < len(toks) && !sentenceEndsAfter(query, toks[end]) {
			end++
		}
		if end < len(toks) {
			end++
		}
		n := targetAtEnd(toks[start:end], targets)
		if n == 0 || end-n-1 <= start {
			continue
		}
		prep := toks[end-n-1]
		if prep.text != "in" && prep.text != "into" && prep.text != "to" {
			continue
		}
		if quoteEnd >= 0 && quoteEnd <= prep.start && (start == 0 || quoteEnd >= toks[start].start) {
			return true
		}
		if prep.text == "in" {
			for _, t := range toks[start : end-n-1] {
				if speechVerbs()[t.text] {
					return true
				}
			}
		}
	}
	return false
}

// targetAtEnd is how many of the last tokens of sentence (one or two)
// name a target, or 0.
func targetAtEnd(sentence []token, targets map[string]bool) int {
	n := len(sentence)
	if n >= 2 && targets[sentence[n-2].text+" "+sentence[n-1].text] {
		return 2
	}
	if n >= 1 && targets[sentence[n-1].text] {
		return 1
	}
	return 0
}

// sentenceEndsAfter reports whether a sentence's end mark (. ? !)
// follows the token, spaces and closing quotes aside.
func sentenceEndsAfter(query string, t token) bool {
	for _, r := range query[min(t.end, len(query)):] {
		switch r {
		case ' ', '"', '\'', '”', '’', '»', ')':
			continue
		case '.', '?', '!':
			return true
		}
		return false
	}
	return false
}

// closingQuote is the byte offset of the end of the first quoted text of
// the query (in "…", “…” or «…»), or -1 when it quotes nothing. Single
// quotes are apostrophes as often as quotes, so they are not read.
func closingQuote(query string) int {
	for _, pair := range [][2]string{{`"`, `"`}, {"“", "”"}, {"«", "»"}, {"„", "“"}} {
		i := strings.Index(query, pair[0])
		if i < 0 {
			continue
		}
		from := i + len(pair[0])
		j := strings.Index(query[from:], pair[1])
		if j <= 0 || utf8.RuneCountInString(strings.TrimSpace(query[from:from+j])) == 0 {
			continue
		}
		return from + j + len(pair[1])
	}
	return -1
}

// targetValues are the lower-case spellings of the values of spec's
// target parameters (RoleTo) that have Canonical spellings.
func targetValues(spec tools.Spec) map[string]bool {
	var m map[string]bool
	for _, p := range spec.Hints.Params {
		if p.Role != tools.RoleTo {
			continue
		}
		for from := range p.Canonical {
			if m == nil {
				m = map[string]bool{}
			}
			m[strings.ToLower(from)] = true
		}
	}
	return m
}
