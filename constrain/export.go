package constrain

import (
	"fmt"
	"regexp/syntax"

	"github.com/gear-chat/gear/tools"
)

// DefaultExportDepth is how deep the regular expression (and the JSON
// Schema's expression pattern) unrolls expression parentheses by default:
// "sqrt(max(1, 2))" has depth 2. The machine and the GBNF allow
// tools.MaxExpressionDepth.
const DefaultExportDepth = 2

// ExportOptions tune the exports.
type ExportOptions struct {
	// Depth is the expression nesting the regular expression and the JSON
	// Schema's pattern spell out; 0 means DefaultExportDepth. Each level
	// makes the pattern about four times longer.
	Depth int
}

// depth is the nesting to spell out: o.Depth, or def when it is 0.
func (o ExportOptions) depth(def int) int {
	if o.Depth <= 0 {
		return def
	}
	return min(o.Depth, tools.MaxExpressionDepth)
}

// GBNF is the grammar of every call the machine accepts, canonical or JSON,
// for llama.cpp's grammar field. It is exact but for two bounds a grammar
// cannot count: the expression length (MaxExpressionLen bytes) and the
// length of a string inside a JSON value (MaxJSONStringLen); parentheses
// nest to MaxExpressionDepth and JSON values to MaxJSONDepth as in the
// machine. Validate the decoded call with the machine before it runs: it
// also checks JSON values against their schemas.
func (m *Machine) GBNF() string {
	return m.libraryGrammar(tools.MaxExpressionDepth, true).gbnf()
}

// Regex is a regular expression for vLLM's guided regex, matching (as a
// whole) exactly the calls the machine accepts, except that expressions
// nest at most opts' depth of parentheses and JSON values opts' depth of
// brackets, neither an expression's length nor a JSON string's is
// bounded, and the canonical form's keyword arguments are left out (they
// would make the expression grow with the cube of a tool's parameters;
// the positional and JSON forms say every call).
// Go's regexp reads an invalid UTF-8 byte as U+FFFD, which a string
// argument may hold, so it matches such bytes where the machine refuses
// them. Validate the decoded call with the machine before it runs.
func (m *Machine) Regex(opts ExportOptions) string {
	return m.libraryGrammar(opts.depth(DefaultExportDepth), false).regex(ref("root"))
}

// libraryGrammar builds the rules of every call of the library; keywords
// says whether the canonical form's keyword arguments are spelled out.
func (m *Machine) libraryGrammar(depth int, keywords bool) *grammar {
	g := newGrammar()
	g.define("root", empty()) // first, so GBNF prints it first; set below
	ws := g.define("ws", star(chars(" \t\n\r")))
	var canon, json []*gnode
	for i := range m.tools {
		t := &m.tools[i]
		canon = append(canon, g.define(fmt.Sprintf("call-%d", i), seq(lit(t.spec.Name), ws, lit("("), ws, m.argsRule(g, i, keywords, depth), lit(")"))))
		json = append(json, g.define(fmt.Sprintf("jcall-%d", i), seq(
			lit(`"`+t.spec.Name+`"`), ws, lit(","), ws, lit(`"args"`), ws, lit(":"), ws, lit("{"), ws,
			m.jsonArgsRule(g, t, depth), lit("}"))))
	}
	var forms []*gnode
	if len(canon) > 0 {
		forms = append(forms, g.define("canonical", alt(canon...)))
		forms = append(forms, g.define("json", seq(lit("{"), ws, lit(`"tool"`), ws, lit(":"), ws, alt(json...), ws, lit("}"))))
	}
	if len(forms) == 0 {
		forms = append(forms, notChars(0, 0x10FFFF)) // an empty library: no call at all
	}
	g.rules["root"] = seq(ws, alt(forms...), ws)
	return g
}

// namedRun is the run of keyword (or JSON) arguments whose first names a
// parameter at or after k, in parameter order, leaving out only optional
// parameters: item(i) is argument i with its name.
func namedRun(t *toolInfo, k int, item func(i int) *gnode) *gnode {
	n, r := len(t.params), t.required
	comma := func(i int) *gnode { return seq(lit(","), ref("ws"), item(i)) }
	optionalFrom := func(i int) []*gnode {
		var out []*gnode
		for j := i; j < n; j++ {
			out = append(out, opt(comma(j)))
		}
		return out
	}
	if k < r {
		parts := []*gnode{item(k)}
		for j := k + 1; j < r; j++ {
			parts = append(parts, comma(j))
		}
		return seq(append(parts, optionalFrom(r)...)...)
	}
	var alts []*gnode
	for i := k; i < n; i++ {
		alts = append(alts, seq(append([]*gnode{item(i)}, optionalFrom(i+1)...)...))
	}
	return alt(alts...)
}

// argsRule is a tool's arguments in the canonical form: positional ones
// (trailing optional ones left out), then, when keywords, keyword ones.
func (m *Machine) argsRule(g *grammar, ti int, keywords bool, depth int) *gnode {
	t := &m.tools[ti]
	n := len(t.params)
	if n == 0 {
		return empty()
	}
	ws := ref("ws")
	keyword := func(i int) *gnode {
		p := &t.params[i]
		return seq(lit(p.name+":"), ws, m.valueRule(g, p, false, depth), ws)
	}
	// rest(k): the arguments from parameter k on, positional or named.
	var rest func(k int) *gnode
	rest = func(k int) *gnode {
		name := fmt.Sprintf("args-%d-%d", ti, k)
		if !keywords {
			name = "p" + name
		}
		if g.has(name) {
			return ref(name)
		}
		p := &t.params[k]
		pos := seq(m.valueRule(g, p, false, depth), ws)
		if k+1 < n {
			tail := seq(lit(","), ws, rest(k+1))
			if k+1 >= t.required {
				tail = opt(tail)
			}
			pos = seq(pos, tail)
		}
		if keywords && p.kind != kindExpression {
			pos = alt(pos, namedRun(t, k, keyword))
		}
		return g.define(name, pos)
	}
	if t.required == 0 {
		return opt(rest(0))
	}
	return rest(0)
}

// jsonArgsRule is a tool's arguments in the JSON form: keys in parameter
// order, optional ones left out anywhere.
func (m *Machine) jsonArgsRule(g *grammar, t *toolInfo, depth int) *gnode {
	if len(t.params) == 0 {
		return empty()
	}
	ws := ref("ws")
	run := namedRun(t, 0, func(i int) *gnode {
		p := &t.params[i]
		return seq(lit(p.key), ws, lit(":"), ws, m.valueRule(g, p, true, depth), ws)
	})
	if t.required == 0 {
		return opt(run)
	}
	return run
}

func (m *Machine) valueRule(g *grammar, p *paramInfo, json bool, depth int) *gnode {
	switch p.kind {
	case kindNumber:
		return g.numberRule()
	case kindInteger:
		return g.integerRule()
	case kindString:
		return g.stringRule(int(p.bound))
	case kindPattern:
		return seq(lit(`"`), g.contentRule(p.pattern), lit(`"`))
	case kindRange:
		return g.contentRule(p.pattern)
	case kindJSON:
		if p.items != "" {
			return g.arrayRule(p.items)
		}
		return g.jsonRule(depth)
	case kindWord:
		words := make([]*gnode, len(p.words))
		for i, w := range p.words {
			words[i] = lit(w)
		}
		return alt(words...)
	}
	if json {
		return seq(lit(`"`), g.exprRules(jsonFlavor(), depth), lit(`"`))
	}
	return g.exprRules(canonicalFlavor(), depth)
}

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
