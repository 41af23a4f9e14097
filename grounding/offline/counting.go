package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Numbers that count by more than their digits: a whole number and the
// fraction "and" adds to it ("three and a half"), and the words that count
// by a fixed number (grammar/collectives.txt: "2 dozen", "four score",
// "half a dozen", "a dozen and a half"). findNumbers (numbers.go) reads
// them after the numbers themselves.

// andAFraction reports whether nums[k+1] is "a half", "a quarter"… joined
// to what ends at token end by "and": "three and a half", "a dozen and a
// half", "a day and a half".
func andAFraction(toks []token, end int, nums []number, k int) (number, bool) {
	if k+1 >= len(nums) || wordAt(toks, end+1) != "and" {
		return number{}, false
	}
	f := nums[k+1]
	if f.den == 0 || f.num != 1 || f.first != end+2 || (toks[f.first].text != "a" && toks[f.first].text != "an") {
		return number{}, false
	}
	return f, true
}

// withAndAFraction joins a whole number and the fraction "and" adds to it:
// "three and a half" is 7/2, "3 and a quarter" 13/4.
func withAndAFraction(toks []token, nums []number) []number {
	var out []number
	for k := 0; k < len(nums); k++ {
		n := nums[k]
		if f, ok := andAFraction(toks, n.last, nums, k); ok && n.den == 0 && n.value == float64(int64(n.value)) {
			if _, isCollective := collectiveAt(toks, n.last); !isCollective {
				n.num, n.den = n.value*f.den+1, f.den
				n.value = n.num / n.den
				n.last, n.end = f.last, f.end
				k++
			}
		}
		out = append(out, n)
	}
	return out
}

// withCollectives reads the words that count by a fixed number
// (grammar/collectives.txt): after a number they multiply it ("2 dozen",
// "four score", "half a dozen"); a collective that may stand alone is a
// number on its own ("a dozen eggs", "a baker's dozen"), and any is after
// "a" ("a score of people").
func withCollectives(toks []token, nums []number) []number {
	var out []number
	next := 0 // the first token not yet read
	absorbed := false
	for k := 0; k < len(nums) || next < len(toks); {
		// A collective standing alone before the next number.
		limit := len(toks)
		if k < len(nums) {
			limit = nums[k].first
		}
		for i := next; i < limit; i++ {
			c, ok := collectiveAt(toks, i)
			if !ok || i+c.words > limit {
				continue
			}
			article := i > 0 && (toks[i-1].text == "a" || toks[i-1].text == "an")
			if !article && !c.alone || wordAt(toks, i-1) == "many" {
				continue // "how many dozen": the unit asked, not a number
			}
			first, value := i, c.value
			if article {
				first = i - 1
				// "half a dozen", "a quarter of a gross" is not read.
				if d, ok := fractionDenominator(wordAt(toks, i-2)); ok && i-2 >= next {
					first, value = i-2, c.value/d
				}
			}
			n := number{value: value, start: toks[first].start, end: toks[i+c.words-1].end, first: first, last: i + c.words - 1}
			if f, ok := andAFraction(toks, n.last, nums, k-1); ok {
				// "a dozen and a half"
				n.value += c.value * f.value
				n.last, n.end = f.last, f.end
				absorbed = true
			}
			if n.value != c.value {
				n.count, n.times = n.value/c.value, c.value
			}
			out = append(out, n)
			if absorbed {
				break
			}
			i += c.words - 1
		}
		if absorbed {
			absorbed = false
			next = out[len(out)-1].last + 1
			k++
			continue
		}
		if k == len(nums) {
			break
		}
		n := nums[k]
		k++
		// "half a dozen": a fraction, "a", a collective.
		if n.den > 0 && wordAt(toks, n.last+1) == "a" {
			if c, ok := collectiveAt(toks, n.last+2); ok {
				n.count, n.times = n.value, c.value
				n.value *= c.value
				n.num, n.den = 0, 0
				n.last += 1 + c.words
				n.end = toks[n.last].end
			}
		} else if c, ok := collectiveAt(toks, n.last+1); ok {
			n.count, n.times = n.value, c.value
			n.value *= c.value
			n.num, n.den = 0, 0
			n.last += c.words
			n.end = toks[n.last].end
			// "3 dozen and a half": half a dozen more
			if f, ok := andAFraction(toks, n.last, nums, k-1); ok {
				n.value += c.value * f.value
				n.count += f.value
				n.last, n.end = f.last, f.end
				k++
			}
		}
		out = append(out, n)
		next = n.last + 1
	}
	return out
}

// countOf reads a question that asks how many one counted amount is,
// which ends it: "how many eggs in 7 dozen" is 7 * 12.
func countOf(a *analysis) string {
	if len(a.operands) == 1 && a.operands[0].times == 0 {
		// "150 cupcakes, how many dozen is that": the amount over the
		// counting word's number.
		for i := 0; i+2 < len(a.toks); i++ {
			if a.toks[i].text == "how" && a.toks[i+1].text == "many" {
				if c, ok := collectiveAt(a.toks, i+2); ok {
					return numberText(a, a.operands[0]) + " / " + tools.FormatNumber(c.value)
				}
			}
		}
	}
	if len(a.operands) != 1 || a.operands[0].times == 0 || !a.asksQuantity() {
		return ""
	}
	if a.operands[0].last+1 != len(a.toks) {
		return "" // "2 dozen pairs": counted in something else
	}
	return strings.Trim(numberText(a, a.operands[0]), "()")
}
