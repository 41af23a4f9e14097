package calc

import (
	"math"
	"math/big"

	"github.com/gear-chat/gear/tools"
)

// Limits of the arithmetic. They keep every evaluation small: no exact
// number grows beyond MaxDigits, so no expression within
// tools.MaxExpressionLen can eat memory or time.
const (
	// MaxDigits bounds an exact integer, and the numerator of an exact
	// fraction, in decimal digits.
	MaxDigits = 10000
	// MaxDenominatorDigits bounds the denominator of an exact fraction. A
	// fraction beyond it continues as a float: it would print rounded to
	// SignificantDigits anyway, and sums of such fractions are where exact
	// arithmetic gets slow (a gcd per operation).
	MaxDenominatorDigits = 1000
	// maxBits is MaxDigits in bits: 2^33219 < 10^10000 < 2^33220, so a
	// number of at most maxBits bits has at most MaxDigits digits, one of
	// maxBits+2 or more bits has more, and one of maxBits+1 bits is
	// compared with 10^MaxDigits. maxDenBits is the same for
	// MaxDenominatorDigits: 2^3321 < 10^1000 < 2^3322.
	maxBits    = 33219
	maxDenBits = 3321
	// SignificantDigits is how many significant digits a result that
	// cannot be printed exactly is rounded to.
	SignificantDigits = 12
	// MaxFractionDigits bounds the decimals of an exact terminating result
	// printed in full (0.1+0.2 prints 0.3); one with more decimals
	// (1.05^30) is rounded to SignificantDigits.
	MaxFractionDigits = 20
	// maxRoundDigits bounds round(x, n)'s n.
	maxRoundDigits = 100
)

// Value is a calculator result: an exact rational when every step was
// exact (+ - * /, integer powers, percent, floor, ...), a float64 once an
// irrational function (sqrt of a non-square, ln, exp, pi, ...) took part.
type Value struct {
	rat *big.Rat // the exact value; nil when the value is inexact
	f   float64  // the value when rat is nil; always finite
	// day says the value is a day's number written as its calendar date
	// (iso_date); arithmetic on it gives a plain number again.
	day bool
}

func exact(r *big.Rat) Value     { return Value{rat: r} }
func inexact(f float64) Value    { return Value{f: f} }
func intValue(n int64) Value     { return exact(new(big.Rat).SetInt64(n)) }
func (v Value) isExact() bool    { return v.rat != nil }
func (v Value) isZero() bool     { return v.cmpZero() == 0 }
func (v Value) isNegative() bool { return v.cmpZero() < 0 }

func (v Value) cmpZero() int {
	if v.rat != nil {
		return v.rat.Sign()
	}
	switch {
	case v.f > 0:
		return 1
	case v.f < 0:
		return -1
	}
	return 0
}

// Rat returns the exact value, and false when the value is inexact.
func (v Value) Rat() (*big.Rat, bool) {
	if v.rat == nil {
		return nil, false
	}
	return new(big.Rat).Set(v.rat), true
}

// Float64 returns the value as the nearest float64 (±Inf for exact values
// beyond its range).
func (v Value) Float64() float64 {
	if v.rat != nil {
		f, _ := v.rat.Float64()
		return f
	}
	return v.f
}

// asRat returns the value as a rational: exact values as they are,
// floats exactly as the binary fraction they hold.
func (v Value) asRat() *big.Rat {
	if v.rat != nil {
		return v.rat
	}
	return new(big.Rat).SetFloat64(v.f)
}

// compare orders two values exactly, also across exact and inexact.
func compare(a, b Value) int {
	if a.rat == nil && b.rat == nil {
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	}
	return a.asRat().Cmp(b.asRat())
}

// settle checks an exact result against the size limit. A result beyond
// it continues as a float when it fits one (1.0001^100000 is about
// 22015); otherwise the calculation fails.
func settle(r *big.Rat, what func() string) (Value, error) {
	if fitsDigits(r.Num(), MaxDigits, maxBits) && fitsDigits(r.Denom(), MaxDenominatorDigits, maxDenBits) {
		return exact(r), nil
	}
	f, _ := r.Float64()
	if f == 0 {
		return Value{}, tooSmall(what)
	}
	return fromFloat(f, what)
}

// fitsDigits reports whether x has at most digits decimal digits; bits
// is the largest bit length that always does.
func fitsDigits(x *big.Int, digits, bits int) bool {
	switch n := x.BitLen(); {
	case n <= bits:
		return true
	case n > bits+1:
		return false
	}
	return new(big.Int).Abs(x).Cmp(pow10(digits)) < 0
}

// fromFloat checks a float result: NaN and ±Inf are never values.
func fromFloat(f float64, what func() string) (Value, error) {
	switch {
	case math.IsNaN(f):
		return Value{}, tools.Inputf("%s is not a real number", what())
	case math.IsInf(f, 0):
		return Value{}, tools.Inputf("result too large: %s is beyond the calculator's range (%s digits exact, about 1.8e308 otherwise)", what(), digitCount(MaxDigits))
	}
	return inexact(f), nil
}

// tooSmall is the error of a non-zero result that underflows.
func tooSmall(what func() string) error {
	return tools.Inputf("result too small: %s is nearer to zero than the calculator can represent", what())
}

// describe renders "a op b" for an error message, operands shortened.
func describe(a Value, op string, b Value) func() string {
	return func() string { return operand(a) + " " + op + " " + operand(b) }
}

