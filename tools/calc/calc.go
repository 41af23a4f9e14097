// Package calc is gear's Calculator tool: a safe arithmetic evaluator with
// its own tokenizer and precedence-climbing parser over the expression
// grammar of tools.CheckExpression. Nothing is ever handed to an
// interpreter. Arithmetic is exact (math/big rationals) wherever it can be
// — + - * /, integer powers, percent, floor, ceil, round, min, max, avg —
// and float64 once an irrational function or constant takes part. Every
// result is bounded (MaxDigits), so no expression can hang or eat memory.
package calc

import (
	"context"

	"github.com/gear-chat/gear/tools"
)

// Data is the structured result of a Calculator call.
type Data struct {
	Expression string `json:"expression"`
	Value      string `json:"value"`
	// Exact is true when Value is exactly the result (not rounded, and not
	// the result of floating-point arithmetic).
	Exact bool `json:"exact"`
	// Fraction is the exact result as "p/q" when Value had to round it.
	Fraction string `json:"fraction,omitempty"`
}

type calculator struct{}

// New returns the Calculator tool.
func New() tools.Tool { return calculator{} }

func (calculator) Spec() tools.Spec {
	return tools.Spec{
		Name:   "Calculator",
		Family: tools.FamilyCalc,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Calculator API is used for answering questions that contain numbers and require " +
			"arithmetic operations, including addition, subtraction, multiplication, division, " +
			"percentages, powers, square roots, logarithms, rounding, and the minimum, maximum or " +
			"average of a list of numbers. Call it with the arithmetic formula that answers the " +
			"question; it returns the number, exact where possible.",
		Params: []tools.Param{{
			Name: "expression",
			Type: tools.TypeExpression,
			Description: "the arithmetic formula: numbers (54,788 and .5 are fine), + - * / ^ and " +
				"parentheses, x% (x/100), 'x% of y', 'a mod b', functions " + knownFunctions +
				" (log(x) is base 10, log(b, x) base b), constants " + knownConstants,
		}},
		Examples: []tools.Example{
			{Query: "A school bus holds 52 children. How many buses does a trip for 310 children need?", Call: "Calculator(ceil(310 / 52))"},
			{Query: "What is 18% of 2,450?", Call: "Calculator(18% of 2,450)"},
			{Query: "Six friends share a restaurant bill of 125.40 and add a 15% tip. How much does each pay?", Call: "Calculator(125.40 * (1 + 15%) / 6)"},
			{Query: "How long is the diagonal of a 9 by 12 rectangle?", Call: "Calculator(sqrt(9^2 + 12^2))"},
			{Query: "What is the average of 72, 85, 91 and 64?", Call: "Calculator(avg(72, 85, 91, 64))"},
			{Query: "Compute 3 to the power of 40 minus 1.", Call: "Calculator(3^40 - 1)"},
		},
		Hints: hints(),
	}
}

// Run evaluates the call's expression. Evaluation is bounded and takes
// well under a millisecond, so it does not watch ctx beyond a check that
// the caller still wants the answer.
func (calculator) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	expr := call.Text("expression")
	v, err := Eval(expr)
	if err != nil {
		return tools.Result{}, err
	}
	text, exact := v.format()
	return tools.Result{
		Text: text,
		Data: Data{Expression: expr, Value: text, Exact: exact, Fraction: v.fraction(exact)},
	}, nil
}
