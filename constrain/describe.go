package constrain

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// The messages for the part of a call where the machine stopped (a
// value, a keyword, a JSON key, an expression), for describe.

func (m *Machine) describeValue(text string, at int, s State, mark marks, e func(int, string, ...any) *Error) *Error {
	tool := &m.tools[s.node]
	p := &tool.params[s.param]
	end := at >= len(text)
	found := describeToken(text, at)
	var c byte
	if !end {
		c = text[at]
	}
	switch p.kind {
	case kindJSON:
		return describeJSON(at, s, p, c, end, found, e)
	case kindNumber, kindInteger, kindWord, kindRange:
		return e(mark.value, "expected %s, found %s", m.paramWant(tool, int(s.param)), describeToken(text, mark.value))
	case kindString, kindPattern:
		if s.sub == sQuote || s.sub == pQuote {
			return e(at, "expected %s, found %s", m.paramWant(tool, int(s.param)), found)
		}
		if end {
			return e(at, "unterminated string")
		}
		if p.kind == kindPattern {
			content := text[mark.value+1:]
			if k := strings.IndexByte(content, '"'); k >= 0 {
				content = content[:k]
			}
			return e(mark.value, "%s for %s, found %s", tool.spec.Params[s.param].ExpectedContent(), p.name, truncateQuoted(content))
		}
		switch s.sub {
		case sBody:
			switch {
			case c == '"':
				return e(mark.value, "empty %s for %s", p.typ, p.name)
			case c < 0x20 || c == 0x7f:
				return e(at, "control character in string; escape it")
			case s.count >= p.bound:
				return e(mark.value, "%s for %s is longer than %d characters", p.typ, p.name, p.bound)
			}
			return e(at, "invalid UTF-8 in string")
		case sEsc:
			return e(at-1, `unknown escape \%s in string`, string(rune(c)))
		case sHex:
			if hexValue(c) >= 0 {
				return e(at, `\u escape names a surrogate; write the character itself`)
			}
			return e(at, `expected four hex digits after \u`)
		}
		return e(at, "invalid UTF-8 in string")
	}
	return describeExpression(at, s, c, end, found, e)
}

// describeKeyword explains a refusal while a keyword's name (or the
// positional value read with it) was read, as the parser would: a name
// followed by ":" is a keyword, anything else in positional mode a value.
func (m *Machine) describeKeyword(text string, at int, s State, mark marks, e func(int, string, ...any) *Error) *Error {
	t := &m.tools[s.node]
	next := int(s.param)
	start := mark.value
	j := start
	for j < len(text) && tools.IsParamNameByte(text[j]) {
		j++
	}
	name := text[start:j]
	if j < len(text) && text[j] == ':' && name != "" {
		return m.keywordError(t, name, next, start, e)
	}
	if s.flags&flagKeywords != 0 {
		return e(start, `expected a parameter name and ":" (keyword arguments cannot be followed by positional ones), found %s`, describeToken(text, start))
	}
	return e(start, "expected %s, found %s", m.paramWant(t, next), describeToken(text, start))
}

// keywordError says why a named parameter may not come here, as
// tools' keywordIndex does.
func (m *Machine) keywordError(t *toolInfo, name string, next, at int, e func(int, string, ...any) *Error) *Error {
	idx := -1
	for i, p := range t.params {
		if p.name == name {
			idx = i
		}
	}
	switch {
	case idx < 0:
		return e(at, "%s has no parameter %q (%s)", t.spec.Name, name, t.spec.Signature())
	case idx < next:
		return e(at, "argument %s comes after %s: give arguments once, in the order of %s", name, t.params[next-1].name, t.spec.Signature())
	}
	return e(at, "%s", missingArg(t, next))
}

