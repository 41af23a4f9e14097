package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// A tool's call written from the query, parameter by parameter (fill):
// the search term a question or request gives (focus), an enum value the
// query names (enumValue), and the call's reading. The roles of the
// query's places are in extract_places.go.

// extract builds a call of spec from the query by parameter type. Every
// required parameter must be found in the query; optional ones are given
// while found, in order (an optional parameter can only be left out from
// the end). The result is canonical call text, or "".
func (e *Engine) extract(a *analysis, spec tools.Spec) string {
	call, _ := e.extractRead(a, spec)
	return call
}

// extractRead is extract with the call's reading: how sure the engine is
// of each argument it found (reading.go).
func (e *Engine) extractRead(a *analysis, spec tools.Spec) (string, callReading) {
	var args []string
	used := map[string]bool{}
	var r callReading
	for _, p := range spec.Params {
		v, ok := e.fill(a, spec, p, used, &r)
		if !ok {
			if p.Optional {
				break
			}
			return "", callReading{}
		}
		args = append(args, v)
	}
	// A tool whose parameters are all optional could be called on any
	// query at all, so it is called only when the answer the query asks
	// for has the tool's output pattern ("what's the date?" of a clock);
	// a place in the query does not make a question about it a question
	// about the time there.
	if spec.RequiredParams() == 0 && spec.OutputPattern != "" && !asksFor(a, spec) {
		return "", callReading{}
	}
	return spec.Name + "(" + strings.Join(args, ", ") + ")", r
}

// asksFor reports whether the query asks for an answer of the tool's
// declared output pattern.
func asksFor(a *analysis, spec tools.Spec) bool {
	return spec.OutputPattern != "" && a.kind.pattern() == spec.OutputPattern
}

// fill finds one argument.
// r gathers how sure it is of the argument it returns.
func (e *Engine) fill(a *analysis, spec tools.Spec, p tools.Param, used map[string]bool, r *callReading) (string, bool) {
	switch p.Type {
	case tools.TypeExpression:
		if a.opExpr != "" {
			if expr := opExpression(a.opExpr, spec.Hints.Params[p.Name]); expr != "" {
				r.operation(a, expr)
				return expr, true
			}
		}
		if a.expr == "" {
			return "", false
		}
		r.expression(a)
		return a.expr, true
	case tools.TypeNumber, tools.TypeInteger:
		fits := func(n number) bool { return p.Type != tools.TypeInteger || n.value == float64(int64(n.value)) }
		if n, ok := a.namedNumber(p, used); ok && fits(n) {
			used[operandKey(n)] = true
			return tools.FormatNumber(n.value), true
		}
		for _, n := range a.operands {
			if used[operandKey(n)] || a.namedOther(n, spec, p) || !fits(n) {
				continue
			}
			used[operandKey(n)] = true
			r.positional(a, p, n)
			return tools.FormatNumber(n.value), true
		}
	case tools.TypePlace:
		hint := spec.Hints.Params[p.Name]
		m, ok := a.roles.pick(roleOf(p.Name, hint), hint.Place, used)
		if !ok {
			// A required place the query does not name is the user's own
			// when the tool's hints say so and the query asks for what the
			// tool answers ("will it rain?" of a weather tool).
			if p.Optional || !hint.Here || used["here"] || len(a.places) > 0 || !asksFor(a, spec) {
				return "", false
			}
			used["here"] = true
			r.defaulted(p, e.home)
			return tools.Quote(e.home), true
		}
		r.place(m)
		return tools.Quote(m.Name), true
	case tools.TypeDateTime:
		for _, d := range a.datetimes {
			if !used["dt"+d] {
				used["dt"+d] = true
				r.when(a, d)
				return tools.Quote(d), true
			}
		}
	case tools.TypeDate:
		for _, d := range a.dates {
			if !used["d"+d] {
				used["d"+d] = true
				r.when(a, d)
				return tools.Quote(d), true
			}
		}
	case tools.TypeEnum:
		return enumValue(a, p, spec.Hints.Params[p.Name], used)
	case tools.TypeString:
		term := e.focalString(a, spec, p)
		if term == "" && (len(a.quoted) == 0 || !asksSubjectOf(a.lower, spec)) {
			return "", false
		}
		// When the query gives the tool a string at all, a text it puts in
		// quotes is that string as it is ("who wrote "Don Quixote"",
		// "echo "hello there""); each is used once. Quotes alone give a
		// string only when a cue phrase of the tool's own subject asks for
		// it: the words around the quotes may be ones the engine cannot
		// read ("日本語で「おはよう」は何と言いますか").
		quoted := false
		for i, q := range a.quoted {
			if key := "q" + tools.FormatNumber(float64(i)); !used[key] {
				used[key], term, quoted = true, q, true
				break
			}
		}
		if term == "" {
			return "", false
		}
		r.text(a, p, term, quoted)
		if r := []rune(term); len(r) > p.StringBound() {
			term = strings.TrimSpace(string(r[:p.StringBound()]))
		}
		return tools.Quote(term), true
	}
	return "", false
}

