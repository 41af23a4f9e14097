package calc

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// knownFunctions and knownConstants name what an expression may call or
// use, for error messages and the tool's description.
const (
	knownFunctions = "sqrt, abs, round, floor, ceil, ln, exp, log, pow, min, max, avg, factorial, sin, cos, tan, sum_range, product_range, date, days_between, iso_date"
	knownConstants = "pi, e"
)

// constant is the value of a bare name. Names are case-insensitive.
func constant(name string, at int) (Value, error) {
	switch lower := strings.ToLower(name); {
	case lower == "pi":
		return inexact(math.Pi), nil
	case lower == "e":
		return inexact(math.E), nil
	case isFunction(lower):
		return Value{}, tools.Inputf("expression: column %d: %s is a function; call it as %s(x)", at+1, name, lower)
	}
	return Value{}, tools.Inputf("expression: column %d: unknown name %q; known constants: %s", at+1, name, knownConstants)
}

func isFunction(name string) bool {
	for f := range strings.SplitSeq(knownFunctions, ", ") {
		if f == name {
			return true
		}
	}
	return false
}

// call applies the function name to args (at least one: the grammar has
// no empty argument list).
func call(name string, at int, args []Value) (Value, error) {
	lower := strings.ToLower(name)
	switch lower {
	case "sqrt", "abs", "floor", "ceil", "ln", "exp":
		if err := arity(lower, at, len(args), 1); err != nil {
			return Value{}, err
		}
		return unaryFunction(lower, args[0])
	case "round":
		if err := arity(lower, at, len(args), 1, 2); err != nil {
			return Value{}, err
		}
		return round(args)
	case "log":
		if err := arity(lower, at, len(args), 1, 2); err != nil {
			return Value{}, err
		}
		if len(args) == 1 {
			return logarithm(intValue(10), args[0])
		}
		return logarithm(args[0], args[1])
	case "pow":
		if err := arity(lower, at, len(args), 2); err != nil {
			return Value{}, err
		}
		return pow(args[0], args[1])
	case "min", "max":
		best := args[0]
		for _, v := range args[1:] {
			if c := compare(v, best); lower == "min" && c < 0 || lower == "max" && c > 0 {
				best = v
			}
		}
		return best, nil
	case "avg":
		total := args[0]
		var err error
		for _, v := range args[1:] {
			if total, err = add(total, v); err != nil {
				return Value{}, err
			}
		}
		return div(total, intValue(int64(len(args))))
	case "factorial":
		if err := arity(lower, at, len(args), 1); err != nil {
			return Value{}, err
		}
		return factorial(args[0])
	case "sin", "cos", "tan":
		if err := arity(lower, at, len(args), 1); err != nil {
			return Value{}, err
		}
		return trig(lower, args[0])
	case "sum_range":
		if err := arity(lower, at, len(args), 2, 3); err != nil {
			return Value{}, err
		}
		return sumRange(args)
	case "product_range", "days_between":
		if err := arity(lower, at, len(args), 2); err != nil {
			return Value{}, err
		}
		if lower == "days_between" {
			return daysBetween(args[0], args[1])
		}
		return productRange(args[0], args[1])
	case "iso_date":
		if err := arity(lower, at, len(args), 1); err != nil {
			return Value{}, err
		}
		return isoDate(args[0])
	case "date":
		if err := arity(lower, at, len(args), 3); err != nil {
			return Value{}, err
		}
		return dateNumber(args[0], args[1], args[2])
	case "pi", "e":
		return Value{}, tools.Inputf("expression: column %d: %s is a constant, not a function", at+1, lower)
	}
	return Value{}, tools.Inputf("expression: column %d: unknown function %q; known functions: %s", at+1, name, knownFunctions)
}

// arity checks that a function got one of the allowed argument counts.
func arity(name string, at, got int, allowed ...int) error {
	for _, n := range allowed {
		if got == n {
			return nil
		}
	}
	counts := make([]string, len(allowed))
	for i, n := range allowed {
		counts[i] = strconv.Itoa(n)
	}
	noun := "arguments"
	if len(allowed) == 1 && allowed[0] == 1 {
		noun = "argument"
	}
	return tools.Inputf("expression: column %d: %s takes %s %s, got %d", at+1, name, strings.Join(counts, " or "), noun, got)
}

// unaryFunction applies a one-argument function; call has checked name.
func unaryFunction(name string, x Value) (Value, error) {
	what := func() string { return name + "(" + brief(x) + ")" }
	switch name {
	case "abs":
		if x.isNegative() {
			return neg(x), nil
		}
		return x, nil
	case "floor":
		return integerPart(x, floorInt)
	case "ceil":
		return integerPart(x, func(r *big.Rat) *big.Int {
			n := floorInt(new(big.Rat).Neg(r))
			return n.Neg(n)
		})
	case "sqrt":
		if x.isNegative() {
			return Value{}, tools.Inputf("%s is not a real number: sqrt needs a number that is not negative", what())
		}
		if !x.isExact() {
			return fromFloat(math.Sqrt(x.f), what)
		}
		if root, ok := exactSqrt(x.rat); ok {
			return exact(root), nil
		}
		f := math.Sqrt(x.Float64())
		if math.IsInf(f, 0) || f == 0 {
			// Beyond float64 (sqrt(2 * 10^400)): through big.Float.
			f, _ = new(big.Float).SetPrec(64).Sqrt(bigFloat(x.rat)).Float64()
		}
		if f == 0 {
			return Value{}, tooSmall(what)
		}
		return fromFloat(f, what)
	case "ln":
		return logarithm(inexact(math.E), x)
	}
	// exp
	if x.isZero() {
		return intValue(1), nil
	}
	f := math.Exp(x.Float64())
	if f == 0 {
		return Value{}, tooSmall(what)
	}
	return fromFloat(f, what)
}

