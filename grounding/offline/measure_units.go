package offline

import "strings"

// Units of measure: the lists of units with their dimensions and sizes
// (unitList, imperialList, letterUnitList), an area or volume as a length
// squared or cubed, and a unit as the query writes it — one or two words
// ("square feet", "fl oz", "m²") or a compound of two ("km/h", "miles per
// hour"). The conversions that use them are in measure.go.

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
