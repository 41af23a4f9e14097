package constrain

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// gen writes random calls for a library: mostly valid, in both forms, with
// random white space, and mutated in the ways models get calls wrong. It
// never consults the machine; tools.Parse is the judge of validity.
type gen struct {
	r     *rand.Rand
	specs []tools.Spec
}

func newGen(seed uint64, specs []tools.Spec) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), specs: specs}
}

func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// ws is optional white space between the parts of a call.
func (g *gen) ws() string {
	if g.chance(0.6) {
		return ""
	}
	var b strings.Builder
	for n := 1 + g.r.IntN(2); n > 0; n-- {
		b.WriteString(g.pick(" ", " ", "\t", "\n", "\r"))
	}
	return b.String()
}

// exprWS is white space inside an expression: only spaces in the JSON form.
func (g *gen) exprWS(json bool) string {
	if g.chance(0.5) {
		return ""
	}
	if json {
		return strings.Repeat(" ", 1+g.r.IntN(2))
	}
	return g.pick(" ", " ", "  ", "\t", "\n")
}

// call writes a call of a random tool, canonical or JSON.
func (g *gen) call() string {
	spec := g.specs[g.r.IntN(len(g.specs))]
	n := spec.RequiredParams() + g.r.IntN(len(spec.Params)-spec.RequiredParams()+1)
	return g.callOf(spec, n, g.chance(0.4))
}

func (g *gen) callOf(spec tools.Spec, nargs int, json bool) string {
	// The first nargs parameters, less some optional ones: a call may
	// leave out an optional parameter before a given one by naming the
	// arguments after it.
	var given []int
	for i := 0; i < nargs; i++ {
		if spec.Params[i].Optional && i < nargs-1 && g.chance(0.2) {
			continue
		}
		given = append(given, i)
	}
	// Positional up to the first gap, or before, then keywords; never a
	// keyword where a positional expression is due.
	switchAt := len(given)
	for k, idx := range given {
		if idx != k {
			switchAt = k
			break
		}
	}
	if switchAt > 0 && g.chance(0.3) {
		switchAt = g.r.IntN(switchAt + 1)
	}
	if switchAt < len(given) && spec.Params[given[switchAt]].Type == tools.TypeExpression && given[switchAt] == switchAt {
		switchAt = len(given)
	}
	var b strings.Builder
	b.WriteString(g.ws())
	if json {
		b.WriteString("{" + g.ws() + `"tool"` + g.ws() + ":" + g.ws() + `"` + spec.Name + `"` + g.ws() + "," + g.ws() + `"args"` + g.ws() + ":" + g.ws() + "{" + g.ws())
		for k, idx := range given {
			if k > 0 {
				b.WriteString("," + g.ws())
			}
			p := spec.Params[idx]
			b.WriteString(`"` + p.Name + `"` + g.ws() + ":" + g.ws() + g.value(p, true) + g.ws())
		}
		b.WriteString("}" + g.ws() + "}")
	} else {
		b.WriteString(spec.Name + g.ws() + "(" + g.ws())
		for k, idx := range given {
			if k > 0 {
				b.WriteString("," + g.ws())
			}
			p := spec.Params[idx]
			if k >= switchAt {
				b.WriteString(p.Name + ":" + g.ws())
			}
			b.WriteString(g.value(p, false) + g.ws())
		}
		b.WriteString(")")
	}
	b.WriteString(g.ws())
	return b.String()
}

func (g *gen) value(p tools.Param, json bool) string {
	switch p.Type {
	case tools.TypeNumber:
		return g.number()
	case tools.TypeInteger:
		if p.Bounded() && g.chance(0.7) {
			lo, hi := p.IntegerRange()
			edge := g.pick("lo", "hi", "mid")
			base := lo
			switch {
			case edge == "hi" || edge == "mid" && lo < -1e12:
				base = hi
			case edge == "mid":
				base = lo + (min(hi, lo+1000)-lo)/2
			}
			x := base + int64(g.r.IntN(5)) - 2
			if x == 0 && g.chance(0.3) {
				return "-0"
			}
			return strconv.FormatInt(x, 10)
		}
		return g.integer()
	case tools.TypeString, tools.TypePlace:
		if p.Format == "date" {
			return `"` + g.digits(4) + "-" + g.pick("01", "09", "12", "13", "00", "1") + "-" + g.pick("01", "10", "29", "31", "32", "00") + `"`
		}
		return g.str(1 + g.r.IntN(min(p.StringBound(), 12)))
	case tools.TypeEnum:
		return `"` + p.Enum[g.r.IntN(len(p.Enum))] + `"`
	case tools.TypeDate:
		return `"` + g.date() + `"`
	case tools.TypeBoolean:
		return g.pick("true", "false")
	case tools.TypeJSON:
		if p.Items != "" && g.chance(0.8) {
			return g.arrayOf(p.Items)
		}
		return g.jsonValue(0)
	case tools.TypeDateTime:
		return `"` + g.datetime() + `"`
	case tools.TypeExpression:
		e := g.expr(0, false, json)
		if json {
			return `"` + e + `"`
		}
		return e
	}
	return "?"
}

