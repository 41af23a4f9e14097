package tools

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
