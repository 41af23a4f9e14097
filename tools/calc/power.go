package calc

import (
	"math"
	"math/big"

	"github.com/gear-chat/gear/tools"
)

// pow raises a to b. An exact base to an exact integer power stays exact
// when the result fits MaxDigits; its size is estimated from the operands'
// bit lengths before anything is computed, so 9^387420489 fails at once.
func pow(a, b Value) (Value, error) {
	what := describe(a, "^", b)
	if a.isZero() && b.isNegative() {
		return Value{}, tools.Inputf("division by zero: 0 ^ %s", operand(b))
	}
	if b.isZero() {
		return intValue(1), nil // including 0^0, as in most calculators
	}
	if a.isExact() && b.isExact() && b.rat.IsInt() {
		return exactPow(a.rat, b.rat.Num(), what)
	}
	if a.isExact() && b.isExact() && a.rat.Sign() > 0 && b.rat.Denom().Cmp(big.NewInt(2)) == 0 {
		// x^(n/2) is sqrt(x)^n: exact when x is a perfect square.
		if root, ok := exactSqrt(a.rat); ok {
			return exactPow(root, b.rat.Num(), what)
		}
	}
	x, y := a.Float64(), b.Float64()
	f := math.Pow(x, y)
	if math.IsInf(x, 0) && a.isExact() && a.rat.Sign() > 0 && !math.IsInf(y, 0) {
		// An exact base beyond float64 (10^400)^0.5: through logarithms.
		f = math.Exp(y * ratLn(a.rat))
	}
	if f == 0 && x != 0 {
		return Value{}, tooSmall(what)
	}
	return fromFloat(f, what)
}

// exactPow raises r to the integer n, exactly when the result's
// numerator and denominator fit the limits, else as a float.
func exactPow(r *big.Rat, n *big.Int, what func() string) (Value, error) {
	num, den := r.Num(), r.Denom()
	if n.Sign() < 0 {
		if r.Sign() == 0 {
			return Value{}, tools.Inputf("division by zero: %s", what())
		}
		num, den = den, num
	}
	e := new(big.Int).Abs(n)
	if !fitsPower(num, e, maxBits) || !fitsPower(den, e, maxDenBits) {
		return floatPow(r, n, what)
	}
	k := e.Int64()
	numP := new(big.Int).Exp(new(big.Int).Abs(num), big.NewInt(k), nil)
	denP := new(big.Int).Exp(den, big.NewInt(k), nil)
	if num.Sign() < 0 && k%2 == 1 {
		numP.Neg(numP)
	}
	if den.Sign() < 0 { // den is a negative numerator swapped in
		denP.Abs(denP)
		if k%2 == 1 {
			numP.Neg(numP)
		}
	}
	if !fitsDigits(numP, MaxDigits, maxBits) || !fitsDigits(denP, MaxDenominatorDigits, maxDenBits) {
		return floatPow(r, n, what)
	}
	return exact(new(big.Rat).SetFrac(numP, denP)), nil
}

// fitsPower reports whether |x|^e may fit in bits. |x| has bit length L,
// so |x|^e has between (L-1)e+1 and Le bits: beyond the lower bound's
// reach it cannot fit; within it, |x|^e has at most about 2*bits bits and
// is cheap to compute and check.
func fitsPower(x *big.Int, e *big.Int, bits int) bool {
	l := int64(x.BitLen())
	if l <= 1 { // 0 or ±1: any power is tiny
		return true
	}
	if !e.IsInt64() {
		return false
	}
	k, limit := e.Int64(), int64(bits)+1
	return k <= limit && (l-1)*k+1 <= limit
}

// floatPow is r^n for a power too large to keep exact: a float when it
// fits one, else a "too large" or "too small" error with the estimated
// number of digits.
func floatPow(r *big.Rat, n *big.Int, what func() string) (Value, error) {
	x, _ := r.Float64()
	y, _ := new(big.Float).SetInt(n).Float64()
	f := math.Pow(x, y)
	if f != 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return inexact(f), nil
	}
	digits := y * ratLog10(new(big.Rat).Abs(r))
	if digits > 0 {
		return Value{}, tools.Inputf("result too large: %s has about %s digits (limit %s)", what(), digitCount(digits+1), digitCount(MaxDigits))
	}
	return Value{}, tooSmall(what)
}

// ratLog10 is log10|r| for a positive rational of any size.
func ratLog10(r *big.Rat) float64 {
	return ratLn(r) / math.Ln10
}

// ratLn is ln(r) for a positive rational of any size: the logarithms of
// numerator and denominator from their binary mantissa and exponent, so
// ln(10^1000) is 2302.58509299 although 10^1000 is no float64.
func ratLn(r *big.Rat) float64 {
	return intLn(r.Num()) - intLn(r.Denom())
}

func intLn(x *big.Int) float64 {
	mant := new(big.Float)
	exp := new(big.Float).SetPrec(64).SetInt(x).MantExp(mant)
	m, _ := mant.Float64()
	return math.Log(m) + float64(exp)*math.Ln2
}

// exactSqrt returns the square root of r when numerator and denominator
// are perfect squares.
func exactSqrt(r *big.Rat) (*big.Rat, bool) {
	if r.Sign() < 0 {
		return nil, false
	}
	n := new(big.Int).Sqrt(r.Num())
	if new(big.Int).Mul(n, n).Cmp(r.Num()) != 0 {
		return nil, false
	}
	d := new(big.Int).Sqrt(r.Denom())
	if new(big.Int).Mul(d, d).Cmp(r.Denom()) != 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}