func endsWithAny(s string, suffixes ...string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

// requestPrefixes are the politeness and request openings stripped before
// a search term is read ("can you tell me", "I want to know").
var requestPrefixes = []string{
	"please", "can you", "could you", "would you", "will you", "can u", "tell me", "let me know", "i want to know",
	"i'd like to know", "i would like to know", "i need to know", "i wonder", "do you know", "i want", "i need",
	"search for", "search", "look up", "lookup", "find out", "find", "show me", "give me", "explain",
	"describe", "what about", "so", "hey", "ok", "okay",
}

// focus reads a search term from a question or a look-up request: the
// subject of a request to be told about something, a quiz clue, what is
// to be defined ("define X", "what does X mean", "what is X"), or the rest
// of a wh-question once the question word and its auxiliary are gone ("who
// wrote Hamlet" -> "wrote Hamlet"). A query that is neither a question nor
// a look-up request gives no term: there is nothing to look up.
func focus(a *analysis) string {
	if (a.reference || a.clue) && a.topic.to > a.topic.from {
		// "tell me about the Aztec empire", "This Dutch painter cut off
		// part of his own ear.": the subject, or the clue, as written.
		return strings.Trim(a.query[a.toks[a.topic.from].start:a.toks[a.topic.to-1].end], "?.!\"' ")
	}
	q := strings.Trim(strings.TrimSpace(strings.ToValidUTF8(a.query, "")), "?.! ")
	// Lower-case ASCII only, so that low and q keep the same byte offsets.
	low := lowerASCII(q)
	lookup := false
	for changed := true; changed; {
		changed = false
		for _, p := range requestPrefixes {
			if strings.HasPrefix(low, p+" ") {
				if p == "search for" || p == "search" || p == "look up" || p == "lookup" || p == "find" || p == "explain" || p == "describe" {
					lookup = true
				}
				q, low = strings.TrimSpace(q[len(p):]), strings.TrimSpace(low[len(p):])
				changed = true
			}
		}
	}
	for _, suf := range []string{" for me please", " for me", " please", " mean", " means", " meant"} {
		if strings.HasSuffix(low, suf) {
			q, low = strings.TrimSpace(q[:len(q)-len(suf)]), low[:len(low)-len(suf)]
		}
	}
	for _, p := range []string{"the definition of the word ", "the definition of ", "definition of the word ", "definition of ",
		"the meaning of the word ", "the meaning of ", "meaning of the word ", "meaning of ", "define the word ", "define "} {
		if i := strings.Index(low, p); i >= 0 {
			return strings.TrimSpace(q[i+len(p):])
		}
	}
	words := strings.Fields(low)
	if len(words) == 0 {
		return ""
	}
	question := lookup || strings.HasSuffix(strings.TrimSpace(a.query), "?")
	switch words[0] {
	case "who", "whom", "whose", "what", "what's", "whats", "when", "where", "where's", "which", "why", "how":
		question = true
	case "is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had":
		question = true
	}
	if !question {
		return ""
	}
	// Drop the question word, its auxiliary and leading articles.
	skip := map[string]bool{"who": true, "whom": true, "whose": true, "what": true, "what's": true, "whats": true,
		"when": true, "where": true, "where's": true, "which": true, "why": true, "how": true,
		"is": true, "are": true, "was": true, "were": true, "do": true, "does": true, "did": true,
		"a": true, "an": true, "the": true, "many": true, "much": true}
	i := 0
	for i < len(words) && skip[words[i]] {
		i++
	}
	if i == len(words) {
		return ""
	}
	// Map back to the original casing by position in the word list.
	orig := strings.Fields(q)
	if len(orig) != len(words) {
		return strings.Join(words[i:], " ")
	}
	return strings.Join(orig[i:], " ")
}

// lowerASCII lower-cases ASCII letters and leaves every other byte as it
// is, so offsets into the result are offsets into s.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// enumValue is the value of an enum parameter the query names — the
// longest when several do ("extra small" over "small"; a value's "_" and
// "-" may be written as spaces: "high priority" names high_priority) —
// written as the tool's hints make it canonical (a language's name as its
// code). Each mention fills one parameter. A parameter of the "from" role
// takes only a value right after "from"; one of the "to" role prefers a
// value that is not.
func enumValue(a *analysis, p tools.Param, hint tools.ParamHint, used map[string]bool) (string, bool) {
	role := roleOf(p.Name, hint)
	canonical := map[string]bool{}
	for _, c := range hint.Canonical {
		canonical[c] = true
	}
	type mentioned struct {
		value, key string
		length     int
	}
	var best, fallback mentioned
	for _, v := range p.Enum {
		if canonical[v] {
			// A value the hints spell another way is read in that
			// spelling only: a language code is a word of other
			// languages ("en", "it", "de").
			continue
		}
		low := strings.ToLower(v)
		for _, form := range []string{low, strings.NewReplacer("_", " ", "-", " ").Replace(low)} {
			if strings.TrimSpace(form) == "" {
				continue
			}
			at := phraseIndex(a.lower, form)
			if at < 0 {
				continue
			}
			key := "e" + tools.FormatNumber(float64(at))
			if used[key] {
				continue
			}
			m := mentioned{value: v, key: key, length: len(form)}
			if c, ok := hint.Canonical[v]; ok {
				m.value = c
			}
			afterFrom := strings.HasSuffix(a.lower[:at], "from ")
			switch {
			case role == tools.RoleFrom && !afterFrom:
			case role == tools.RoleTo && afterFrom:
				if m.length > fallback.length {
					fallback = m
				}
			case m.length > best.length:
				best = m
			}
		}
	}
	if best.length == 0 {
		best = fallback
	}
	if best.length == 0 {
		return "", false
	}
	used[best.key] = true
	return tools.Quote(best.value), true
}

// phraseIndex is where phrase first stands in text as whole words, or -1.
func phraseIndex(text, phrase string) int {
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return -1
		}
		start, end := from+i, from+i+len(phrase)
		if (start == 0 || !isWordByte(text[start-1])) && (end == len(text) || !isWordByte(text[end])) {
			return start
		}
		from = start + 1
	}
}

// asksSubjectOf reports whether lower (a query in lower case) holds a cue
// or asking phrase of one of spec's subjects, as its hints clean them.
func asksSubjectOf(lower string, spec tools.Spec) bool {
	for _, s := range spec.Hints.Subjects {
		s, ok := cleanSubject(s)
		if !ok {
			continue
		}
		if (subjectCues{phrases: append(append([]string(nil), s.Cues...), s.Asking...)}).in(lower) {
			return true
		}
	}
	return false
}
