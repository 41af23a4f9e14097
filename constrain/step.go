package constrain

import "github.com/gear-chat/gear/tools"

// The phases of a call. Each mirrors a step of tools.Parse (parse.go,
// parse_values.go, parse_json.go); the comments name the parser's step.
type phase uint8

const (
	phStart        phase = iota // leading white space; "{" picks the JSON form
	phName                      // canonical tool name (toolName), node = trie node
	phAfterName                 // white space, "("
	phOpen                      // after "(": white space, ")" or the first argument
	phBeforeValue               // after ",": white space, then argument `param`
	phValue                     // inside argument `param`, sub = its step
	phAfterValue                // white space, then "," or the closing ")" / "}"
	phDone                      // the call is complete; trailing white space
	phJKey                      // a JSON key literal (key), sub = which, count = offset
	phJColon                    // white space, ":"
	phJAfterColon               // white space, then what the key introduces
	phJName                     // the tool name between quotes, node = trie node
	phJAfterName                // white space, ","
	phJArgs                     // after the args "{": white space, "}" or the first key
	phJClose                    // white space, the outer "}"
	phKeyword                   // a keyword argument's name (keyword.go); sub: kwPure or kwCombined
	phKeywordColon              // after "name:": white space, then argument `param`
)

const (
	flagJSON     = 1 // the call is in the JSON form
	flagKey      = 2 // the string being read is a JSON object's key
	flagKeywords = 4 // the canonical call has gone over to keyword arguments
)

// Which key a phJKey, phJColon or phJAfterColon state is about.
const (
	keyTool uint8 = iota
	keyArgs
	keyParam
)

// The steps inside a value (State.sub during phValue).
const (
	// numbers and integers (parser.number)
	nStart uint8 = iota
	nSign
	nZero
	nInt
	nDot
	nFrac
	// free strings (scanString)
	sQuote
	sBody
	sEsc
	sHex
	sUTF8
	// pattern-typed strings
	pQuote
	pBody
	// literal words (true, false)
	wStart
	wBody
	// bounded integers: aux = the range DFA's state
	rBody
	// JSON values (parser.jsonAny); strings inside use the free strings'
	// steps, with flagKey set for an object's key
	jValue    // a value must come next
	jArrFirst // after "[": "]" or the first item
	jObjFirst // after "{": "}" or the first key
	jObjKey   // after "," in an object: the next key
	jColon    // after a key: ":"
	jAfter    // after an item or member: "," or the closing bracket
	jnSign    // JSON number steps
	jnZero
	jnInt
	jnDot
	jnFrac
	jnE
	jnESign
	jnExp
	jWord // true, false, null: aux = candidates, count = letters read
	// expressions (CheckExpression)
	xQuote       // JSON form: the opening quote
	xOperand     // an operand must come next
	xOperandStar // as xOperand, right after a lone "*": a second "*" makes "**"
	xAfter       // an operand just ended
	xPercent     // a "%" just ended: postfix or binary
	xNamePending // a name just ended: "(" (after white space) makes it a call
	xIdent       // inside an identifier
	xNumInt      // digits of a number, before any thousands group
	xNumComma    // after a thousands ","
	xNumGroup    // after a complete group of three digits
	xNumDot      // after the decimal point
	xNumFrac     // fraction digits
)

type stepResult uint8

const (
	stepOK       stepResult = iota // the byte was consumed
	stepReject                     // the byte cannot come here
	stepHandOver                   // the value ended before the byte; read it again
	stepEnd                        // the byte was consumed and ended the literal
)

