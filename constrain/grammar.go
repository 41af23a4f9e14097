package constrain

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// The exports share one grammar, written as named rules over a small
// regular-expression AST. GBNF prints the rules as they are; the regular
// expression inlines them (so its expression rules are unrolled to a fixed
// depth: a regular expression cannot count parentheses).

type gop uint8

const (
	gLit   gop = iota // exact text
	gClass            // one character of a class (or, negated, outside it)
	gSeq
	gAlt
	gRep // kids[0] repeated min..max times; max < 0 is unbounded
	gRef // the rule called ref
)

type gnode struct {
	op       gop
	lit      string
	ranges   []rune // gClass: sorted, non-overlapping inclusive pairs
	neg      bool
	kids     []*gnode
	min, max int
	ref      string
}

func lit(s string) *gnode { return &gnode{op: gLit, lit: s} }

// class is a character class of pairs lo, hi.
func class(pairs ...rune) *gnode { return &gnode{op: gClass, ranges: normalizeRanges(pairs)} }

// chars is the class of the characters of s.
func chars(s string) *gnode {
	var pairs []rune
	for _, r := range s {
		pairs = append(pairs, r, r)
	}
	return class(pairs...)
}

func notChars(pairs ...rune) *gnode {
	n := class(pairs...)
	n.neg = true
	return n
}

func seq(kids ...*gnode) *gnode {
	var flat []*gnode
	for _, k := range kids {
		switch {
		case k.op == gSeq:
			flat = append(flat, k.kids...)
		case k.op == gLit && k.lit == "":
		default:
			flat = append(flat, k)
		}
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &gnode{op: gSeq, kids: flat}
}

func alt(kids ...*gnode) *gnode {
	var flat []*gnode
	for _, k := range kids {
		if k.op == gAlt {
			flat = append(flat, k.kids...)
		} else {
			flat = append(flat, k)
		}
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &gnode{op: gAlt, kids: flat}
}

func rep(k *gnode, min, max int) *gnode {
	return &gnode{op: gRep, kids: []*gnode{k}, min: min, max: max}
}
func star(k *gnode) *gnode   { return rep(k, 0, -1) }
func plus(k *gnode) *gnode   { return rep(k, 1, -1) }
func opt(k *gnode) *gnode    { return rep(k, 0, 1) }
func ref(name string) *gnode { return &gnode{op: gRef, ref: name} }
func empty() *gnode          { return lit("") }

func normalizeRanges(pairs []rune) []rune {
	type span struct{ lo, hi rune }
	spans := make([]span, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		spans = append(spans, span{pairs[i], pairs[i+1]})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	var out []rune
	for _, s := range spans {
		if n := len(out); n > 0 && s.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], s.hi)
			continue
		}
		out = append(out, s.lo, s.hi)
	}
	return out
}

// grammar is an ordered set of rules; "root" is the start.
type grammar struct {
	names    []string
	rules    map[string]*gnode
	patterns map[string]string // content pattern -> its rule
}

func newGrammar() *grammar {
	return &grammar{rules: map[string]*gnode{}, patterns: map[string]string{}}
}

func (g *grammar) define(name string, n *gnode) *gnode {
	if _, dup := g.rules[name]; !dup {
		g.names = append(g.names, name)
	}
	g.rules[name] = n
	return ref(name)
}

func (g *grammar) has(name string) bool { _, ok := g.rules[name]; return ok }

// Precedences for printing: what a node needs around it in a context.
const (
	precAlt = iota
	precSeq
	precAtom
)

// regex prints a rule (or a reference to one) as one regular expression
// in the syntax Go's regexp, Python's re and the guided-decoding engines
// share: (?:...) groups, [...] classes, \xNN for control characters,
// other characters as themselves.
func (g *grammar) regex(n *gnode) string {
	var b strings.Builder
	g.printRegex(&b, n, precAlt, map[string]string{})
	return b.String()
}

func (g *grammar) printRegex(b *strings.Builder, n *gnode, ctx int, memo map[string]string) {
	switch n.op {
	case gLit:
		if utf8.RuneCountInString(n.lit) > 1 && ctx > precAtom {
			b.WriteString("(?:")
			writeRegexLit(b, n.lit)
			b.WriteString(")")
			return
		}
		writeRegexLit(b, n.lit)
	case gClass:
		writeRegexClass(b, n)
	case gSeq, gAlt:
		printList(b, n, ctx, "(?:", "", "|", func(k *gnode, kctx int) { g.printRegex(b, k, kctx, memo) })
	case gRep:
		g.printRegex(b, n.kids[0], precAtom+1, memo)
		b.WriteString(repSuffix(n.min, n.max))
	case gRef:
		key := n.ref + fmt.Sprint(ctx)
		s, ok := memo[key]
		if !ok {
			var sub strings.Builder
			g.printRegex(&sub, g.rules[n.ref], ctx, memo)
			s = sub.String()
			memo[key] = s
		}
		b.WriteString(s)
	}
}

