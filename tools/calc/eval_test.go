package calc

import (
	"errors"
	"strings"
	"testing"

	"github.com/gear-chat/gear/tools"
)

func TestEval(t *testing.T) {
	tests := []struct {
		expr  string
		want  string
		exact bool // the printed text is exactly the value
	}{
		// The specification's examples.
		{"( 76.0 - 25.0 )", "51", true},
		{"2^100", "1267650600228229401496703205376", true},
		{"1/3", "0.333333333333", false},
		{"0.1+0.2", "0.3", true},
		{"25% of 54788", "13697", true},
		{"25% of 54,788", "13697", true},

		// Precedence and associativity.
		{"2 + 3 * 4", "14", true},
		{"(2 + 3) * 4", "20", true},
		{"10 - 4 - 3", "3", true},
		{"100 / 10 / 5", "2", true},
		{"2 * 3 ^ 2", "18", true},
		{"2^3^2", "512", true},
		{"2**3**2", "512", true},
		{"2 ** 10", "1024", true},
		{"(2^3)^2", "64", true},
		{"7 - 2 * 3 + 8 / 4", "3", true},
		{"2 * 3 mod 4", "2", true},

		// Unary signs.
		{"-2^2", "-4", true},
		{"(-2)^2", "4", true},
		{"-2^3", "-8", true},
		{"2^-1", "0.5", true},
		{"2^-2^2", "0.0625", true},
		{"--3", "3", true},
		{"-+-3", "3", true},
		{"+5", "5", true},
		{"3 - -2", "5", true},
		{"2*-3", "-6", true},
		{"-(4 - 10)", "6", true},
		{"- 0", "0", true},

		// Percent, modulo and the operator words.
		{"50%", "0.5", true},
		{"50% - 10", "-9.5", true},
		{"80 + 5%", "80.05", true},
		{"200 * 15%", "30", true},
		{"(1 + 5%)^2", "1.1025", true},
		{"5% of 5% of 10000", "25", true},
		{"10%%", "0.001", true},
		{"-5%", "-0.05", true},
		{"2^50%", "1.41421356237", false},
		{"10 % 3", "1", true},
		{"10 % (0 - 3)", "-2", true},
		{"20%(3)", "2", true},
		{"10%%3", "0.1", true},
		{"-7 mod 3", "2", true},
		{"7 mod -3", "-2", true},
		{"7.5 mod 2", "1.5", true},
		{"10 MOD 4", "2", true},
		{"3 OF 4", "12", true},
		{"7 mod pi", "0.71681469282", false},

		// Numbers: thousands separators, decimals.
		{"54,788 + 1", "54789", true},
		{"1,234,567.89 * 100", "123456789", true},
		{"max(54,788)", "788", true},
		{"max((54,788), 1)", "54788", true},
		{"avg(1,000)", "0.5", true},
		{".5 + .25", "0.75", true},
		{"000.5", "0.5", true},
		{"1.10 * 3", "3.3", true},
		{"123456789012345678901234567890 + 1", "123456789012345678901234567891", true},
		{"0.000000000000000000001 * 10", "0.00000000000000000001", true},

		// Exactness and printing.
		{"2/3", "0.666666666667", false},
		{"-1/3", "-0.333333333333", false},
		{"1/7*7", "1", true},
		{"10/4", "2.5", true},
		{"1/8", "0.125", true},
		{"2^-20", "0.00000095367431640625", true},
		{"2^-30", "9.31322574615e-10", false},
		{"1.05^30", "4.32194237515", false},
		{"10^15/3", "3.33333333333e+14", false},
		{"1/3000000", "0.000000333333333333", false},
		{"1/30000000", "3.33333333333e-8", false},
		{"2/3 * 10^12", "666666666667", false},
		{"9999999999999/10000000000001", "1", false},
		{"123456789012 * 10", "1234567890120", true},
		{"123456789012.5", "123456789012.5", true},
		{"0^0", "1", true},

		// Functions and constants.
		{"sqrt(16)", "4", true},
		{"sqrt (16)", "4", true},
		{"SQRT(16)", "4", true},
		{"sqrt(2)", "1.41421356237", false},
		{"sqrt(1/4)", "0.5", true},
		{"sqrt(2.25)", "1.5", true},
		{"sqrt(9^2 + 12^2)", "15", true},
		{"abs(-3.5)", "3.5", true},
		{"abs(2 - pi)", "1.14159265359", false},
		{"round(2.5)", "3", true},
		{"round(-2.5)", "-3", true},
		{"round(2.4)", "2", true},
		{"round(pi, 2)", "3.14", false},
		{"round(2/3, 3)", "0.667", true},
		{"round(1234, -2)", "1200", true},
		{"floor(-2.5)", "-3", true},
		{"ceil(-2.5)", "-2", true},
		{"floor(7/2)", "3", true},
		{"ceil(310 / 52)", "6", true},
		{"ceil(pi)", "4", false},
		{"ln(e)", "1", false},
		{"ln(1)", "0", false},
		{"exp(0)", "1", true},
		{"exp(1)", "2.71828182846", false},
		{"exp(30)", "1.06864745815e+13", false},
		{"log(1000)", "3", false},
		{"log(0.001)", "-3", false},
		{"log(2, 1024)", "10", false},
		{"pow(2, 10)", "1024", true},
		{"pow(4, 0.5)", "2", true},
		{"8^(2/3)", "4", false},
		{"min(3, 1, 2)", "1", true},
		{"max(3, 1, 2)", "3", true},
		{"max(-1)", "-1", true},
		{"min(pi, 3)", "3", true},
		{"avg(1, 2, 3, 4)", "2.5", true},
		{"avg(72, 85, 91, 64)", "78", true},
		{"factorial(0)", "1", true},
		{"factorial(1)", "1", true},
		{"factorial(12)", "479001600", true},
		{"FACTORIAL(5) / factorial(3)", "20", true},
		{"factorial(sqrt(16))", "24", true},
		{"factorial(25)", "15511210043330985984000000", true},
		{"2 * Pi", "6.28318530718", false},
		{"e", "2.71828182846", false},

		// Large and small, within the limits.
		{"1.0001^100000", "22015.4560485", false},
		{"(10^400)^0.5", "1" + strings.Repeat("0", 200), true},
		{"sqrt(10^400)", "1" + strings.Repeat("0", 200), true},
		{"sqrt(2 * 10^400)", "1.41421356237e+200", false},
		{"sqrt(10^-700)", "1e-350", true},
		{"2^-100 * 5^-100", "1e-100", true},
		{"2^-100 * 5^-99", "5e-100", true},
		{"10^-400 * 3", "3e-400", true},
		{"ln(10^1000)", "2302.58509299", false},
		{"log(10^5000)", "5000", false},
		{"10^9999 / 10^9998", "10", true},
		{"9 * 10^9999 - 9 * 10^9999", "0", true},
		{"(7*10^5000)/(3*10^5000)", "2.33333333333", false},
		{"(7*10^500)/(3*10^500)", "2.33333333333", false},
		{"(7*10^500)/(3*10^500) * 3", "7", true},
		{"7^11800/3^20900", "2.1020765494", false},
		{"(10^9999 + 7) mod 10", "7", true},
		{"(10^9999 + 7) mod -10", "-3", true},
		{"(10^999 + 1/3) mod 1", "0.333333333333", false},
		{"10^400 * (pi - pi)", "0", false},
		{"10^400 * 1.5", "15" + strings.Repeat("0", 399), true},
		{"10^400 * (sqrt(2) / 10^300)", "1.41421356237e+100", false},
		{"sqrt(2) / 10^300", "1.41421356237e-300", false},
		{"10^400 / (sqrt(2) * 10^100)", "7.07106781187e+299", false},
		{"pi mod 10^400", "3.14159265359", false},
	}
	for _, tt := range tests {
		v, err := Eval(tt.expr)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.expr, err)
			continue
		}
		if got := v.String(); got != tt.want || v.Exact() != tt.exact {
			t.Errorf("Eval(%q) = %q (exact %v), want %q (exact %v)", tt.expr, got, v.Exact(), tt.want, tt.exact)
		}
	}
}

