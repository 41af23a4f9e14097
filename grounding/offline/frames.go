package offline

import "strings"

// Request frames: what the query does as an utterance, read from the head
// of each clause once the politeness around it is set aside. A query can
// ask a question ("who wrote Hamlet"), ask to be told about something
// ("tell me about the Aztec empire", "explain inflation"), pose a quiz clue
// ("This painter is famous for her self-portraits."), or ask for an action
// ("play stormy weather", "buy a rain jacket", "dim the lights to 30
// percent"). An action is not a look-up: whatever weather, clock or number
// words it contains name a song, a product or a setting, not a question
// about the weather, the time or arithmetic.

// span is a range of token indexes [from, to).
type span struct{ from, to int }

// splitSpans cuts the tokens at the gaps that end a sentence (".", "?",
// "!", ";", a line break) and, for clauses, also at commas, colons, dashes
// and parentheses. A period after an abbreviation ("Mrs.") or inside a
// number does not end a sentence.
func splitSpans(text string, toks []token, clauses bool) []span {
	var out []span
	from := 0
	for i := 1; i < len(toks); i++ {
		gap := text[toks[i-1].end:toks[i].start]
		brk := strings.ContainsAny(gap, "?!;\n") || strings.Contains(gap, ".") && !isAbbreviation(toks[i-1].text)
		if clauses && !brk {
			brk = strings.ContainsAny(gap, ",:()") || strings.Contains(gap, "—") || strings.Contains(gap, "–") || strings.Contains(gap, " - ")
		}
		if brk {
			out = append(out, span{from, i})
			from = i
		}
	}
	if from < len(toks) {
		out = append(out, span{from, len(toks)})
	}
	return out
}

// openers are the words and phrases that open a request without saying
// what it is: greetings, politeness, fillers and the modal frames of a
// polite request ("could you", "I want you to"). They are written from
// ordinary English usage.
const openerList = `please|pls|kindly|ok|okay|hey|hi|hello|so|now|well|just|also|and|then|but|quick question|question
	|um|umm|uh|uhh|er|erm|hmm
	|can you|could you|would you|will you|can u|could u|would you mind|do you mind|i want you to|i need you to
	|i'd like you to|i would like you to|go ahead and|help me|let's|lets|try to|hurry and`

// askFrames introduce a question or a look-up without being one: what
// follows them is what is asked ("tell me who wrote Hamlet", "do you know
// when the war ended", "look up when the cathedral will be finished").
const askFrameList = `tell me|tell us|let me know|i want to know|i'd like to know|i would like to know|i need to know
	|i wonder|i'm wondering|i was wondering|do you know|does anyone know|any idea|i'm curious|i am curious
	|look up|lookup|search for|search wikipedia for|find out|check`

// referenceFrames ask to be told about a subject rather than asking a
// question: the subject follows them ("tell me about the Aztec empire",
// "what do you know about CRISPR", "explain inflation"). Imperatives of
// quizzes ("name the author of ...", "identify the ...") are look-ups too.
const referenceFrameList = `about|a bit about|a little about|a little bit about|more about|something about|everything about
	|all about|what do you know about|what can you tell me about|what you know about|i want to learn about
	|i'd like to learn about|i want to know about|teach me about|explain|describe|define|summarize|summarise
	|name|identify|give me an overview of|give me a summary of
	|give me information on|give me information about|give me info on|give me info about|give me facts about
	|information about|information on|info on|info about|facts about|the history of|a summary of|an overview of`

// commandVerbs are imperatives of actions an assistant performs and no
// look-up answers: playing media, shopping, booking, the smart home,
// messaging, calendars and reminders, writing something new. They are
// base forms, the form of an imperative; look-up verbs ("show", "find",
// "check", "get", "tell") and arithmetic verbs ("add", "convert",
// "calculate") are not among them.
const commandVerbList = `play replay stream shuffle skip pause resume stop mute unmute rewind queue record
	buy purchase order reorder shop book reserve rent cancel reschedule schedule move postpone
	set reset turn switch dim brighten lock unlock open close start activate deactivate enable disable
	change increase decrease raise boost watch
	lower text message email send call phone dial ring reply forward post tweet share
	remind snooze wake remove delete clear save log track rate pay transfer deposit withdraw make create
	write compose draft sing recite translate`

// creativeNouns are what "tell me a ..." asks to be made up rather than
// looked up: "tell me a joke", "tell us a story".
const creativeNounList = `joke jokes story stories poem poems riddle riddles limerick pun puns haiku`

