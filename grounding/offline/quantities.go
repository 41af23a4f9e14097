package offline

import (
	"errors"
	"strconv"
	"strings"
)

// Amounts in units read as one: mixed amounts ("5 feet 10 inches", "1 h
// 15 min 30 s", "12 ft 6 in", "1 m 75 cm", "five foot three") are one
// amount in the dimension's base unit (mixedAmounts).
//
// Arithmetic over amounts in units, asked in one unit: "5 hours 30 min
// minus 2 hours 50 min in minutes", "20% of 3 hours 30 minutes, in
// minutes", "90 minutes plus 1 hour 45 minutes, in hours". Each amount of
// the asked unit's dimension is written in that unit, as one operand,
// and the arithmetic is read around them as it would be around numbers
// (verb first or infix, arith.go). It is read only when a mixed amount
// or two amounts of that dimension take part: one plain amount is a
// conversion (measure.go).

// quantityArithmetic reads the arithmetic over amounts, or "".
func quantityArithmetic(a *analysis) (string, map[int]bool) {
	amounts, targets := readQuantities(a)
	for _, t := range targets {
		if t.rate || !a.asksForUnit(t, amounts) {
			continue
		}
		var same []quantity
		mixed := false
		for _, q := range amounts {
			if q.phrase.unit.dim == t.phrase.unit.dim && !q.rate && q.phrase.unit.dim != "temperature" {
				same = append(same, q)
				mixed = mixed || q.mixed
			}
		}
		if len(same) == 0 || len(same) == 1 && !mixed {
			continue
		}
		subst := map[int]quantityOperand{}
		for _, q := range same {
			text := "(" + inBase(q) + ")"
			if t.phrase.unit.size != "1" {
				text = "(" + inBase(q) + " / " + t.phrase.unit.size + ")"
			}
			subst[q.first] = quantityOperand{text: text, end: q.phrase.to}
		}
		lx := lexemesWith(a, subst)
		expr := verbFirst(lx)
		if expr == "" {
			expr = infix(lx)
		}
		if expr == "" || !checks(expr) {
			continue
		}
		for _, s := range subst {
			if !strings.Contains(expr, s.text) {
				return "", nil // an amount the arithmetic left out
			}
		}
		return expr, quantityTokens(a, append(same, t)...)
	}
	return "", nil
}

// quantityOperand is an amount written as one operand: its text and the
// token after it.
type quantityOperand struct {
	text string
	end  int
}

// mixedAmounts joins amounts of one dimension written side by side, the
// larger unit first, into one amount in the dimension's base unit: "5
// feet 10 inches", "3 hours and 20 minutes", "1 h 15 min 30 s", "2 lb 3
// oz".
func mixedAmounts(a *analysis, amounts []quantity) []quantity {
	var out []quantity
	for _, q := range amounts {
		if n := len(out); n > 0 && joinsMixed(a, out[n-1], q) {
			prev := out[n-1]
			out[n-1] = quantity{
				value: "(" + inBase(prev) + " + " + inBase(q) + ")",
				phrase: unitPhrase{unit: unit{name: prev.phrase.unit.name + "+" + q.phrase.unit.name, dim: q.phrase.unit.dim, size: "1"},
					from: prev.phrase.from, to: q.phrase.to},
				first: prev.first, mixed: true, tail: q.phrase.unit,
			}
			continue
		}
		out = append(out, q)
	}
	return out
}

// joinsMixed: q continues prev as one mixed amount — the same dimension,
// no rate or scale, a smaller unit, and nothing between them but "and" or
// a comma.
func joinsMixed(a *analysis, prev, q quantity) bool {
	pu, qu := prev.phrase.unit, q.phrase.unit
	if prev.mixed {
		pu = prev.tail
	}
	if prev.rate || q.rate || prev.value == "" || q.value == "" || pu.dim != qu.dim || pu.dim == "temperature" || q.first <= prev.phrase.to-1 {
		return false
	}
	for k := prev.phrase.to; k < q.first; k++ {
		if a.toks[k].text != "and" {
			return false
		}
	}
	if gap := a.query[a.toks[prev.phrase.to-1].end:a.toks[q.first].start]; strings.Trim(gap, " ,") != "" && strings.TrimSpace(gap) != "and" {
		return false
	}
	ps, perr := sizeValue(pu.size)
	qs, qerr := sizeValue(qu.size)
	return perr == nil && qerr == nil && ps > qs
}

