package grounding

import "unicode/utf8"

// Bounds on the text grounding analyses, applied where it enters, so that
// every stage — the encoder, the preliminary answer, each tool's call, the
// pattern scores — costs the same for a question and a pasted document.
const (
	// MaxQueryBytes is how much of a query grounding reads: a question is
	// short; the rest of a longer text is ignored. (The offline engine
	// reads the same amount, offline.MaxQueryBytes.)
	MaxQueryBytes = 2000
	// maxScoredBytes is how much of a preliminary answer or a tool's
	// response the pattern score reads: counts over its start are a fair
	// sample of its shape.
	maxScoredBytes = 8 << 10
)

// bounded is s cut to at most n bytes at a character boundary.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