// phrases splits a "|"-separated list of phrases into word lists, longest
// first, so that the longest frame wins.
func phrases(list string) [][]string {
	var out [][]string
	for _, p := range strings.Split(list, "|") {
		if w := strings.Fields(p); len(w) > 0 {
			out = append(out, w)
		}
	}
	return longestFirst(out)
}

// longestFirst orders phrases longest first, keeping the order of phrases
// of one length.
func longestFirst(out [][]string) [][]string {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// matchPhrase returns the length of the longest phrase of list that the
// tokens start with at i (within end), or 0.
func matchPhrase(toks []token, i, end int, list [][]string) int {
	for _, p := range list {
		if i+len(p) > end {
			continue
		}
		ok := true
		for k, w := range p {
			if toks[i+k].text != w {
				ok = false
				break
			}
		}
		if ok {
			return len(p)
		}
	}
	return 0
}

// frame is what a clause's head says it does.
type frame int

const (
	frameOther     frame = iota // a statement, or a request of no kind below
	frameQuestion               // a wh-question, or a yes-no question
	frameReference              // a request to be told about a subject
	frameCommand                // a request for an action
)

// clauseHead skips a clause's openers and ask frames and returns the index
// of its head word and the frame it opens. A reference frame's head is the
// first word of the subject.
func (lx *lexicon) clauseHead(toks []token, c span) (int, frame) {
	i := c.from
	asked := false
	for i < c.to {
		if n := matchPhrase(toks, i, c.to, lx.referenceFrames); n > 0 && (asked || toks[i].text != "about") {
			return i + n, frameReference
		}
		if n := matchPhrase(toks, i, c.to, lx.openers); n > 0 {
			i += n
			continue
		}
		if n := matchPhrase(toks, i, c.to, lx.askFrames); n > 0 {
			i += n
			asked = true
			continue
		}
		break
	}
	if i >= c.to {
		return i, frameOther
	}
	w := toks[i].text
	if saying(toks, i, c.to) {
		return i, frameCommand // "how do you say good night in Italian": a translation
	}
	switch {
	case isWhQuestion(w) || w == "when" || w == "in" && i+1 < c.to && (toks[i+1].text == "which" || toks[i+1].text == "what"):
		return i, frameQuestion
	case isAuxiliary(w):
		return i, frameQuestion
	case lx.commandVerbs[w] && !asked:
		return i, frameCommand
	case asked && lx.creativeNouns[nextAfterArticle(toks, i, c.to)]:
		return i, frameCommand // "tell me a joke": made up, not looked up
	}
	return i, frameOther
}

// nextAfterArticle is the word at i, or after it when it is "a", "an",
// "another" or "the".
func nextAfterArticle(toks []token, i, end int) string {
	if i < end {
		switch toks[i].text {
		case "a", "an", "another", "the", "some":
			i++
		}
	}
	if i < end {
		return toks[i].text
	}
	return ""
}

func isAuxiliary(w string) bool {
	switch w {
	case "am", "is", "are", "was", "were", "do", "does", "did", "will", "would", "can", "could", "should", "has", "have",
		"had", "shall", "may", "might", "isn't", "aren't", "wasn't", "don't", "doesn't", "didn't", "won't":
		return true
	}
	return false
}

// isCommand reports whether the query asks for an action: a clause of its
// first sentence opens with a command verb ("play", "set", "order") or
// asks for something made up ("tell me a joke"), and no clause asks a
// question. Only the first sentence counts: a request comes first, while
// a tool's description may instruct its caller later ("Call it with ...").
func isCommand(a *analysis) bool {
	command, question := false, false
	for _, c := range a.clauses {
		_, f := a.lx.clauseHead(a.toks, c)
		if f == frameCommand && len(a.sents) > 0 && c.from >= a.sents[0].to {
			continue
		}
		switch f {
		case frameCommand:
			command = true
		case frameQuestion, frameReference:
			question = true
		}
	}
	return command && !question
}

// saying reports whether the clause at i asks how to say, write, spell
// or pronounce something ("how do I say thank you in Greek", "how to
// spell necessary"): a translation or a spelling, which no look-up tool
// answers, whatever the words said are.
func saying(toks []token, i, end int) bool {
	word := func(k int) string { return wordAt(toks[:end], k) }
	if word(i) != "how" {
		return false
	}
	k := i + 1
	switch word(k) {
	case "do", "does", "would", "can", "could", "should", "will":
		switch word(k + 1) {
		case "i", "you", "we", "one", "they", "people":
			k += 2
		default:
			return false
		}
	case "to":
		k++
	default:
		return false
	}
	switch word(k) {
	case "say", "write", "spell", "pronounce", "translate":
		return true
	}
	return false
}
