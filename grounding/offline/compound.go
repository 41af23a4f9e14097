package offline

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Compound readings that need an operation of the tool's expression
// language beyond + - * / (tools.Operation): the sum or product of a
// range ("the sum of 1 through 100", "add up the odd numbers from 1 to
// 99", "1 + 2 + ... + 50", "product of 1 through 8") and the days,
// weeks or hours between two calendar dates ("how many days between
// march 3 and july 19 2025"). They are written as templates: an
// operation stands as {operation}, and a tool's call replaces each with
// the function its hints name for it (tools.ParamHint.Functions), so that
// the engine names no function of any tool. A tool whose hints name none
// gets the plain reading.
//
// This file holds the templates, the trigonometry and the range series;
// the readings of calendar dates and clock times are in
// compound_calendar.go.

// opTemplate is how an operation stands in a template.
func opTemplate(op tools.Operation) string { return "{" + string(op) + "}" }

// opExpression writes the template t with spec's functions for its
// operations, or "" when the hints do not name one of them.
func opExpression(t string, hint tools.ParamHint) string {
	for op, fn := range hint.Functions {
		t = strings.ReplaceAll(t, opTemplate(op), fn)
	}
	if strings.Contains(t, "{") || !checks(t) {
		return ""
	}
	return t
}

// operationReading reads the query's compound operation, if any: a
// template and how it was read.
func operationReading(a *analysis) (string, exprHow) {
	if t := dateDifference(a); t != "" {
		return t, howDates
	}
	if t := dateShift(a); t != "" {
		return t, howDates
	}
	if t := periodLength(a); t != "" {
		return t, howDates
	}
	if t := clockSpan(a); t != "" {
		return t, howClock
	}
	if t := rangeSeries(a); t != "" {
		return t, howRange
	}
	if t := trigonometry(a); t != "" {
		return t, howTrig
	}
	return "", howNone
}

// trigonometry reads "sin 30", "the cosine of 60 degrees", "tan 0.5
// radians": a function of grammar/trig.txt right before an angle, in
// degrees unless radians are said. The query must be the function and its
// angle alone, or ask for it ("what is sin 30").
func trigonometry(a *analysis) string {
	for i, t := range a.toks {
		op, ok := trigWords()[t.text]
		if !ok {
			continue
		}
		k := i + 1
		if wordAt(a.toks, k) == "of" {
			k++
		}
		var angle *number
		for j := range a.operands {
			if a.operands[j].first == k {
				angle = &a.operands[j]
			}
		}
		if angle == nil || len(a.operands) != 1 {
			return ""
		}
		x := numberText(a, *angle)
		switch wordAt(a.toks, angle.last+1) {
		case "radians", "radian", "rad":
			return opTemplate(op) + "(" + x + ")"
		}
		return opTemplate(op) + "(" + x + " * pi / 180)"
	}
	return ""
}

// angleInDegrees reports whether the query names no unit of its angle, so
// that degrees were assumed.
func angleInDegrees(a *analysis) bool {
	return !a.hasWord("degrees", "degree", "deg", "radians", "radian", "rad") && !strings.Contains(a.query, "°")
}

// ellipsisRe finds a sum written with an ellipsis: "1 + 2 + 3 + ... +
// 50", "3+6+9+…+30".
var ellipsisRe = regexp.MustCompile(`(-?[0-9]+(?:\.[0-9]+)?)\s*\+\s*(-?[0-9]+(?:\.[0-9]+)?)(?:\s*\+\s*(-?[0-9]+(?:\.[0-9]+)?))?\s*\+\s*(?:\.{2,}|…)\s*\+?\s*(-?[0-9]+(?:\.[0-9]+)?)`)

// rangeSeries reads the sum or product of a range (see the file comment).
func rangeSeries(a *analysis) string {
	if m := ellipsisRe.FindStringSubmatch(a.query); m != nil {
		t1, _ := strconv.ParseFloat(m[1], 64)
		t2, _ := strconv.ParseFloat(m[2], 64)
		last, _ := strconv.ParseFloat(m[4], 64)
		step := t2 - t1
		if m[3] != "" {
			if t3, _ := strconv.ParseFloat(m[3], 64); t3-t2 != step {
				return "" // not an arithmetic series
			}
		}
		if step <= 0 || last < t2 {
			return ""
		}
		return seriesCall(tools.OpRangeSum, t1, last, step)
	}
	at := map[int]number{} // operands by first token
	for _, n := range a.operands {
		at[n.first] = n
	}
	for i, t := range a.toks {
		var op tools.Operation
		switch t.text {
		case "sum", "add", "total", "adding":
			op = tools.OpRangeSum
		case "product":
			op = tools.OpRangeProduct
		default:
			continue
		}
		if s := seriesAfter(a, at, i+1, op); s != "" {
			return s
		}
	}
	return ""
}

