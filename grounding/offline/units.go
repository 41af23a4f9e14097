package offline

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Arithmetic that the words imply: a power written as an ordinal ("2 to
// the 16th"), a percentage of an amount ("8% sales tax on $1,299", "20%
// off $50"), an amount shared out ("split a $184.60 bill between 4
// people"), and a quantity in one unit asked for in another ("how many
// seconds are there in a week", "42.195 km in miles", "22 degrees Celsius
// in Fahrenheit"). Conversions use only factors fixed by definition — the
// clock's units, the metric prefixes, and the international inch, foot,
// yard, mile, pound and ounce (1959), the US gallon — and the Celsius,
// Fahrenheit and Kelvin scales; a unit whose size varies (a month, a cup)
// or that needs a rate (a currency) is not converted.

// unit is a unit of measure: its dimension and its size in the
// dimension's base unit (second, metre, gram, litre). Temperatures are
// scales, converted by formula.
type unit struct {
	name, dim string
	size      string // in the base unit, as an expression number
}

// unitList is "names:dimension:size", one unit per entry, its names
// separated by "/". A year is the common year of 365 days.
const unitList = `second/seconds/sec/secs:time:1 minute/minutes/min/mins:time:60 hour/hours/hr/hrs:time:3600
	day/days:time:86400 week/weeks:time:604800 fortnight/fortnights:time:1209600 year/years:time:31536000
	millimeter/millimeters/millimetre/millimetres/mm:length:0.001 centimeter/centimeters/centimetre/centimetres/cm:length:0.01
	meter/meters/metre/metres:length:1 kilometer/kilometers/kilometre/kilometres/km/kms:length:1000
	inch/inches:length:0.0254 foot/feet/ft:length:0.3048 yard/yards/yd/yds:length:0.9144 mile/miles/mi:length:1609.344
	milligram/milligrams/mg:mass:0.001 gram/grams/g:mass:1 kilogram/kilograms/kg/kgs/kilo/kilos:mass:1000
	ounce/ounces/oz:mass:28.349523125 pound/pounds/lb/lbs:mass:453.59237
	milliliter/milliliters/millilitre/millilitres/ml:volume:0.001 liter/liters/litre/litres:volume:1
	gallon/gallons/gal:volume:3.785411784
	celsius/centigrade:temperature:C fahrenheit:temperature:F kelvin:temperature:K`

// units reads unitList: each name of a unit to the unit. Single letters
// ("m", "g", "c") are left out of the list: they are words or initials as
// often as units.
func units() map[string]unit {
	m := map[string]unit{}
	for _, entry := range strings.Fields(unitList) {
		parts := strings.Split(entry, ":")
		names := strings.Split(parts[0], "/")
		for _, name := range names {
			m[name] = unit{name: names[0], dim: parts[1], size: parts[2]}
		}
	}
	return m
}

// ordinalValue reads an ordinal used as an exponent: "16th", "3rd",
// "second" to "twentieth".
func ordinalValue(w string) (float64, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if d, ok := strings.CutSuffix(w, suf); ok && d != "" && isNumeral(d) && !strings.ContainsAny(d, ".,") {
			n := 0.0
			for _, c := range d {
				n = n*10 + float64(c-'0')
			}
			return n, true
		}
	}
	for i, o := range strings.Fields(`second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
		thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth`) {
		if w == o {
			return float64(i + 2), true
		}
	}
	return 0, false
}

// ordinalPower reads "to the 16th [power]" and "raised to the third
// [power]" at token i: the tokens it spans and the exponent.
func ordinalPower(toks []token, i int) (int, float64, bool) {
	j := i
	if toks[j].text == "raised" {
		j++
	}
	if j+2 >= len(toks) || toks[j].text != "to" || toks[j+1].text != "the" {
		return 0, 0, false
	}
	n, ok := ordinalValue(toks[j+2].text)
	if !ok {
		return 0, 0, false
	}
	end := j + 3
	if end < len(toks) && toks[end].text == "power" {
		end++
	}
	return end - i, n, true
}

// percentOn reads what follows a percentage at lx[j]: up to three words
// naming it ("sales tax", "tip", "discount"), then "on", "for", "of" or
// "off", then an amount. It returns the amount, the index after it, and
// whether the percentage comes off the amount; next == j when there is no
// such amount.
func percentOn(lx []lexeme, j int) (amount string, next int, off bool) {
	k := j
	for words := 0; k < len(lx) && words < 3 && (lx[k].kind == lexOther || lx[k].kind == lexFiller) && lx[k].text != "" &&
		lx[k].text != "on" && lx[k].text != "off" && lx[k].text != "for"; words++ {
		k++
	}
	if k >= len(lx) {
		return "", j, false
	}
	switch {
	case lx[k].kind == lexOf || lx[k].text == "on" || lx[k].text == "for":
	case lx[k].text == "off":
		off = true
	default:
		return "", j, false
	}
	k++
	for skipped := 0; k < len(lx) && skipped < 2 && (lx[k].kind == lexFiller || lx[k].text == "a" || lx[k].text == "an"); skipped++ {
		k++
	}
	if k >= len(lx) || lx[k].kind != lexNum || lx[k].frac {
		return "", j, false
	}
	return lx[k].text, k + 1, off
}

