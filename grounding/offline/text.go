package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a text: its lower-case form and byte span.
type token struct {
	text       string // lower case; "'s" and similar kept ("what's")
	start, end int
}

// tokenize splits text into words (letters, digits, and inner
// apostrophes, periods or commas between digits) with their spans.
func tokenize(text string) []token {
	var toks []token
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		start := i
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if isWordRune(r) {
				i += size
				continue
			}
			// Keep "don't", "3.5" and "1,134" together.
			if (r == '\'' || r == '’' || r == '.' || r == ',') && i+size < len(text) {
				prev, _ := utf8.DecodeLastRuneInString(text[:i])
				next, _ := utf8.DecodeRuneInString(text[i+size:])
				if r == '\'' || r == '’' {
					if unicode.IsLetter(prev) && unicode.IsLetter(next) {
						i += size
						continue
					}
				} else if unicode.IsDigit(prev) && unicode.IsDigit(next) {
					i += size
					continue
				}
			}
			break
		}
		toks = append(toks, token{text: strings.ReplaceAll(strings.ToLower(text[start:i]), "’", "'"), start: start, end: i})
	}
	return toks
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// stopWordList is English function words that say nothing about which tool a
// query needs: articles, pronouns, auxiliaries, prepositions, conjunctions
// and politeness — and the words every tool description uses to say that it
// is a tool ("API", "used for answering questions", "returns"). Question words are not stop words here: "when" and
// "how many" say what kind of answer is wanted.
const stopWordList = `a an the this that these those there here
i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs
am is are was were be been being do does did done doing have has had having
will would shall should can could may might must
and or but nor so if then than as because while until though also just only very too really
of at by for with about against between into through during before after above below to from up down in out on off over under
again further once all any both each few more most other some such no not own same
please thanks thank okay ok hey hi hello let lets let's i'm i'd i'll i've you're you'd it's that's there's
tell know want need like get give go going wonder
api tool tools use used uses using answer answers answering question questions ask asks asked
call calls called return returns returned gives tells report reports result results query queries e.g
s t d ll m re ve`

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// contractions expand the clitics that carry meaning for the rules:
// "what's" is "what is", "it'll" is "it will".
func expandContraction(w string) []string {
	switch {
	case strings.HasSuffix(w, "n't"):
		return []string{strings.TrimSuffix(w, "n't"), "not"}
	case strings.HasSuffix(w, "'s"):
		return []string{strings.TrimSuffix(w, "'s"), "is"}
	case strings.HasSuffix(w, "'re"):
		return []string{strings.TrimSuffix(w, "'re"), "are"}
	case strings.HasSuffix(w, "'ll"):
		return []string{strings.TrimSuffix(w, "'ll"), "will"}
	case strings.HasSuffix(w, "'m"):
		return []string{strings.TrimSuffix(w, "'m"), "am"}
	}
	return []string{w}
}
