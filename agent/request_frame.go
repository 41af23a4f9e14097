package agent

import (
	"strings"
	"unicode"
)

// Whether a query asks for information is read from its frame alone — how
// a request is put in English (a question word, an inverted auxiliary, an
// imperative of asking, a question mark) — never from what it is about:
// no tool's subject words appear here, so the test holds for any library.
// It decides one thing: whether a "no tool" choice grounding is unsure of
// is worth offering the closest tools for (see offersTools).

// isFiller says w opens a message without framing it.
func isFiller(w string) bool {
	switch w {
	case "please", "pls", "plz", "hey", "hi", "hello", "ok", "okay", "so", "um", "uh", "umm", "well", "and",
		"but", "also", "now", "quick", "quickly", "thanks", "thx", "yo", "oh", "right", "just", "then":
		return true
	}
	return false
}

// isQuestionWord says w opens a wh-question.
func isQuestionWord(w string) bool {
	switch w {
	case "what", "what's", "whats", "wat", "who", "who's", "whos", "whom", "whose", "when", "when's",
		"where", "where's", "wheres", "which", "why", "how", "how's", "hows":
		return true
	}
	return false
}

// isAuxiliary says w opens a yes/no question when it comes first.
func isAuxiliary(w string) bool {
	switch w {
	case "is", "isn't", "isnt", "are", "aren't", "arent", "was", "wasn't", "were", "weren't", "do", "does",
		"did", "don't", "doesn't", "didn't", "can", "can't", "cant", "could", "will", "won't", "would",
		"should", "shall", "has", "hasn't", "have", "haven't", "had", "am", "may", "might", "must":
		return true
	}
	return false
}

// isAskingVerb says w is an imperative that ask for something to be found, told or
// worked out (as against done or made: "write", "play", "remind").
func isAskingVerb(w string) bool {
	switch w {
	case "tell", "show", "give", "list", "find", "get", "fetch", "look", "lookup", "search", "check", "name",
		"define", "explain", "describe", "calculate", "calc", "compute", "convert", "count", "translate",
		"display", "estimate", "figure", "work", "solve", "sum", "add", "multiply", "divide", "subtract",
		"compare", "say", "spell", "report", "read":
		return true
	}
	return false
}

// askingOpenings are multi-word openings that ask for information,
// whatever follows.
func askingOpenings() [][]string {
	return [][]string{
		{"do", "you", "know"}, {"does", "anyone", "know"}, {"i", "want", "to", "know"}, {"i'd", "like", "to", "know"},
		{"i", "would", "like", "to", "know"}, {"i", "need", "to", "know"}, {"i", "wonder"}, {"i", "was", "wondering"},
		{"let", "me", "know"}, {"any", "idea"},
	}
}

// politeOpenings ask the assistant to do what follows ("can you …"):
// the rest is read as an imperative.
func politeOpenings() [][]string {
	return [][]string{
		{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"can", "u"}, {"could", "u"},
		{"would", "you", "mind"}, {"would", "you", "please"}, {"help", "me"}, {"i", "need", "you", "to"},
	}
}

// isSecondPerson says w makes a question about the assistant itself
// ("how are you", "what's your name"), which no tool answers.
func isSecondPerson(w string) bool {
	switch w {
	case "you", "your", "yours", "yourself", "u", "ur", "ya":
		return true
	}
	return false
}

// looksLikeInformationRequest reports whether query is put as a request
// for information: a wh-question, a yes/no question about the world, an
// imperative of asking ("list…", "show me…", "give me…"), or anything
// ending in a question mark — but not a question about the assistant
// itself, and not a single word.
func looksLikeInformationRequest(query string) bool {
	words := frameWords(query)
	for len(words) > 0 && isFiller(words[0]) {
		words = words[1:]
	}
	if len(words) < 2 {
		return false
	}
	questionMark := strings.HasSuffix(strings.TrimRightFunc(query, func(r rune) bool {
		return unicode.IsSpace(r) || r == '!' || r == '.'
	}), "?")
	for _, open := range askingOpenings() {
		if rest, ok := cut(words, open); ok {
			return len(rest) > 0 && !aboutAssistant(rest)
		}
	}
	for _, open := range politeOpenings() {
		if rest, ok := cut(words, open); ok {
			return len(rest) > 0 && isAskingVerb(rest[0])
		}
	}
	first := words[0]
	switch {
	case isQuestionWord(first):
		return !aboutAssistant(words[1:])
	case isAuxiliary(first):
		// "is it going to rain", "did the match start"; not "are you ok".
		return !isSecondPerson(words[1])
	case isAskingVerb(first):
		// "show me…", "list the…", "convert 5 miles…"; not "tell you what".
		return !isSecondPerson(words[1])
	}
	return questionMark && !aboutAssistant(words)
}

// aboutAssistant says whether words ask about the assistant: a
// second-person word among the first few.
func aboutAssistant(words []string) bool {
	for i, w := range words {
		if i == 4 {
			break
		}
		if isSecondPerson(w) {
			return true
		}
	}
	return false
}

// frameWords are query's words, lower case, with the punctuation around
// them taken off (apostrophes inside a word stay: "what's").
func frameWords(query string) []string {
	query = strings.NewReplacer("’", "'", "‘", "'").Replace(strings.ToLower(query))
	var out []string
	for _, f := range strings.Fields(query) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// cut removes prefix from the front of words.
func cut(words, prefix []string) ([]string, bool) {
	if len(words) < len(prefix) {
		return nil, false
	}
	for i, p := range prefix {
		if words[i] != p {
			return nil, false
		}
	}
	return words[len(prefix):], true
}
