package tools

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Bounds of a TypeJSON value, shared with the ToolDec machine.
const (
	// MaxJSONDepth bounds the nesting of arrays and objects in a value.
	MaxJSONDepth = 32
	// MaxJSONStringLen bounds each string inside a JSON value, in runes.
	MaxJSONStringLen = 60000
)

// jsonValue reads a TypeJSON argument: one JSON value (RFC 8259) of any
// shape, with strings as scanString reads them (no raw control character
// or DEL, no \u escape naming a surrogate) and arrays and objects nested at
// most MaxJSONDepth deep. Its shape is checked against the parameter's
// schema after decoding (Registry.Parse); here it only has to be JSON.
func (p *parser) jsonValue(param Param) (Value, error) {
	start := p.i
	read := p.jsonAny
	if param.Items != "" {
		read = p.jsonArrayOf
	}
	if err := read(param, 0); err != nil {
		return Value{}, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(p.s[start:p.i])); err != nil {
		return Value{}, p.fail(start, "JSON value for %s: %v", param.Name, err)
	}
	return JSONValue(b.String()), nil
}

func (p *parser) jsonAny(param Param, depth int) error {
	switch c := p.peek(); {
	case c == '{' || c == '[':
		if depth >= MaxJSONDepth {
			return p.fail(p.i, "JSON value for %s nested deeper than %d", param.Name, MaxJSONDepth)
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		p.i++
		p.space()
		if p.peek() == closer {
			p.i++
			return nil
		}
		for {
			if c == '{' {
				if p.peek() != '"' {
					return p.fail(p.i, "expected a quoted key in the JSON object for %s, found %s", param.Name, p.found())
				}
				if err := p.jsonString(param); err != nil {
					return err
				}
				p.space()
				if err := p.expect(':', `":"`); err != nil {
					return err
				}
				p.space()
			}
			if err := p.jsonAny(param, depth+1); err != nil {
				return err
			}
			p.space()
			switch p.peek() {
			case ',':
				p.i++
				p.space()
				continue
			case closer:
				p.i++
				return nil
			}
			return p.fail(p.i, "expected \",\" or %q in the JSON value for %s, found %s", closer, param.Name, p.found())
		}
	case c == '"':
		return p.jsonString(param)
	case c == '-' || isDigit(c):
		return p.jsonNumber(param)
	}
	for _, word := range []string{"true", "false", "null"} {
		if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
			p.i += len(word)
			return nil
		}
	}
	return p.fail(p.i, "expected a JSON value for %s, found %s", param.Name, p.found())
}

// jsonArrayOf reads an array whose items are JSON values of param.Items.
func (p *parser) jsonArrayOf(param Param, _ int) error {
	if p.peek() != '[' {
		return p.fail(p.i, "expected an array of %s for %s, found %s", param.Items, param.Name, p.found())
	}
	p.i++
	p.space()
	if p.peek() == ']' {
		p.i++
		return nil
	}
	for {
		if err := p.jsonItem(param); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
			p.space()
			continue
		case ']':
			p.i++
			return nil
		}
		return p.fail(p.i, "expected \",\" or ']' in the array for %s, found %s", param.Name, p.found())
	}
}

// jsonItem reads one item of an array parameter.
func (p *parser) jsonItem(param Param) error {
	bad := func() error {
		return p.fail(p.i, "expected %s in the array for %s, found %s", itemWant(param.Items), param.Name, p.found())
	}
	c := p.peek()
	switch param.Items {
	case TypeString:
		if c != '"' {
			return bad()
		}
		return p.jsonString(param)
	case TypeNumber, TypeInteger:
		if c != '-' && !isDigit(c) {
			return bad()
		}
		if param.Items == TypeNumber {
			return p.jsonNumber(param)
		}
		start := p.i
		if c == '-' {
			p.i++
		}
		switch {
		case p.peek() == '0':
			p.i++
		case isDigit(p.peek()):
			for p.i < len(p.s) && isDigit(p.s[p.i]) {
				p.i++
			}
		default:
			return p.fail(start, "expected an integer in the array for %s, found %s", param.Name, describeToken(p.s, start))
		}
		if c := p.peek(); c == '.' || c == 'e' || c == 'E' {
			return p.fail(p.i, "an integer in the array for %s has no fraction or exponent, found %s", param.Name, p.found())
		}
		return nil
	}
	for _, word := range []string{"true", "false"} {
		if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
			p.i += len(word)
			return nil
		}
	}
	return bad()
}

func itemWant(t ParamType) string {
	switch t {
	case TypeString:
		return "a string"
	case TypeNumber:
		return "a number"
	case TypeInteger:
		return "an integer"
	}
	return "true or false"
}

func (p *parser) jsonString(param Param) error {
	start := p.i
	content, n, errAt, msg := scanString(p.s[p.i:])
	if msg != "" {
		return p.fail(start+errAt, "%s", msg)
	}
	if utf8.RuneCountInString(content) > MaxJSONStringLen {
		return p.fail(start, "string in the JSON value for %s is longer than %d characters", param.Name, MaxJSONStringLen)
	}
	p.i += n
	return nil
}

// jsonNumber reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) jsonNumber(param Param) error {
	start := p.i
	digits := func() int {
		k := p.i
		for p.i < len(p.s) && isDigit(p.s[p.i]) {
			p.i++
		}
		return p.i - k
	}
	bad := func() error {
		return p.fail(start, "expected a JSON number for %s, found %s", param.Name, describeToken(p.s, start))
	}
	if p.peek() == '-' {
		p.i++
	}
	if p.peek() == '0' {
		p.i++
	} else if digits() == 0 {
		return bad()
	}
	if p.peek() == '.' {
		p.i++
		if digits() == 0 {
			return bad()
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	return nil
}
