package translate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// split cuts text into chunks of at most max bytes, at sentence ends where
// it can (after . ! ? 。 ！ ？ and newlines, with what follows them), else at
// a space, else between runes. Joined back they are the text.
func split(text string, max int) []string {
	if max <= 0 || len(text) <= max {
		return []string{text}
	}
	var chunks []string
	for len(text) > max {
		cut := lastBoundary(text[:max], isSentenceEnd)
		if cut <= 0 {
			cut = lastBoundary(text[:max], unicode.IsSpace)
		}
		if cut <= 0 {
			cut = max
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			if cut == 0 { // a rune longer than max cannot happen for max >= 4
				cut = max
			}
		}
		chunks = append(chunks, text[:cut])
		text = text[cut:]
	}
	if text != "" {
		chunks = append(chunks, text)
	}
	return chunks
}

// lastBoundary is the byte offset just after the last rune of s matching
// end together with the spaces after it, or 0.
func lastBoundary(s string, end func(rune) bool) int {
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if end(r) {
			j := i
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsSpace(r2) {
					break
				}
				j += n
			}
			return j
		}
		i -= size
	}
	return 0
}

func isSentenceEnd(r rune) bool {
	return strings.ContainsRune(".!?\n。！？…", r)
}
