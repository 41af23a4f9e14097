package offline

import (
	"strings"

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

// unit is a unit of measure: its dimension and its size in the
// dimension's base unit (second, metre, square metre, gram, litre, metre
// per second...) as an expression. Temperatures are scales, converted by
// formula.
type unit struct {
	name, dim string
	size      string
}

// unitList is "names:dimension:size", one unit per entry, its names
// separated by "/". A year is the common year of 365 days.
const unitList = `second/seconds/sec/secs:time:1 minute/minutes/min/mins:time:60 hour/hours/hr/hrs:time:3600
	day/days:time:86400 week/weeks:time:604800 fortnight/fortnights:time:1209600 year/years:time:31536000
	millimeter/millimeters/millimetre/millimetres/mm:length:0.001 centimeter/centimeters/centimetre/centimetres/cm:length:0.01
	meter/meters/metre/metres:length:1 kilometer/kilometers/kilometre/kilometres/km/kms:length:1000
	inch/inches:length:0.0254 foot/feet/ft:length:0.3048 yard/yards/yd/yds:length:0.9144 mile/miles/mi:length:1609.344
	acre/acres:area:4046.8564224 hectare/hectares/ha:area:10000
	milligram/milligrams/mg:mass:0.001 gram/grams/g:mass:1 kilogram/kilograms/kg/kgs/kilo/kilos:mass:1000
	ounce/ounces/oz:mass:28.349523125 pound/pounds/lb/lbs:mass:453.59237 stone/stones:mass:6350.29318
	milliliter/milliliters/millilitre/millilitres/ml:volume:0.001 liter/liters/litre/litres:volume:1
	gallon/gallons/gal:volume:3.785411784 quart/quarts/qt:volume:0.946352946 pint/pints:volume:0.473176473
	cup/cups:volume:0.2365882365 tablespoon/tablespoons/tbsp/tbsps/tbs:volume:0.01478676478125
	teaspoon/teaspoons/tsp/tsps:volume:0.00492892159375
	mph:speed:0.44704 kph/kmh/kmph:speed:(1000/3600) knot/knots:speed:(1852/3600)
	celsius/centigrade:temperature:C fahrenheit:temperature:F kelvin:temperature:K`

// imperialList are the imperial measures of volume that differ from the
// US ones, after "imperial", "uk" or "british".
const imperialList = `gallon/gallons:volume:4.54609 quart/quarts:volume:1.1365225 pint/pints:volume:0.56826125`

// letterUnitList are units written as one letter, which are words or
// initials as often as units: they count only inside a compound ("m/s",
// "km/h"), with a power ("m²"), or — the temperature scales — right after
// a number or as the unit a conversion asks for ("72 f to c").
const letterUnitList = `m:length:1 s:time:1 h:time:3600 l:volume:1 g:mass:1 c:temperature:C f:temperature:F`

// readUnits reads a list of units: each name to its unit.
func readUnits(list string) map[string]unit {
	m := map[string]unit{}
	for _, entry := range strings.Fields(list) {
		parts := strings.SplitN(entry, ":", 3)
		names := strings.Split(parts[0], "/")
		for _, name := range names {
			m[name] = unit{name: names[0], dim: parts[1], size: parts[2]}
		}
	}
	return m
}

// units reads unitList.
func units() map[string]unit { return readUnits(unitList) }

// power is a length unit squared or cubed: an area, or a volume in litres
// (a cubic metre is 1,000 litres).
func power(u unit, n int) (unit, bool) {
	if u.dim != "length" {
		return unit{}, false
	}
	if n == 2 {
		return unit{name: "square " + u.name, dim: "area", size: "(" + u.size + " ^ 2)"}, true
	}
	return unit{name: "cubic " + u.name, dim: "volume", size: "(" + u.size + " ^ 3 * 1000)"}, true
}

// unitPhrase is a unit of measure written in the query: tokens [from, to).
type unitPhrase struct {
	unit     unit
	from, to int
	letter   bool // a one-letter unit
}

// simpleUnitAt reads a unit of one or two words at token i: a unit's name,
// "square feet", "sq m", "m2", "m²", "cubic inches", "US cups", "imperial
// gallons", "fl oz". Letters count only where letters says.
func (a *analysis) simpleUnitAt(i int, letters bool) (unitPhrase, bool) {
	toks := a.toks
	w := toks[i].text
	next := func() string { return wordAt(toks, i+1) }
	lengthAt := func(k int) (unit, bool) {
		if k >= len(toks) {
			return unit{}, false
		}
		if u, ok := a.lx.units[toks[k].text]; ok && u.dim == "length" {
			return u, true
		}
		u, ok := a.lx.letterUnits[toks[k].text]
		return u, ok && u.dim == "length"
	}
	switch w {
	case "square", "sq", "cubic", "cu":
		if u, ok := lengthAt(i + 1); ok {
			n := 2
			if w == "cubic" || w == "cu" {
				n = 3
			}
			p, _ := power(u, n)
			return unitPhrase{unit: p, from: i, to: i + 2}, true
		}
	case "us":
		if u, ok := a.lx.units[next()]; ok && u.dim == "volume" {
			return unitPhrase{unit: u, from: i, to: i + 2}, true
		}
	case "imperial", "uk", "british":
		if u, ok := a.lx.imperialUnits[next()]; ok {
			return unitPhrase{unit: u, from: i, to: i + 2}, true
		}
	case "fl", "fluid":
		switch next() {
		case "oz", "ounce", "ounces":
			return unitPhrase{unit: fluidOunce, from: i, to: i + 2}, true
		}
	}
	u, ok := a.lx.units[w]
	letter := false
	if !ok {
		u, ok = a.lx.letterUnits[w]
		letter = true
	}
	if !ok {
		// "m2", "km3": a length with its power written after it.
		if n := len(w); n >= 2 && (w[n-1] == '2' || w[n-1] == '3') {
			if base, found := a.lx.units[w[:n-1]]; found || w[:n-1] == "m" {
				if !found {
					base = a.lx.letterUnits["m"]
				}
				if p, ok := power(base, int(w[n-1]-'0')); ok {
					return unitPhrase{unit: p, from: i, to: i + 1}, true
				}
			}
		}
		return unitPhrase{}, false
	}
	// "m²", "ft³": the power right after the unit.
	rest := a.query[toks[i].end:]
	for sup, n := range map[string]int{"²": 2, "³": 3} {
		if strings.HasPrefix(rest, sup) {
			if p, ok := power(u, n); ok {
				return unitPhrase{unit: p, from: i, to: i + 1}, true
			}
		}
	}
	if letter && !letters {
		return unitPhrase{}, false
	}
	return unitPhrase{unit: u, from: i, to: i + 1, letter: letter}, true
}

// unitAt reads a unit at token i, a compound of two ("km/h", "miles per
// hour", "m/s") included.
func (a *analysis) unitAt(i int) (unitPhrase, bool) {
	first, ok := a.simpleUnitAt(i, true)
	if !ok {
		return unitPhrase{}, false
	}
	j := first.to
	if j < len(a.toks) && first.unit.dim != "temperature" {
		gap := a.query[a.toks[j-1].end:a.toks[j].start]
		k := -1
		switch {
		case gap == "/":
			k = j
		case a.toks[j].text == "per" && strings.TrimSpace(gap) == "" && j+1 < len(a.toks):
			k = j + 1
		}
		if k >= 0 {
			if second, ok := a.simpleUnitAt(k, true); ok && second.unit.dim != "temperature" && second.unit.dim != first.unit.dim {
				dim := first.unit.dim + "/" + second.unit.dim
				if dim == "length/time" {
					dim = "speed"
				}
				u := unit{name: first.unit.name + "/" + second.unit.name, dim: dim, size: "(" + first.unit.size + " / " + second.unit.size + ")"}
				return unitPhrase{unit: u, from: i, to: second.to}, true
			}
		}
	}
	if first.letter && first.unit.dim != "temperature" {
		return unitPhrase{}, false // "m", "s", "h" alone are words or initials
	}
	return first, true
}

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
