package tools

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gear-chat/gear/internal/lazyregexp"
)

// Bounds of the call syntax. The ToolDec machine in constrain enforces the
// same numbers, so they live here, next to the parser.
const (
	// DefaultMaxStringLen bounds a TypeString value (in runes) when the
	// parameter does not set MaxLen.
	DefaultMaxStringLen = 200
	// MaxStringLen is the largest MaxLen a parameter may ask for, and the
	// bound of a string read from a schema without maxLength (a file's
	// content, a message's body).
	MaxStringLen = 60000
	// MaxPlaceLen bounds a TypePlace value in runes.
	MaxPlaceLen = 100
	// MaxNumberLen bounds a number or integer literal in bytes.
	MaxNumberLen = 24
	// MaxIntegerDigits bounds an integer literal's digits, so every integer
	// is exact in a float64.
	MaxIntegerDigits = 15
	// MaxExpressionLen bounds an expression in bytes.
	MaxExpressionLen = 2000
	// MaxExpressionDepth bounds parenthesis nesting in an expression.
	MaxExpressionDepth = 32
	// MaxIdentifierLen bounds a function or constant name in an expression.
	MaxIdentifierLen = 16
)

// NumberPattern is the lexical form of a TypeNumber literal (JSON numbers
// without exponent).
const NumberPattern = `-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?`

// IntegerPattern is the lexical form of a TypeInteger literal.
const IntegerPattern = `-?(?:0|[1-9][0-9]{0,14})`

// DateTimePattern is the content of a TypeDateTime string (between the
// quotes, case-insensitive). The shapes are those the timezone tool reads:
//
//	2006-01-02 15:04:05   2006-01-02T15:04   2006-01-02
//	Jan 2 2006 03:04:05PM   January 2, 2006 3:04 pm
//	15:04:05, Jan 2, 2006   3:04 PM, Jan 2, 2006
//	3pm   3:30 pm   15:30   15:30:00   now   noon   midnight
const DateTimePattern = `(?i)(?:` +
	`[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[ T][0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?)?` +
	`|` + monthPattern + `\.? [0-9]{1,2},? [0-9]{4},? [0-9]{1,2}:[0-9]{2}(?::[0-9]{2})? ?(?:am|pm)?` +
	`|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})? ?(?:am|pm)?,? ` + monthPattern + `\.? [0-9]{1,2},? [0-9]{4}` +
	`|[0-9]{1,2}(?::[0-9]{2}(?::[0-9]{2})?)? ?(?:am|pm)` +
	`|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?` +
	`|now|noon|midnight)`

const monthPattern = `(?:jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)`

// DatePattern is the content of a TypeDate string (case-insensitive).
const DatePattern = `(?i)(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|today|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)`

var (
	numberRe   = lazyregexp.New(`^` + NumberPattern + `$`)
	integerRe  = lazyregexp.New(`^` + IntegerPattern + `$`)
	dateTimeRe = lazyregexp.New(`^` + DateTimePattern + `$`)
	dateRe     = lazyregexp.New(`^` + DatePattern + `$`)
	// enumValuePattern keeps enum values free of characters that would
	// need escaping, so an enum literal is its value between quotes.
	enumValuePattern = lazyregexp.New(`^[^"\\\x00-\x1f\x7f]{1,200}$`)
)

// maxEnumValueLen bounds an enum value in characters.
const maxEnumValueLen = 200

// ContentPattern returns the regular expression (unanchored, Go syntax) that
// the content of a pattern-typed string parameter must match, and whether
// the type is one. Pattern-typed strings (enum, datetime, date, a string
// with a Pattern) may not use backslash escapes: their literal is the
// content between two quotes.
func (p Param) ContentPattern() (string, bool) {
	switch p.Type {
	case TypeString:
		if p.Pattern != "" {
			return p.Pattern, true
		}
	case TypeDateTime:
		return DateTimePattern, true
	case TypeDate:
		return DatePattern, true
	case TypeEnum:
		alts := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			alts[i] = regexp.QuoteMeta(v)
		}
		return `(?:` + strings.Join(alts, "|") + `)`, true
	}
	return "", false
}

// StringBound returns the rune bound of a free string parameter (string or
// place).
func (p Param) StringBound() int {
	if p.Type == TypePlace {
		return MaxPlaceLen
	}
	if p.MaxLen > 0 {
		return p.MaxLen
	}
	return DefaultMaxStringLen
}

// The escapes of a JSON string but \u: the letter after the backslash,
// and at the same index the character it stands for.
const (
	escapeLetters = `"\/bfnrt`
	escapedChars  = "\"\\/\b\f\n\r\t"
)

// scanString reads a JSON string literal at s[0] == '"'. It returns the
// decoded content, the literal's length in bytes, and on failure the byte
// offset of the problem with a message. Raw control characters, DEL and
// invalid UTF-8 are refused; \u escapes may not name surrogates (write such
// characters as UTF-8 instead).
func scanString(s string) (content string, n int, errAt int, errMsg string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, 0, ""
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, i, "unterminated escape in string"
			}
			e := s[i+1]
			if k := strings.IndexByte(escapeLetters, e); k >= 0 {
				b.WriteByte(escapedChars[k])
				i += 2
				continue
			}
			if e != 'u' {
				return "", 0, i, "unknown escape \\" + string(rune(e)) + " in string"
			}
			r, ok := hex4(s[i+2:])
			if !ok {
				return "", 0, i, `expected four hex digits after \u`
			}
			if r >= 0xD800 && r <= 0xDFFF {
				return "", 0, i, `\u escape names a surrogate; write the character itself`
			}
			b.WriteRune(r)
			i += 6
		case c < 0x20 || c == 0x7f:
			return "", 0, i, "control character in string; escape it"
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", 0, i, "invalid UTF-8 in string"
			}
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return "", 0, len(s), "unterminated string"
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// isSpace is the white space allowed between the parts of a call (JSON's).
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
