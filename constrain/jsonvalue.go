package constrain

import "github.com/gear-chat/gear/tools"

// The JSON sub-machine follows tools' parser.jsonAny byte by byte: any
// JSON value, arrays and objects nested at most tools.MaxJSONDepth deep
// (the kinds of the open brackets in State.stack, 1 for an object, their
// number in depth), strings read by the free strings' steps without the
// non-empty rule and bounded by tools.MaxJSONStringLen runes. What the value
// must be beyond JSON is its parameter's schema's business, checked after
// decoding.

var jsonWords = [...]string{"true", "false", "null"}

func jsonInObject(s *State) bool { return s.depth > 0 && s.stack&(1<<(s.depth-1)) != 0 }

// jsonDone moves on after a complete value: the whole argument when it
// was the outermost, else the "," or bracket of its container.
func jsonDone(s *State) {
	if s.depth == 0 {
		endValue(s)
		return
	}
	s.sub, s.count, s.aux = jAfter, 0, 0
}

// itemStart reports whether c may begin an item of type items.
func itemStart(items tools.ParamType, c byte) bool {
	switch items {
	case tools.TypeString:
		return c == '"'
	case tools.TypeNumber, tools.TypeInteger:
		return c == '-' || isDigit(c)
	}
	return c == 't' || c == 'f'
}

// jsonByte reads a byte of a JSON value; items, when set, makes it an
// array of such items (parser.jsonArrayOf): "[" at the top, items of that
// type only inside, an integer without fraction or exponent.
func jsonByte(s *State, c byte, items tools.ParamType) stepResult {
	for {
		if items != "" && s.sub == jValue && !isSpace(c) {
			switch {
			case s.depth == 0 && c != '[':
				return stepReject
			case s.depth == 1 && !itemStart(items, c):
				return stepReject
			}
		}
		if items == tools.TypeInteger && (s.sub == jnZero || s.sub == jnInt) && (c == '.' || c == 'e' || c == 'E') {
			jsonDone(s) // the integer ends before c, which nothing can follow with
			if s.sub == jAfter {
				return stepReject
			}
			return stepHandOver
		}
		switch s.sub {
		case sBody, sEsc, sHex, sUTF8:
			r := stringByte(s, c, tools.MaxJSONStringLen, true)
			if r != stepEnd {
				return r
			}
			if s.flags&flagKey != 0 {
				s.flags &^= flagKey
				s.sub, s.count, s.aux = jColon, 0, 0
				return stepOK
			}
			jsonDone(s)
			return stepOK
		case jValue:
			switch {
			case isSpace(c):
			case c == '{' || c == '[':
				if int(s.depth) >= tools.MaxJSONDepth {
					return stepReject
				}
				if c == '{' {
					s.stack |= 1 << s.depth
					s.sub = jObjFirst
				} else {
					s.sub = jArrFirst
				}
				s.depth++
			case c == '"':
				s.sub, s.count = sBody, 0
			case c == '-':
				s.sub = jnSign
			case c == '0':
				s.sub = jnZero
			case isDigit(c):
				s.sub = jnInt
			default:
				var cand uint32
				for i, w := range jsonWords {
					if w[0] == c {
						cand |= 1 << i
					}
				}
				if cand == 0 {
					return stepReject
				}
				s.sub, s.aux, s.count = jWord, cand, 1
			}
			return stepOK
		case jArrFirst:
			if isSpace(c) {
				return stepOK
			}
			if c == ']' {
				jsonClose(s)
				return stepOK
			}
			s.sub = jValue
		case jObjFirst, jObjKey:
			switch {
			case isSpace(c):
			case c == '}' && s.sub == jObjFirst:
				jsonClose(s)
			case c == '"':
				s.flags |= flagKey
				s.sub, s.count = sBody, 0
			default:
				return stepReject
			}
			return stepOK
		case jColon:
			if isSpace(c) {
				return stepOK
			}
			if c != ':' {
				return stepReject
			}
			s.sub = jValue
			return stepOK
		case jAfter:
			switch {
			case isSpace(c):
			case c == ',':
				if jsonInObject(s) {
					s.sub = jObjKey
				} else {
					s.sub = jValue
				}
			case c == '}' && jsonInObject(s), c == ']' && !jsonInObject(s):
				jsonClose(s)
			default:
				return stepReject
			}
			return stepOK
		case jWord:
			var next uint32
			done := false
			for i, w := range jsonWords {
				if s.aux&(1<<i) != 0 && int(s.count) < len(w) && w[s.count] == c {
					next |= 1 << i
					done = done || int(s.count)+1 == len(w)
				}
			}
			if next == 0 {
				return stepReject
			}
			s.aux = next
			s.count++
			if done {
				jsonDone(s)
			}
			return stepOK
		default:
			if r, ok := jsonNumberByte(s, c); ok {
				return r
			}
			// The number ended before c.
			if s.depth == 0 {
				endValue(s)
				return stepHandOver
			}
			s.sub = jAfter
		}
	}
}

// jsonClose closes the innermost array or object.
func jsonClose(s *State) {
	s.depth--
	s.stack &^= 1 << s.depth
	jsonDone(s)
}

// jsonNumberByte reads a byte of a JSON number; ok false means the number
// is complete and c is not part of it (a byte that can neither continue
// nor end it gives stepReject).
func jsonNumberByte(s *State, c byte) (stepResult, bool) {
	switch s.sub {
	case jnSign:
		switch {
		case c == '0':
			s.sub = jnZero
		case isDigit(c):
			s.sub = jnInt
		default:
			return stepReject, true
		}
	case jnZero, jnInt, jnFrac:
		switch {
		case isDigit(c) && s.sub != jnZero:
		case c == '.' && s.sub != jnFrac:
			s.sub = jnDot
		case c == 'e' || c == 'E':
			s.sub = jnE
		default:
			return stepOK, false
		}
	case jnDot:
		if !isDigit(c) {
			return stepReject, true
		}
		s.sub = jnFrac
	case jnE:
		switch {
		case c == '+' || c == '-':
			s.sub = jnESign
		case isDigit(c):
			s.sub = jnExp
		default:
			return stepReject, true
		}
	case jnESign:
		if !isDigit(c) {
			return stepReject, true
		}
		s.sub = jnExp
	case jnExp:
		if !isDigit(c) {
			return stepOK, false
		}
	default:
		return stepReject, true
	}
	return stepOK, true
}
