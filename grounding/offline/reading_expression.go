package offline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// The call confidence of an expression argument (reading.go has the whole
// reading): which reading wrote it, whether each number of the query found
// its place in it, dates or clock times left out of arithmetic (whens),
// two units of one dimension read as one (unplacedUnits), and operators
// taken from words that are often none (vagueOperators).

// exprNumberRe finds the numbers an expression writes.
var exprNumberRe = regexp.MustCompile(`[0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+`)

// expression judges the query's expression (a.expr).
func (r *callReading) expression(a *analysis) {
	switch a.how {
	case howWordProblem:
		r.scale(guessedWordProblem, "the operations of a word problem were guessed from its wording")
	case howStory:
		r.scale(storyRead, "")
	default:
		r.scale(writtenOut, "")
	}
	if a.opExpr != "" {
		r.scale(missingOperation, "the question needs an operation the tool's hints name no function for")
	}
	r.placed(a, a.expr, [2]int{})
	// Dates and clock times are no operands; arithmetic that leaves them
	// out has not read the question ("days between march 3 and july 19").
	for _, w := range a.whens() {
		r.scale(unplacedDate, fmt.Sprintf("the date or time %q found no place in the expression", w))
	}
	r.unitsAndOperators(a, a.how)
}

// operation judges an expression read with an operation of the tool's
// expression language (compound.go).
func (r *callReading) operation(a *analysis, expr string) {
	r.scale(writtenOut, "")
	// The terms of a sum written with an ellipsis are read into its
	// range and step.
	var skip [2]int
	if m := ellipsisRe.FindStringIndex(a.query); m != nil && a.opHow == howRange {
		skip = [2]int{m[0], m[1]}
	}
	r.placed(a, expr, skip)
	if a.opHow == howTrig && angleInDegrees(a) {
		r.scale(assumedUnit, "the angle was taken in degrees")
	}
	if a.opHow == howClock {
		if t := clockMinutes(a.lower); len(t) == 2 && t[1] < t[0] {
			r.scale(assumedUnit, "the second time was taken on the next day")
		}
	}
	if a.opHow == howDates || a.opHow == howClock {
		if a.opHow == howDates && leapMayMatter(a.lower) {
			r.scale(unplacedDate, "no year given, and a February 29 may fall between the dates")
		}
	} else {
		for _, w := range a.whens() {
			r.scale(unplacedDate, fmt.Sprintf("the date or time %q found no place in the expression", w))
		}
	}
	r.unitsAndOperators(a, a.opHow)
}

// placed judges whether every number of the query (but those within the
// byte span skip) has its place in expr.
func (r *callReading) placed(a *analysis, expr string, skip [2]int) {
	// The numbers expr writes, each counted as often as it is written.
	written := map[string]int{}
	for _, m := range exprNumberRe.FindAllString(expr, -1) {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64); err == nil {
			written[tools.FormatNumber(v)]++
		}
	}
	take := func(v float64) bool {
		k := tools.FormatNumber(v)
		if written[k] > 0 {
			written[k]--
			return true
		}
		return false
	}
	unplaced := 0
	for _, n := range a.operands {
		if n.start >= skip[0] && n.end <= skip[1] {
			continue
		}
		placed := take(n.value)
		if !placed && n.den > 0 {
			placed = take(n.num) && take(n.den)
		}
		if !placed && n.times > 0 {
			placed = take(n.count) && take(n.times)
		}
		if !placed {
			unplaced++
			if unplaced <= 3 {
				r.scale(unplacedNumber, fmt.Sprintf("%q found no place in the expression", a.query[n.start:n.end]))
			} else {
				r.scale(unplacedNumber, "")
			}
		}
	}
}

// unitsAndOperators judges the units of measure and the operator words.
func (r *callReading) unitsAndOperators(a *analysis, how exprHow) {
	// Units of one dimension written side by side ("5 feet 10 inches")
	// are one quantity; an expression that places only some has misread
	// it.
	for _, u := range a.unplacedUnits() {
		r.scale(unplacedUnit, fmt.Sprintf("%q found no place in the expression", u))
	}
	if how == howBy {
		r.scale(vagueOperator, `the operator read from "by" is ambiguous: times, or sides of a shape?`)
	}
	if how == howInfix {
		for _, w := range a.vagueOperators() {
			r.scale(vagueOperator, fmt.Sprintf("the operator read from %q is ambiguous", w))
		}
	}
}

// whens are the dates and clock times the query writes with digits
// ("march 3", "9:40", "2025-03-01"): numbers that arithmetic must read.
// Days named by words ("today", "tuesday") carry no number.
func (a *analysis) whens() []string {
	var out []string
	seen := map[string]bool{}
	whens := append(append([]string(nil), a.datetimes...), a.dates...)
	for _, d := range calendarDates(a.lower) {
		whens = append(whens, a.lower[d.start:d.end])
	}
	for _, d := range whens {
		if !seen[d] && strings.ContainsAny(d, "0123456789") && strings.Contains(a.lower, strings.ToLower(d)) {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// unplacedUnits are the units of measure of a query that writes two or
// more units of one dimension which the expression's reading did not
// place (a conversion marks those it placed).
func (a *analysis) unplacedUnits() []string {
	byDim := map[string]map[string]bool{}
	var found []unitPhrase
	for i := 0; i < len(a.toks); i++ {
		if a.excluded(a.toks[i].start) {
			continue
		}
		ph, ok := a.unitAt(i)
		if !ok || ph.letter {
			continue
		}
		found = append(found, ph)
		if byDim[ph.unit.dim] == nil {
			byDim[ph.unit.dim] = map[string]bool{}
		}
		byDim[ph.unit.dim][ph.unit.name] = true
		i = ph.to - 1
	}
	var out []string
	for _, ph := range found {
		if len(byDim[ph.unit.dim]) < 2 || a.measures[ph.from] {
			continue
		}
		out = append(out, a.query[a.toks[ph.from].start:a.toks[ph.to-1].end])
	}
	return out
}

// vagueOperators are the words the expression's operators may have been
// read from that are often no operator (grammar/infix-operators.txt).
func (a *analysis) vagueOperators() []string {
	var out []string
	for i, t := range a.toks {
		op, ok := infixOperators()[t.text]
		if !ok || !op.vague || i == 0 || i+1 == len(a.toks) {
			continue
		}
		if a.isOperandAt(i-1) && a.isOperandAt(i+1) {
			out = append(out, t.text)
		}
	}
	return out
}

// isOperandAt reports whether token i is part of an operand.
func (a *analysis) isOperandAt(i int) bool {
	for _, n := range a.operands {
		if i >= n.first && i <= n.last {
			return true
		}
	}
	return false
}