// describeJSONKey explains a refused argument key in the JSON form.
func (m *Machine) describeJSONKey(text string, at int, s State, e func(int, string, ...any) *Error) *Error {
	t := &m.tools[s.node]
	if s.count == 0 {
		return e(at, "expected a quoted parameter name, found %s", describeToken(text, at))
	}
	start := at - int(s.count) // the key's opening quote
	j := start + 1
	for j < len(text) && tools.IsParamNameByte(text[j]) {
		j++
	}
	if j < len(text) && text[j] == '"' && j > start+1 && tools.IsParamNameStart(text[start+1]) {
		return m.keywordError(t, text[start+1:j], int(s.param), start, e)
	}
	return e(start, "expected a quoted parameter name, found %s", describeToken(text, start))
}

func itemWant(t tools.ParamType) string {
	switch t {
	case tools.TypeString:
		return "a string"
	case tools.TypeNumber:
		return "a number"
	case tools.TypeInteger:
		return "an integer"
	}
	return "true or false"
}

func describeJSON(at int, s State, p *paramInfo, c byte, end bool, found string, e func(int, string, ...any) *Error) *Error {
	switch s.sub {
	case sBody, sEsc, sHex, sUTF8:
		switch {
		case end:
			return e(at, "unterminated string")
		case s.sub == sBody && (c < 0x20 || c == 0x7f):
			return e(at, "control character in string; escape it")
		case s.sub == sBody && s.count >= tools.MaxJSONStringLen:
			return e(at, "string in the JSON value for %s is longer than %d characters", p.name, tools.MaxJSONStringLen)
		case s.sub == sEsc:
			return e(at, "unknown escape \\%s in string", string(rune(c)))
		case s.sub == sHex:
			return e(at, `expected four hex digits after \u (not a surrogate)`)
		}
		return e(at, "invalid UTF-8 in string")
	case jValue, jArrFirst:
		if p.items != "" && s.depth == 0 {
			return e(at, "expected an array of %s for %s, found %s", p.items, p.name, found)
		}
		if p.items != "" && !(s.sub == jArrFirst && c == ']') {
			return e(at, "expected %s in the array for %s, found %s", itemWant(p.items), p.name, found)
		}
		if (c == '[' || c == '{') && int(s.depth) >= tools.MaxJSONDepth {
			return e(at, "JSON value for %s nested deeper than %d", p.name, tools.MaxJSONDepth)
		}
		return e(at, "expected a JSON value for %s, found %s", p.name, found)
	case jObjFirst, jObjKey:
		return e(at, "expected a quoted key in the JSON object for %s, found %s", p.name, found)
	case jColon:
		return e(at, `expected ":", found %s`, found)
	case jnSign, jnDot, jnE, jnESign:
		return e(at, "expected a digit in the JSON number for %s, found %s", p.name, found)
	case jAfter:
		closer := "]"
		if jsonInObject(&s) {
			closer = "}"
		}
		if p.items == tools.TypeInteger && (c == '.' || c == 'e' || c == 'E') {
			return e(at, "an integer in the array for %s has no fraction or exponent, found %s", p.name, found)
		}
		if p.items != "" {
			return e(at, `expected "," or ']' in the array for %s, found %s`, p.name, found)
		}
		return e(at, `expected "," or %q in the JSON value for %s, found %s`, closer, p.name, found)
	}
	return e(at, "expected a JSON value for %s, found %s", p.name, found)
}

