package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a text: its lower-case form and byte span, and how
// it was written: with a capital, in capitals ("US", "NASA"), first in its
// sentence.
type token struct {
	text                   string // lower case; "'s" and similar kept ("what's")
	start, end             int
	capital, caps, initial bool
}

// wordAt is the text of toks[k], or "" when k is outside them.
func wordAt(toks []token, k int) string {
	if k >= 0 && k < len(toks) {
		return toks[k].text
	}
	return ""
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
		word := strings.ReplaceAll(strings.ToLower(text[start:i]), "’", "'")
		initial := len(toks) == 0 || strings.ContainsAny(text[toks[len(toks)-1].end:start], ".?!\n")
		if a, b := gluedOperatorAt(word); a > 0 {
			// "3x4": two numbers with an operator word glued between
			// them are three words, as "3 x 4" is.
			toks = append(toks, token{text: word[:a], start: start, end: start + a, initial: initial},
				token{text: word[a:b], start: start + a, end: start + b}, token{text: word[b:], start: start + b, end: i})
			continue
		}
		if cut := unitSuffixAt(word); cut > 0 {
			// "72f", "10km", "14h": a number with its unit glued on is
			// two words, as "72 f" and "10 km" are.
			toks = append(toks, token{text: word[:cut], start: start, end: start + cut, initial: initial}, token{text: word[cut:], start: start + cut, end: i})
			continue
		}
		first, _ := utf8.DecodeRuneInString(text[start:])
		toks = append(toks, token{text: word, start: start, end: i, initial: initial, capital: unicode.IsUpper(first),
			caps: i-start >= 2 && strings.ToUpper(text[start:i]) == text[start:i] && strings.ToLower(text[start:i]) != text[start:i]})
	}
	return toks
}

// gluedOperatorAt returns where the operator word of "3x4" or "2.5x10"
// starts and ends: digits (with an inner "."), letters that are an infix
// operator word (grammar/infix-operators.txt), digits again, and nothing
// else. Otherwise 0, 0 ("0xff" ends in letters; "4x" has no second
// number).
func gluedOperatorAt(w string) (int, int) {
	digits := func(i int) int {
		k := i
		for k < len(w) && (isDigitByte(w[k]) || k > i && w[k] == '.' && k+1 < len(w) && isDigitByte(w[k+1])) {
			k++
		}
		return k
	}
	a := digits(0)
	if a == 0 {
		return 0, 0
	}
	b := a
	for b < len(w) && w[b] >= 'a' && w[b] <= 'z' {
		b++
	}
	if b == a || digits(b) != len(w) || digits(b) == b {
		return 0, 0
	}
	if _, ok := infixOperators()[w[a:b]]; !ok {
		return 0, 0
	}
	return a, b
}

// unitSuffixAt returns where the letters of a number written with a unit
// glued on start ("10km" -> 2), or 0: digits (with inner "." or ","), then
// one to four letters and nothing else. An ordinal ("16th", "2nd") and a
// decade ("90s") and a clock time ("8pm") are one word.
func unitSuffixAt(w string) int {
	i := 0
	for i < len(w) && (isDigitByte(w[i]) || i > 0 && (w[i] == '.' || w[i] == ',') && i+1 < len(w) && isDigitByte(w[i+1])) {
		i++
	}
	if i == 0 || i == len(w) || len(w)-i > 4 {
		return 0
	}
	for k := i; k < len(w); k++ {
		if w[k] < 'a' || w[k] > 'z' {
			return 0
		}
	}
	switch w[i:] {
	case "st", "nd", "rd", "th", "s", "am", "pm":
		return 0
	}
	return i
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
