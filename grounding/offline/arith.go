package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Arithmetic extraction for expression parameters. The query is read as a
// stream of lexemes — numbers (digits or words), operator words and
// symbols, function phrases, connectives — and three readings are tried in
// turn:
//
//  1. verb first: "add 5 and 89", "subtract 36 from 5", "divide 100 by 20",
//     "the sum of 3, 4 and 5", "the average of 72, 85 and 91";
//  2. infix: "48 multiplied by 4 divided by 2", "2 to the power of 10",
//     "the square root of 8814", "15 percent of 80", "3 + 4 * 2";
//  3. a word problem: two numbers or more (a multiplier such as "twice"
//     counts) and a question asking for a quantity ("how many", "how
//     much", "what is the total"), or a story of statements with numbers
//     that ends in a question, give the
//     numbers joined by the operation the wording suggests ("each" and
//     "share" divide, "left" and "more than" subtract, "each" and "every"
//     in the statement multiply, anything else adds). This is a guess, as
//     a small model's call would be: grounding needs a parsable call whose
//     answer has the right shape, not the right answer.
//
// Numbers inside a date or clock time are not operands.

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
	text string
	num  float64
}

// opWords maps a word (or the first word of a phrase) to a lexeme.
func wordLexeme(toks []token, i int) (lexeme, int) {
	w := toks[i].text
	next := func(k int) string {
		if i+k < len(toks) {
			return toks[i+k].text
		}
		return ""
	}
	switch w {
	case "plus":
		return lexeme{kind: lexOp, text: "+"}, 1
	case "minus", "less":
		return lexeme{kind: lexOp, text: "-"}, 1
	case "times", "x":
		return lexeme{kind: lexOp, text: "*"}, 1
	case "multiplied", "multiply":
		if next(1) == "by" {
			if w == "multiplied" {
				return lexeme{kind: lexOp, text: "*"}, 2
			}
		}
		if w == "multiplied" {
			return lexeme{kind: lexOp, text: "*"}, 1
		}
		return lexeme{kind: lexVerb, text: "*"}, 1
	case "divided":
		if next(1) == "by" {
			return lexeme{kind: lexOp, text: "/"}, 2
		}
		return lexeme{kind: lexOp, text: "/"}, 1
	case "over":
		return lexeme{kind: lexOp, text: "/"}, 1
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
			if next(3) == "of" {
				return lexeme{kind: lexOp, text: "^"}, 4
			}
			return lexeme{kind: lexOp, text: "^"}, 3
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
			n := 2
			if next(2) == "of" {
				n = 3
			}
			if w == "cube" {
				return lexeme{kind: lexFunc, text: "cbrt"}, n
			}
			return lexeme{kind: lexFunc, text: "sqrt"}, n
		}
		if w == "square" && next(1) == "of" {
			return lexeme{kind: lexFunc, text: "sq"}, 2
		}
	case "sqrt", "root":
		if next(1) == "of" {
			return lexeme{kind: lexFunc, text: "sqrt"}, 2
		}
		return lexeme{kind: lexFunc, text: "sqrt"}, 1
	case "log", "logarithm":
		if next(1) == "of" {
			return lexeme{kind: lexFunc, text: "log"}, 2
		}
		return lexeme{kind: lexFunc, text: "log"}, 1
	case "natural":
		if next(1) == "log" || next(1) == "logarithm" {
			if next(2) == "of" {
				return lexeme{kind: lexFunc, text: "ln"}, 3
			}
			return lexeme{kind: lexFunc, text: "ln"}, 2
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
	}
	return lexeme{kind: lexOther}, 1
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
		case '?', '.', '!', ';', ':', '=':
			out = append(out, lexeme{kind: lexOther})
		}
	}
	return out
}

// lexemes turns the query into the arithmetic lexeme stream, skipping the
// spans in excluded (dates and times).
func lexemes(a *analysis) []lexeme {
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
		if n, ok := numAt[i]; ok {
			out = append(out, lexeme{kind: lexNum, num: n.value, text: tools.FormatNumber(n.value)})
			prevEnd = a.toks[n.last].end
			i = n.last + 1
			continue
		}
		lx, width := wordLexeme(a.toks, i)
		out = append(out, lx)
		prevEnd = a.toks[i+width-1].end
		i += width
	}
	return out
}

// expression extracts an arithmetic expression from the query, or "".
// explicit reports whether the query wrote the arithmetic out (readings 1
// and 2) rather than posing a word problem.
func expression(a *analysis) (expr string, explicit bool) {
	lx := lexemes(a)
	if e := verbFirst(lx); e != "" && checks(e) {
		return e, true
	}
	if e := infix(lx); e != "" && checks(e) {
		return e, true
	}
	if e := wordProblem(a); e != "" && checks(e) {
		return e, false
	}
	return "", false
}

func checks(e string) bool {
	ok, _, _ := tools.CheckExpression(e)
	return ok
}

