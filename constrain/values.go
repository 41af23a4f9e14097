package constrain

import "github.com/gear-chat/gear/tools"

// The sub-machines of quoted and numeric arguments, each following the
// parser's reading of that kind of value byte by byte.

// numberByte reads a number or integer literal: the parser takes the run
// of bytes up to white space or one of , ) } " and matches it against
// NumberPattern or IntegerPattern, at most MaxNumberLen bytes.
func numberByte(s *State, c byte, integer bool) stepResult {
	if isNumberEnd(c) {
		switch s.sub {
		case nZero, nInt, nFrac:
			endValue(s)
			return stepHandOver
		}
		return stepReject
	}
	switch s.sub {
	case nStart, nSign:
		switch {
		case c == '-' && s.sub == nStart:
			s.sub, s.aux = nSign, 1
		case c == '0':
			s.sub = nZero
		case c >= '1' && c <= '9':
			s.sub = nInt
		default:
			return stepReject
		}
	case nZero:
		if c != '.' || integer {
			return stepReject
		}
		s.sub = nDot
	case nInt:
		switch {
		case isDigit(c):
			if integer && int(s.count)-int(s.aux) >= tools.MaxIntegerDigits {
				return stepReject
			}
		case c == '.' && !integer:
			s.sub = nDot
		default:
			return stepReject
		}
	case nDot:
		if !isDigit(c) {
			return stepReject
		}
		s.sub = nFrac
	case nFrac:
		if !isDigit(c) {
			return stepReject
		}
	}
	s.count++
	need := 0
	if s.sub == nSign || s.sub == nDot {
		need = 1 // a digit must still come
	}
	if int(s.count)+need > tools.MaxNumberLen {
		return stepReject
	}
	return stepOK
}

// stringByte reads a free string literal as scanString does, counting the
// runes of its content against bound; empty says an empty string is
// allowed. The closing quote gives stepEnd.
func stringByte(s *State, c byte, bound uint16, empty bool) stepResult {
	switch s.sub {
	case sQuote:
		if c != '"' {
			return stepReject
		}
		s.sub = sBody
	case sBody:
		switch {
		case c == '"':
			if s.count == 0 && !empty {
				return stepReject
			}
			return stepEnd
		case c < 0x20 || c == 0x7f:
			return stepReject
		case s.count >= bound:
			return stepReject // no room for another character
		case c == '\\':
			s.sub = sEsc
		case c < 0x80:
			s.count++
		default:
			need, lo, hi := utf8Lead(c)
			if need == 0 {
				return stepReject
			}
			s.count++
			s.sub, s.aux = sUTF8, uint32(need)<<16|uint32(lo)<<8|uint32(hi)
		}
	case sEsc:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.count++
			s.sub = sBody
		case 'u':
			s.sub, s.aux = sHex, 0
		default:
			return stepReject
		}
	case sHex:
		d := hexValue(c)
		if d < 0 {
			return stepReject
		}
		digits := s.aux>>16 + 1
		v := (s.aux&0xFFFF)<<4 | uint32(d)
		if digits == 2 && v >= 0xD8 && v <= 0xDF {
			return stepReject // every completion would name a surrogate
		}
		if digits == 4 {
			s.count++
			s.sub, s.aux = sBody, 0
		} else {
			s.aux = digits<<16 | v
		}
	case sUTF8:
		lo, hi := byte(s.aux>>8), byte(s.aux)
		if c < lo || c > hi {
			return stepReject
		}
		if need := s.aux>>16 - 1; need == 0 {
			s.sub, s.aux = sBody, 0
		} else {
			s.aux = need<<16 | 0x80<<8 | 0xBF
		}
	}
	return stepOK
}

// utf8Lead says how many continuation bytes follow a lead byte and the
// range of the first one, as utf8.DecodeRune accepts them (no overlong
// forms, no surrogates, nothing above U+10FFFF). need is 0 for a byte that
// cannot start a character.
func utf8Lead(c byte) (need int, lo, hi byte) {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 1, 0x80, 0xBF
	case c == 0xE0:
		return 2, 0xA0, 0xBF
	case c == 0xED:
		return 2, 0x80, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		return 2, 0x80, 0xBF
	case c == 0xF0:
		return 3, 0x90, 0xBF
	case c >= 0xF1 && c <= 0xF3:
		return 3, 0x80, 0xBF
	case c == 0xF4:
		return 3, 0x80, 0x8F
	}
	return 0, 0, 0
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// patternByte reads a pattern-typed literal: a quote, content the DFA
// accepts, a quote.
func (m *Machine) patternByte(s *State, c byte, d *dfa) stepResult {
	if s.sub == pQuote {
		if c != '"' {
			return stepReject
		}
		s.sub, s.aux = pBody, uint32(d.start)
		return stepOK
	}
	if c == '"' {
		if !d.accept[s.aux] {
			return stepReject
		}
		endValue(s)
		return stepOK
	}
	next := d.step(int32(s.aux), c)
	if next < 0 {
		return stepReject
	}
	s.aux = uint32(next)
	return stepOK
}

// booleanWords are the literals of a boolean argument.
var booleanWords = []string{"true", "false"}

// wordByte reads one of a few literal words: like a number, the value is
// the run of bytes up to a delimiter, so a word ends when the next byte
// cannot continue any candidate (and a complete word is read); aux holds
// the candidates still possible, count the bytes read.
func wordByte(s *State, c byte, words []string) stepResult {
	if s.sub == wStart {
		s.sub, s.aux, s.count = wBody, 1<<len(words)-1, 0
	}
	var next uint32
	complete := false
	for i, w := range words {
		if s.aux&(1<<i) == 0 {
			continue
		}
		switch {
		case int(s.count) == len(w):
			complete = true
		case w[s.count] == c:
			next |= 1 << i
		}
	}
	if next != 0 {
		s.aux = next
		s.count++
		return stepOK
	}
	if complete && isNumberEnd(c) {
		endValue(s)
		return stepHandOver
	}
	return stepReject
}

// rangeByte reads a bounded integer: like a number, the run of bytes up
// to a delimiter, which the range's DFA must accept (parser.number with
// Param.IntegerRange).
func rangeByte(s *State, c byte, d *dfa) stepResult {
	if s.sub == nStart {
		s.sub, s.aux = rBody, uint32(d.start)
		if isNumberEnd(c) {
			return stepReject
		}
	}
	if isNumberEnd(c) {
		if !d.accept[s.aux] {
			return stepReject
		}
		endValue(s)
		return stepHandOver
	}
	next := d.step(int32(s.aux), c)
	if next < 0 {
		return stepReject
	}
	s.aux = uint32(next)
	s.count++
	return stepOK
}
