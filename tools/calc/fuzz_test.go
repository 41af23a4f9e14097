package calc

import (
	"errors"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// FuzzEval checks that Eval never panics and never fails any other way
// than with a one-line *tools.InputError; that everything
// tools.CheckExpression rejects, Eval rejects; that no result prints as
// NaN or Inf; and that an exactly printed plain decimal evaluates to
// itself.
// Seeds beyond these live in testdata/fuzz/FuzzEval.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"( 76.0 - 25.0 )", "2^100", "9^9^9", "25% of 54,788", "-2^2", "2^3^2",
		"10 % 3", "50% - 10", "max(54,788)", "max((54,788), 1)", ".5 + 1,234.5",
		"sqrt(-1)", "ln(0)", "log(2, 1024)", "round(pi, 2)", "avg(1, 2, 3) mod 2",
		"1/3", "0.1+0.2", "2**-3", "10^9999 / 7", "exp(700) * exp(700)",
		"sum_range(1, 10^5000)", "sum_range(0.1, 10^30, 1/3)", "product_range(-3248, 3248)", "product_range(1, 3249)",
		"days_between(date(1, 1, 1), date(9999, 12, 31))", "date(2024, 2, 29) - date(-1, 0, 0)", "sum_range(1, 2, 10^-9000)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Eval(expr)
		if ok, _, _ := tools.CheckExpression(expr); !ok && err == nil {
			t.Fatalf("Eval(%q) = %s, but CheckExpression rejects it", expr, v)
		}
		if err != nil {
			var ie *tools.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Eval(%q): %T %v, want *tools.InputError", expr, err, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Eval(%q): error spans lines: %q", expr, err)
			}
			return
		}
		text := v.String()
		if strings.Contains(text, "NaN") || strings.Contains(text, "Inf") {
			t.Fatalf("Eval(%q) printed %q", expr, text)
		}
		if !v.Exact() || len(text) > tools.MaxExpressionLen || strings.Contains(text, "e") {
			return // only plain decimals are expressions: 1e-350 is not
		}
		again, err := Eval(text)
		if err != nil {
			t.Fatalf("Eval(%q) = %s, which does not evaluate: %v", expr, text, err)
		}
		want, _ := v.Rat()
		if got, ok := again.Rat(); !ok || got.Cmp(want) != 0 {
			t.Fatalf("Eval(%q) = %s, which evaluates to %s", expr, text, again)
		}
	})
}