func describeExpression(at int, s State, c byte, end bool, found string, e func(int, string, ...any) *Error) *Error {
	json := s.flags&flagJSON != 0
	if s.sub == xQuote {
		return e(at, "expected a quoted expression, found %s", found)
	}
	if int(s.count)+exprMinRemaining(&s) > tools.MaxExpressionLen {
		return e(at, "expression longer than %d characters", tools.MaxExpressionLen)
	}
	if json && !end && c < 0x20 {
		return e(at, "control character in the expression; the JSON form writes an expression on one line")
	}
	if end {
		switch {
		case s.sub == xOperand || s.sub == xOperandStar || s.sub == xNumDot || s.sub == xNumComma:
			if s.count == 0 {
				return e(at, "empty expression")
			}
			return e(at, "expression ends where a number was expected")
		case s.sub == xIdent && identOrigin(s.aux) == originAfter:
			return e(at, "expected an operator, found the end")
		case s.depth > 0:
			return e(at, `expression ends with an unclosed "("`)
		case json:
			return e(at, "unterminated string")
		}
		return e(at, `expected ")" to close the call, found the end`)
	}
	closing := c == ')' && !json || c == '"' && json
	switch s.sub {
	case xOperand, xOperandStar:
		switch {
		case c == '(' && int(s.depth) >= tools.MaxExpressionDepth:
			return e(at, "expression nested deeper than %d parentheses", tools.MaxExpressionDepth)
		case closing:
			if s.count == 0 {
				return e(at, "empty expression")
			}
			return e(at, "expression ends where a number was expected")
		}
		return e(at, `expected a number, a name or "(", found %s`, found)
	case xNamePending:
		return e(at, "expression nested deeper than %d parentheses", tools.MaxExpressionDepth)
	case xIdent:
		if isNameByte(c) && identLen(s.aux) >= tools.MaxIdentifierLen {
			return e(at, "name longer than %d letters", tools.MaxIdentifierLen)
		}
		return e(at, "expected an operator, found %s", found)
	case xNumComma:
		return e(at, `expected three digits after the thousands ",", found %s`, found)
	case xNumDot:
		return e(at, "expected a digit after the decimal point, found %s", found)
	case xNumGroup, xNumInt, xNumFrac:
		if isDigit(c) {
			return e(at, "thousands separator followed by more than three digits")
		}
		return e(at, "unexpected %s after a number", found)
	}
	switch {
	case closing && s.depth > 0:
		return e(at, `expression ends with an unclosed "("`)
	case c == ')' && json:
		return e(at, `unmatched ")"`)
	case c == ',':
		return e(at, `"," outside a function's arguments (thousands are written 54,788)`)
	case isLetter(c):
		return e(at, "expected an operator, found %s", found)
	}
	return e(at, `expected an operator or ")", found %s`, found)
}

func missingArg(tool *toolInfo, i int) string {
	p := tool.spec.Params[i]
	return fmt.Sprintf("missing argument %s (%s) of %s", p.Name, p.Type, tool.spec.Signature())
}

// paramWant names what argument i must be, for "expected ..." messages.
func (m *Machine) paramWant(tool *toolInfo, i int) string {
	p := &tool.params[i]
	switch p.kind {
	case kindNumber:
		return "a number for " + p.name
	case kindInteger:
		return "an integer for " + p.name
	case kindRange:
		return strings.TrimPrefix(tool.spec.Params[i].RangeText(), "expected ") + " for " + p.name
	case kindExpression:
		return "an expression for " + p.name
	case kindWord:
		return "true or false for " + p.name
	case kindJSON:
		if p.items != "" {
			return fmt.Sprintf("an array of %s for %s", p.items, p.name)
		}
		return "a JSON value for " + p.name
	}
	return fmt.Sprintf("a quoted %s for %s", p.typ, p.name)
}

func truncateQuoted(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// describeToken names what stands at text[i]: the end, or the run up to
// the next delimiter, as tools.Parse's messages do.
func describeToken(s string, i int) string {
	if i >= len(s) {
		return "the end"
	}
	if s[i] == '"' {
		if k := strings.IndexByte(s[i+1:], '"'); k >= 0 && k < 40 {
			return fmt.Sprintf("%q", s[i:i+k+2])
		}
	}
	j := i
	for j < len(s) && j-i < 20 && !isSpace(s[j]) && !strings.ContainsRune(",()\"{}:", rune(s[j])) {
		j++
	}
	if j == i {
		j = i + 1
		for j < len(s) && !utf8.RuneStart(s[j]) {
			j++
		}
	}
	return fmt.Sprintf("%q", s[i:j])
}
