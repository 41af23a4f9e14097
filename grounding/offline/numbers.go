package offline

import (
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// number is a quantity found in a query, written in digits ("1,134",
// "85.00") or words ("one hundred and fifty", "thirty-five", "two-thirds").
type number struct {
	value      float64
	start, end int // byte span in the query
	first      int // index of its first token
	last       int // index of its last token
	// den > 0 marks a fraction written in words ("a third", "two-thirds"):
	// value is num/den, and arithmetic writes it as (num / den), exactly.
	num, den float64
	// times > 0 marks a count of a counting word ("2 dozen"): value is
	// count × times, and arithmetic writes it so (counting.go).
	count, times float64
}

func wordValue(w string) (value float64, scale bool, ok bool) {
	switch w {
	case "zero":
		return 0, false, true
	case "one":
		return 1, false, true
	case "two":
		return 2, false, true
	case "three":
		return 3, false, true
	case "four":
		return 4, false, true
	case "five":
		return 5, false, true
	case "six":
		return 6, false, true
	case "seven":
		return 7, false, true
	case "eight":
		return 8, false, true
	case "nine":
		return 9, false, true
	case "ten":
		return 10, false, true
	case "eleven":
		return 11, false, true
	case "twelve":
		return 12, false, true
	case "thirteen":
		return 13, false, true
	case "fourteen":
		return 14, false, true
	case "fifteen":
		return 15, false, true
	case "sixteen":
		return 16, false, true
	case "seventeen":
		return 17, false, true
	case "eighteen":
		return 18, false, true
	case "nineteen":
		return 19, false, true
	case "twenty":
		return 20, false, true
	case "thirty":
		return 30, false, true
	case "forty", "fourty":
		return 40, false, true
	case "fifty":
		return 50, false, true
	case "sixty":
		return 60, false, true
	case "seventy":
		return 70, false, true
	case "eighty":
		return 80, false, true
	case "ninety":
		return 90, false, true
	case "hundred":
		return 100, true, true
	case "thousand":
		return 1e3, true, true
	case "million":
		return 1e6, true, true
	case "billion":
		return 1e9, true, true
	}
	return 0, false, false
}

// fractionDenominator reads "half", "thirds", "quarter"... as the
// denominator of a fraction after a count ("two-thirds", "a quarter").
func fractionDenominator(w string) (float64, bool) {
	switch strings.TrimSuffix(w, "s") {
	case "half", "halve":
		return 2, true
	case "third":
		return 3, true
	case "quarter", "fourth":
		return 4, true
	case "fifth":
		return 5, true
	case "sixth":
		return 6, true
	case "eighth":
		return 8, true
	case "tenth":
		return 10, true
	}
	return 0, false
}

// isNumberWord reports whether w is part of a number written in words.
func isNumberWord(w string) bool {
	_, _, ok := wordValue(w)
	return ok
}

// findNumbers lists the numbers of a tokenized query in order.
func findNumbers(query string, toks []token) []number {
	var out []number
	for i := 0; i < len(toks); i++ {
		w := toks[i].text
		if isNumeral(w) {
			if len(w) > 1 && w[0] == '0' && w[1] != '.' && w[1] != ',' {
				continue // "0134", "007": a code or an extension, not a quantity
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(w, ",", ""), 64)
			if err == nil {
				out = append(out, number{value: v, start: toks[i].start, end: toks[i].end, first: i, last: i})
			}
			continue
		}
		if v, ok := romanOperand(query, toks, i); ok {
			out = append(out, number{value: v, start: toks[i].start, end: toks[i].end, first: i, last: i})
			continue
		}
		if (w == "half" || w == "quarter") && i+1 < len(toks) && toks[i+1].text == "of" {
			// "half of 50", "quarter of the cake"
			d, _ := fractionDenominator(w)
			out = append(out, number{value: 1 / d, start: toks[i].start, end: toks[i].end, first: i, last: i, num: 1, den: d})
			continue
		}
		// "a hundred", "a half", "a quarter of".
		lead := 0.0
		j := i
		if (w == "a" || w == "an") && i+1 < len(toks) {
			nw := toks[i+1].text
			if _, scale, ok := wordValue(nw); ok && scale {
				lead, j = 1, i+1
			} else if d, ok := fractionDenominator(nw); ok {
				out = append(out, number{value: 1 / d, start: toks[i].start, end: toks[i+1].end, first: i, last: i + 1, num: 1, den: d})
				i++
				continue
			}
		}
		if !isNumberWord(toks[j].text) {
			continue
		}
		total, current := 0.0, lead
		last := j
		for k := j; k < len(toks); k++ {
			tw := toks[k].text
			v, scale, ok := wordValue(tw)
			if !ok {
				// "one hundred and fifty": "and" joins only inside a number.
				if tw == "and" && k+1 < len(toks) && (current >= 100 || total > 0) {
					if nv, nscale, nok := wordValue(toks[k+1].text); nok && !nscale && nv < 100 {
						continue
					}
				}
				break
			}
			if k > j && !joinable(query, toks[k-1], toks[k]) {
				break
			}
			switch {
			case scale && v == 100:
				if current == 0 {
					current = 1
				}
				current *= 100
			case scale:
				if current == 0 {
					current = 1
				}
				total += current * v
				current = 0
			default:
				current += v
			}
			last = k
		}
		val := total + current
		n := number{start: toks[i].start, first: i}
		// "two-thirds", "three quarters".
		if last+1 < len(toks) {
			if d, ok := fractionDenominator(toks[last+1].text); ok && val > 0 && val < d*10 {
				n.num, n.den = val, d
				val /= d
				last++
			}
		}
		n.value, n.end, n.last = val, toks[last].end, last
		out = append(out, n)
		i = last
	}
	return withCollectives(toks, withAndAFraction(toks, out))
}

// joinable reports whether two number words are one number: separated by
// space or a hyphen only ("thirty-five"), not a comma ("two, three").
func joinable(query string, a, b token) bool {
	gap := query[a.end:b.start]
	return strings.Trim(gap, " -") == ""
}

// romanOperand reads a Roman numeral written in capitals ("MCMXCIV") next
// to an arithmetic operator ("MCMXCIV plus XXVI", "XIV * 3"): elsewhere
// capitals are names and abbreviations ("DC", "MIX").
func romanOperand(query string, toks []token, i int) (float64, bool) {
	text := query[toks[i].start:toks[i].end]
	v, ok := romanValue(text)
	if !ok {
		return 0, false
	}
	operatorWord := func(w string) bool {
		switch w {
		case "plus", "minus", "times", "divided", "multiplied", "over", "and", "by":
			return true
		}
		return false
	}
	if i > 0 && (operatorWord(toks[i-1].text) || strings.ContainsAny(query[toks[i-1].end:toks[i].start], "+-*/×÷")) {
		return v, true
	}
	if i+1 < len(toks) && (operatorWord(toks[i+1].text) || strings.ContainsAny(query[toks[i].end:toks[i+1].start], "+-*/×÷")) {
		return v, true
	}
	return 0, false
}

// romanValue is the value of a Roman numeral of two letters or more in
// capitals, written the standard way (subtractive pairs IV, IX, XL, XC,
// CD, CM; no letter repeated more than three times): the numeral must be
// the one the value would be written as.
func romanValue(s string) (float64, bool) {
	if len(s) < 2 || len(s) > 15 {
		return 0, false
	}
	digit := func(c byte) int {
		switch c {
		case 'I':
			return 1
		case 'V':
			return 5
		case 'X':
			return 10
		case 'L':
			return 50
		case 'C':
			return 100
		case 'D':
			return 500
		case 'M':
			return 1000
		}
		return 0
	}
	total := 0
	for i := 0; i < len(s); i++ {
		d := digit(s[i])
		if d == 0 {
			return 0, false
		}
		if i+1 < len(s) && digit(s[i+1]) > d {
			total -= d
		} else {
			total += d
		}
	}
	if total <= 0 || total >= 4000 || toRoman(total) != s {
		return 0, false
	}
	return float64(total), true
}

func toRoman(n int) string {
	var b strings.Builder
	for _, p := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for n >= p.v {
			b.WriteString(p.s)
			n -= p.v
		}
	}
	return b.String()
}

// numberText is a number's text in an expression.
func numberText(a *analysis, n number) string {
	if n.times > 0 {
		return "(" + tools.FormatNumber(n.count) + " * " + tools.FormatNumber(n.times) + ")"
	}
	if n.den > 0 {
		return "(" + tools.FormatNumber(n.num) + " / " + tools.FormatNumber(n.den) + ")"
	}
	// A minus sign written before the digits: "-4 degrees".
	if n.start > 0 && a.query[n.start-1] == '-' && (n.start == 1 || a.query[n.start-2] == ' ') {
		return "(-" + tools.FormatNumber(n.value) + ")"
	}
	return tools.FormatNumber(n.value)
}