// verbFirst reads "add 5 and 89", "subtract 36 from 5", "divide 100 by
// 20", "the sum of 3, 4 and 5".
func verbFirst(lx []lexeme) string {
	for i, l := range lx {
		if l.kind != lexVerb {
			continue
		}
		j := i + 1
		for j < len(lx) && (lx[j].kind == lexFiller || lx[j].kind == lexOf) {
			j++
		}
		var nums []string
		var joiner lexKind = -1
		for j < len(lx) {
			if lx[j].kind != lexNum {
				break
			}
			nums = append(nums, lx[j].text)
			j++
			for j < len(lx) && lx[j].kind == lexPostfix && lx[j].text == "%" {
				nums[len(nums)-1] += "%"
				j++
			}
			if j < len(lx) && lx[j].kind == lexComma {
				j++
				if j < len(lx) && lx[j].kind == lexAnd {
					joiner = lexAnd
					j++
				}
				continue
			}
			if j < len(lx) && (lx[j].kind == lexAnd || lx[j].kind == lexBy || lx[j].kind == lexFrom || lx[j].kind == lexTo || lx[j].kind == lexInto) {
				joiner = lx[j].kind
				j++
				continue
			}
			break
		}
		if len(nums) < 2 {
			continue
		}
		switch l.text {
		case "+":
			return strings.Join(nums, " + ")
		case "*":
			return strings.Join(nums, " * ")
		case "diff":
			return strings.Join(nums, " - ")
		case "-":
			if joiner == lexFrom && len(nums) == 2 {
				return nums[1] + " - " + nums[0]
			}
			return strings.Join(nums, " - ")
		case "/":
			if joiner == lexInto && len(nums) == 2 {
				return nums[1] + " / " + nums[0]
			}
			return strings.Join(nums, " / ")
		case "avg":
			return "avg(" + strings.Join(nums, ", ") + ")"
		}
	}
	return ""
}

// infix finds the longest run of operand (operator operand)* and returns
// it when it has an operator or a function.
func infix(lx []lexeme) string {
	best, bestNums := "", 0
	for i := 0; i < len(lx); {
		expr, nums, ops, end := infixRun(lx, i)
		if ops > 0 && nums > bestNums {
			best, bestNums = expr, nums
		}
		// Runs do not overlap: the next starts after this one, so the
		// scan is linear in the query.
		if end > i {
			i = end
		} else {
			i++
		}
	}
	return best
}

// infixRun reads a run starting at lx[i]: its text, operands, operators
// and functions, and the index just past it.
func infixRun(lx []lexeme, i int) (string, int, int, int) {
	var b strings.Builder
	nums, ops := 0, 0
	j := i
	for {
		operand, width, hasOp := infixOperand(lx, j)
		if width == 0 {
			break
		}
		b.WriteString(operand)
		nums++
		if hasOp {
			ops++
		}
		j += width
		if j < len(lx) && lx[j].kind == lexOp {
			if _, w, _ := infixOperand(lx, j+1); w > 0 {
				b.WriteString(" " + lx[j].text + " ")
				ops++
				j++
				continue
			}
		}
		// "15 percent of 80" is "15% of 80".
		if strings.HasSuffix(operand, "%") && j < len(lx) && lx[j].kind == lexOf {
			if _, w, _ := infixOperand(lx, j+1); w > 0 {
				b.WriteString(" of ")
				j++
				continue
			}
		}
		break
	}
	if nums == 0 {
		return "", 0, 0, i
	}
	return b.String(), nums, ops, j
}

// infixOperand reads [function [of]] number [postfix...] at lx[j]: its
// text, lexemes consumed, and whether it applied a function or power.
func infixOperand(lx []lexeme, j int) (string, int, bool) {
	start := j
	fn := ""
	if j < len(lx) && lx[j].kind == lexFunc {
		fn = lx[j].text
		j++
		for j < len(lx) && (lx[j].kind == lexOf || lx[j].kind == lexFiller) {
			j++
		}
	}
	negative := false
	if fn == "" && j < len(lx) && lx[j].kind == lexOp && lx[j].text == "-" && j+1 < len(lx) && lx[j+1].kind == lexNum && j == start {
		// A leading minus sign belongs to the number only at the start of a run.
		negative = true
		j++
	}
	if j >= len(lx) || lx[j].kind != lexNum {
		return "", 0, false
	}
	text := lx[j].text
	if negative {
		text = "-" + text
	}
	j++
	applied := fn != ""
	for j < len(lx) && lx[j].kind == lexPostfix {
		if lx[j].text == "%" {
			text += "%"
		} else {
			text += " " + lx[j].text
			applied = true
		}
		j++
	}
	switch fn {
	case "sqrt", "log", "ln", "abs":
		text = fn + "(" + text + ")"
	case "cbrt":
		text = "(" + text + ") ^ (1 / 3)"
	case "sq":
		text = "(" + text + ") ^ 2"
	}
	if strings.HasSuffix(text, "%") && j < len(lx) && lx[j].kind == lexOf {
		applied = true
	}
	return text, j - start, applied
}
