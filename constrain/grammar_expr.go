package constrain

import (
	"fmt"

	"github.com/gear-chat/gear/tools"
)

// The expression grammar of tools/expression.go as rules. Within one level
// of parentheses the tokens follow a small automaton — an operand is
// expected (OP), one just ended with a letter or digit (AW) or with ")"
// (AP), a "%" just ended (PCT), an operator word just ended (OPW) — and its
// quirks decide the shape of the rules:
//
//   - "of" and "mod" are operators only where an operator may stand, and a
//     word operator cannot touch a name or number: "2 of 3", "(2)of 3",
//     "5%of(3)", but "2of 3" and "2 of3" are errors;
//   - after "%" a name is an operand ("5 % x" is 5 mod x) unless it is "of"
//     or "mod" ("5% of 3");
//   - a comma is a thousands separator outside a function's own
//     parentheses (1,234) and separates arguments inside them (max(1,234)),
//     so an expression inside a call's parentheses (context c) and one
//     inside plain parentheses or at the top (context g) differ.
//
// The text between two parenthesised operands of one level is regular: a
// "region". A region starts at the beginning of the expression (OP) or
// right after a ")" (AP) and ends at the end of the expression, or with the
// opening of a call ("name(") or of a group ("("). So an expression of
// nesting depth d is
//
//	OP-end | (OP-call C ")" | OP-group G ")") (AP-call C ")" | AP-group G ")")* AP-end
//
// with C and G the expressions of depth d-1 in contexts c and g. Each
// nested expression appears twice, so the regular expression (which inlines
// everything) grows about four times per level: it is unrolled to a chosen
// depth. GBNF names the rules and goes to MaxExpressionDepth, like the
// machine.

// exprFlavor is the white space an expression allows: any JSON white space
// in the canonical form, only the space inside the JSON form's string.
type exprFlavor struct {
	prefix string // rule name prefix
	space  string
}

func canonicalFlavor() exprFlavor { return exprFlavor{prefix: "expr", space: " \t\n\r"} }
func jsonFlavor() exprFlavor      { return exprFlavor{prefix: "jexpr", space: " "} }

// exprRules defines the expression rules of a flavor up to depth and
// returns the top-level expression.
func (g *grammar) exprRules(f exprFlavor, depth int) *gnode {
	top := fmt.Sprintf("%s-g-%d", f.prefix, depth)
	if g.has(top) {
		return ref(top)
	}
	for _, ctx := range []string{"g", "c"} {
		g.exprRegions(f, ctx)
	}
	for d := 0; d <= depth; d++ {
		for _, ctx := range []string{"g", "c"} {
			name := fmt.Sprintf("%s-%s-%d", f.prefix, ctx, d)
			if g.has(name) {
				continue
			}
			r := func(region string) *gnode { return ref(fmt.Sprintf("%s-%s-%s", f.prefix, ctx, region)) }
			if d == 0 {
				g.define(name, r("op-end"))
				continue
			}
			call := ref(fmt.Sprintf("%s-c-%d", f.prefix, d-1))
			group := ref(fmt.Sprintf("%s-g-%d", f.prefix, d-1))
			g.define(name, alt(
				r("op-end"),
				seq(
					alt(seq(r("op-call"), call, lit(")")), seq(r("op-group"), group, lit(")"))),
					star(alt(seq(r("ap-call"), call, lit(")")), seq(r("ap-group"), group, lit(")")))),
					r("ap-end"),
				),
			))
		}
	}
	return ref(top)
}

