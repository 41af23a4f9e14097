package tools

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SyntaxError says where a call went wrong and what was expected there.
type SyntaxError struct {
	Column int // 1-based, in characters
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at column %d: %s", e.Column, e.Msg) }

// UnknownToolError is a call naming a tool the library does not have.
type UnknownToolError struct{ Name string }

func (e *UnknownToolError) Error() string {
	return fmt.Sprintf("unknown tool %q (gear tools lists the library)", e.Name)
}

// SpecLookup finds a tool's spec by name; Registry.Spec is one.
type SpecLookup func(name string) (Spec, bool)

// Parse reads a call in the canonical syntax, Name(arg, "string", 3.5), or
// in the JSON form, {"tool": "Name", "args": {"param": value}}, with the
// arguments in parameter order. Both give the same Call. Leading and
// trailing white space is allowed; anything else after the call is not.
func Parse(text string, lookup SpecLookup) (Call, error) {
	p := &parser{s: text, lookup: lookup}
	p.space()
	if p.peek() == '{' {
		return p.jsonCall()
	}
	return p.canonicalCall()
}

type parser struct {
	s      string
	i      int
	lookup SpecLookup
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *parser) space() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

func (p *parser) fail(at int, format string, args ...any) error {
	if at > len(p.s) {
		at = len(p.s)
	}
	return &SyntaxError{Column: utf8.RuneCountInString(p.s[:at]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) found() string { return describeToken(p.s, p.i) }

func (p *parser) expect(c byte, what string) error {
	if p.peek() != c {
		return p.fail(p.i, "expected %s, found %s", what, p.found())
	}
	p.i++
	return nil
}

// toolName reads a tool name and looks its spec up.
func (p *parser) toolName(end int) (Spec, error) {
	start := p.i
	if p.i < end && IsToolNameStart(p.s[p.i]) {
		p.i++
		for p.i < end && IsToolNameByte(p.s[p.i]) {
			p.i++
		}
	}
	if p.i == start {
		return Spec{}, p.fail(start, "expected a tool name, found %s", p.found())
	}
	name := p.s[start:p.i]
	spec, ok := p.lookup(name)
	if !ok {
		return Spec{}, &UnknownToolError{Name: name}
	}
	return spec, nil
}

func (p *parser) canonicalCall() (Call, error) {
	spec, err := p.toolName(len(p.s))
	if err != nil {
		return Call{}, err
	}
	call := Call{Tool: spec.Name}
	p.space()
	if err := p.expect('(', `"("`); err != nil {
		return Call{}, err
	}
	p.space()
	next := 0 // the lowest parameter index the next argument may have
	if p.peek() != ')' {
		keywords := false
		for {
			if next >= len(spec.Params) {
				return Call{}, p.tooManyArgs(spec)
			}
			idx := next
			// A name and ":" start a keyword argument, except where a
			// positional expression is due: there a name is the expression.
			if keywords || spec.Params[next].Type != TypeExpression {
				if name, ok := p.keywordAhead(); ok {
					if idx, err = p.keywordIndex(spec, name, next); err != nil {
						return Call{}, err
					}
					p.i += len(name) + 1
					p.space()
					keywords = true
				} else if keywords {
					return Call{}, p.fail(p.i, "expected a parameter name and \":\" (keyword arguments cannot be followed by positional ones), found %s", p.found())
				}
			}
			param := spec.Params[idx]
			v, err := p.value(param, false)
			if err != nil {
				return Call{}, err
			}
			call.Args = append(call.Args, Arg{Name: param.Name, Value: v})
			call.Named = call.Named || idx != next
			next = idx + 1
			p.space()
			if p.peek() != ',' {
				break
			}
			p.i++
			p.space()
		}
	}
	if next < spec.RequiredParams() && p.peek() == ')' {
		return Call{}, p.missingArg(spec, next)
	}
	if err := p.expect(')', `"," or ")"`); err != nil {
		return Call{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return Call{}, p.fail(p.i, "unexpected text after the call: %s", p.found())
	}
	return call, nil
}

// keywordAhead reports a keyword argument's name at p.i: a parameter name
// (ParamNamePattern's characters) directly followed by ":".
func (p *parser) keywordAhead() (string, bool) {
	j := p.i
	if j < len(p.s) && IsParamNameStart(p.s[j]) {
		for j++; j < len(p.s) && IsParamNameByte(p.s[j]); j++ {
		}
	}
	if j == p.i || j >= len(p.s) || p.s[j] != ':' {
		return "", false
	}
	return p.s[p.i:j], true
}

// keywordIndex finds the parameter a keyword (or JSON key) names and
// checks that it may come here: arguments follow the parameter order, and
// only optional parameters may be skipped.
func (p *parser) keywordIndex(spec Spec, name string, next int) (int, error) {
	idx := -1
	for i, param := range spec.Params {
		if param.Name == name {
			idx = i
		}
	}
	switch {
	case idx < 0:
		return 0, p.fail(p.i, "%s has no parameter %q (%s)", spec.Name, name, spec.Signature())
	case idx < next:
		return 0, p.fail(p.i, "argument %s comes after %s: give arguments once, in the order of %s", name, spec.Params[next-1].Name, spec.Signature())
	case idx > next && next < spec.RequiredParams():
		return 0, p.missingArg(spec, next)
	}
	return idx, nil
}

// IsParamNameStart reports whether c may begin a parameter name.
func IsParamNameStart(c byte) bool { return isLetter(c) }

// IsParamNameByte reports whether c may stand in a parameter name.
func IsParamNameByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '.' || c == '-' }

// missingArg is the error of a call closed before its required argument i.
func (p *parser) missingArg(spec Spec, i int) error {
	missing := spec.Params[i]
	return p.fail(p.i, "missing argument %s (%s) of %s", missing.Name, missing.Type, spec.Signature())
}

// tooManyArgs is the error of an argument after the last parameter.
func (p *parser) tooManyArgs(spec Spec) error {
	return p.fail(p.i, "too many arguments: %s takes %d", spec.Name, len(spec.Params))
}

// value reads one argument of the given parameter. inJSON says the call is
// in the JSON form, where an expression is a quoted string.
func (p *parser) value(param Param, inJSON bool) (Value, error) {
	switch param.Type {
	case TypeExpression:
		return p.expression(inJSON)
	case TypeNumber, TypeInteger:
		return p.number(param)
	case TypeBoolean:
		return p.boolean(param)
	case TypeJSON:
		return p.jsonValue(param)
	default:
		return p.quoted(param)
	}
}

func (p *parser) number(param Param) (Value, error) {
	start := p.i
	for p.i < len(p.s) && !isSpace(p.s[p.i]) && !strings.ContainsRune(",)}\"", rune(p.s[p.i])) {
		p.i++
	}
	tok := p.s[start:p.i]
	if param.Type == TypeInteger {
		if len(tok) > MaxNumberLen || !integerRe().MatchString(tok) {
			return Value{}, p.fail(start, "expected an integer for %s, found %s", param.Name, describeToken(p.s, start))
		}
	} else if len(tok) > MaxNumberLen || !numberRe().MatchString(tok) {
		return Value{}, p.fail(start, "expected a number for %s, found %s", param.Name, describeToken(p.s, start))
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		return Value{}, p.fail(start, "number %s for %s is out of range", tok, param.Name)
	}
	if param.Bounded() {
		if lo, hi := param.IntegerRange(); f < float64(lo) || f > float64(hi) {
			return Value{}, p.fail(start, "%s for %s, found %s", param.RangeText(), param.Name, tok)
		}
	}
	return Number(f), nil
}

// boolean reads true or false: like a number, the run of bytes up to
// white space or one of , ) } ".
func (p *parser) boolean(param Param) (Value, error) {
	start := p.i
	for p.i < len(p.s) && !isSpace(p.s[p.i]) && !strings.ContainsRune(",)}\"", rune(p.s[p.i])) {
		p.i++
	}
	switch p.s[start:p.i] {
	case "true":
		return Boolean(true), nil
	case "false":
		return Boolean(false), nil
	}
	return Value{}, p.fail(start, "expected true or false for %s, found %s", param.Name, describeToken(p.s, start))
}

func (p *parser) quoted(param Param) (Value, error) {
	start := p.i
	if p.peek() != '"' {
		return Value{}, p.fail(start, "expected a quoted %s for %s, found %s", param.Type, param.Name, p.found())
	}
	content, n, errAt, msg := scanString(p.s[p.i:])
	if msg != "" {
		return Value{}, p.fail(start+errAt, "%s", msg)
	}
	p.i += n
	if matched, patterned := matchContent(param, content); patterned {
		raw := p.s[start+1 : p.i-1]
		if strings.ContainsRune(raw, '\\') || !matched {
			return Value{}, p.fail(start, "%s for %s: %s", param.ExpectedContent(), param.Name, truncateQuoted(raw))
		}
		return String(content), nil
	}
	count := utf8.RuneCountInString(content)
	if count == 0 {
		return Value{}, p.fail(start, "empty %s for %s", param.Type, param.Name)
	}
	if bound := param.StringBound(); count > bound {
		return Value{}, p.fail(start, "%s for %s is longer than %d characters", param.Type, param.Name, bound)
	}
	return String(content), nil
}

func (p *parser) expression(inJSON bool) (Value, error) {
	start := p.i
	var text string
	if inJSON {
		if p.peek() != '"' {
			return Value{}, p.fail(start, "expected a quoted expression, found %s", p.found())
		}
		end := strings.IndexByte(p.s[start+1:], '"')
		if end < 0 {
			return Value{}, p.fail(len(p.s), "unterminated string")
		}
		text = p.s[start+1 : start+1+end]
		for k := 0; k < len(text); k++ {
			if text[k] < 0x20 {
				return Value{}, p.fail(start+1+k, "control character in string; the JSON form writes an expression on one line")
			}
		}
		if ok, at, msg := CheckExpression(text); !ok {
			return Value{}, p.fail(start+1+at, "%s", msg)
		}
		p.i = start + end + 2
		return Expression(normalizeExpression(text)), nil
	}
	// The expression runs to the call's closing parenthesis: the last ")"
	// with only white space after it.
	end := strings.LastIndexByte(p.s, ')')
	if end < start {
		end = len(p.s)
	}
	for k := end + 1; k < len(p.s); k++ {
		if !isSpace(p.s[k]) {
			end = len(p.s)
			break
		}
	}
	text = p.s[start:end]
	if ok, at, msg := CheckExpression(text); !ok {
		return Value{}, p.fail(start+at, "%s", msg)
	}
	p.i = end
	return Expression(normalizeExpression(text)), nil
}

// normalizeExpression trims an expression and turns tabs and line breaks
// into spaces, so that the one value has one spelling in both call forms
// (the JSON form writes an expression on one line).
func normalizeExpression(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s))
}

// matchContent reports whether param is pattern-typed (enum, datetime,
// date: the types ContentPattern gives a pattern for) and, if so, whether
// content matches.
func matchContent(param Param, content string) (matched, patterned bool) {
	switch param.Type {
	case TypeDateTime:
		return dateTimeRe().MatchString(content), true
	case TypeDate:
		return dateRe().MatchString(content), true
	case TypeEnum:
		return slices.Contains(param.Enum, content), true
	case TypeString:
		if param.Pattern != "" {
			re, err := regexp.Compile(`^(?:` + param.Pattern + `)$`)
			return err == nil && re.MatchString(content), true
		}
	}
	return false, false
}

// ExpectedContent says what a pattern-typed parameter (enum, datetime,
// date) accepts, for error messages: the call parser's and the ToolDec
// machine's say the same.
func (param Param) ExpectedContent() string {
	switch param.Type {
	case TypeDateTime:
		return "expected a date and time like \"2022-01-02 22:00:00\", \"Jan 2 2022 10:00PM\" or \"3pm\""
	case TypeDate:
		return "expected a date like \"2026-11-23\", \"today\", \"tomorrow\" or a weekday"
	case TypeString:
		switch param.Format {
		case "date":
			return "expected a date like \"2026-11-24\""
		case "date-time":
			return "expected a date and time like \"2026-11-24T09:30:00Z\""
		case "uri":
			return "expected a URI like \"https://example.com/\""
		}
		return fmt.Sprintf("expected text matching ^%s$", param.Pattern)
	default:
		return fmt.Sprintf("expected one of %s", strings.Join(param.Enum, ", "))
	}
}

func truncateQuoted(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return fmt.Sprintf("found %q", s)
}

// describeToken names what stands at s[i] for an error message: the end,
// or the run of text up to the next delimiter.
func describeToken(s string, i int) string {
	if i >= len(s) {
		return "the end"
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
