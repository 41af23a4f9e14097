package offline

import "strings"

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
