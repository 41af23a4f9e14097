package constrain

import (
	"fmt"
	"regexp/syntax"

	"github.com/gear-chat/gear/tools"
)

// The grammar rules of the values of a call (numbers, strings, arrays,
// JSON, pattern-typed contents), shared by the GBNF and regex exports.

// numberRule is NumberPattern with its length bound: for each length of the
// whole part, as many fraction digits as still fit in MaxNumberLen bytes.
func (g *grammar) numberRule() *gnode {
	if g.has("number") {
		return ref("number")
	}
	digit := class('0', '9')
	unsigned := func(limit int) *gnode {
		var alts []*gnode
		for i := 1; i <= limit; i++ {
			whole := digit
			if i > 1 {
				whole = seq(class('1', '9'), rep(digit, i-1, i-1))
			}
			if room := limit - i - 1; room >= 1 {
				whole = seq(whole, opt(seq(lit("."), rep(digit, 1, room))))
			}
			alts = append(alts, whole)
		}
		return alt(alts...)
	}
	return g.define("number", alt(unsigned(tools.MaxNumberLen), seq(lit("-"), unsigned(tools.MaxNumberLen-1))))
}

func (g *grammar) integerRule() *gnode {
	if g.has("integer") {
		return ref("integer")
	}
	return g.define("integer", seq(opt(lit("-")), alt(lit("0"), seq(class('1', '9'), rep(class('0', '9'), 0, tools.MaxIntegerDigits-1)))))
}

// stringRule is a JSON string literal of 1 to bound characters, with the
// escapes scanString reads (no \u escape naming a surrogate).
func (g *grammar) stringRule(bound int) *gnode {
	name := fmt.Sprintf("string-%d", bound)
	if g.has(name) {
		return ref(name)
	}
	if bound > maxExportRepeat {
		// A long bound is left out: Go's regexp refuses counts above 1000
		// and llama.cpp spells a count out rule by rule (documented).
		return g.define(name, seq(lit(`"`), plus(g.charRule()), lit(`"`)))
	}
	return g.define(name, seq(lit(`"`), rep(g.charRule(), 1, bound), lit(`"`)))
}

// arrayRule is an array whose items are JSON values of type items.
func (g *grammar) arrayRule(items tools.ParamType) *gnode {
	name := "array-" + string(items)
	if g.has(name) {
		return ref(name)
	}
	g.jsonRule(0) // defines json-string and json-number
	var item *gnode
	switch items {
	case tools.TypeString:
		item = ref("json-string")
	case tools.TypeNumber:
		item = ref("json-number")
	case tools.TypeInteger:
		item = seq(opt(lit("-")), alt(lit("0"), seq(class('1', '9'), star(class('0', '9')))))
	default:
		item = alt(lit("true"), lit("false"))
	}
	ws := ref("ws")
	return g.define(name, seq(lit("["), ws, opt(seq(item, ws, star(seq(lit(","), ws, item, ws)))), lit("]")))
}

// maxExportRepeat is the largest count the exports write.
const maxExportRepeat = 1000

// charRule is one character of a string literal, as scanString reads it.
func (g *grammar) charRule() *gnode {
	if !g.has("char") {
		hex := class('0', '9', 'A', 'F', 'a', 'f')
		g.define("char", alt(
			notChars('"', '"', '\\', '\\', 0, 0x1f, 0x7f, 0x7f),
			seq(lit(`\`), alt(chars(`"\/bfnrt`), seq(lit("u"), alt(
				seq(class('0', '9', 'A', 'C', 'E', 'F', 'a', 'c', 'e', 'f'), rep(hex, 3, 3)),
				seq(chars("dD"), class('0', '7'), rep(hex, 2, 2)),
			)))),
		))
	}
	return ref("char")
}

