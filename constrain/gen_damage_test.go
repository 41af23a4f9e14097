package constrain

import (
	"strings"

	"github.com/gear-chat/gear/tools"
)

// mutate damages a call the way models do.
func (g *gen) mutate(s string) string {
	if s == "" {
		return g.randomBytes()
	}
	switch g.r.IntN(12) {
	case 0: // a wrong tool name
		name := g.specs[g.r.IntN(len(g.specs))].Name
		return strings.Replace(s, name, g.nameEdit(name), 1)
	case 1: // a hallucinated tool
		for _, sp := range g.specs {
			if strings.Contains(s, sp.Name) {
				return strings.Replace(s, sp.Name, g.pick("product", "search", "Calculate", "weather", "CurrentTimes", "Pow2", "sq", "Calc_"), 1)
			}
		}
	case 2: // a value of the wrong type
		return g.replaceValue(s, g.pick(`"3"`, `3`, `"abc"`, `abc`, `2 + 2`, `"2022-01-02"`, `-`, `1.`, `""`, `"\ud83d"`, `1e5`, `0x10`, `"metric"`, `null`, `[1]`))
	case 3: // a missing quote
		if i := g.nth(s, '"'); i >= 0 {
			return s[:i] + s[i+1:]
		}
	case 4: // an extra argument
		if i := strings.LastIndexAny(s, ")}"); i >= 0 {
			return s[:i] + g.pick(", 1", `, "x"`, `, "extra": 1`, ",", ", 2 + 2") + s[i:]
		}
	case 5: // truncated
		return s[:g.r.IntN(len(s))]
	case 6: // a byte replaced
		i := g.r.IntN(len(s))
		return s[:i] + string(g.interesting()) + s[i+1:]
	case 7: // a byte inserted
		i := g.r.IntN(len(s) + 1)
		return s[:i] + string(g.interesting()) + s[i:]
	case 8: // a byte deleted
		i := g.r.IntN(len(s))
		return s[:i] + s[i+1:]
	case 9: // two calls glued, or text after the call
		return s + g.pick(" Thanks", ")", "}", g.call(), "\n")
	case 10: // the call's arguments repeated
		if i := strings.IndexByte(s, '('); i >= 0 {
			return s[:i+1] + s[i+1:] + s[i+1:]
		}
	}
	i := g.r.IntN(len(s))
	j := i + g.r.IntN(len(s)-i)
	return s[:i] + s[j:]
}

