package tools

import (
	"strconv"
	"strings"
)

// ValueKind says how an argument is written.
type ValueKind int

const (
	// KindString is a quoted string (string, enum, datetime, date, place).
	KindString ValueKind = iota
	// KindNumber is a number or integer literal.
	KindNumber
	// KindExpression is a bare arithmetic expression.
	KindExpression
	// KindBoolean is true or false.
	KindBoolean
	// KindJSON is a JSON value (array, object, or any value of a
	// parameter typed by its schema alone), kept as compact JSON text.
	KindJSON
)

// Value is one argument value. Numbers keep their float64 value; strings
// and expressions their text (decoded, for strings); booleans Bool.
type Value struct {
	Kind ValueKind
	Str  string
	Num  float64
	Bool bool
}

// String makes a string value.
func String(s string) Value { return Value{Kind: KindString, Str: s} }

// Number makes a number value.
func Number(f float64) Value { return Value{Kind: KindNumber, Num: f} }

// Expression makes an expression value.
func Expression(s string) Value { return Value{Kind: KindExpression, Str: s} }

// JSONValue makes a JSON value from its compact text.
func JSONValue(text string) Value { return Value{Kind: KindJSON, Str: text} }

// Boolean makes a boolean value.
func Boolean(b bool) Value { return Value{Kind: KindBoolean, Bool: b} }

// Text is the value as plain text: the decoded string, the expression,
// the number in its canonical spelling, true or false.
func (v Value) Text() string {
	switch v.Kind {
	case KindNumber:
		return FormatNumber(v.Num)
	case KindBoolean:
		return strconv.FormatBool(v.Bool)
	}
	return v.Str
}

// Equal reports whether two values are the same argument.
func (v Value) Equal(w Value) bool {
	if v.Kind != w.Kind {
		return false
	}
	switch v.Kind {
	case KindNumber:
		return v.Num == w.Num
	case KindBoolean:
		return v.Bool == w.Bool
	}
	return v.Str == w.Str
}

// FormatNumber spells a number the way the call syntax writes it: plain
// decimal, no exponent, no trailing zeros.
func FormatNumber(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// Arg is a named argument.
type Arg struct {
	Name  string
	Value Value
}

// Call is a parsed tool call: the tool's name and its arguments in
// parameter order. Optional parameters left out are absent.
type Call struct {
	Tool string
	Args []Arg
	// Named says an optional parameter before a given argument is left
	// out, so String writes the keyword form, Tool(name: value, ...);
	// Parse sets it.
	Named bool
}

// Arg returns the argument called name.
func (c Call) Arg(name string) (Value, bool) {
	for _, a := range c.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return Value{}, false
}

// Text returns the text of argument name, or "" when it is absent.
func (c Call) Text(name string) string {
	v, _ := c.Arg(name)
	return v.Text()
}

// Equal reports whether two calls are the same call.
func (c Call) Equal(d Call) bool {
	if c.Tool != d.Tool || len(c.Args) != len(d.Args) {
		return false
	}
	for i := range c.Args {
		if c.Args[i].Name != d.Args[i].Name || !c.Args[i].Value.Equal(d.Args[i].Value) {
			return false
		}
	}
	return true
}

// String formats the call in the canonical syntax, positional:
// TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York"),
// or with keywords when it is Named: search(query: "gear", sort: "stars").
func (c Call) String() string {
	if c.Named {
		return c.Keywords()
	}
	var b strings.Builder
	b.WriteString(c.Tool)
	b.WriteByte('(')
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeValue(&b, a.Value)
	}
	b.WriteByte(')')
	return b.String()
}

// Keywords formats the call in the keyword form, every argument named:
// WeatherSearch(place: "Berlin", date: "tomorrow").
func (c Call) Keywords() string {
	var b strings.Builder
	b.WriteString(c.Tool)
	b.WriteByte('(')
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Name)
		b.WriteString(": ")
		writeValue(&b, a.Value)
	}
	b.WriteByte(')')
	return b.String()
}

// JSON formats the call in the JSON form:
// {"tool": "Calculator", "args": {"expression": "2 + 4"}}.
func (c Call) JSON() string {
	var b strings.Builder
	b.WriteString(`{"tool": `)
	b.WriteString(Quote(c.Tool))
	b.WriteString(`, "args": {`)
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(a.Name))
		b.WriteString(": ")
		if a.Value.Kind == KindExpression {
			b.WriteString(Quote(a.Value.Str))
		} else {
			writeValue(&b, a.Value)
		}
	}
	b.WriteString("}}")
	return b.String()
}

func writeValue(b *strings.Builder, v Value) {
	switch v.Kind {
	case KindNumber:
		b.WriteString(FormatNumber(v.Num))
	case KindExpression:
		b.WriteString(v.Str)
	case KindBoolean:
		b.WriteString(strconv.FormatBool(v.Bool))
	case KindJSON:
		b.WriteString(v.Str)
	default:
		b.WriteString(Quote(v.Str))
	}
}

// Quote writes s as a JSON string literal, the string syntax of both call
// forms: quotes, backslashes and control characters escaped, everything
// else (UTF-8 included) as is.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				const hex = "0123456789abcdef"
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