func TestEvalLongResults(t *testing.T) {
	tests := []struct {
		expr   string
		digits int
	}{
		{"2^33219", 10000}, // the largest power of two within MaxDigits
		{"10^9999", 10000},
		{"9 * 10^9999", 10000},
		{"99999999999^9 * 99999999999^9", 198},
		{"(((((((((((((((2^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)", 9865}, // 2^32768
	}
	for _, tt := range tests {
		v, err := Eval(tt.expr)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.expr, err)
			continue
		}
		if got := len(v.String()); got != tt.digits || !v.Exact() {
			t.Errorf("Eval(%q) has %d digits (exact %v), want %d exact", tt.expr, got, v.Exact(), tt.digits)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	deep := strings.Repeat("(", tools.MaxExpressionDepth+1) + "1" + strings.Repeat(")", tools.MaxExpressionDepth+1)
	tests := []struct {
		expr string
		want string // a part of the message
	}{
		// Division by zero.
		{"1/0", "division by zero: 1 / 0"},
		{"1/(2-2)", "division by zero"},
		{"-1/0", "division by zero: (-1) / 0"},
		{"5 mod 0", "division by zero: 5 mod 0"},
		{"5 % 0", "division by zero: 5 mod 0"},
		{"0^-1", "division by zero: 0 ^ (-1)"},
		{"1/(pi-pi)", "division by zero"},
		{"pow(0, -2)", "division by zero"},

		// Names.
		{"foo(2)", `unknown function "foo"; known functions: sqrt, abs, round`},
		{"factorial(1, 2)", "factorial takes 1 argument, got 2"},
		{"factorial(-1)", "factorial(-1) is undefined: the factorial needs a whole number"},
		{"factorial(2.5)", "factorial(2.5) is undefined"},
		{"factorial(3249)", "result too large: factorial(3249) has more than 10,000 digits"},
		{"factorial(10^30)", "result too large"},
		{"2 * sine(1)", `column 5: unknown function "sine"`},
		{"x + 1", `unknown name "x"; known constants: pi, e`},
		{"sqrt", "sqrt is a function; call it as sqrt(x)"},
		{"pi(2)", "pi is a constant, not a function"},
		{"of", `unknown name "of"`},
		{"sqrt(1, 2)", "sqrt takes 1 argument, got 2"},
		{"pow(2)", "pow takes 2 arguments, got 1"},
		{"round(1, 2, 3)", "round takes 1 or 2 arguments, got 3"},
		{"round(2, 0.5)", "n must be a whole number from -100 to 100, got 0.5"},
		{"round(2, 1000)", "n must be a whole number"},

		// Domains.
		{"sqrt(-1)", "sqrt(-1) is not a real number"},
		{"ln(0)", "ln(0) is undefined"},
		{"ln(-1)", "ln(-1) is undefined"},
		{"log(0)", "log(0) is undefined"},
		{"log(1, 5)", "log(1, 5) is undefined: the base must be > 0 and not 1"},
		{"log(-2, 5)", "the base must be"},
		{"(-8)^(1/3)", "(-8) ^ 0.333333333333 is not a real number"},
		{"(-8)^0.5", "not a real number"},

		// Too large or too small.
		{"9^9^9", "result too large: 9 ^ 387420489 has about 369,693,100 digits (limit 10,000)"},
		{"2^2^2^2^2", "result too large: 2 ^ 65536 has about 19,729 digits"},
		{"2^33220", "result too large: 2 ^ 33220 has about 10,001 digits"},
		{"10^10000", "result too large"},
		{"10^9999 * 10", "result too large"},
		{"10^5000 * 10^5000", "result too large"},
		{"((((((((((((((((2^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)^2)", "result too large"},
		{"exp(-1000)", "result too small: exp(-1000)"},
		{"99999999999^99999999999", "result too large"},
		{"(-9)^(10^20 + 1)", "result too large"},
		{"exp(1000)", "result too large: exp(1000) is beyond the calculator's range"},
		{"10^400 * pi", "result too large"},
		{"2^1023 * 2.5 * sqrt(2) * 2^10", "result too large"},
		{"0.5^40000", "result too small: 0.5 ^ 40000"},
		{"2^-40000", "result too small"},
		{"(1/3)^30000", "result too small"},
		{"10^-400 * pi", "result too small"},
		{"exp(-1000) * 10^-400", "result too small"},
		{"sqrt(2) / 10^400", "result too small"},
		{"sqrt(2 / 10^700)", "result too small: sqrt("},
		{"-pi mod 10^400", "result too large"},
		{"10^400 mod pi", "1e+400 mod 3.14159265359 cannot be computed"},
		{"10^400 * sqrt(2) / 10^300", "result too large: 1e+400 * 1.41421356237"},

		// Syntax and the grammar's limits.
		{"", "empty expression"},
		{"1 +", "column 4: expression ends where a number was expected"},
		{"(1", `unclosed "("`},
		{"1)", `unmatched ")"`},
		{"1e5", `column 2: unexpected "e" after a number`},
		{"1 2", "expected an operator"},
		{"1,2", `"," outside a function's arguments`},
		{"1,2345", "thousands separator followed by more than three digits"},
		{"2 $ 3", "expected an operator"},
		{strings.Repeat("1+", tools.MaxExpressionLen/2) + "1", "expression longer than 2000 characters"},
		{deep, "expression nested deeper than 32 parentheses"},
		{strings.Repeat("sqrt(", 33) + "1" + strings.Repeat(")", 33), "nested deeper than 32"},
	}
	for _, tt := range tests {
		v, err := Eval(tt.expr)
		if err == nil {
			t.Errorf("Eval(%.40q) = %.40s, want an error containing %q", tt.expr, v, tt.want)
			continue
		}
		var ie *tools.InputError
		if !errors.As(err, &ie) {
			t.Errorf("Eval(%.40q): %T %v, want *tools.InputError", tt.expr, err, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.want) {
			t.Errorf("Eval(%.40q) error %q, want it to contain %q", tt.expr, msg, tt.want)
		}
		if strings.ContainsAny(msg, "\n\r") || len(msg) > 240 {
			t.Errorf("Eval(%.40q) error is not one short line: %q", tt.expr, msg)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	v, err := Eval("1/3")
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := v.Rat(); !ok || r.String() != "1/3" {
		t.Errorf("Rat() = %v, %v; want 1/3, true", r, ok)
	}
	if v.Fraction() != "1/3" {
		t.Errorf("Fraction() = %q, want 1/3", v.Fraction())
	}
	if f := v.Float64(); f < 0.3333 || f > 0.3334 {
		t.Errorf("Float64() = %v", f)
	}
	// Rat returns a copy: changing it does not change the value.
	r, _ := v.Rat()
	r.SetInt64(7)
	if v.String() != "0.333333333333" {
		t.Errorf("Value changed through Rat(): %s", v)
	}

	w, err := Eval("sqrt(2)")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Rat(); ok || w.Fraction() != "" || w.Exact() {
		t.Errorf("sqrt(2) claims to be exact")
	}
	if big, _ := Eval("0.5^100"); big.Fraction() != "1/1267650600228229401496703205376" {
		t.Errorf("0.5^100 Fraction() = %q", big.Fraction())
	}
	if big, _ := Eval("(1/3)^200"); big.Fraction() != "" {
		t.Errorf("(1/3)^200 Fraction() is not kept short: %d bytes", len(big.Fraction()))
	}
}
