package tools

import (
	"fmt"
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
