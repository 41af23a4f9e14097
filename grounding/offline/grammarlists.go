package offline

import (
	"embed"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gear-chat/gear/tools"
)

// grammarFiles are the word lists of the engine's own grammar: English
// words of arithmetic, counting and likelihood, about no tool (grammar/*.txt,
// each list read once, with its test in grammarlists_test.go).
//
//go:embed grammar/*.txt
var grammarFiles embed.FS

// infixOperator is an operator word's operator, and whether the word is
// often no operator at all.
type infixOperator struct {
	op    string
	vague bool
}

// infixOperators reads grammar/infix-operators.txt once.
var infixOperators = sync.OnceValue(func() map[string]infixOperator {
	return parseInfixOperators(mustGrammar("infix-operators"))
})

// parseInfixOperators reads lines "word operator [vague]"; # starts a
// comment.
func parseInfixOperators(text string) map[string]infixOperator {
	m := map[string]infixOperator{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		m[f[0]] = infixOperator{op: f[1], vague: len(f) > 2 && f[2] == "vague"}
	}
	return m
}

// mustGrammar is the embedded grammar list name; a list missing from the
// build is a programming error.
func mustGrammar(name string) string {
	data, err := grammarFiles.ReadFile("grammar/" + name + ".txt")
	if err != nil {
		panic("offline: embedded grammar list " + name + ": " + err.Error())
	}
	return string(data)
}

// multiplies reports whether w is an operator word for multiplication
// ("13 times 57", "3 x 4").
func multiplies(w string) bool {
	op, ok := infixOperators()[w]
	return ok && op.op == "*"
}

// collective is a word that counts by a fixed number (grammar/collectives.txt).
type collective struct {
	value float64
	alone bool // a number on its own ("a dozen", "dozen eggs")
	words int  // tokens it spans
}

// collectives reads grammar/collectives.txt once: by first word, the
// collectives that start with it, longest first.
var collectives = sync.OnceValue(func() map[string][]collectiveEntry {
	return parseCollectives(mustGrammar("collectives"))
})

// collectiveEntry is a collective with its words.
type collectiveEntry struct {
	words []string
	collective
}

func parseCollectives(text string) map[string][]collectiveEntry {
	m := map[string][]collectiveEntry{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil || v <= 0 {
			continue
		}
		words := strings.Split(f[0], "_")
		e := collectiveEntry{words: words, collective: collective{value: v, alone: len(f) > 2 && f[2] == "alone", words: len(words)}}
		list := append(m[words[0]], e)
		sort.SliceStable(list, func(i, j int) bool { return len(list[i].words) > len(list[j].words) })
		m[words[0]] = list
	}
	return m
}

// collectiveAt reads a collective at toks[i].
func collectiveAt(toks []token, i int) (collective, bool) {
	for _, e := range collectives()[wordAt(toks, i)] {
		ok := true
		for k, w := range e.words {
			ok = ok && wordAt(toks, i+k) == w
		}
		if ok {
			return e.collective, true
		}
	}
	return collective{}, false
}

// percentResults reads grammar/percent-results.txt once.
var percentResults = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(mustGrammar("percent-results"), "\n") {
		if w := strings.TrimSpace(line); w != "" && !strings.HasPrefix(w, "#") {
			m[w] = true
		}
	}
	return m
})

// likelihoodPhrases reads grammar/likelihood.txt once.
var likelihoodPhrases = sync.OnceValue(func() []string {
	var out []string
	for _, line := range strings.Split(mustGrammar("likelihood"), "\n") {
		if p := strings.Join(strings.Fields(line), " "); p != "" && !strings.HasPrefix(p, "#") {
			out = append(out, p)
		}
	}
	return out
})

// asksLikelihood reports whether lower (a query in lower case) asks how
// likely something is ("the chance of rain").
func asksLikelihood(lower string) bool {
	for _, p := range likelihoodPhrases() {
		if containsPhrase(lower, p) {
			return true
		}
	}
	return false
}

// trigWords reads grammar/trig.txt once: word → operation.
var trigWords = sync.OnceValue(func() map[string]tools.Operation {
	m := map[string]tools.Operation{}
	for _, line := range strings.Split(mustGrammar("trig"), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && !strings.HasPrefix(f[0], "#") {
			m[f[0]] = tools.Operation(f[1])
		}
	}
	return m
})

// dateShifts reads grammar/date-shifts.txt once: each phrase, as its
// words, with +1 (a later date) or -1 (an earlier one).
var dateShifts = sync.OnceValue(func() map[string]int {
	return parseDateShifts(mustGrammar("date-shifts"))
})

// parseDateShifts reads lines "word_word sign"; # starts a comment.
func parseDateShifts(text string) map[string]int {
	m := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) != 2 || f[1] != "+" && f[1] != "-" {
			continue
		}
		sign := 1
		if f[1] == "-" {
			sign = -1
		}
		m[strings.ReplaceAll(f[0], "_", " ")] = sign
	}
	return m
}
