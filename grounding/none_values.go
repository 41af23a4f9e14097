package grounding

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/gear-chat/gear/tools"
)

// Values for a tool's required parameters. A tool that needs a city, a
// date and a count is not the answer to a query that names none of them
// ("find me a salon to go to", "can you arrange me a car on rent?"): the
// request is for something the tool does, but not yet a call it can
// make, and a wrong call is worse than asking. The none model weighs how
// many of the best tool's required parameters the query has no value for
// (NoneEvidence.Required, .Values). The count of values is the query's
// own, by form — a number, a quoted string, an address, a capitalised name
// inside the sentence — not what the engine's extraction put in the call,
// which fills a string parameter with whatever phrase is left.

var (
	quotedValueRe = regexp.MustCompile(`"[^"]+"|'[^']{2,}'|“[^”]+”`)
	valueTokenRe  = regexp.MustCompile(`[\p{L}\p{N}_@./:$%-]+`)
)

// queryValues counts the values a query states by their form.
func queryValues(query string) int {
	n := len(quotedValueRe.FindAllString(query, -1))
	rest := quotedValueRe.ReplaceAllString(query, " ")
	for i, tok := range valueTokenRe.FindAllString(rest, -1) {
		switch {
		case strings.ContainsFunc(tok, unicode.IsDigit), strings.Contains(tok, "@"), strings.Contains(tok, "://"):
			n++
		case i > 0 && tok != "I" && unicode.IsUpper([]rune(tok)[0]):
			n++
		}
	}
	return n
}

// requiredParams counts the parameters a call must have.
func requiredParams(s tools.Spec) int {
	n := 0
	for _, p := range s.Params {
		if !p.Optional {
			n++
		}
	}
	return n
}

// unfedShare is the share (of three, at most) of the tool's required
// parameters left without a value in the query.
func (e NoneEvidence) unfedShare() float64 {
	return float64(min(max(e.Required-e.Values, 0), 3)) / 3
}
