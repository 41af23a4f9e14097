package calc

import (
	"testing"

	"github.com/gear-chat/gear/tools"
)

// exactExpr and mixedExpr are 100 tokens each (checked by countTokens):
// the target is evaluating a 100-token expression in < 100 µs.
const (
	exactExpr = "(12.5 + 3) * 4 - 7 / 2 + 2^10 - 25% of 54,788 + (1,234 - 56) * 3 / 8 - 17 mod 5 + " +
		"(99 - 1) / (7 + 3) * 2^-3 + 10 % 4 - (3.75 * 8 + 1) / 5 + 6 * (7 - 2) ^ 2 - " +
		"1/3 + 2/7 - 5 * (6 - 4) + -81 / 9 - 0.125 * 64"
	mixedExpr = "sqrt(16) + ln(e) * 2 - log(1000) + max(1, 2, 3) * avg(4, 5, 6) - min(7, 8) + " +
		"round(pi, 2) * 10 + abs(-4) * exp(1) + pow(2, 8) - " +
		"log(2, 1024) + sqrt(2) * 3 - 12.5% of 80 + (1 + 5%)^2 - 1/3"
)

func TestBenchExpressionsHave100Tokens(t *testing.T) {
	for _, e := range []string{exactExpr, mixedExpr} {
		if n := countTokens(e); n != 100 {
			t.Errorf("%d tokens, want 100: %s", n, e)
		}
		if _, err := Eval(e); err != nil {
			t.Errorf("%s: %v", e, err)
		}
	}
}

// countTokens counts numbers, names, operators, parentheses and commas.
func countTokens(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			i++
			continue
		case isDigit(c) || c == '.':
			for i < len(s) && (isDigit(s[i]) || s[i] == '.' || s[i] == ',' && i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3])) {
				i++
			}
		case isLetter(c):
			for i < len(s) && (isLetter(s[i]) || isDigit(s[i])) {
				i++
			}
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			i += 2
		default:
			i++
		}
		n++
	}
	return n
}

func benchmarkEval(b *testing.B, expr string) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Eval(expr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval100TokensExact(b *testing.B) { benchmarkEval(b, exactExpr) }
func BenchmarkEval100TokensMixed(b *testing.B) { benchmarkEval(b, mixedExpr) }
func BenchmarkEval2Pow100(b *testing.B)        { benchmarkEval(b, "2^100") }

// BenchmarkEvalTowerFails measures how fast 9^9^9 is refused.
func BenchmarkEvalTowerFails(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Eval("9^9^9"); err == nil {
			b.Fatal("9^9^9 evaluated")
		}
	}
}

// BenchmarkEvalWorstCase is the slowest kind of expression found within
// the length limit: quotients of integers of about MaxDigits digits, each
// continuing as a float.
func BenchmarkEvalWorstCase(b *testing.B) {
	expr := "7^11800/3^20900"
	for len(expr) < tools.MaxExpressionLen-20 {
		expr += " + 7^11800/3^20900"
	}
	benchmarkEval(b, expr)
}
