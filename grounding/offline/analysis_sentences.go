package offline

import "strings"

// The sentences of a query and the questions the readings ask of its
// words: where its sentences end (not after "Mrs." or inside "3.5"), its
// last and its question sentence, whether it is a story problem, whether
// it asks an amount, and its first word. The stages that build an
// analysis are in analysis.go.

// sentences splits the query at sentence ends: ".", "?" or "!" followed by
// a space and a capital or the end, but not after an abbreviation ("Mrs.")
// or inside a number ("3.5").
func (a *analysis) sentences() []string {
	var out []string
	text := strings.TrimSpace(a.query)
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		end := i + 1
		if end < len(text) && !(text[end] == ' ' && end+1 < len(text) && (isUpper(text[end+1]) || text[end+1] == '"')) {
			continue
		}
		if c == '.' && isAbbreviation(text[start:i]) {
			continue
		}
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// isAbbreviation reports whether text ends with a title or short form that
// takes a period ("Mrs", "Dr", "St").
func isAbbreviation(text string) bool {
	i := strings.LastIndexAny(text, " (") + 1
	switch strings.ToLower(text[i:]) {
	case "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "mt", "ft", "vs", "etc", "no", "approx", "e.g", "i.e",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec":
		return true
	}
	// An initial ("J. K. Rowling", "Lake A. Smith") or a letter of "a.m.",
	// "p.m.", "U.S.".
	return len(text[i:]) == 1
}

// lastSentence is the query's last sentence, lower case.
func (a *analysis) lastSentence() string {
	ss := a.sentences()
	if len(ss) == 0 {
		return ""
	}
	return strings.ToLower(ss[len(ss)-1])
}

// questionSentence is the query's last sentence that ends with a question
// mark, or its last sentence, lower case: the question of a story problem
// may have a remark after it.
func (a *analysis) questionSentence() string {
	ss := a.sentences()
	for i := len(ss) - 1; i >= 0; i-- {
		if strings.HasSuffix(ss[i], "?") {
			return strings.ToLower(ss[i])
		}
	}
	return a.lastSentence()
}

// isStoryProblem reports whether the query is a story that ends in a
// question: statements, then a question — the shape of a word problem.
func (a *analysis) isStoryProblem() bool {
	ss := a.sentences()
	if len(ss) < 2 {
		return false
	}
	last := strings.ToLower(ss[len(ss)-1])
	if strings.HasSuffix(last, "?") {
		return true
	}
	w := strings.Fields(last)
	return len(w) > 0 && (isWhQuestion(strings.TrimSuffix(w[0], ",")) || w[0] == "when")
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// asksQuantity reports whether the query asks for an amount.
func (a *analysis) asksQuantity() bool {
	for _, cue := range quantityCues {
		if containsPhrase(a.lower, cue) {
			return true
		}
	}
	return false
}

// containsPhrase reports whether the phrase occurs in text at word
// boundaries.
func containsPhrase(text, phrase string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(phrase)
		if (start == 0 || !isWordByte(text[start-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		from = start + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

// firstWord is the query's first word, lower case.
func (a *analysis) firstWord() string {
	if len(a.toks) == 0 {
		return ""
	}
	return a.toks[0].text
}
