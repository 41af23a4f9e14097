package constrain

import (
	"fmt"

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