// seriesAfter reads, within a clause after an aggregate word at toks[i-1],
// which numbers it takes: a range ("from 1 to 100", "1 through 100",
// "between 10 and 30", "up to 100"), "the first 20", the odd or even ones,
// or the multiples of a number.
func seriesAfter(a *analysis, at map[int]number, i int, op tools.Operation) string {
	parity := ""
	step := 1.0
	var from, to, count *float64
	num := func(k int) (float64, int, bool) {
		n, ok := at[k]
		if !ok || n.den > 0 || n.value != math.Trunc(n.value) {
			return 0, 0, false
		}
		v := n.value
		if n.start > 0 && a.query[n.start-1] == '-' {
			v = -v
		}
		return v, n.last + 1, true
	}
	end := min(len(a.toks), i+14)
	for k := i; k < end; k++ {
		w := a.toks[k].text
		if a.excluded(a.toks[k].start) {
			return ""
		}
		switch w {
		case "even", "odd":
			parity = w
			continue
		case "squares", "square", "squared", "cubes", "cube", "cubed", "powers", "reciprocals", "digits", "primes", "prime", "fibonacci":
			return "" // a series of other terms than the numbers themselves
		case "multiples":
			if wordAt(a.toks, k+1) == "of" {
				if v, next, ok := num(k + 2); ok && v > 0 {
					step = v
					k = next - 1
				}
			}
			continue
		case "first":
			if v, next, ok := num(k + 1); ok && v > 0 {
				count = &v
				k = next - 1
			}
			continue
		case "up", "upto":
			if k == i && w == "up" {
				if wordAt(a.toks, k+1) == "to" {
					return "" // "three numbers add up to 72": a total, not a range
				}
				continue // "add up all the odd numbers"
			}
			if w == "up" && wordAt(a.toks, k+1) == "to" {
				k++
			}
			if v, _, ok := num(k + 1); ok {
				to = &v
			}
			continue
		case "between", "from":
			v, next, ok := num(k + 1)
			if !ok {
				continue
			}
			link := wordAt(a.toks, next)
			if (w == "between" && link == "and") || (w == "from" && isRangeLink(link)) {
				if u, _, ok := num(next + 1); ok {
					from, to = &v, &u
				}
			}
			continue
		}
		if v, next, ok := num(k); ok && from == nil && to == nil {
			// "1 through 100", "1 to 1000", "1-100"
			link := wordAt(a.toks, next)
			gap := ""
			if next < len(a.toks) {
				gap = strings.TrimSpace(a.query[a.toks[next-1].end:a.toks[next].start])
			}
			switch {
			case isRangeLink(link):
				if u, _, ok := num(next + 1); ok {
					from, to = &v, &u
				}
			case gap == "-" || gap == "–":
				if u, _, ok := num(next); ok {
					from, to = &v, &u
				}
			}
			if from == nil {
				return "" // a number that starts no range: a list, or arithmetic
			}
			k = next
			continue
		}
		if t := a.toks[k]; k > i && strings.ContainsAny(a.query[a.toks[k-1].end:t.start], ".?!;") {
			break // the clause ends
		}
	}
	lo := 1.0
	switch {
	case count != nil && from == nil && to == nil:
		// the first n: positive, odd, even or multiples
		// The count is written in the call, so that every number of the
		// query has its place there.
		n := tools.FormatNumber(*count)
		switch {
		case parity == "odd":
			return opTemplate(op) + "(1, 2 * " + n + " - 1, 2)"
		case parity == "even":
			return opTemplate(op) + "(2, 2 * " + n + ", 2)"
		case step > 1:
			s := tools.FormatNumber(step)
			return opTemplate(op) + "(" + s + ", " + s + " * " + n + ", " + s + ")"
		}
		return seriesCall(op, 1, *count, 1)
	case to == nil:
		return ""
	case from != nil:
		lo = *from
	case parity == "even":
		lo = 2
	case step > 1:
		lo = step
	}
	hi := *to
	if parity != "" {
		if step != 1 {
			return ""
		}
		want := 0.0
		if parity == "odd" {
			want = 1
		}
		if math.Abs(math.Mod(lo, 2)) != want {
			lo++
		}
		step = 2
	} else if step > 1 {
		lo = math.Ceil(lo/step) * step
	}
	if lo > hi || op == tools.OpRangeProduct && step != 1 {
		return ""
	}
	return seriesCall(op, lo, hi, step)
}

// isRangeLink: the word joins the ends of a range.
func isRangeLink(w string) bool {
	switch w {
	case "to", "through", "thru", "till", "until", "upto":
		return true
	}
	return false
}

// seriesCall writes a range operation's template.
func seriesCall(op tools.Operation, lo, hi, step float64) string {
	args := tools.FormatNumber(lo) + ", " + tools.FormatNumber(hi)
	if step != 1 {
		args += ", " + tools.FormatNumber(step)
	}
	return opTemplate(op) + "(" + args + ")"
}
