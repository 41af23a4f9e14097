package constrain

import "github.com/gear-chat/gear/tools"

// The expression sub-machine follows tools.CheckExpression byte by byte
// (the grammar is documented in tools/expression.go). Its whole state fits
// in State: the token step in sub, the parenthesis kinds in a bitset
// (stack) with their number in depth, the bytes read in count (against
// MaxExpressionLen), and the identifier or number being read in aux.
//
// In the canonical form the expression runs to the call's closing ")": a
// ")" with no parenthesis open ends the call. In the JSON form it is the
// content of a string: the closing quote ends it, and only the space may
// separate its tokens (the JSON form writes an expression on one line).

// Identifier bookkeeping in aux: length, progress towards "of" or "mod",
// and the state the identifier started in.
const (
	originOperand = iota // an operand was expected: the identifier is a name
	originAfter          // an operator was expected: it must be "of" or "mod"
	originPercent        // after "%": "of"/"mod" are operators, anything else a name
)

// Progress towards the operator words, any case.
const (
	wordNone = iota
	wordO
	wordOf
	wordM
	wordMo
	wordMod
)

func identAux(length, word, origin uint32) uint32 { return length | word<<8 | origin<<16 }
func identLen(aux uint32) uint32                  { return aux & 0xFF }
func identWord(aux uint32) uint32                 { return aux >> 8 & 0xFF }
func identOrigin(aux uint32) uint32               { return aux >> 16 & 0xFF }

func wordStep(word uint32, c byte) uint32 {
	c |= 0x20 // lower case; only letters are compared
	switch {
	case word == wordNone:
		return wordNone
	case word == wordO && c == 'f':
		return wordOf
	case word == wordM && c == 'o':
		return wordMo
	case word == wordMo && c == 'd':
		return wordMod
	}
	return wordNone
}

func wordStart(c byte) uint32 {
	switch c | 0x20 {
	case 'o':
		return wordO
	case 'm':
		return wordM
	}
	return wordNone
}

func isOperatorWord(word uint32) bool { return word == wordOf || word == wordMod }

func inCall(s *State) bool { return s.depth > 0 && s.stack&(1<<(s.depth-1)) != 0 }

func push(s *State, call bool) bool {
	if int(s.depth) >= tools.MaxExpressionDepth {
		return false
	}
	if call {
		s.stack |= 1 << s.depth
	}
	s.depth++
	return true
}

func pop(s *State) {
	s.depth--
	s.stack &^= 1 << s.depth
}

type exprAction uint8

const (
	exprConsume exprAction = iota
	exprReject
	exprEnd // the byte closes the expression (the call's ")" or the JSON quote)
)

func exprByte(s *State, c byte) stepResult {
	json := s.flags&flagJSON != 0
	if s.sub == xQuote {
		if c != '"' {
			return stepReject
		}
		s.sub = xOperand
		return stepOK
	}
	if json && c < 0x20 {
		return stepReject // the JSON form writes an expression on one line
	}
	switch exprRoute(s, c, json) {
	case exprReject:
		return stepReject
	case exprEnd:
		endValue(s)
		if !json {
			s.phase = phDone // the ")" closed the call itself
		}
		return stepOK
	}
	s.count++
	if int(s.count)+exprMinRemaining(s) > tools.MaxExpressionLen {
		return stepReject
	}
	return stepOK
}