func (g *gen) nth(s string, c byte) int {
	n := strings.Count(s, string(c))
	if n == 0 {
		return -1
	}
	k := g.r.IntN(n)
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

func (g *gen) nameEdit(name string) string {
	i := g.r.IntN(len(name))
	switch g.r.IntN(4) {
	case 0:
		return name[:i] + name[i+1:]
	case 1:
		return name[:i] + string(byte('a'+g.r.IntN(26))) + name[i:]
	case 2:
		return strings.ToLower(name)
	}
	return name[:i] + string(byte('a'+g.r.IntN(26))) + name[i+1:]
}

// replaceValue swaps the text after a "(", "," or ":" for v.
func (g *gen) replaceValue(s, v string) string {
	var cuts []int
	for i := 0; i < len(s); i++ {
		if s[i] == '(' || s[i] == ',' || s[i] == ':' {
			cuts = append(cuts, i+1)
		}
	}
	if len(cuts) == 0 {
		return s + v
	}
	start := cuts[g.r.IntN(len(cuts))]
	end := start
	for end < len(s) && !strings.ContainsRune(",)}", rune(s[end])) {
		if s[end] == '"' {
			if k := strings.IndexByte(s[end+1:], '"'); k >= 0 {
				end += k + 1
			}
		}
		end++
	}
	return s[:start] + " " + v + s[end:]
}

// interesting is a byte a call's syntax cares about, or any byte.
func (g *gen) interesting() byte {
	const specials = "(){}[],:\"\\ \t\n%*+-./^0123456789aAofmdeE_xz\x00\x7f\xc3\xa9\xed\xa0\xff"
	if g.chance(0.8) {
		return specials[g.r.IntN(len(specials))]
	}
	return byte(g.r.IntN(256))
}

func (g *gen) randomBytes() string {
	n := g.r.IntN(40)
	b := make([]byte, n)
	for i := range b {
		b[i] = g.interesting()
	}
	if n > 0 && g.chance(0.5) {
		name := g.specs[g.r.IntN(len(g.specs))].Name
		return name + string(b)
	}
	return string(b)
}

// boundary writes calls at the bounds of the syntax, one past them, and at
// the grammar's corners: strings of exactly MaxLen characters, 24-byte
// numbers, 15-digit integers, expressions nested 32 deep or 2000 bytes long,
// 16-letter names.
func (g *gen) boundary() string {
	json := g.chance(0.3)
	quoteExpr := func(e string) string {
		if json {
			return `{"tool": "Calculator", "args": {"expression": "` + e + `"}}`
		}
		return "Calculator(" + e + ")"
	}
	over := g.r.IntN(3) - 1 // -1, 0 or +1 around the bound
	switch g.r.IntN(11) {
	case 9: // a JSON value nested about MaxJSONDepth deep
		d := tools.MaxJSONDepth + over
		var open, close strings.Builder
		for i := 0; i < d; i++ {
			if g.chance(0.5) {
				open.WriteString(`{"k":`)
				close.WriteString("}")
			} else {
				open.WriteString("[")
				close.WriteString("]")
			}
		}
		c := close.String()
		return "kv.set(\"k\", " + open.String() + g.pick("1", "[]", "{}", `""`) + reverse(c) + ")"
	case 10: // a string inside a JSON value at its rune bound
		if g.chance(0.9) {
			return `kv.set("k", [` + g.str(3) + `, ""])`
		}
		return `kv.set("k", [` + `"` + strings.Repeat(g.pick("a", "é", `\n`), tools.MaxJSONStringLen+over) + `"])`
	case 0: // a string at its rune bound
		spec := g.pick("WikiSearch", "Calc", "Units", "CurrentTime")
		bound := map[string]int{"WikiSearch": tools.DefaultMaxStringLen, "Calc": 5, "Units": 3, "CurrentTime": tools.MaxPlaceLen}[spec]
		s := g.str(bound + over)
		switch spec {
		case "Units":
			return `Units("metric", ` + s + `)`
		case "Calc":
			return `Calc(` + s + `)`
		}
		return spec + "(" + s + ")"
	case 1: // a number of about MaxNumberLen bytes
		n := tools.MaxNumberLen + over
		sign := g.pick("", "-")
		whole := 1 + g.r.IntN(n-len(sign))
		lit := sign + "1" + g.digits(whole-1)
		if rest := n - len(lit) - 1; rest > 0 {
			lit += "." + g.digits(rest)
		} else if rest == 0 {
			lit += "."
		}
		return "sqrt(" + lit + ")"
	case 2: // an integer of about MaxIntegerDigits digits
		return "square(" + g.pick("", "-") + "9" + g.digits(tools.MaxIntegerDigits-1+over) + ")"
	case 3: // parentheses about MaxExpressionDepth deep
		d := tools.MaxExpressionDepth + over
		var open, close strings.Builder
		for i := 0; i < d; i++ {
			if g.chance(0.5) {
				open.WriteString("f(")
			} else {
				open.WriteString("(")
			}
			close.WriteString(")")
		}
		return quoteExpr(open.String() + "1" + close.String())
	case 4: // an expression of about MaxExpressionLen bytes
		n := tools.MaxExpressionLen + over
		body := strings.Repeat("1+", (n-1)/2) + "1"
		if len(body) < n {
			body += " "
		}
		if g.chance(0.3) && !json {
			body = body[:len(body)-2] + "\t\n" // trailing white space counts
		}
		return quoteExpr(body)
	case 5: // a name of about MaxIdentifierLen letters
		return quoteExpr("a" + strings.Repeat("b", tools.MaxIdentifierLen-1+over) + g.pick("", "(2)", " + 1"))
	case 6: // an unfinished expression at the length bound
		n := tools.MaxExpressionLen - g.r.IntN(4)
		body := strings.Repeat("1+", n/2+1)
		return quoteExpr(body[:n] + g.pick("", "1", "(1", ".", "5,", " o", " of 1"))
	case 7: // thousands and arguments
		return quoteExpr(g.pick("1,234", "f(1,234)", "f((1,234))", "(1,234)", "f(1,2345)", "1,2345", "1,23", "f(1,23)", "1234,567", "12,345.5,6", "f(.5,6)", "1,234,"))
	case 8: // operator words and percent
		return quoteExpr(g.pick("5 % of 3", "5% of", "5 % x", "5 % mod", "5 %mod(3)", "(2)of 3", "(2)of3", "2of 3", "2 of3", "2 of.5", "of of of", "of(2) mod mod(3)", "5%% 3", "5 %", "x % ofa", "2 MoD 3", "2 ** 3", "2 * * 3", "2 *** 3"))
	}
	return ""
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
