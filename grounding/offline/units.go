package offline

import "strings"

// Arithmetic that the words imply: a power written as an ordinal ("2 to
// the 16th"), a percentage of an amount ("8% sales tax on $1,299", "20%
// off $50"), and an amount shared out ("split a $184.60 bill between 4
// people"). Conversions of units are in measure.go.

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
		if e := sharersFirst(lx, i); e != "" {
			return e
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

// sharersFirst reads a share whose sharers come before the verb: "three
// friends split a $127.80 bill plus a $20 tip equally", "4 of us share
// 30 dollars": the count, with at most two words between it and the verb
// at i ("friends", "of us"), then the amounts after it, added when
// "plus" or "and" joins them, up to the end of the clause.
func sharersFirst(lx []lexeme, i int) string {
	sharers := ""
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if lx[k].kind == lexNum {
			if !lx[k].frac && lx[k].unit == "" && lx[k].num >= 2 && lx[k].num == float64(int(lx[k].num)) {
				sharers = lx[k].text
			}
			break
		}
		if lx[k].kind != lexOther && lx[k].kind != lexOf {
			return ""
		}
	}
	if sharers == "" {
		return ""
	}
	var amounts []string
	joined := true // the first amount needs no joining word
clause:
	for k := i + 1; k < len(lx); k++ {
		switch {
		case lx[k].kind == lexNum:
			if !joined {
				return "" // two amounts with no "plus" between: not a plain sum
			}
			amounts, joined = append(amounts, lx[k].text), false
		case lx[k].kind == lexAnd || lx[k].kind == lexOp && lx[k].text == "+":
			joined = true
		case lx[k].kind == lexOp || lx[k].kind == lexPostfix || lx[k].kind == lexBy || lx[k].kind == lexInto:
			return "" // another operation ("a 15% tip"), or the sharers named after the verb as well
		case lx[k].kind == lexOther && lx[k].text == "":
			break clause // punctuation ends the clause
		}
	}
	switch len(amounts) {
	case 0:
		return ""
	case 1:
		return amounts[0] + " / " + sharers
	}
	return "(" + strings.Join(amounts, " + ") + ") / " + sharers
}