// operand is brief(v), in parentheses when negative: (-8) ^ 0.5.
func operand(v Value) string {
	if v.isNegative() {
		return "(" + brief(v) + ")"
	}
	return brief(v)
}

func divisionByZero(a Value, op string) error {
	return tools.Inputf("division by zero: %s %s 0", operand(a), op)
}

func add(a, b Value) (Value, error) {
	if a.isExact() && b.isExact() {
		return settle(new(big.Rat).Add(a.rat, b.rat), describe(a, "+", b))
	}
	return fromFloat(a.Float64()+b.Float64(), describe(a, "+", b))
}

func sub(a, b Value) (Value, error) {
	if a.isExact() && b.isExact() {
		return settle(new(big.Rat).Sub(a.rat, b.rat), describe(a, "-", b))
	}
	return fromFloat(a.Float64()-b.Float64(), describe(a, "-", b))
}

func mul(a, b Value) (Value, error) {
	if a.isExact() && b.isExact() {
		return settle(new(big.Rat).Mul(a.rat, b.rat), describe(a, "*", b))
	}
	return floatProduct(a, b, false, describe(a, "*", b))
}

func div(a, b Value) (Value, error) {
	if b.isZero() {
		return Value{}, divisionByZero(a, "/")
	}
	what := describe(a, "/", b)
	if !a.isExact() || !b.isExact() {
		return floatProduct(a, b, true, what)
	}
	if a.rat.Denom().BitLen()+b.rat.Num().BitLen() <= maxDenBits+1 {
		return settle(new(big.Rat).Quo(a.rat, b.rat), what)
	}
	// The quotient's denominator before reduction is beyond
	// MaxDenominatorDigits, and reducing it takes a gcd of numbers of up
	// to MaxDigits digits: milliseconds each. So the quotient stays exact
	// only when it is whole (one cheap division says so) and continues as
	// a float otherwise; exactness is lost only where a huge common factor
	// would have cancelled ((7*10^5000)/(3*10^5000) prints 2.33333333333
	// either way).
	n, d := quotientTerms(a.rat, b.rat)
	q, m := new(big.Int).QuoRem(n, d, new(big.Int))
	if m.Sign() == 0 {
		return settle(new(big.Rat).SetInt(q), what)
	}
	return floatProduct(a, b, true, what)
}

// quotientTerms returns n and d > 0 with a/b = n/d, unreduced.
func quotientTerms(a, b *big.Rat) (n, d *big.Int) {
	n = new(big.Int).Mul(a.Num(), b.Denom())
	d = new(big.Int).Mul(a.Denom(), b.Num())
	if d.Sign() < 0 {
		n.Neg(n)
		d.Neg(d)
	}
	return n, d
}

func bigFloat(r *big.Rat) *big.Float { return new(big.Float).SetPrec(64).SetRat(r) }

// floatProduct is a*b, or a/b when divide, in float64. An exact operand
// beyond float64's range (10^400 * 1e-300) goes through big.Float. A zero
// result from non-zero operands is an underflow.
func floatProduct(a, b Value, divide bool, what func() string) (Value, error) {
	if a.isZero() || !divide && b.isZero() {
		return inexact(0), nil
	}
	x, y := a.Float64(), b.Float64()
	var f float64
	switch {
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		p := new(big.Float)
		if divide {
			p.Quo(bigFloat(a.asRat()), bigFloat(b.asRat()))
		} else {
			p.Mul(bigFloat(a.asRat()), bigFloat(b.asRat()))
		}
		f, _ = p.Float64()
	case divide:
		f = x / y
	default:
		f = x * y
	}
	if f == 0 {
		return Value{}, tooSmall(what)
	}
	return fromFloat(f, what)
}

// mod is the floored modulo: the result has the sign of the divisor, as in
// mathematics and Python (-7 mod 3 = 2, 7 mod -3 = -2).
func mod(a, b Value) (Value, error) {
	if b.isZero() {
		return Value{}, divisionByZero(a, "mod")
	}
	if a.isExact() && b.isExact() {
		// a - b*floor(a/b), the floor by one integer division: no gcd of
		// the quotient's huge terms (see div).
		n, d := quotientTerms(a.rat, b.rat)
		fl := new(big.Rat).SetInt(n.Div(n, d)) // Euclidean with d > 0: the floor
		r := new(big.Rat).Sub(a.rat, fl.Mul(fl, b.rat))
		return settle(r, describe(a, "mod", b))
	}
	x, y := a.Float64(), b.Float64()
	if math.IsInf(x, 0) {
		return Value{}, tools.Inputf("%s cannot be computed: the number is too large for non-exact arithmetic (about 1.8e308)", describe(a, "mod", b)())
	}
	if math.IsInf(y, 0) { // |b| is beyond float64, |a| is not
		if x == 0 || (x < 0) == (y < 0) {
			return inexact(x), nil
		}
		return fromFloat(y, describe(a, "mod", b)) // a + b: as large as b
	}
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return fromFloat(r, describe(a, "mod", b))
}

func neg(a Value) Value {
	if a.isExact() {
		return exact(new(big.Rat).Neg(a.rat))
	}
	return inexact(-a.f)
}

// percent is a postfix "%": x% is x/100.
func percent(a Value) (Value, error) {
	return div(a, intValue(100))
}

// floorInt is the largest integer not above r. big.Int.Div is Euclidean
// and a Rat's denominator is positive, so the quotient is the floor.
func floorInt(r *big.Rat) *big.Int {
	return new(big.Int).Div(r.Num(), r.Denom())
}