func (g *gen) digits(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(byte('0' + g.r.IntN(10)))
	}
	return b.String()
}

func (g *gen) integer() string {
	sign := ""
	if g.chance(0.3) {
		sign = "-"
	}
	if g.chance(0.15) {
		return sign + "0"
	}
	return sign + string(byte('1'+g.r.IntN(9))) + g.digits(g.r.IntN(15))
}

func (g *gen) number() string {
	sign := ""
	if g.chance(0.3) {
		sign = "-"
	}
	whole := "0"
	if g.chance(0.8) {
		whole = string(byte('1'+g.r.IntN(9))) + g.digits(g.r.IntN(12))
	}
	if g.chance(0.5) {
		return sign + whole + "." + g.digits(1+g.r.IntN(12))
	}
	return sign + whole
}

// str writes a JSON string literal of n characters, with escapes and
// characters beyond ASCII.
func (g *gen) str(n int) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < n; i++ {
		switch k := g.r.IntN(20); {
		case k < 12:
			b.WriteByte(byte(' ' + g.r.IntN(95)))
			if b.String()[b.Len()-1] == '"' || b.String()[b.Len()-1] == '\\' {
				s := b.String()
				b.Reset()
				b.WriteString(s[:len(s)-1] + `\` + s[len(s)-1:])
			}
		case k < 15:
			b.WriteString(g.pick(`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`))
		case k < 17:
			b.WriteString(`\u` + g.pick("0", "1", "a", "F", "e", "c") + g.pick("0", "7", "f") + g.pick("1", "A") + g.pick("9", "b"))
		default:
			b.WriteString(g.pick("é", "ü", "中", "🙂", "Ж", "ſ", "K", "\u2028", "\uFFFD"))
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (g *gen) caseOf(s string) string {
	switch g.r.IntN(4) {
	case 0:
		return strings.ToUpper(s)
	case 1:
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func (g *gen) date() string {
	if g.chance(0.5) {
		return g.digits(4) + "-" + g.digits(2) + "-" + g.digits(2)
	}
	return g.caseOf(g.pick("today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
}

func (g *gen) datetime() string {
	ymd := g.digits(4) + "-" + g.digits(2) + "-" + g.digits(2)
	hm := g.digits(1+g.r.IntN(2)) + ":" + g.digits(2)
	month := g.caseOf(g.pick("jan", "january", "feb", "sep", "sept", "september", "may", "dec", "december"))
	ampm := g.caseOf(g.pick("am", "pm"))
	switch g.r.IntN(9) {
	case 0:
		return ymd + g.pick(" ", "T") + hm + g.pick("", ":"+g.digits(2))
	case 1:
		return ymd
	case 2:
		return month + g.pick("", ".") + " " + g.digits(1+g.r.IntN(2)) + g.pick("", ",") + " " + g.digits(4) + g.pick("", ",") + " " + hm + g.pick("", ":"+g.digits(2)) + g.pick("", " ") + g.pick("", ampm)
	case 3:
		return hm + g.pick("", ":"+g.digits(2)) + g.pick("", " ") + g.pick("", ampm) + g.pick("", ",") + " " + month + " " + g.digits(2) + g.pick("", ",") + " " + g.digits(4)
	case 4:
		return g.digits(1+g.r.IntN(2)) + g.pick("", ":"+g.digits(2)) + g.pick("", " ") + ampm
	case 5:
		return hm + g.pick("", ":"+g.digits(2))
	default:
		return g.caseOf(g.pick("now", "noon", "midnight"))
	}
}

// expr writes an expression of the calculator grammar; inCall says the
// innermost parentheses are a function's (commas separate arguments).
func (g *gen) expr(depth int, inCall, json bool) string {
	var b strings.Builder
	b.WriteString(g.exprWS(json))
	for terms := 1 + g.r.IntN(3); terms > 0; terms-- {
		for g.chance(0.15) {
			b.WriteString(g.pick("-", "+") + g.exprWS(json))
		}
		b.WriteString(g.operand(depth, inCall, json))
		for g.chance(0.15) {
			b.WriteString(g.exprWS(json) + "%")
		}
		if terms > 1 {
			op := g.pick("+", "-", "*", "**", "/", "^", "%", " of ", " mod ", " MOD ")
			if inCall && g.chance(0.3) {
				op = ","
			}
			b.WriteString(g.exprWS(json) + op + g.exprWS(json))
		}
	}
	b.WriteString(g.exprWS(json))
	return b.String()
}

func (g *gen) operand(depth int, inCall, json bool) string {
	if depth < 4 && g.chance(0.25) {
		if g.chance(0.5) {
			return "(" + g.expr(depth+1, false, json) + ")"
		}
		name := g.pick("max", "sqrt", "log", "f_2", "of", "Mod", "round")
		return name + g.exprWS(json) + "(" + g.expr(depth+1, true, json) + ")"
	}
	switch g.r.IntN(6) {
	case 0:
		return g.pick("pi", "e", "x", "tau", "_k", "abcdefghijklmnop")
	case 1:
		if !inCall {
			return string(byte('1'+g.r.IntN(9))) + g.digits(g.r.IntN(3)) + "," + g.digits(3) + g.pick("", ","+g.digits(3)) + g.pick("", "."+g.digits(2))
		}
	case 2:
		return "." + g.digits(1+g.r.IntN(3))
	}
	return g.digits(1+g.r.IntN(4)) + g.pick("", "", "."+g.digits(1+g.r.IntN(3)))
}

// input is one test input: a valid call, a mutated one, or random bytes.
func (g *gen) input() string {
	switch k := g.r.IntN(10); {
	case k < 3:
		return g.call()
	case k < 9:
		s := g.call()
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			s = g.mutate(s)
		}
		return s
	}
	return g.randomBytes()
}

// jsonValue writes a JSON value with white space, escapes, exponents and
// nesting.
func (g *gen) jsonValue(depth int) string {
	k := g.r.IntN(10)
	if depth >= 4 {
		k = 9
	}
	switch {
	case k < 3:
		var b strings.Builder
		b.WriteString("[" + g.ws())
		for n := g.r.IntN(4); n > 0; n-- {
			b.WriteString(g.jsonValue(depth + 1))
			if n > 1 {
				b.WriteString(g.ws() + "," + g.ws())
			}
		}
		return b.String() + g.ws() + "]"
	case k < 6:
		var b strings.Builder
		b.WriteString("{" + g.ws())
		for n := g.r.IntN(4); n > 0; n-- {
			key := g.pick(`"x"`, `"y"`, `""`, `"a\"b"`, `"é"`)
			b.WriteString(key + g.ws() + ":" + g.ws() + g.jsonValue(depth+1))
			if n > 1 {
				b.WriteString(g.ws() + "," + g.ws())
			}
		}
		return b.String() + g.ws() + "}"
	}
	switch g.r.IntN(6) {
	case 0:
		return g.pick("true", "false", "null")
	case 1:
		return g.pick(`""`, g.str(1+g.r.IntN(6)))
	case 2:
		return g.number() + g.pick("", "e5", "E-3", "e+12", "e0")
	}
	return g.number()
}

// arrayOf writes an array of items of a type, now and then one of another.
func (g *gen) arrayOf(items tools.ParamType) string {
	var b strings.Builder
	b.WriteString("[" + g.ws())
	for n := g.r.IntN(4); n > 0; n-- {
		t := items
		if g.chance(0.1) {
			t = tools.ParamType(g.pick("string", "number", "integer", "boolean"))
		}
		switch t {
		case tools.TypeString:
			b.WriteString(g.pick(`""`, g.str(1+g.r.IntN(5))))
		case tools.TypeNumber:
			b.WriteString(g.number() + g.pick("", "", "e3", "E-2"))
		case tools.TypeInteger:
			b.WriteString(g.pick("0", "-0", "12", "-7", "007", "1.0", "1e2"))
		default:
			b.WriteString(g.pick("true", "false", "null"))
		}
		if n > 1 {
			b.WriteString(g.ws() + "," + g.ws())
		}
	}
	return b.String() + g.ws() + "]"
}
