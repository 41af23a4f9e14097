package offline

import (
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The arithmetic lexemes of a query (see arith.go): numbers, operator
// words and symbols, function phrases, connectives.

type lexKind int

const (
	lexNum     lexKind = iota
	lexOp              // binary operator: + - * / ^ mod
	lexPostfix         // ^ 2, ^ 3, %
	lexFunc            // sqrt, log, ln, abs, cbrt, sq (then "of")
	lexVerb            // add, subtract, multiply, divide, sum, product, difference, quotient, average
	lexAnd
	lexBy
	lexFrom
	lexTo
	lexInto
	lexOf
	lexComma
	lexFiller // words allowed between a verb and its first number
	lexOther
)

type lexeme struct {
	kind lexKind
	text string // an operator's or function's text, a number as written in the expression, or the word
	num  float64
	// frac marks a fraction written in words ("a third"); unit is the unit
	// of measure right after a number ("500 ml"), which makes it a
	// quantity rather than a function's operand.
	frac bool
	unit string
	// word is the word a word's lexeme was read from.
	word string
}

// wordLexeme reads the word (or the phrase) at toks[i] as a lexeme and
// returns how many tokens it spans.
func wordLexeme(toks []token, i int) (lexeme, int) {
	w := toks[i].text
	next := func(k int) string { return wordAt(toks, i+k) }
	// optional is l spanning n tokens, or n+1 when word follows them:
	// "divided [by]", "square root [of]".
	optional := func(word string, l lexeme, n int) (lexeme, int) {
		if next(n) == word {
			return l, n + 1
		}
		return l, n
	}
	if op, ok := infixOperators()[w]; ok {
		return lexeme{kind: lexOp, text: op.op}, 1
	}
	switch w {
	case "multiplied":
		return optional("by", lexeme{kind: lexOp, text: "*"}, 1)
	case "multiply":
		return lexeme{kind: lexVerb, text: "*"}, 1
	case "divided":
		return optional("by", lexeme{kind: lexOp, text: "/"}, 1)
	case "divisible":
		if next(1) == "by" {
			return lexeme{kind: lexOp, text: "mod"}, 2
		}
	case "mod", "modulo":
		return lexeme{kind: lexOp, text: "mod"}, 1
	case "raised":
		if next(1) == "to" && next(2) == "the" && next(3) == "power" && next(4) == "of" {
			return lexeme{kind: lexOp, text: "^"}, 5
		}
		if next(1) == "to" {
			return lexeme{kind: lexOp, text: "^"}, 2
		}
	case "to":
		if next(1) == "the" && next(2) == "power" {
			return optional("of", lexeme{kind: lexOp, text: "^"}, 3)
		}
		return lexeme{kind: lexTo}, 1
	case "squared":
		return lexeme{kind: lexPostfix, text: "^ 2"}, 1
	case "cubed":
		return lexeme{kind: lexPostfix, text: "^ 3"}, 1
	case "percent", "pct":
		return lexeme{kind: lexPostfix, text: "%"}, 1
	case "per":
		if next(1) == "cent" {
			return lexeme{kind: lexPostfix, text: "%"}, 2
		}
	case "square", "cube":
		if next(1) == "root" || next(1) == "roots" {
			fn := "sqrt"
			if w == "cube" {
				fn = "cbrt"
			}
			return optional("of", lexeme{kind: lexFunc, text: fn}, 2)
		}
		if w == "square" && next(1) == "of" {
			return lexeme{kind: lexFunc, text: "sq"}, 2
		}
	case "sqrt", "root":
		return optional("of", lexeme{kind: lexFunc, text: "sqrt"}, 1)
	case "log10":
		return lexeme{kind: lexFunc, text: "log"}, 1
	case "log2":
		return lexeme{kind: lexFunc, text: "log2"}, 1
	case "ln":
		return lexeme{kind: lexFunc, text: "ln"}, 1
	case "log", "logarithm":
		// "log base 2 of 64": the base is the function's first argument.
		if next(1) == "base" && isNumeral(next(2)) {
			if b, err := strconv.ParseFloat(strings.ReplaceAll(next(2), ",", ""), 64); err == nil && b > 0 {
				return optional("of", lexeme{kind: lexFunc, text: "logb", num: b}, 3)
			}
		}
		return optional("of", lexeme{kind: lexFunc, text: "log"}, 1)
	case "natural":
		if next(1) == "log" || next(1) == "logarithm" {
			return optional("of", lexeme{kind: lexFunc, text: "ln"}, 2)
		}
	case "absolute":
		if next(1) == "value" && next(2) == "of" {
			return lexeme{kind: lexFunc, text: "abs"}, 3
		}
	case "add", "sum", "total":
		return lexeme{kind: lexVerb, text: "+"}, 1
	case "subtract", "subtracted", "subract", "deduct":
		return lexeme{kind: lexVerb, text: "-"}, 1
	case "difference":
		return lexeme{kind: lexVerb, text: "diff"}, 1
	case "product":
		return lexeme{kind: lexVerb, text: "*"}, 1
	case "divide", "quotient":
		return lexeme{kind: lexVerb, text: "/"}, 1
	case "average", "mean":
		return lexeme{kind: lexVerb, text: "avg"}, 1
	case "and":
		return lexeme{kind: lexAnd}, 1
	case "by":
		return lexeme{kind: lexBy}, 1
	case "from":
		return lexeme{kind: lexFrom}, 1
	case "into":
		return lexeme{kind: lexInto}, 1
	case "of":
		return lexeme{kind: lexOf}, 1
	case "the", "between", "up", "together", "numbers", "following":
		return lexeme{kind: lexFiller}, 1
	case "factorial":
		if next(1) == "of" {
			return lexeme{kind: lexFunc, text: "factorial"}, 2
		}
		return lexeme{kind: lexPostfix, text: "!"}, 1
	}
	if l, n := foreignOperator(toks, i); n > 0 {
		return l, n
	}
	return lexeme{kind: lexOther, text: w}, 1
}

// gapLexemes reads the operator symbols between two words.
func gapLexemes(gap string) []lexeme {
	var out []lexeme
	for _, r := range gap {
		switch r {
		case '+':
			out = append(out, lexeme{kind: lexOp, text: "+"})
		case '-', '−', '–':
			out = append(out, lexeme{kind: lexOp, text: "-"})
		case '*', '×':
			out = append(out, lexeme{kind: lexOp, text: "*"})
		case '/', '÷':
			out = append(out, lexeme{kind: lexOp, text: "/"})
		case '^':
			out = append(out, lexeme{kind: lexOp, text: "^"})
		case '%':
			out = append(out, lexeme{kind: lexPostfix, text: "%"})
		case ',':
			out = append(out, lexeme{kind: lexComma})
		case ':':
			if strings.TrimSpace(gap) == ":" && strings.HasPrefix(gap, " ") && strings.HasSuffix(gap, " ") {
				// "20 : 2", spaced as an operator: a division (a clock
				// time is written without spaces and read before).
				out = append(out, lexeme{kind: lexOp, text: "/"})
				continue
			}
			out = append(out, lexeme{kind: lexOther})
		case '?', '.', '!', ';', '=':
			out = append(out, lexeme{kind: lexOther})
		}
	}
	return out
}

// lexemes turns the query into the arithmetic lexeme stream, skipping the
// spans in excluded (dates and times).
func lexemes(a *analysis) []lexeme {
	return lexemesWith(a, nil)
}

// lexemesWith is lexemes with the amounts of subst, by their first
// token, read as one operand each (quantities.go).
func lexemesWith(a *analysis, subst map[int]quantityOperand) []lexeme {
	var out []lexeme
	numAt := map[int]number{}
	for _, n := range a.numbers {
		numAt[n.first] = n
	}
	prevEnd := 0
	for i := 0; i < len(a.toks); {
		tok := a.toks[i]
		if a.excluded(tok.start) {
			out = append(out, lexeme{kind: lexOther})
			prevEnd = tok.end
			i++
			continue
		}
		out = append(out, gapLexemes(a.query[prevEnd:tok.start])...)
		if q, ok := subst[i]; ok && q.end > i {
			out = append(out, lexeme{kind: lexNum, text: q.text})
			prevEnd = a.toks[q.end-1].end
			i = q.end
			continue
		}
		if n, ok := numAt[i]; ok {
			l := lexeme{kind: lexNum, num: n.value, text: tools.FormatNumber(n.value)}
			if n.times > 0 {
				l.text = numberText(a, n) // "(2 * 12)"
			}
			if n.den > 0 {
				l.text, l.frac = numberText(a, n), true // "(1 / 3)"
			}
			if n.last+1 < len(a.toks) {
				if u, ok := a.lx.units[a.toks[n.last+1].text]; ok {
					l.unit = u.name
				}
			}
			out = append(out, l)
			prevEnd = a.toks[n.last].end
			i = n.last + 1
			continue
		}
		if width, power, ok := ordinalPower(a.toks, i); ok {
			// "2 to the 16th", "10 raised to the third power"
			out = append(out, lexeme{kind: lexOp, text: "^"}, lexeme{kind: lexNum, num: power, text: tools.FormatNumber(power)})
			prevEnd = a.toks[i+width-1].end
			i += width
			continue
		}
		lx, width := wordLexeme(a.toks, i)
		if lx.text == "" {
			lx.text = a.toks[i].text
		}
		lx.word = a.toks[i].text
		out = append(out, lx)
		prevEnd = a.toks[i+width-1].end
		i += width
	}
	// A symbol after the last word: "80 plus 20%".
	return append(out, gapLexemes(a.query[prevEnd:])...)
}