// sizeValue is a unit's size as a number; the sizes of the unit lists are
// numbers or a number over another in parentheses.
func sizeValue(size string) (float64, error) {
	s := strings.Trim(size, "()")
	if num, den, ok := strings.Cut(s, "/"); ok {
		n, err1 := strconv.ParseFloat(strings.TrimSpace(num), 64)
		d, err2 := strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err1 != nil || err2 != nil || d == 0 {
			return 0, errors.New("not a size")
		}
		return n / d, nil
	}
	return strconv.ParseFloat(s, 64)
}

// inBase writes an amount in its dimension's base unit.
func inBase(q quantity) string {
	if q.mixed {
		return q.value
	}
	return q.value + " * " + q.phrase.unit.size
}

// partUnitList are units written as a word that is mostly no unit ("in"),
// which count only as the smaller part of a mixed amount ("5 ft 11 in").
const partUnitList = `in:length:0.0254`

// mixedPartAt reads a unit at token i that counts only inside a mixed
// amount: a one-letter unit ("1 m 75 cm", "5 km 350 m") or a word of
// partUnitList after a larger unit of its dimension ("12 ft 6 in"). It
// stands right after a number, and next to another amount of its
// dimension: before that number, or right after the unit.
func (a *analysis) mixedPartAt(i int, endAt map[int]number) (unitPhrase, bool) {
	w := a.toks[i].text
	u, ok := a.lx.letterUnits[w]
	part := false
	if !ok {
		u, ok = a.lx.partUnits[w]
		part = true
	}
	if !ok || u.dim == "temperature" {
		return unitPhrase{}, false
	}
	n, ok := endAt[i-1]
	if !ok || i < 1 {
		return unitPhrase{}, false
	}
	sameDim := func(k int) bool {
		if k < 0 || k >= len(a.toks) {
			return false
		}
		v, ok := a.lx.units[a.toks[k].text]
		return ok && v.dim == u.dim
	}
	// The larger part before: "5 km 350 m", "12 ft 6 in".
	if sameDim(n.first - 1) {
		return unitPhrase{unit: u, from: i, to: i + 1}, true
	}
	// The smaller part after: "1 m 75 cm".
	if !part {
		if next, ok := endAt[i+1]; ok && next.first == i+1 && sameDim(next.last+1) {
			return unitPhrase{unit: u, from: i, to: i + 1}, true
		}
	}
	return unitPhrase{}, false
}

// withImpliedInches reads the inches a height leaves unnamed: a number
// right after an amount in feet, with no unit of its own, under 12 ("five
// foot three", "6 foot 2").
func withImpliedInches(a *analysis, amounts []quantity, endAt map[int]number) []quantity {
	var out []quantity
	counted := map[int]bool{} // the numbers that have a unit of their own
	for _, q := range amounts {
		counted[q.first] = true
	}
	for _, q := range amounts {
		out = append(out, q)
		if q.rate || q.phrase.unit.name != "foot" {
			continue
		}
		for _, n := range endAt {
			if n.first != q.phrase.to || n.value >= 12 || n.value != float64(int(n.value)) || counted[n.first] {
				continue
			}
			if _, unitNext := a.lx.units[wordAt(a.toks, n.last+1)]; unitNext {
				continue
			}
			out = append(out, quantity{value: numberText(a, n), phrase: unitPhrase{unit: a.lx.units["inch"], from: n.first, to: n.last + 1}, first: n.first})
		}
	}
	return out
}