// exprRegions defines the regions of one context; they do not depend on
// the depth.
func (g *grammar) exprRegions(f exprFlavor, ctx string) {
	name := func(s string) string { return fmt.Sprintf("%s-%s-%s", f.prefix, ctx, s) }
	if g.has(name("op-end")) {
		return
	}
	w := chars(f.space)
	digit := class('0', '9')
	sign := chars("+-" + f.space)                     // what may stand before an operand
	percentRun := star(chars("%" + f.space))          // more "%" and white space
	pc := seq(star(w), lit("%"), percentRun)          // a "%" with the white space around it
	q := seq(star(w), opt(seq(lit("%"), percentRun))) // white space, maybe a "%" run
	symbols := "+-/^"
	if ctx == "c" {
		symbols += ","
	}
	sym := alt(chars(symbols), seq(lit("*"), opt(lit("*"))))
	word := alt(seq(chars("oO"), chars("fF")), seq(chars("mM"), chars("oO"), chars("dD")))
	frac := seq(lit("."), plus(digit))
	var num *gnode
	if ctx == "g" {
		num = alt(seq(alt(seq(rep(digit, 1, 3), plus(seq(lit(","), rep(digit, 3, 3)))), plus(digit)), opt(frac)), frac)
	} else {
		num = alt(seq(plus(digit), opt(frac)), frac)
	}
	nameNode := g.identRules(f)
	nonWord := ref(f.prefix + "-name-nw")
	numName := alt(num, nameNode)
	numNameNW := alt(num, nonWord)
	callHead := seq(nameNode, star(w), lit("("))
	callHeadNW := seq(nonWord, star(w), lit("("))

	// After an operand: bw is what may stand before an operator word (white
	// space after a name or number; nothing needed after ")").
	step := func(bw *gnode) *gnode {
		return alt(
			seq(q, sym, star(sign), numName),
			seq(bw, word, alt(seq(plus(sign), numName), frac)),
			seq(pc, numNameNW),
		)
	}
	exitCall := func(bw *gnode) *gnode {
		return alt(
			seq(q, sym, star(sign), callHead),
			seq(bw, word, plus(sign), callHead),
			seq(pc, callHeadNW),
		)
	}
	exitGroup := func(bw *gnode) *gnode {
		return alt(
			seq(q, sym, star(sign), lit("(")),
			seq(bw, word, star(sign), lit("(")),
			seq(pc, lit("(")),
		)
	}
	afterWord := alt(plus(w), pc)
	afterParen := q
	stepW := g.define(name("step-w"), step(afterWord))
	stepP := g.define(name("step-p"), step(afterParen))
	head := g.define(name("head"), seq(star(sign), numName, star(stepW)))
	tail := g.define(name("tail"), seq(stepP, star(stepW)))
	g.define(name("op-end"), seq(head, q))
	g.define(name("op-call"), alt(seq(head, exitCall(afterWord)), seq(star(sign), callHead)))
	g.define(name("op-group"), alt(seq(head, exitGroup(afterWord)), seq(star(sign), lit("("))))
	g.define(name("ap-end"), seq(opt(tail), q))
	g.define(name("ap-call"), alt(exitCall(afterParen), seq(tail, exitCall(afterWord))))
	g.define(name("ap-group"), alt(exitGroup(afterParen), seq(tail, exitGroup(afterWord))))
}

// identRules defines a flavor's identifiers: any name, and a name that is
// not "of" or "mod" in any case (what may follow "%" as an operand).
func (g *grammar) identRules(f exprFlavor) *gnode {
	anyName := f.prefix + "-name"
	if g.has(anyName) {
		return ref(anyName)
	}
	first := class('A', 'Z', '_', '_', 'a', 'z')
	rest := class('0', '9', 'A', 'Z', '_', '_', 'a', 'z')
	n := tools.MaxIdentifierLen
	g.define(anyName, seq(first, rep(rest, 0, n-1)))
	g.define(f.prefix+"-name-nw", alt(
		first,
		seq(class('A', 'N', 'P', 'Z', '_', '_', 'a', 'n', 'p', 'z'), rest), // two letters, not o.
		seq(chars("oO"), class('0', '9', 'A', 'E', 'G', 'Z', '_', '_', 'a', 'e', 'g', 'z')),
		seq(class('A', 'L', 'N', 'Z', '_', '_', 'a', 'l', 'n', 'z'), rest, rest), // three, not m..
		seq(chars("mM"), class('0', '9', 'A', 'N', 'P', 'Z', '_', '_', 'a', 'n', 'p', 'z'), rest),
		seq(chars("mM"), chars("oO"), class('0', '9', 'A', 'C', 'E', 'Z', '_', '_', 'a', 'c', 'e', 'z')),
		seq(first, rep(rest, 3, n-1)),
	))
	return ref(anyName)
}