func repSuffix(min, max int) string {
	switch {
	case min == 0 && max < 0:
		return "*"
	case min == 1 && max < 0:
		return "+"
	case min == 0 && max == 1:
		return "?"
	case max < 0:
		return fmt.Sprintf("{%d,}", min)
	case min == max:
		return fmt.Sprintf("{%d}", min)
	}
	return fmt.Sprintf("{%d,%d}", min, max)
}

// printList prints the kids of a sequence or an alternation, joined by
// seqSep or altSep, in a group (open ... ")") when the context binds
// tighter than the node; print prints one kid in a context.
func printList(b *strings.Builder, n *gnode, ctx int, open, seqSep, altSep string, print func(k *gnode, ctx int)) {
	prec, sep := precSeq, seqSep
	if n.op == gAlt {
		prec, sep = precAlt, altSep
	}
	if ctx > prec {
		b.WriteString(open)
	}
	for i, k := range n.kids {
		if i > 0 {
			b.WriteString(sep)
		}
		print(k, prec+1)
	}
	if ctx > prec {
		b.WriteByte(')')
	}
}

// How the exports escape characters: regexSpecial are the characters
// escaped in a regular expression's literal text, regexClassSpecial those
// escaped inside a class; each syntax writes hex digits in its own case.
const (
	regexSpecial      = `\.+*?()|[]{}^$`
	regexClassSpecial = `\]-^[`
	regexHex          = `\x%02x`
	gbnfHex           = `\x%02X`
)

func writeRegexLit(b *strings.Builder, s string) {
	for _, r := range s {
		writeEscaped(b, r, regexSpecial, "", regexHex)
	}
}

func writeRegexClass(b *strings.Builder, n *gnode) {
	if !n.neg && len(n.ranges) == 2 && n.ranges[0] == n.ranges[1] {
		writeRegexLit(b, string(n.ranges[0]))
		return
	}
	b.WriteByte('[')
	if n.neg {
		b.WriteByte('^')
	}
	for i := 0; i < len(n.ranges); i += 2 {
		writeEscaped(b, n.ranges[i], regexClassSpecial, "", regexHex)
		if n.ranges[i+1] != n.ranges[i] {
			if n.ranges[i+1] > n.ranges[i]+1 {
				b.WriteByte('-')
			}
			writeEscaped(b, n.ranges[i+1], regexClassSpecial, "", regexHex)
		}
	}
	b.WriteByte(']')
}

// gbnf prints the grammar for llama.cpp: one rule per line, root first.
func (g *grammar) gbnf() string {
	var b strings.Builder
	for _, name := range g.names {
		b.WriteString(name)
		b.WriteString(" ::= ")
		g.printGBNF(&b, g.rules[name], precAlt)
		b.WriteByte('\n')
	}
	return b.String()
}

func (g *grammar) printGBNF(b *strings.Builder, n *gnode, ctx int) {
	switch n.op {
	case gLit:
		writeGBNFString(b, n.lit)
	case gClass:
		if !n.neg && len(n.ranges) == 2 && n.ranges[0] == n.ranges[1] {
			writeGBNFString(b, string(n.ranges[0]))
			return
		}
		b.WriteByte('[')
		if n.neg {
			b.WriteByte('^')
		}
		for i := 0; i < len(n.ranges); i += 2 {
			writeGBNFClassRune(b, n.ranges[i])
			if n.ranges[i+1] != n.ranges[i] {
				b.WriteByte('-')
				writeGBNFClassRune(b, n.ranges[i+1])
			}
		}
		b.WriteByte(']')
	case gSeq, gAlt:
		printList(b, n, ctx, "(", " ", " | ", func(k *gnode, kctx int) { g.printGBNF(b, k, kctx) })
	case gRep:
		g.printGBNF(b, n.kids[0], precAtom+1)
		b.WriteString(repSuffix(n.min, n.max))
	case gRef:
		b.WriteString(n.ref)
	}
}

func writeGBNFString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		writeEscaped(b, r, `"\`, "", gbnfHex)
	}
	b.WriteByte('"')
}

// writeGBNFClassRune escapes what llama.cpp's class parser would read as
// syntax; it knows \x, \u, \U, \t, \r, \n, \\, \", \[ and \].
func writeGBNFClassRune(b *strings.Builder, r rune) {
	writeEscaped(b, r, `\]["`, "-^", gbnfHex)
}

// writeEscaped writes r for an export: tab, newline and carriage return
// by name, the characters of backslashed after a backslash, and those of
// hexed, control characters and DEL in hex (hexFormat, which differs
// between the syntaxes only in the case of its digits).
func writeEscaped(b *strings.Builder, r rune, backslashed, hexed, hexFormat string) {
	switch {
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case strings.ContainsRune(backslashed, r):
		b.WriteByte('\\')
		b.WriteRune(r)
	case strings.ContainsRune(hexed, r) || r < 0x20 || r == 0x7f:
		fmt.Fprintf(b, hexFormat, r)
	default:
		b.WriteRune(r)
	}
}