// shareFrame reads an amount shared out: "split a $184.60 bill between 4
// people", "share 34 pencils among 6 friends", "divide $90 three ways".
func shareFrame(lx []lexeme) string {
	for i, l := range lx {
		switch {
		case l.text == "split" || l.text == "share" || l.text == "divvy":
		case l.kind == lexVerb && l.text == "/": // "divide"
		default:
			continue
		}
		amount := ""
		for k := i + 1; k < len(lx); k++ {
			switch {
			case lx[k].kind == lexNum && amount == "":
				amount = lx[k].text
				if k+1 < len(lx) && lx[k+1].text == "ways" {
					return ""
				}
			case lx[k].kind == lexNum && k+1 < len(lx) && lx[k+1].text == "ways":
				return amount + " / " + lx[k].text
			case amount != "" && (lx[k].text == "between" || lx[k].text == "among" || lx[k].text == "amongst" ||
				lx[k].kind == lexInto || lx[k].kind == lexBy || lx[k].kind == lexFiller && lx[k].text == "between"):
				m := k + 1
				for m < len(lx) && (lx[m].kind == lexFiller || lx[m].text == "the") {
					m++
				}
				if m < len(lx) && lx[m].kind == lexNum {
					return amount + " / " + lx[m].text
				}
				return ""
			case lx[k].kind == lexOther && lx[k].text == "":
				return "" // punctuation ends the clause
			}
		}
	}
	return ""
}

// quantity is an amount with its unit at token index at.
type quantity struct {
	value string
	unit  unit
	at    int
}

// conversion reads a unit conversion: an amount in one unit ("1,000
// minutes", "a week", "22 degrees Celsius") and another unit of the same
// dimension that the query asks for — after "how many" ("how many hours
// is 1,000 minutes", "how many seconds are there in a week") or after
// "in", "to", "into" or "as" ("42.195 km in miles", "what is that in
// Fahrenheit").
//
// It returns the expression and the tokens that name units of measure
// ("degrees", "celsius"), which are no weather words there.
func conversion(a *analysis) (string, map[int]bool) {
	endAt := map[int]number{} // numbers by their last token
	for _, n := range a.numbers {
		if !a.excluded(n.start) {
			endAt[n.last] = n
		}
	}
	var amounts []quantity
	var targets []quantity
	for i, t := range a.toks {
		u, ok := a.lx.units[t.text]
		if !ok {
			continue
		}
		// The amount's number stands before the unit, maybe with
		// "degrees" between: "22 degrees celsius", "31°F" is read below.
		k := i - 1
		if k >= 0 && u.dim == "temperature" && (a.toks[k].text == "degrees" || a.toks[k].text == "degree") {
			k--
		}
		if n, ok := endAt[k]; ok && k >= 0 {
			amounts = append(amounts, quantity{value: numberText(a, n), unit: u, at: i})
			continue
		}
		switch {
		case k >= 0 && (a.toks[k].text == "a" || a.toks[k].text == "an" || a.toks[k].text == "one" || a.toks[k].text == "per" || a.toks[k].text == "each"):
			amounts = append(amounts, quantity{value: "1", unit: u, at: i})
		default:
			targets = append(targets, quantity{unit: u, at: i})
		}
	}
	// "31°F", "22 °C": a degree sign and a letter.
	for i := 1; i < len(a.toks); i++ {
		if l := a.toks[i].text; (l == "c" || l == "f") && strings.Contains(a.query[a.toks[i-1].end:a.toks[i].start], "°") {
			if n, ok := endAt[i-1]; ok {
				u := a.lx.units[map[string]string{"c": "celsius", "f": "fahrenheit"}[l]]
				amounts = append(amounts, quantity{value: numberText(a, n), unit: u, at: i})
			}
		}
	}
	for _, t := range targets {
		if !asksForUnit(a, t.at) {
			continue
		}
		for _, q := range amounts {
			if q.unit.dim == t.unit.dim && q.unit.name != t.unit.name {
				measures := map[int]bool{q.at: true, t.at: true}
				for _, k := range []int{q.at - 1, t.at - 1} {
					if k >= 0 && (a.toks[k].text == "degrees" || a.toks[k].text == "degree") {
						measures[k] = true
					}
				}
				return convert(q, t.unit), measures
			}
		}
	}
	return "", nil
}

// numberText is a number's text in an expression.
func numberText(a *analysis, n number) string {
	if n.den > 0 {
		return "(" + tools.FormatNumber(n.num) + " / " + tools.FormatNumber(n.den) + ")"
	}
	// A minus sign written before the digits: "-4 degrees".
	if n.start > 0 && a.query[n.start-1] == '-' && (n.start == 1 || a.query[n.start-2] == ' ') {
		return "(-" + tools.FormatNumber(n.value) + ")"
	}
	return tools.FormatNumber(n.value)
}

// asksForUnit: the unit at token i is what the query asks for — after
// "how many" or "how much", or after "in", "to", "into" or "as".
func asksForUnit(a *analysis, i int) bool {
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
	return false
}

// convert writes the arithmetic of a conversion.
func convert(q quantity, to unit) string {
	if q.unit.dim == "temperature" {
		c := map[string]string{ // the amount in Celsius
			"C": q.value,
			"F": "(" + q.value + " - 32) * 5 / 9",
			"K": q.value + " - 273.15",
		}[q.unit.size]
		switch to.size {
		case "C":
			return c
		case "F":
			if q.unit.size == "C" {
				return q.value + " * 9 / 5 + 32"
			}
			return "(" + c + ") * 9 / 5 + 32"
		case "K":
			return c + " + 273.15"
		}
		return ""
	}
	expr := q.value + " * " + q.unit.size
	if q.value == "1" {
		expr = q.unit.size
	}
	if to.size != "1" {
		expr += " / " + to.size
	}
	return expr
}
