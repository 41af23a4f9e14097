// Package sanitize makes untrusted text — tool responses, model output,
// history read back from the database — safe to print on a terminal.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Text removes terminal escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two-byte ESC sequences, in their 7-bit and 8-bit forms), C0 and C1
// control characters other than newline and tab, DEL, and the Unicode
// bidirectional overrides that can make text display differently from
// what it is. A carriage return becomes a newline unless it ends a CRLF
// pair. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b: // ESC
			i += escapeLen(s[i:])
		case r == 0x9b: // 8-bit CSI
			i += size + csiBodyLen(s[i+size:])
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit DCS, OSC, SOS, PM, APC
			i += size + stringBodyLen(s[i+size:])
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				continue
			}
			b.WriteByte('\n')
			i++
		case r == '\n' || r == '\t':
			b.WriteRune(r)
			i += size
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// Line is Text for a value shown on one line: line breaks and tabs become
// spaces.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, Text(s))
}

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

// Invisible reports the characters Text removes that JSON does not escape
// by itself: DEL, the C1 controls and the bidirectional overrides. A JSON
// writer escapes them (as \uXXXX) so the data stays whole but cannot act
// on a terminal or disguise itself.
func Invisible(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r)
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// escapeLen is the length of the escape sequence at s[0] == ESC.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBodyLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringBodyLen(s[2:])
	}
	// ESC, intermediates 0x20-0x2f, then one final byte.
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		i++
	}
	return i
}

// csiBodyLen skips parameter and intermediate bytes up to the final byte;
// a control byte ends a broken sequence and is left to the caller.
func csiBodyLen(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		if s[i] < 0x20 {
			return i
		}
	}
	return len(s)
}

// stringBodyLen skips a control string up to its terminator: BEL, ESC \ or
// the 8-bit ST.
func stringBodyLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
