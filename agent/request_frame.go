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
// is worth offering the closest tools for (see offerTools).

// fillers are words that open a message without framing it.
var fillers = set("please", "pls", "plz", "hey", "hi", "hello", "ok", "okay", "so", "um", "uh", "umm", "well",
	"and", "but", "also", "now", "quick", "quickly", "thanks", "thx", "yo", "oh", "right", "just", "then")

// questionWords open a wh-question.
var questionWords = set("what", "what's", "whats", "wat", "who", "who's", "whos", "whom", "whose", "when", "when's",
	"where", "where's", "wheres", "which", "why", "how", "how's", "hows")

// auxiliaries open a yes/no question when they come first.
var auxiliaries = set("is", "isn't", "isnt", "are", "aren't", "arent", "was", "wasn't", "were", "weren't",
	"do", "does", "did", "don't", "doesn't", "didn't", "can", "can't", "cant", "could", "will", "won't", "would",
	"should", "shall", "has", "hasn't", "have", "haven't", "had", "am", "may", "might", "must")

// askingVerbs are imperatives that ask for something to be found, told or
// worked out (as against done or made: "write", "play", "remind").
var askingVerbs = set("tell", "show", "give", "list", "find", "get", "fetch", "look", "lookup", "search", "check",
	"name", "define", "explain", "describe", "calculate", "calc", "compute", "convert", "count", "translate",
	"display", "estimate", "figure", "work", "solve", "sum", "add", "multiply", "divide", "subtract", "compare",
	"say", "spell", "report", "read")

// asking are multi-word openings that ask for information, whatever follows.
var asking = [][]string{
	{"do", "you", "know"}, {"does", "anyone", "know"}, {"i", "want", "to", "know"}, {"i'd", "like", "to", "know"},
	{"i", "would", "like", "to", "know"}, {"i", "need", "to", "know"}, {"i", "wonder"}, {"i", "was", "wondering"},
	{"let", "me", "know"}, {"any", "idea"},
}

// politeOpenings ask the assistant to do what follows ("can you …"): the
// rest is read as an imperative.
var politeOpenings = [][]string{
	{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"can", "u"}, {"could", "u"},
	{"would", "you", "mind"}, {"would", "you", "please"}, {"help", "me"}, {"i", "need", "you", "to"},
}

// secondPerson are words that make a question about the assistant itself
// ("how are you", "what's your name"), which no tool answers.
var secondPerson = set("you", "your", "yours", "yourself", "u", "ur", "ya")

// looksLikeInformationRequest reports whether query is put as a request
// for information: a wh-question, a yes/no question about the world, an
// imperative of asking ("list…", "show me…", "give me…"), or anything
// ending in a question mark — but not a question about the assistant
// itself, and not a single word.
func looksLikeInformationRequest(query string) bool {
	words := frameWords(query)
	for len(words) > 0 && fillers[words[0]] {
		words = words[1:]
	}
	if len(words) < 2 {
		return false
	}
	questionMark := strings.HasSuffix(strings.TrimRightFunc(query, func(r rune) bool {
		return unicode.IsSpace(r) || r == '!' || r == '.'
	}), "?")
	for _, open := range asking {
		if rest, ok := cut(words, open); ok {
			return len(rest) > 0 && !aboutAssistant(rest)
		}
	}
	for _, open := range politeOpenings {
		if rest, ok := cut(words, open); ok {
			return len(rest) > 0 && askingVerbs[rest[0]]
		}
	}
	first := words[0]
	switch {
	case questionWords[first]:
		return !aboutAssistant(words[1:])
	case auxiliaries[first]:
		// "is it going to rain", "did the match start"; not "are you ok".
		return !secondPerson[words[1]]
	case askingVerbs[first]:
		// "show me…", "list the…", "convert 5 miles…"; not "tell you what".
		return !secondPerson[words[1]]
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
		if secondPerson[w] {
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

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
