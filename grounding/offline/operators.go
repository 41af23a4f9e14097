package offline

import (
	"embed"
	"strings"
	"sync"
)

// grammarFiles are the word lists of the engine's own grammar: English
// words for arithmetic, about no tool.
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
