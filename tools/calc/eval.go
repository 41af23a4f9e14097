package calc

import (
	"math/big"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Eval evaluates an arithmetic expression of the grammar of
// tools.CheckExpression. Every failure — a syntax error, division by
// zero, an unknown function, a result too large — is a one-line
// *tools.InputError.
//
// Precedence, loosest first:
//
//   - -                  binary, left-associative
//   - / % mod of         binary, left-associative ("of" multiplies: 25% of 80)
//   - -                  unary prefix
//     ^ **                 right-associative: 2^3^2 = 2^9; binds tighter than
//     unary minus on its left (-2^2 = -4) and takes a
//     signed exponent on its right (2^-1 = 0.5)
//     %                    postfix percent, on the operand it follows: x% = x/100
//     numbers, pi, e, f(...), ( ... )
//
// A "%" is the modulo operator when a number, a name or "(" follows it
// (10 % 3 = 1); otherwise it is a percent sign — also before "+" or "-",
// so 50% - 10 is 0.5 - 10. Write 10 mod -3 for a negative divisor.
// Modulo is floored: the result has the divisor's sign (-7 mod 3 = 2).
func Eval(expr string) (Value, error) {
	if ok, at, msg := tools.CheckExpression(expr); !ok {
		return Value{}, tools.Inputf("expression: column %d: %s", at+1, msg)
	}
	p := &parser{src: expr}
	v, err := p.sum()
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return Value{}, p.unexpected()
	}
	return v, nil
}

