package offline

import "strings"

// A rate applied to an amount: "240 parts per hour, how many in 3 hours
// 40 minutes" (the rate times an amount of what it is per), "earning
// $18.50 an hour, how much for 6 hours 45 minutes", "a snail moves 3 cm
// per minute. how many metres in 2 hours 30 minutes"; and an amount over
// a rate: "typing 65 words per minute, how long in minutes for 2,600
// words", "walking at 5 km/h, how many minutes to walk 3.5 km" (how many
// of what the rate is per). A rate is a number with a compound unit
// ("km/h", "cm per minute"), a number before "a", "an" or "per" and a
// unit ("$18.50 an hour"), or a number and a noun before "per" and a unit
// ("240 parts per hour"). The answer is in the unit asked, or else in the
// rate's own units. A pace or a speed from one distance and one time
// ("10 km in 52 minutes, pace") is paceOrSpeed's.

// rate is an amount per a unit: value numerator-units per den.
type rate struct {
	value    string
	num      unit   // the numerator's unit; zero for a count or money
	noun     string // the numerator's noun when it has no unit ("parts")
	den      unit
	from, to int // its tokens
}

// rates reads the query's rates.
func (a *analysis) rates() []rate {
	var out []rate
	for _, n := range a.operands {
		k := n.last + 1
		if k >= len(a.toks) {
			continue
		}
		// "3 cm per minute", "5 km/h": a compound unit.
		if ph, ok := a.unitAt(k); ok && ph.to-ph.from >= 2 {
			num, ok1 := a.simpleUnitAt(ph.from, true)
			den, ok2 := a.simpleUnitAt(ph.to-1, true)
			if ok1 && ok2 && num.unit.dim != den.unit.dim {
				out = append(out, rate{value: numberText(a, n), num: num.unit, den: den.unit, from: n.first, to: ph.to})
				continue
			}
		}
		// "$18.50 an hour", "240 parts per hour", "65 words per minute".
		noun := ""
		j := k
		if w := a.toks[j].text; w != "a" && w != "an" && w != "per" && w != "every" {
			if _, isUnit := a.lx.units[w]; isUnit || isNumberWord(w) {
				continue
			}
			noun, j = w, j+1
		}
		if j+1 >= len(a.toks) {
			continue
		}
		if w := a.toks[j].text; w != "a" && w != "an" && w != "per" {
			continue
		}
		den, ok := a.simpleUnitAt(j+1, false)
		if !ok || den.unit.dim == "temperature" || strings.ContainsAny(a.query[n.end:a.toks[den.from].start], ".?!,;:") {
			continue // "costs 7.50. price per kg": a rate is said in one phrase
		}
		if noun == "" && isMoney(a, n) {
			noun = moneyNoun // "$15 a week"
		}
		out = append(out, rate{value: numberText(a, n), noun: noun, den: den.unit, from: n.first, to: den.to})
	}
	return out
}

