package tools

import (
	"fmt"
	"strings"
)

// The expression grammar, shared by the call parser and the ToolDec
// machine (constrain), which must accept exactly the same text:
//
//	expr     := operand (binop operand | "%" )*      white space between tokens
//	operand  := ("+" | "-")* ( number | name | name "(" expr ("," expr)* ")" | "(" expr ")" )
//	binop    := "+" | "-" | "*" | "**" | "/" | "^" | "%" | "of" | "mod"
//	number   := digits ("," ddd)* ("." digits)? | "." digits
//	name     := letter (letter | digit | "_")*        at most MaxIdentifierLen
//
// A "%" after an operand is the modulo operator when a number, a name or
// "(" follows it ("10 % 3"), and a postfix percent otherwise ("25% of
// 54788", "50% - 10"; a sign after it is a binary operator). The
// words "of" and "mod" (any case) are operators wherever an operator may
// stand, so they cannot name a constant there. A comma directly followed by
// three digits is a thousands separator ("54,788"), except directly inside
// a function's parentheses, where a comma always separates arguments
// (max(54,788) is max(54, 788)). Nesting is bounded by MaxExpressionDepth
// and length by MaxExpressionLen. What the names mean is the calculator's
// business, not the grammar's.

type exprState int

const (
	exprOperand exprState = iota // an operand must come next
	exprAfter                    // an operand just ended
	exprPercent                  // a "%" just ended: postfix or binary
)

// CheckExpression reports whether s is an expression of the grammar above.
// On failure it returns the byte offset of the problem and what was
// expected there.
func CheckExpression(s string) (ok bool, errAt int, msg string) {
	if len(s) > MaxExpressionLen {
		return false, MaxExpressionLen, fmt.Sprintf("expression longer than %d characters", MaxExpressionLen)
	}
	var calls []bool // paren stack: true for a function call's parentheses
	state := exprOperand
	inCall := func() bool { return len(calls) > 0 && calls[len(calls)-1] }
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		operandOK := state == exprOperand || state == exprPercent
		operatorOK := state == exprAfter || state == exprPercent
		switch {
		case c == '+' || c == '-':
			state = exprOperand
			i++
		case operatorOK && (c == '*' || c == '/' || c == '^'):
			if c == '*' && i+1 < len(s) && s[i+1] == '*' {
				i++
			}
			state = exprOperand
			i++
		case operatorOK && c == '%':
			state = exprPercent
			i++
		case operatorOK && c == ')':
			if len(calls) == 0 {
				return false, i, `unmatched ")"`
			}
			calls = calls[:len(calls)-1]
			state = exprAfter
			i++
		case operatorOK && c == ',':
			if !inCall() {
				return false, i, `"," outside a function's arguments (thousands are written 54,788)`
			}
			state = exprOperand
			i++
		case operandOK && (isDigit(c) || c == '.'):
			n, at, m := scanExprNumber(s[i:], inCall())
			if m != "" {
				return false, i + at, m
			}
			i += n
			state = exprAfter
		case operandOK && c == '(':
			if len(calls) >= MaxExpressionDepth {
				return false, i, fmt.Sprintf("expression nested deeper than %d parentheses", MaxExpressionDepth)
			}
			calls = append(calls, false)
			state = exprOperand
			i++
		case isLetter(c):
			j := i + 1
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j]) || s[j] == '_') {
				j++
			}
			if j-i > MaxIdentifierLen {
				return false, i, fmt.Sprintf("name longer than %d letters", MaxIdentifierLen)
			}
			word := strings.ToLower(s[i:j])
			if operatorOK && (word == "of" || word == "mod") {
				state = exprOperand
				i = j
				continue
			}
			if !operandOK {
				return false, i, fmt.Sprintf("expected an operator, found %q", s[i:j])
			}
			k := j
			for k < len(s) && isSpace(s[k]) {
				k++
			}
			if k < len(s) && s[k] == '(' {
				if len(calls) >= MaxExpressionDepth {
					return false, k, fmt.Sprintf("expression nested deeper than %d parentheses", MaxExpressionDepth)
				}
				calls = append(calls, true)
				state = exprOperand
				i = k + 1
				continue
			}
			state = exprAfter
			i = j
		default:
			if operandOK {
				return false, i, fmt.Sprintf("expected a number, a name or \"(\", found %s", describeByte(s, i))
			}
			return false, i, fmt.Sprintf("expected an operator or \")\", found %s", describeByte(s, i))
		}
	}
	switch {
	case state == exprOperand && i == 0:
		return false, 0, "empty expression"
	case state == exprOperand:
		return false, len(s), "expression ends where a number was expected"
	case len(calls) > 0:
		return false, len(s), `expression ends with an unclosed "("`
	}
	return true, 0, ""
}

// scanExprNumber reads a number at s[0]. It returns the bytes read, or the
// offset and message of a malformed number.
func scanExprNumber(s string, inCall bool) (n, errAt int, msg string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i > 0 && i <= 3 && !inCall {
		for i+4 <= len(s) && s[i] == ',' && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
			if i+4 < len(s) && isDigit(s[i+4]) {
				return 0, i, "thousands separator followed by more than three digits"
			}
			i += 4
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return 0, i, "expected a digit after the decimal point"
		}
	}
	if i < len(s) && (s[i] == '.' || isLetter(s[i])) {
		return 0, i, fmt.Sprintf("unexpected %s after a number", describeByte(s, i))
	}
	return i, 0, ""
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// describeByte names the character at s[i] for an error message.
func describeByte(s string, i int) string {
	if i >= len(s) {
		return "the end"
	}
	r := []rune(s[i:min(len(s), i+4)])
	if len(r) == 0 {
		return "the end"
	}
	return fmt.Sprintf("%q", string(r[0]))
}