// integerPart applies floor or ceil: exactly, also to a float's value.
func integerPart(x Value, f func(*big.Rat) *big.Int) (Value, error) {
	n := new(big.Rat).SetInt(f(x.asRat()))
	if x.isExact() {
		return exact(n), nil
	}
	v, _ := n.Float64()
	return inexact(v), nil
}

// round rounds half away from zero, to a whole number or to n decimals
// (n < 0 rounds to tens, hundreds, ...): round(2.5) = 3, round(-2.5) = -3,
// round(3.14159, 2) = 3.14, round(1234, -2) = 1200.
func round(args []Value) (Value, error) {
	x := args[0]
	places := int64(0)
	if len(args) == 2 {
		n := args[1]
		if !n.isExact() || !n.rat.IsInt() || !n.rat.Num().IsInt64() ||
			n.rat.Num().Int64() > maxRoundDigits || n.rat.Num().Int64() < -maxRoundDigits {
			return Value{}, tools.Inputf("round(x, n): n must be a whole number from %d to %d, got %s", -maxRoundDigits, maxRoundDigits, brief(n))
		}
		places = n.rat.Num().Int64()
	}
	scale := new(big.Rat).SetInt(pow10(int(max(places, -places))))
	r := new(big.Rat).Abs(x.asRat())
	if places >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	r.Add(r, big.NewRat(1, 2))
	r.SetInt(floorInt(r))
	if places >= 0 {
		r.Quo(r, scale)
	} else {
		r.Mul(r, scale)
	}
	if x.isNegative() {
		r.Neg(r)
	}
	if x.isExact() {
		return settle(r, func() string { return "round(" + brief(x) + ")" })
	}
	f, _ := r.Float64()
	return inexact(f), nil
}

// logarithm is log_base(x), through ratLn so that exact numbers beyond
// float64 (log(10^1000) = 1000) work.
func logarithm(base, x Value) (Value, error) {
	ten := base.isExact() && base.rat.Cmp(big.NewRat(10, 1)) == 0
	e := !base.isExact() && base.f == math.E
	name := "log(" + brief(base) + ", " + brief(x) + ")"
	switch {
	case ten:
		name = "log(" + brief(x) + ")"
	case e:
		name = "ln(" + brief(x) + ")"
	}
	if x.cmpZero() <= 0 {
		return Value{}, tools.Inputf("%s is undefined: the logarithm needs a positive number", name)
	}
	if base.cmpZero() <= 0 || compare(base, intValue(1)) == 0 {
		return Value{}, tools.Inputf("%s is undefined: the base must be > 0 and not 1", name)
	}
	what := func() string { return name }
	if xf := x.Float64(); xf > 0 && !math.IsInf(xf, 0) {
		// Within float64, the library's logarithms are the most precise.
		switch {
		case ten:
			return fromFloat(math.Log10(xf), what)
		case e:
			return fromFloat(math.Log(xf), what)
		}
	}
	return fromFloat(ln(x)/ln(base), what)
}

// ln is the natural logarithm of a positive value of any size.
func ln(v Value) float64 {
	if f := v.Float64(); f > 0 && !math.IsInf(f, 0) {
		return math.Log(f)
	}
	return ratLn(v.asRat())
}

// factorial is n! for a whole number n ≥ 0, exactly. Its size is known
// before it is computed (log10 n! = lgamma(n+1) / ln 10), so a factorial
// beyond MaxDigits fails at once, like a power that is too large.
func factorial(n Value) (Value, error) {
	what := func() string { return "factorial(" + brief(n) + ")" }
	r := n.asRat()
	if !r.IsInt() || r.Sign() < 0 {
		return Value{}, tools.Inputf("%s is undefined: the factorial needs a whole number that is not negative", what())
	}
	if !r.Num().IsInt64() || r.Num().Int64() > maxFactorial {
		return Value{}, tools.Inputf("result too large: %s has more than %s digits", what(), digitCount(MaxDigits))
	}
	k := r.Num().Int64()
	if k < 2 {
		return intValue(1), nil
	}
	return exact(new(big.Rat).SetInt(new(big.Int).MulRange(2, k))), nil
}

// maxFactorial is the largest n whose factorial has at most MaxDigits
// digits: 3248! has 9,998 digits and 3249! has 10,001.
const maxFactorial = 3248