// rateReading reads a rate applied to an amount, or an amount over a rate.
func rateReading(a *analysis) (string, map[int]bool) {
	rs := a.rates()
	if len(rs) != 1 || len(a.operands) < 2 {
		return "", nil
	}
	r := rs[0]
	amounts, targets := readQuantities(a)
	var asked *quantity
	for i, t := range targets {
		if !t.rate && a.asksForUnit(t, amounts) {
			asked = &targets[i]
			break
		}
	}
	numSize := "1"
	if r.num.name != "" {
		numSize = r.num.size
	}
	for _, q := range amounts {
		if q.first >= r.from && q.first < r.to || q.rate {
			continue
		}
		switch {
		case q.phrase.unit.dim == r.den.dim:
			// the rate times the amount, in the numerator's units
			expr := r.value + " * " + numSize + " * (" + inBase(q) + ") / " + r.den.size
			switch {
			case asked != nil && r.num.name != "" && asked.phrase.unit.dim == r.num.dim:
				expr = "(" + expr + ") / " + asked.phrase.unit.size
			case asked != nil:
				return "", nil // a unit asked that the rate does not give
			case r.num.name != "":
				expr = "(" + expr + ") / " + numSize
			}
			return tidy(expr), r.tokens(quantityTokens(a, q))
		case r.num.name != "" && q.phrase.unit.dim == r.num.dim:
			// the amount over the rate, in the denominator's units
			expr := "(" + inBase(q) + ") / (" + r.value + " * " + numSize + ") * " + r.den.size
			if asked != nil && asked.phrase.unit.dim == r.den.dim {
				expr = "(" + expr + ") / " + asked.phrase.unit.size
			} else if asked != nil {
				return "", nil
			} else {
				expr = "(" + expr + ") / " + r.den.size
			}
			return tidy(expr), r.tokens(quantityTokens(a, q))
		}
	}
	// "65 words per minute … for 2,600 words": an amount of the rate's noun.
	if r.noun == "" {
		return "", nil
	}
	for _, n := range a.operands {
		if n.first >= r.from && n.first < r.to {
			continue
		}
		if r.noun == moneyNoun && !isMoney(a, n) || r.noun != moneyNoun && stem(wordAt(a.toks, n.last+1)) != stem(r.noun) {
			continue
		}
		expr := numberText(a, n) + " / " + r.value
		if asked != nil && asked.phrase.unit.size == r.den.size {
			// asked in the unit the rate is per
		} else if asked != nil && asked.phrase.unit.dim == r.den.dim {
			expr = "(" + expr + ") * " + r.den.size + " / " + asked.phrase.unit.size
		} else if asked != nil {
			return "", nil
		}
		return tidy(expr), r.tokens(map[int]bool{})
	}
	return "", nil
}

// tokens adds the rate's tokens to the units of measure m marks.
func (r rate) tokens(m map[int]bool) map[int]bool {
	for k := r.from; k < r.to; k++ {
		m[k] = true
	}
	return m
}

// moneyNoun stands for the noun of an amount of money ("$15 a week … to
// save $240").
const moneyNoun = "$"

// isMoney reports whether the number is written with a currency sign.
func isMoney(a *analysis, n number) bool {
	return n.start > 0 && strings.ContainsAny(a.query[n.start-1:n.start], "$€£¥")
}

// tidy drops a multiplication or division by 1 from an expression.
func tidy(expr string) string {
	expr = strings.NewReplacer(" * 1 *", " *", " * 1)", ")", " / 1)", ")").Replace(expr)
	expr = strings.TrimSuffix(expr, " / 1")
	return strings.TrimSuffix(expr, " * 1")
}

// paceOrSpeed reads a pace ("pace", "minutes per km": the time over the
// distance) or a speed ("how fast", "speed", "average speed": the
// distance over the time) from one distance and one time in the query.
func paceOrSpeed(a *analysis, amounts, targets []quantity) (string, []quantity) {
	var dist, dur *quantity
	for i := range amounts {
		switch q := &amounts[i]; {
		case q.rate:
		case q.phrase.unit.dim == "length" && dist == nil:
			dist = q
		case q.phrase.unit.dim == "time" && dur == nil:
			dur = q
		}
	}
	if dist == nil || dur == nil {
		return "", nil
	}
	switch {
	case a.hasWord("pace"):
		expr := dur.value + " / " + dist.value
		for _, t := range targets {
			if t.rate && t.phrase.unit.dim == "length" && t.phrase.unit.name != dist.phrase.unit.name {
				// minutes per kilometre from a distance in miles
				expr = dur.value + " / (" + dist.value + " * " + dist.phrase.unit.size + " / " + t.phrase.unit.size + ")"
				return expr, []quantity{*dist, *dur, t}
			}
		}
		return expr, []quantity{*dist, *dur}
	case a.hasWord("speed", "fast"):
		for _, t := range targets {
			if t.phrase.unit.dim == "speed" {
				// in the unit asked: the distance and the time in their
				// base units, over the unit's size
				expr := "(" + inBase(*dist) + ") / (" + inBase(*dur) + ") / " + t.phrase.unit.size
				return expr, []quantity{*dist, *dur, t}
			}
		}
		return dist.value + " / " + dur.value, []quantity{*dist, *dur}
	}
	return "", nil
}