// jsonRule is a JSON value with arrays and objects nested at most depth
// deep (the machine allows tools.MaxJSONDepth). Its strings are not
// bounded in length, where the machine bounds each to
// tools.MaxJSONStringLen characters.
func (g *grammar) jsonRule(depth int) *gnode {
	depth = min(depth, tools.MaxJSONDepth)
	name := fmt.Sprintf("json-%d", depth)
	if g.has(name) {
		return ref(name)
	}
	ws := ref("ws")
	if !g.has("json-scalar") {
		digit := class('0', '9')
		str := g.define("json-string", seq(lit(`"`), star(g.charRule()), lit(`"`)))
		num := g.define("json-number", seq(opt(lit("-")), alt(lit("0"), seq(class('1', '9'), star(digit))),
			opt(seq(lit("."), plus(digit))), opt(seq(chars("eE"), opt(chars("+-")), plus(digit)))))
		g.define("json-scalar", alt(str, num, lit("true"), lit("false"), lit("null")))
	}
	scalar, str := ref("json-scalar"), ref("json-string")
	for d := 0; d <= depth; d++ {
		n := fmt.Sprintf("json-%d", d)
		if g.has(n) {
			continue
		}
		if d == 0 {
			g.define(n, scalar)
			continue
		}
		inner := ref(fmt.Sprintf("json-%d", d-1))
		member := seq(str, ws, lit(":"), ws, inner, ws)
		g.define(n, alt(scalar,
			seq(lit("["), ws, opt(seq(inner, ws, star(seq(lit(","), ws, inner, ws)))), lit("]")),
			seq(lit("{"), ws, opt(seq(member, star(seq(lit(","), ws, member)))), lit("}")),
		))
	}
	return ref(name)
}

// contentRule turns a content pattern (Go syntax, as ContentPattern gives
// it) into a rule, case folding spelled out as classes, less the characters
// no pattern-typed literal may hold.
func (g *grammar) contentRule(pattern string) *gnode {
	if name, ok := g.patterns[pattern]; ok {
		return ref(name)
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		// New compiled the same pattern; it cannot fail here.
		return notChars(0, 0x10FFFF)
	}
	name := fmt.Sprintf("content-%d", len(g.patterns))
	g.patterns[pattern] = name
	return g.define(name, regexpRule(re.Simplify()))
}

func regexpRule(re *syntax.Regexp) *gnode {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return empty()
	case syntax.OpLiteral:
		var kids []*gnode
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				kids = append(kids, allowedInPattern(foldRanges(r)))
			} else {
				kids = append(kids, allowedInPattern([]rune{r, r}))
			}
		}
		return seq(kids...)
	case syntax.OpCharClass:
		return allowedInPattern(re.Rune)
	case syntax.OpAnyChar:
		return allowedInPattern([]rune{0, 0x10FFFF})
	case syntax.OpAnyCharNotNL:
		return allowedInPattern([]rune{0, '\n' - 1, '\n' + 1, 0x10FFFF})
	case syntax.OpCapture:
		return regexpRule(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		kids := make([]*gnode, len(re.Sub))
		for i, sub := range re.Sub {
			kids[i] = regexpRule(sub)
		}
		if re.Op == syntax.OpConcat {
			return seq(kids...)
		}
		return alt(kids...)
	case syntax.OpStar:
		return star(regexpRule(re.Sub[0]))
	case syntax.OpPlus:
		return plus(regexpRule(re.Sub[0]))
	case syntax.OpQuest:
		return opt(regexpRule(re.Sub[0]))
	case syntax.OpRepeat:
		return rep(regexpRule(re.Sub[0]), re.Min, re.Max)
	}
	return notChars(0, 0x10FFFF)
}

// allowedInPattern is a class less the quote, the backslash, control
// characters and DEL.
func allowedInPattern(ranges []rune) *gnode {
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for _, cut := range [][2]rune{{0, 0x1f}, {'"', '"'}, {'\\', '\\'}, {0x7f, 0x7f}} {
			if hi < cut[0] || lo > cut[1] {
				continue
			}
			if lo < cut[0] {
				out = append(out, lo, cut[0]-1)
			}
			lo = cut[1] + 1
			if lo > hi {
				break
			}
		}
		if lo <= hi {
			out = append(out, lo, hi)
		}
	}
	if len(out) == 0 {
		return notChars(0, 0x10FFFF)
	}
	return class(out...)
}
