package offline

import "strings"

// stem reduces an English word to its stem with Porter's algorithm
// (M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980),
// steps 1a to 5b as published. It expects a lower-case ASCII word; anything
// else, and words of one or two letters, come back unchanged.
func stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	b := []byte(w)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// isConsonant follows Porter's definition: not a vowel, and "y" is a
// consonant only after a vowel or at the start.
func isConsonant(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isConsonant(b, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V] of b.
func measure(b []byte) int {
	n, i := 0, 0
	for i < len(b) && isConsonant(b, i) {
		i++
	}
	for i < len(b) {
		for i < len(b) && !isConsonant(b, i) {
			i++
		}
		if i >= len(b) {
			break
		}
		for i < len(b) && isConsonant(b, i) {
			i++
		}
		n++
	}
	return n
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !isConsonant(b, i) {
			return true
		}
	}
	return false
}

func endsDoubleConsonant(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && isConsonant(b, n-1)
}

// endsCVC is *o: consonant-vowel-consonant, the last not w, x or y.
func endsCVC(b []byte) bool {
	n := len(b)
	if n < 3 || !isConsonant(b, n-1) || isConsonant(b, n-2) || !isConsonant(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func hasSuffix(b []byte, s string) bool { return strings.HasSuffix(string(b), s) }

// replace swaps suffix for repl when the stem before it has measure > m.
func replace(b []byte, suffix, repl string, m int) ([]byte, bool) {
	if !hasSuffix(b, suffix) {
		return b, false
	}
	base := b[:len(b)-len(suffix)]
	if measure(base) > m {
		return append(base[:len(base):len(base)], repl...), true
	}
	return b, true
}

func step1a(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"), hasSuffix(b, "ies"):
		return b[:len(b)-2]
	case hasSuffix(b, "ss"):
		return b
	case hasSuffix(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if hasSuffix(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var base []byte
	switch {
	case hasSuffix(b, "ed") && hasVowel(b[:len(b)-2]):
		base = b[:len(b)-2]
	case hasSuffix(b, "ing") && hasVowel(b[:len(b)-3]):
		base = b[:len(b)-3]
	default:
		return b
	}
	base = base[:len(base):len(base)]
	switch {
	case hasSuffix(base, "at"), hasSuffix(base, "bl"), hasSuffix(base, "iz"):
		return append(base, 'e')
	case endsDoubleConsonant(base):
		if c := base[len(base)-1]; c != 'l' && c != 's' && c != 'z' {
			return base[:len(base)-1]
		}
		return base
	case measure(base) == 1 && endsCVC(base):
		return append(base, 'e')
	}
	return base
}

func step1c(b []byte) []byte {
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		out := append([]byte(nil), b...)
		out[len(out)-1] = 'i'
		return out
	}
	return b
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"abli", "able"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
}

func step2(b []byte) []byte {
	for _, r := range step2Rules {
		if out, matched := replace(b, r[0], r[1], 0); matched {
			return out
		}
	}
	return b
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func step3(b []byte) []byte {
	for _, r := range step3Rules {
		if out, matched := replace(b, r[0], r[1], 0); matched {
			return out
		}
	}
	return b
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
	"ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func step4(b []byte) []byte {
	// Longest suffix first where two overlap (ement/ment/ent).
	best := ""
	for _, s := range step4Suffixes {
		if hasSuffix(b, s) && len(s) > len(best) {
			best = s
		}
	}
	if best == "" {
		return b
	}
	base := b[:len(b)-len(best)]
	if measure(base) <= 1 {
		return b
	}
	if best == "ion" {
		if n := len(base); n == 0 || (base[n-1] != 's' && base[n-1] != 't') {
			return b
		}
	}
	return base
}

func step5(b []byte) []byte {
	if hasSuffix(b, "e") {
		base := b[:len(b)-1]
		m := measure(base)
		if m > 1 || m == 1 && !endsCVC(base) {
			b = base
		}
	}
	if measure(b) > 1 && endsDoubleConsonant(b) && b[len(b)-1] == 'l' {
		b = b[:len(b)-1]
	}
	return b
}
