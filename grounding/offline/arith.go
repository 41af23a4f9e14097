package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Arithmetic extraction for expression parameters. The query is read as a
// stream of lexemes — numbers (digits or words), operator words and
// symbols, function phrases, connectives — and four readings are tried in
// turn:
//
//  1. verb first: "add 5 and 89", "subtract 36 from 5", "divide 100 by 20",
//     "the sum of 3, 4 and 5", "the average of 72, 85 and 91";
//  2. infix: "48 multiplied by 4 divided by 2", "2 to the power of 10",
//     "the square root of 8814", "15 percent of 80", "3 + 4 * 2",
//     "a third of 1,200", "8% sales tax on $1,299", "20% off $50", "12
//     factorial", "2 to the 16th";
//  3. an amount shared out and a conversion of units (units.go): "split
//     $184.60 between 4 people", "how many seconds are there in a week";
//  4. a word problem: two numbers or more (a multiplier such as "twice"
//     counts) and a question asking for a quantity ("how many", "how
//     much", "what is the total"), or a story of statements with numbers
//     that ends in a question, give the
//     numbers joined by the operation the wording suggests ("each" and
//     "share" divide, "left" and "more than" subtract, "each" and "every"
//     in the statement multiply, anything else adds). This is a guess, as
//     a small model's call would be: grounding needs a parsable call whose
//     answer has the right shape, not the right answer.
//
// Numbers inside a date, a clock time or a phone number are not operands,
// and a number with a unit after it ("500 ml") is no function's operand.
// The lexemes are read in lexemes.go.

// exprHow names the reading that gave an expression: the call confidence
// (reading.go) trusts a reading of written-out arithmetic more than a
// word problem's guess.
type exprHow int

const (
	howNone exprHow = iota
	howVerb
	howPercent
	howInfix
	howShare
	howConversion
	howWordProblem
	howStory // a story problem read completely (story.go)
	howRange // the sum or product of a range (compound.go)
	howDates // the time between two dates (compound.go)
	howTrig  // a trigonometric function of an angle (compound.go)
	howBy    // two numbers joined by "by" and nothing else ("two by two")
	howClock // the time from one clock time to another (compound.go)
)

// expression extracts an arithmetic expression from the query, or "".
// explicit reports whether the query wrote the arithmetic out (readings 1
// to 3) rather than posing a word problem; measures marks the tokens that
// are units of a conversion; how names the reading.
func expression(a *analysis) (expr string, explicit bool, measures map[int]bool, how exprHow) {
	lx := lexemes(a)
	if e, measures := quantityArithmetic(a); e != "" {
		return e, true, measures, howConversion
	}
	if e := verbFirst(lx); e != "" && checks(e) {
		return e, true, nil, howVerb
	}
	for _, read := range []func(*analysis) string{percentChange, percentOf, changeBy, shapeFormula} {
		if e := read(a); e != "" && checks(e) {
			return e, true, nil, howPercent
		}
	}
	if e := infix(lx); e != "" && checks(e) {
		return e, true, nil, howInfix
	}
	if e := shareFrame(lx); e != "" && checks(e) {
		return e, true, nil, howShare
	}
	if e, measures := rateReading(a); e != "" && checks(e) {
		return e, true, measures, howConversion
	}
	if e, measures := conversion(a); e != "" && checks(e) {
		return e, true, measures, howConversion
	}
	if e := countOf(a); e != "" && checks(e) {
		return e, true, nil, howInfix
	}
	if e := numberByNumber(lx); e != "" && checks(e) {
		return e, true, nil, howBy
	}
	if e := storyProblem(a); e != "" && checks(e) {
		return e, false, nil, howStory
	}
	if e := wordProblem(a); e != "" && checks(e) {
		return e, false, nil, howWordProblem
	}
	return "", false, nil, howNone
}

