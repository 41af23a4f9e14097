package offline

import (
	"github.com/gear-chat/gear/tools"
)

// Conversions of units: a quantity in one unit asked for in another ("how
// many seconds are there in a week", "42.195 km in miles", "22 degrees
// Celsius in Fahrenheit", "72 f to c", "45 mph to km/h", "100 sq ft to
// m2", "350 ml in cups"), a price per one unit asked per another ("1.89 a
// litre, what is that per gallon"), and a pace or a speed from a distance
// and a time ("10 km in 58 minutes, what's my pace"). Conversions use only
// factors fixed by definition — the clock's units, the metric prefixes,
// the international inch, foot, yard, mile, pound and ounce (1959), the
// international nautical mile (1852 m), the acre and the hectare, the US
// customary measures of volume (the gallon of 231 cubic inches and its
// fractions: quart, pint, cup, fluid ounce, tablespoon, teaspoon), the
// imperial gallon (4.54609 litres) and its fractions — and the Celsius,
// Fahrenheit and Kelvin scales. A unit whose size varies (a month) or that
// needs a rate (a currency) is not converted; "a cup" is the US customary
// cup, a sixteenth of the US gallon.
//
// This file reads the quantities and the conversion; the units of measure
// and how a unit is written are in measure_units.go.

// quantity is an amount in a unit, or (with value "") a unit a conversion
// asks for. rate marks an amount per unit ("1.89 a litre") and a unit
// asked per ("per gallon").
type quantity struct {
	value  string
	phrase unitPhrase
	rate   bool
	// first is the token of its number (phrase.from when it has none).
	first int
	// mixed marks an amount of several units joined (mixedAmounts): its
	// value is in the dimension's base unit, tail the last unit joined.
	mixed bool
	tail  unit
}

// ounce is the unit of mass of that name, and fluidOunce the US customary
// measure of volume: "ounces" of a volume are fluid ounces.
var (
	ounce      = unit{name: "ounce", dim: "mass"}
	fluidOunce = unit{name: "fluid ounce", dim: "volume", size: "0.0295735295625"}
)

// conversion reads a conversion (see the file comment). It returns the
// expression and the tokens that name units of measure ("degrees",
// "celsius"), which are no weather words there.
func conversion(a *analysis) (string, map[int]bool) {
	amounts, targets := readQuantities(a)
	for _, t := range targets {
		if !a.asksForUnit(t, amounts) {
			continue
		}
		for _, q := range amounts {
			target := t.phrase.unit
			// "ounces in a cup": an ounce of a volume is a fluid ounce.
			if q.phrase.unit.dim == "volume" && target.name == ounce.name {
				target = fluidOunce
			}
			if target.dim == "volume" && q.phrase.unit.name == ounce.name {
				q.phrase.unit = fluidOunce
			}
			if q.phrase.unit.dim == target.dim && q.phrase.unit.name != target.name && q.rate == t.rate {
				return convert(q, target), quantityTokens(a, q, t)
			}
		}
	}
	if e, used := paceOrSpeed(a, amounts, targets); e != "" {
		return e, quantityTokens(a, used...)
	}
	return "", nil
}

// quantityTokens marks the tokens of the quantities' units (and a
// "degrees" before one).
func quantityTokens(a *analysis, qs ...quantity) map[int]bool {
	m := map[int]bool{}
	for _, q := range qs {
		for k := q.phrase.from; k < q.phrase.to; k++ {
			m[k] = true
		}
		if k := q.phrase.from - 1; k >= 0 && (a.toks[k].text == "degrees" || a.toks[k].text == "degree") {
			m[k] = true
		}
	}
	return m
}