// exprRoute decides what c does in the expression, updating s when it is
// consumed.
func exprRoute(s *State, c byte, json bool) exprAction {
	space := c == ' ' || !json && (c == '\t' || c == '\n' || c == '\r')
	for {
		switch s.sub {
		case xNumInt:
			switch {
			case isDigit(c):
				if s.aux < 4 {
					s.aux++
				}
				return exprConsume
			case c == ',' && s.aux <= 3 && !inCall(s):
				// Outside a function's arguments a comma after one to three
				// digits can only be a thousands separator.
				s.sub, s.aux = xNumComma, 0
				return exprConsume
			case c == '.':
				s.sub = xNumDot
				return exprConsume
			case isLetter(c):
				return exprReject
			}
			s.sub, s.aux = xAfter, 0
		case xNumComma:
			if !isDigit(c) {
				return exprReject
			}
			s.aux++
			if s.aux == 3 {
				s.sub, s.aux = xNumGroup, 0
			}
			return exprConsume
		case xNumGroup:
			switch {
			case isDigit(c), isLetter(c):
				return exprReject
			case c == ',':
				s.sub = xNumComma
				return exprConsume
			case c == '.':
				s.sub = xNumDot
				return exprConsume
			}
			s.sub = xAfter
		case xNumDot:
			if !isDigit(c) {
				return exprReject
			}
			s.sub = xNumFrac
			return exprConsume
		case xNumFrac:
			switch {
			case isDigit(c):
				return exprConsume
			case c == '.', isLetter(c):
				return exprReject
			}
			s.sub = xAfter
		case xIdent:
			if isNameByte(c) {
				n := identLen(s.aux) + 1
				if n > tools.MaxIdentifierLen {
					return exprReject
				}
				word := wordStep(identWord(s.aux), c)
				origin := identOrigin(s.aux)
				if origin == originAfter && word == wordNone {
					return exprReject
				}
				s.aux = identAux(n, word, origin)
				return exprConsume
			}
			word, origin := identWord(s.aux), identOrigin(s.aux)
			s.aux = 0
			switch {
			case isOperatorWord(word) && origin != originOperand:
				s.sub = xOperand
			case origin == originAfter:
				return exprReject
			default:
				s.sub = xNamePending
			}
		case xNamePending:
			if space {
				return exprConsume
			}
			if c == '(' {
				if !push(s, true) {
					return exprReject
				}
				s.sub = xOperand
				return exprConsume
			}
			s.sub = xAfter
		case xOperand, xOperandStar:
			switch {
			case space:
				s.sub = xOperand
			case c == '*' && s.sub == xOperandStar:
				s.sub = xOperand
			case c == '+' || c == '-':
				s.sub = xOperand
			case isDigit(c):
				s.sub, s.aux = xNumInt, 1
			case c == '.':
				s.sub = xNumDot
			case c == '(':
				if !push(s, false) {
					return exprReject
				}
				s.sub = xOperand
			case isLetter(c):
				s.sub, s.aux = xIdent, identAux(1, wordStart(c), originOperand)
			default:
				return exprReject
			}
			return exprConsume
		case xAfter, xPercent:
			percent := s.sub == xPercent
			switch {
			case space:
			case c == '+' || c == '-' || c == '/' || c == '^':
				s.sub = xOperand
			case c == '*':
				s.sub = xOperandStar
			case c == '%':
				s.sub = xPercent
			case c == ')':
				if s.depth == 0 {
					if json {
						return exprReject
					}
					return exprEnd
				}
				pop(s)
				s.sub = xAfter
			case c == ',':
				if !inCall(s) {
					return exprReject
				}
				s.sub = xOperand
			case c == '"' && json:
				if s.depth > 0 {
					return exprReject
				}
				return exprEnd
			case isLetter(c):
				origin := uint32(originAfter)
				if percent {
					origin = originPercent
				}
				word := wordStart(c)
				if origin == originAfter && word == wordNone {
					return exprReject
				}
				s.sub, s.aux = xIdent, identAux(1, word, origin)
			case percent && (isDigit(c) || c == '.' || c == '('):
				// A number or "(" after "%" makes it the modulo operator:
				// read the byte as the operand it begins.
				s.sub = xOperand
				continue
			default:
				return exprReject
			}
			return exprConsume
		default:
			return exprReject
		}
	}
}

// exprMinRemaining is the fewest bytes that can still complete the
// expression: what the state owes (a digit, the rest of "of"/"mod" and an
// operand) plus a ")" per open parenthesis. A byte that would leave no room
// for them within MaxExpressionLen is refused, so no state is a dead end.
func exprMinRemaining(s *State) int {
	d := int(s.depth)
	switch s.sub {
	case xOperand, xOperandStar, xNumDot:
		return 1 + d
	case xNumComma:
		return 3 - int(s.aux) + d
	case xIdent:
		word := identWord(s.aux)
		switch identOrigin(s.aux) {
		case originAfter:
			rest := 0 // letters still missing from "of" or "mod"
			switch word {
			case wordO, wordMo:
				rest = 1
			case wordM:
				rest = 2
			}
			return rest + 2 + d // then an operand: " 1" or ".5"
		case originPercent:
			if isOperatorWord(word) {
				return 1 + d // one more letter makes it a name
			}
		}
	}
	return d
}