// parser evaluates while it parses, by precedence climbing. The input has
// passed tools.CheckExpression, so the parser follows that grammar; its
// own checks only guard against the two ever disagreeing.
type parser struct {
	src string
	pos int
	// parens is the stack of open parentheses, true for a function call's:
	// directly inside one, a comma separates arguments instead of
	// thousands.
	parens []bool
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// wordAt returns the name starting at i, or "".
func (p *parser) wordAt(i int) string {
	j := i
	for j < len(p.src) && (isLetter(p.src[j]) || j > i && isDigit(p.src[j])) {
		j++
	}
	return p.src[i:j]
}

func (p *parser) unexpected() error {
	if p.pos >= len(p.src) {
		return tools.Inputf("expression: unexpected end")
	}
	return tools.Inputf("expression: column %d: unexpected %q", p.pos+1, p.src[p.pos])
}

// sum := product (("+" | "-") product)*
func (p *parser) sum() (Value, error) {
	v, err := p.product()
	for err == nil {
		c := p.peek()
		if c != '+' && c != '-' {
			break
		}
		p.pos++
		var r Value
		if r, err = p.product(); err != nil {
			break
		}
		if c == '+' {
			v, err = add(v, r)
		} else {
			v, err = sub(v, r)
		}
	}
	return v, err
}

// product := unary (("*" | "/" | "%" | "mod" | "of") unary)*
func (p *parser) product() (Value, error) {
	v, err := p.unary()
	for err == nil {
		var op string
		switch c := p.peek(); {
		case c == '*' && !p.at("**"):
			op = "*"
			p.pos++
		case c == '/' || c == '%':
			op = string(c)
			p.pos++
		case isLetter(c):
			w := strings.ToLower(p.wordAt(p.pos))
			if w != "of" && w != "mod" {
				return v, err
			}
			op = w
			p.pos += len(w)
		default:
			return v, err
		}
		var r Value
		if r, err = p.unary(); err != nil {
			break
		}
		switch op {
		case "*", "of":
			v, err = mul(v, r)
		case "/":
			v, err = div(v, r)
		default:
			v, err = mod(v, r)
		}
	}
	return v, err
}

func (p *parser) at(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

// unary := ("+" | "-")* power
func (p *parser) unary() (Value, error) {
	negative := false
	for {
		c := p.peek()
		if c == '-' {
			negative = !negative
		} else if c != '+' {
			break
		}
		p.pos++
	}
	v, err := p.power()
	if err != nil || !negative {
		return v, err
	}
	return neg(v), nil
}

// power := postfix (("^" | "**") unary)?
func (p *parser) power() (Value, error) {
	base, err := p.postfix()
	if err != nil {
		return base, err
	}
	switch {
	case p.peek() == '^':
		p.pos++
	case p.at("**"):
		p.pos += 2
	default:
		return base, nil
	}
	exp, err := p.unary()
	if err != nil {
		return exp, err
	}
	return pow(base, exp)
}

// postfix := primary ("%")*, where a "%" followed by an operand is left
// to product as modulo.
func (p *parser) postfix() (Value, error) {
	v, err := p.primary()
	for err == nil && p.peek() == '%' && !p.operandAt(p.pos+1) {
		p.pos++
		v, err = percent(v)
	}
	return v, err
}

// operandAt reports whether an operand starts at i (after white space):
// a number, "(" or a name other than the operator words.
func (p *parser) operandAt(i int) bool {
	for i < len(p.src) && isSpace(p.src[i]) {
		i++
	}
	if i == len(p.src) {
		return false
	}
	c := p.src[i]
	if isDigit(c) || c == '.' || c == '(' {
		return true
	}
	if isLetter(c) {
		w := strings.ToLower(p.wordAt(i))
		return w != "of" && w != "mod"
	}
	return false
}

// primary := number | name | name "(" sum ("," sum)* ")" | "(" sum ")"
func (p *parser) primary() (Value, error) {
	c := p.peek()
	switch {
	case isDigit(c) || c == '.':
		return p.number()
	case c == '(':
		p.pos++
		p.parens = append(p.parens, false)
		v, err := p.sum()
		if err != nil {
			return v, err
		}
		return v, p.closeParen()
	case isLetter(c):
		start := p.pos
		name := p.wordAt(p.pos)
		p.pos += len(name)
		if p.peek() != '(' {
			return constant(name, start)
		}
		p.pos++
		p.parens = append(p.parens, true)
		var args []Value
		for {
			v, err := p.sum()
			if err != nil {
				return v, err
			}
			args = append(args, v)
			if p.peek() != ',' {
				break
			}
			p.pos++
		}
		if err := p.closeParen(); err != nil {
			return Value{}, err
		}
		return call(name, start, args)
	}
	return Value{}, p.unexpected()
}

func (p *parser) closeParen() error {
	if p.peek() != ')' || len(p.parens) == 0 {
		return p.unexpected()
	}
	p.pos++
	p.parens = p.parens[:len(p.parens)-1]
	return nil
}

// number reads digits ("," ddd)* ("." digits)? or "." digits. Thousands
// separators count only outside a function's argument list.
func (p *parser) number() (Value, error) {
	inCall := len(p.parens) > 0 && p.parens[len(p.parens)-1]
	s := p.src
	var digits []byte
	i := p.pos
	for i < len(s) && isDigit(s[i]) {
		digits = append(digits, s[i])
		i++
	}
	if n := i - p.pos; n > 0 && n <= 3 && !inCall {
		for i+4 <= len(s) && s[i] == ',' && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
			digits = append(digits, s[i+1:i+4]...)
			i += 4
		}
	}
	decimals := 0
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			digits = append(digits, s[i])
			decimals++
			i++
		}
	}
	if len(digits) == 0 {
		return Value{}, p.unexpected()
	}
	p.pos = i
	// Trailing decimal zeros say nothing: 76.0 is the integer 76, which
	// spares big.Rat a gcd.
	for decimals > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		decimals--
	}
	r := new(big.Rat)
	if len(digits) <= 18 { // fits an int64: skip the big.Int parsing
		var n, d int64 = 0, 1
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		if decimals == 0 {
			return exact(r.SetInt64(n)), nil
		}
		for range decimals {
			d *= 10
		}
		return exact(r.SetFrac64(n, d)), nil
	}
	n, _ := new(big.Int).SetString(string(digits), 10)
	if decimals == 0 {
		return exact(r.SetInt(n)), nil
	}
	return exact(r.SetFrac(n, pow10(decimals))), nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