// readQuantities reads the query's amounts in units (mixed ones joined)
// and the units it asks for.
func readQuantities(a *analysis) (amounts, targets []quantity) {
	endAt := map[int]number{} // numbers by their last token
	for _, n := range a.operands {
		endAt[n.last] = n
	}
	for i := 0; i < len(a.toks); i++ {
		if a.excluded(a.toks[i].start) {
			continue
		}
		ph, ok := a.unitAt(i)
		if !ok {
			if ph, ok = a.mixedPartAt(i, endAt); !ok {
				continue
			}
		}
		q := quantity{phrase: ph}
		// The amount's number stands before the unit, maybe with
		// "degrees" between ("22 degrees celsius"), or before "a" or
		// "per" for a rate ("1.89 a litre").
		k := i - 1
		if k >= 0 && ph.unit.dim == "temperature" && (a.toks[k].text == "degrees" || a.toks[k].text == "degree") {
			k--
		}
		before := ""
		if k >= 0 {
			before = a.toks[k].text
		}
		q.first = ph.from
		switch n, ok := endAt[k]; {
		case ok && k >= 0:
			q.value, q.first = numberText(a, n), n.first
		case (before == "a" || before == "an" || before == "per") && k >= 1 && hasNumberEndingAt(endAt, k-1):
			q.value, q.rate = numberText(a, endAt[k-1]), true
		case before == "per":
			q.rate = true
		case before == "a" || before == "an" || before == "one" || before == "each":
			q.value = "1"
			if d, ok := fractionDenominator(wordAt(a.toks, k-1)); ok && (before == "a" || before == "an") {
				// "half a mile", "quarter of an hour" is not read here
				q.value, q.first = "(1 / "+tools.FormatNumber(d)+")", k-1
			}
		}
		if q.value != "" && wordAt(a.toks, ph.to) == "and" {
			// "a day and a half", "2 hours and a quarter"
			for _, f := range a.operands {
				if f.first == ph.to+1 && f.den > 0 && f.num == 1 && (a.toks[f.first].text == "a" || a.toks[f.first].text == "an") {
					q.value = "(" + q.value + " + " + numberText(a, f) + ")"
					ph.to = f.last + 1
					q.phrase = ph
				}
			}
		}
		if ph.letter && q.value == "" && !(before == "to" || before == "in" || before == "into") {
			continue // a one-letter scale is a target only after "to" or "in"
		}
		if q.value != "" {
			amounts = append(amounts, q)
		} else {
			targets = append(targets, q)
		}
		i = ph.to - 1
	}
	return mixedAmounts(a, withImpliedInches(a, amounts, endAt)), targets
}

func hasNumberEndingAt(endAt map[int]number, k int) bool {
	_, ok := endAt[k]
	return ok
}

// asksForUnit: the unit t is what the query asks for — after "how many"
// or "how much"; after "in", "to", "into", "as" or "per"; or before "in"
// and an amount, as a search for a conversion is typed ("tablespoons in a
// quarter cup", "feet in a mile").
func (a *analysis) asksForUnit(t quantity, amounts []quantity) bool {
	i := t.phrase.from
	if t.rate {
		return true // "per gallon"
	}
	if i >= 2 && a.toks[i-2].text == "how" && (a.toks[i-1].text == "many" || a.toks[i-1].text == "much") {
		return true
	}
	if i >= 1 {
		switch a.toks[i-1].text {
		case "in", "to", "into", "as":
			return true
		case "degrees":
			return i >= 2 && (a.toks[i-2].text == "in" || a.toks[i-2].text == "to" || a.toks[i-2].text == "into")
		}
	}
	if end := t.phrase.to; end < len(a.toks) && (a.toks[end].text == "in" || a.toks[end].text == "per") {
		for _, q := range amounts {
			if q.phrase.from > end && q.phrase.from <= end+4 {
				return true
			}
		}
	}
	return false
}

// convert writes the arithmetic of a conversion: an amount in another
// unit, or a rate per another unit.
func convert(q quantity, to unit) string {
	from := q.phrase.unit
	if from.dim == "temperature" {
		c := map[string]string{ // the amount in Celsius
			"C": q.value,
			"F": "(" + q.value + " - 32) * 5 / 9",
			"K": q.value + " - 273.15",
		}[from.size]
		switch to.size {
		case "C":
			return c
		case "F":
			if from.size == "C" {
				return q.value + " * 9 / 5 + 32"
			}
			return "(" + c + ") * 9 / 5 + 32"
		case "K":
			return c + " + 273.15"
		}
		return ""
	}
	if q.rate {
		return q.value + " * " + to.size + " / " + from.size
	}
	expr := inBase(q)
	if q.value == "1" {
		expr = from.size
	}
	if to.size != "1" {
		expr += " / " + to.size
	}
	return expr
}