func isSpace(c byte) bool        { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool        { return c >= '0' && c <= '9' }
func isLetter(c byte) bool       { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isNameByte(c byte) bool     { return isLetter(c) || isDigit(c) } // in an expression's identifier
func isToolNameByte(c byte) bool { return tools.IsToolNameByte(c) }
func isNumberEnd(c byte) bool    { return isSpace(c) || c == ',' || c == ')' || c == '}' || c == '"' }

// step feeds one byte. On rejection *s is left at the state that refused
// the byte (after any hand-over), which is what error messages describe.
func (m *Machine) step(s *State, c byte) bool {
	for {
		switch s.phase {
		case phStart:
			if isSpace(c) {
				return true
			}
			if c == '{' {
				*s = State{phase: phJKey, sub: keyTool, flags: flagJSON}
				return true
			}
			s.phase, s.node = phName, 0
		case phName:
			if isToolNameByte(c) {
				return m.descend(s, c)
			}
			t := m.nodes[s.node].tool
			if t < 0 {
				return false
			}
			s.phase, s.node = phAfterName, uint32(t)
		case phAfterName:
			return punctuation(s, c, '(', phOpen)
		case phOpen:
			if isSpace(c) {
				return true
			}
			tool := &m.tools[s.node]
			if c == ')' {
				if tool.required > 0 {
					return false
				}
				s.phase = phDone
				return true
			}
			if len(tool.params) == 0 {
				return false
			}
			s.param = 0
			if !m.startArg(s, c) {
				return false
			}
		case phBeforeValue:
			if isSpace(c) {
				return true
			}
			if !m.startArg(s, c) {
				return false
			}
		case phKeyword:
			switch m.keywordByte(s, c) {
			case stepOK:
				return true
			case stepReject:
				return false
			}
		case phKeywordColon:
			if isSpace(c) {
				return true
			}
			m.beginValue(s)
		case phValue:
			switch m.valueByte(s, c) {
			case stepOK:
				return true
			case stepReject:
				return false
			}
		case phAfterValue:
			if isSpace(c) {
				return true
			}
			tool := &m.tools[s.node]
			next := int(s.param) + 1
			json := s.flags&flagJSON != 0
			switch {
			case c == ',':
				if next >= len(tool.params) {
					return false
				}
				s.param = uint16(next)
				if json {
					s.phase, s.sub, s.count, s.stack = phJKey, keyParam, 0, 0
				} else {
					s.phase = phBeforeValue
				}
				return true
			case c == ')' && !json, c == '}' && json:
				if next < tool.required {
					return false
				}
				s.param = 0
				if json {
					s.phase = phJClose
				} else {
					s.phase = phDone
				}
				return true
			}
			return false
		case phDone:
			return isSpace(c)
		case phJKey:
			if s.sub == keyParam {
				return m.jsonKeyByte(s, c)
			}
			lit := m.keyLiteral(s)
			if s.count == 0 && isSpace(c) {
				return true
			}
			if c != lit[s.count] {
				return false
			}
			s.count++
			if int(s.count) == len(lit) {
				s.phase, s.count = phJColon, 0
			}
			return true
		case phJColon:
			return punctuation(s, c, ':', phJAfterColon)
		case phJAfterColon:
			if isSpace(c) {
				return true
			}
			switch s.sub {
			case keyTool:
				if c != '"' {
					return false
				}
				s.phase, s.node, s.sub = phJName, 0, 0
				return true
			case keyArgs:
				if c != '{' {
					return false
				}
				s.phase, s.sub = phJArgs, 0
				return true
			}
			m.beginValue(s)
		case phJName:
			if isToolNameByte(c) {
				return m.descend(s, c)
			}
			t := m.nodes[s.node].tool
			if c != '"' || t < 0 {
				return false
			}
			s.phase, s.node = phJAfterName, uint32(t)
			return true
		case phJAfterName:
			if c == ',' {
				s.sub, s.count = keyArgs, 0 // the "args" key comes next
			}
			return punctuation(s, c, ',', phJKey)
		case phJArgs:
			if isSpace(c) {
				return true
			}
			tool := &m.tools[s.node]
			if c == '}' {
				if tool.required > 0 {
					return false
				}
				s.phase = phJClose
				return true
			}
			if c != '"' || len(tool.params) == 0 {
				return false
			}
			s.phase, s.sub, s.param, s.count = phJKey, keyParam, 0, 1
			s.stack = uint64(len(tool.params)) << 16
			return true
		case phJClose:
			return punctuation(s, c, '}', phDone)
		default:
			return false
		}
	}
}

// descend reads c, a byte of a tool name, down the name trie; no tool
// name goes on with c when it reports false.
func (m *Machine) descend(s *State, c byte) bool {
	child, ok := m.child(s.node, c)
	if ok {
		s.node = child
	}
	return ok
}

// punctuation reads white space, or the one byte want that moves the call
// on to phase next.
func punctuation(s *State, c, want byte, next phase) bool {
	if isSpace(c) {
		return true
	}
	if c != want {
		return false
	}
	s.phase = next
	return true
}

const (
	keyToolLit = `"tool"`
	keyArgsLit = `"args"`
)

func (m *Machine) keyLiteral(s *State) string {
	switch s.sub {
	case keyTool:
		return keyToolLit
	case keyArgs:
		return keyArgsLit
	}
	return m.tools[s.node].params[s.param].key
}

// beginValue enters argument s.param; the next byte is its first.
func (m *Machine) beginValue(s *State) {
	p := &m.tools[s.node].params[s.param]
	s.phase, s.count, s.aux, s.depth, s.stack = phValue, 0, 0, 0, 0
	switch p.kind {
	case kindNumber, kindInteger, kindRange:
		s.sub = nStart
	case kindString:
		s.sub = sQuote
	case kindPattern:
		s.sub = pQuote
	case kindWord:
		s.sub = wStart
	case kindJSON:
		s.sub = jValue
	case kindExpression:
		if s.flags&flagJSON != 0 {
			s.sub = xQuote
		} else {
			s.sub = xOperand
		}
	}
}

// endValue leaves the value, clearing its fields so that equal positions
// give equal states.
func endValue(s *State) {
	s.phase, s.sub, s.count, s.aux, s.depth, s.stack = phAfterValue, 0, 0, 0, 0, 0
}

func (m *Machine) valueByte(s *State, c byte) stepResult {
	p := &m.tools[s.node].params[s.param]
	switch p.kind {
	case kindNumber:
		return numberByte(s, c, false)
	case kindInteger:
		return numberByte(s, c, true)
	case kindString:
		if r := stringByte(s, c, p.bound, false); r != stepEnd {
			return r
		}
		endValue(s)
		return stepOK
	case kindJSON:
		return jsonByte(s, c, p.items)
	case kindRange:
		return rangeByte(s, c, m.dfas[p.dfa])
	case kindPattern:
		return m.patternByte(s, c, m.dfas[p.dfa])
	case kindWord:
		return wordByte(s, c, p.words)
	}
	return exprByte(s, c)
}
