package offline

import "strings"

// School arithmetic that names its operation with a phrase rather than an
// operator: a percentage change ("the rent went from 1450 to 1595, what
// percent increase is that"), a percentage one amount is of another ("what
// percent of 80 is 12", "12 is what percentage of 80"), an amount changed
// by a percentage ("a $40 shirt discounted by 25%", "a salary of 52,000
// raised by 3%"), and the area, perimeter or volume of a named shape ("the
// volume of a cube with side length 4", "the area of a circle of radius
// 3"). The words are the ordinary English of these exercises.

// decreaseWords and increaseWords change an amount by a percentage ("cut
// by 10%", "raised by 20%"); "up" and "down" after "marked", "went" or
// "goes" do too. changeNouns name a percentage change ("what percent
// increase").
const (
	decreaseWordList = `discounted discount reduced reduce lowered lower cut decreased decrease dropped drops drop fell falls slashed`
	increaseWordList = `increased increase raised raise rose rises grew grows hiked`
	changeNounList   = `increase decrease change rise drop growth gain loss fall jump markup markdown discount`
)

// percentWord reports whether token i says "percent".
func (a *analysis) percentWord(i int) bool {
	switch a.toks[i].text {
	case "percent", "percentage", "pct":
		return true
	case "cent":
		return i > 0 && a.toks[i-1].text == "per"
	}
	return false
}

// percentChange reads "from A to B" with a percentage change asked:
// (B - A) / A * 100, or (A - B) / A * 100 when only a fall is named.
func percentChange(a *analysis) string {
	asked, change, up, down := false, false, false, false
	for i := range a.toks {
		w := a.toks[i].text
		if a.percentWord(i) || strings.Contains(a.query[a.toks[i].start:a.toks[i].end], "%") {
			asked = true
		}
		if a.lx.changeNouns[w] || a.lx.increaseWords[w] || a.lx.decreaseWords[w] {
			change = true
		}
		up = up || a.lx.increaseWords[w]
		down = down || a.lx.decreaseWords[w]
	}
	if !asked || !change || strings.Contains(a.query, "%") && !a.hasWord("what", "how") {
		return ""
	}
	nums := a.operands
	for k := 0; k+1 < len(nums); k++ {
		from, to := nums[k], nums[k+1]
		if from.first < 1 || a.toks[from.first-1].text != "from" || to.first != from.last+2 || a.toks[from.last+1].text != "to" {
			continue
		}
		if down && !up {
			// "what is the percent decrease", "it fell from A to B": the
			// size of the fall, as the question names it.
			return "(" + numberText(a, from) + " - " + numberText(a, to) + ") / " + numberText(a, from) + " * 100"
		}
		return "(" + numberText(a, to) + " - " + numberText(a, from) + ") / " + numberText(a, from) + " * 100"
	}
	return ""
}

// percentOf reads "what percent of A is B" (B / A * 100) and "B is what
// percent of A".
func percentOf(a *analysis) string {
	nums := a.operands
	if len(nums) != 2 {
		return ""
	}
	for i := 0; i+2 < len(a.toks); i++ {
		if a.toks[i].text != "what" || !a.percentWord(i+1) || a.toks[i+2].text != "of" {
			continue
		}
		whole, part := nums[0], nums[1]
		if nums[0].first == i+3 { // "what percent of 80 is 12"
			return numberText(a, part) + " / " + numberText(a, whole) + " * 100"
		}
		if nums[1].first == i+3 && nums[0].last < i { // "12 is what percent of 80"
			return numberText(a, nums[0]) + " / " + numberText(a, nums[1]) + " * 100"
		}
	}
	return ""
}

// changeBy reads an amount changed by a percentage: a change word, "by",
// then the percentage; the amount is the nearest number before the change
// word in the same sentence.
func changeBy(a *analysis) string {
	nums := a.operands
	for i := 1; i+2 < len(a.toks); i++ {
		w := a.toks[i].text
		k := i + 1
		sign := ""
		switch {
		case a.lx.decreaseWords[w]:
			sign = "-"
		case a.lx.increaseWords[w]:
			sign = "+"
		case w == "up" || w == "down":
			switch a.toks[i-1].text {
			case "marked", "went", "goes", "go", "gone", "going":
				sign = map[string]string{"up": "+", "down": "-"}[w]
			}
		}
		if sign == "" {
			continue
		}
		if a.toks[k].text != "by" {
			continue
		}
		var pct, amount *number
		for n := range nums {
			if nums[n].first == k+1 {
				pct = &nums[n]
			}
			if nums[n].last < i && a.sentenceOf(nums[n].first) == a.sentenceOf(i) {
				amount = &nums[n]
			}
		}
		if pct == nil || amount == nil {
			continue
		}
		after := a.query[a.toks[pct.last].end:]
		if !strings.HasPrefix(strings.TrimLeft(after, " "), "%") && !(pct.last+1 < len(a.toks) && a.percentWord(pct.last+1)) {
			continue
		}
		whole := numberText(a, *amount)
		return whole + " " + sign + " " + numberText(a, *pct) + "% of " + whole
	}
	return ""
}

// shapeFormula reads the area, perimeter or volume of a named shape from
// its measures. The formulas are the school ones.
func shapeFormula(a *analysis) string {
	measure := ""
	for i, t := range a.toks {
		switch t.text {
		case "area", "perimeter", "circumference", "volume":
			m := t.text
			if t.text == "area" && i > 0 && a.toks[i-1].text == "surface" {
				m = "surface area"
			}
			if measure != "" && measure != m {
				// "the perimeter of a square is 36 cm. its area is": the
				// number given is a measure, not the side.
				return ""
			}
			measure = m
		}
	}
	if measure == "" {
		return ""
	}
	shape, byDiameter := "", false
	for _, t := range a.toks {
		switch t.text {
		case "square", "cube", "circle", "sphere", "rectangle", "triangle":
			if shape == "" {
				shape = t.text
			}
		case "diameter":
			byDiameter = true
		}
	}
	nums := a.operands
	if len(nums) == 0 {
		return ""
	}
	x := numberText(a, nums[0])
	r := x
	if byDiameter {
		r = "(" + x + " / 2)"
	}
	switch shape + " " + measure {
	case "square area":
		return x + " ^ 2"
	case "square perimeter":
		return "4 * " + x
	case "cube volume":
		return x + " ^ 3"
	case "cube surface area":
		return "6 * " + x + " ^ 2"
	case "circle area":
		return "pi * " + r + " ^ 2"
	case "circle circumference", "circle perimeter":
		return "2 * pi * " + r
	case "sphere volume":
		return "4 / 3 * pi * " + r + " ^ 3"
	case "sphere surface area":
		return "4 * pi * " + r + " ^ 2"
	}
	if len(nums) != 2 {
		return ""
	}
	y := numberText(a, nums[1])
	switch shape + " " + measure {
	case "rectangle area":
		return x + " * " + y
	case "rectangle perimeter":
		return "2 * (" + x + " + " + y + ")"
	case "triangle area":
		return x + " * " + y + " / 2"
	}
	return ""
}