// numberByNumber reads a query that is two numbers joined by "by" and
// nothing else, but for a question's opening ("two by two", "what is 12
// by 7"): a product, the likeliest reading of so terse a query, though
// "by" may join a room's sides or a division's terms (reading.go doubts
// it). Numbers with units ("12 m by 7.5 m": an area, or a fence?) are no
// such query.
func numberByNumber(lx []lexeme) string {
	i := 0
	for i < len(lx) && lx[i].kind == lexOther && terseOpeners[lx[i].word] {
		i++
	}
	rest := lx[i:]
	if len(rest) != 3 || rest[0].kind != lexNum || rest[1].kind != lexBy || rest[2].kind != lexNum ||
		rest[0].unit != "" || rest[2].unit != "" || rest[0].frac || rest[2].frac {
		return ""
	}
	return rest[0].text + " * " + rest[2].text
}

// terseOpeners are the words a terse arithmetic question may open with.
var terseOpeners = map[string]bool{"what": true, "what's": true, "whats": true, "is": true, "how": true, "much": true}

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
		spaced := false
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
			if j < len(lx) && lx[j].kind == lexNum && (l.text == "+" || l.text == "*" || l.text == "avg") {
				spaced = true // "add up 7 8 and 9": a list typed without commas
				continue
			}
			break
		}
		if len(nums) < 2 || spaced && joiner != lexAnd {
			continue // "add 2 dozen eggs": not a list that ends in "and"
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
			if next, w, _ := infixOperand(lx, j+1); w > 0 {
				// "1250 minus 15 percent", "80 + 20%": a percentage added
				// to or taken from one amount is a share of it.
				if op := lx[j].text; (op == "+" || op == "-") && nums == 1 && !hasOp && strings.HasSuffix(next, "%") && !strings.HasSuffix(operand, "%") &&
					!(j+1+w < len(lx) && lx[j+1+w].kind == lexOf) {
					b.WriteString(" " + op + " " + next + " of " + operand)
					nums++
					ops++
					j += 1 + w
					break
				}
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
		// "a third of 1,200" is (1 / 3) * 1200.
		if width == 1 && lx[j-1].frac && j < len(lx) && lx[j].kind == lexOf {
			if _, w, _ := infixOperand(lx, j+1); w > 0 {
				b.WriteString(" * ")
				ops++
				j++
				continue
			}
		}
		// "8% sales tax on $1,299", "a 15% tip on 80" are 8% of 1299;
		// "20% off 50" is 50 - 20% of 50.
		if strings.HasSuffix(operand, "%") {
			if whole, next, off := percentOn(lx, j); next > j {
				if !off && asksResult(lx, j, next) {
					// "7% sales tax on 49.99, total price": the amount
					// with the percentage added
					b.WriteString(" of " + whole + " + " + whole)
					nums++
					ops++
					j = next
					break
				}
				if off {
					prefix := b.String()
					b.Reset()
					b.WriteString(strings.TrimSuffix(prefix, operand) + whole + " - " + operand + " of " + whole)
				} else {
					b.WriteString(" of " + whole)
				}
				nums++
				ops++
				j = next
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
	if j >= len(lx) || lx[j].kind != lexNum || fn != "" && lx[j].unit != "" {
		// "log 500 ml of water": a quantity is no function's operand.
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
		} else if lx[j].text == "!" {
			text = "factorial(" + text + ")"
			applied = true
		} else {
			text += " " + lx[j].text
			applied = true
		}
		j++
	}
	switch fn {
	case "sqrt", "log", "ln", "abs", "factorial":
		text = fn + "(" + text + ")"
	case "logb":
		text = "log(" + tools.FormatNumber(lx[start].num) + ", " + text + ")"
	case "log2":
		text = "log(2, " + text + ")"
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

// asksResult reports whether the query asks for the amount a percentage
// on it ends at (lx[from:to] is "sales tax on 49.99") rather than the
// percentage's share: a word of grammar/percent-results.txt stands
// outside that phrase ("total price", "the final amount"), and not right
// before the percentage's noun ("the total tip").
func asksResult(lx []lexeme, from, to int) bool {
	results := percentResults()
	for k, l := range lx {
		if !results[l.word] || k >= from && k < to {
			continue
		}
		if k+1 < len(lx) && k+1 >= from-1 && k+1 < to {
			continue
		}
		return true
	}
	return false
}
