package calc

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// How a value prints:
//
//   - an exact integer prints every digit (2^100 prints 31 digits);
//   - an exact terminating decimal of at most MaxFractionDigits decimals
//     prints exactly (0.1+0.2 prints 0.3);
//   - anything else (1/3, 1.05^30, sqrt(2), pi) is rounded to
//     SignificantDigits significant digits (an exact fraction half away
//     from zero), trailing zeros trimmed: 0.333333333333. Such a number
//     is written plainly when its
//     decimal exponent is in [-7, SignificantDigits), else in scientific
//     notation (3.33333333333e+14), so that rounding never produces
//     trailing zeros that look like exact digits.

// String is the value as the calculator prints it.
func (v Value) String() string {
	s, _ := v.format()
	return s
}

// Exact reports whether String is exactly the value (not rounded, and not
// the result of floating-point arithmetic).
func (v Value) Exact() bool {
	_, ok := v.format()
	return ok
}

// Fraction returns an exact non-integer value as "p/q" when String had to
// round it and the fraction is short (1/3), else "".
func (v Value) Fraction() string {
	_, exact := v.format()
	return v.fraction(exact)
}

// fraction is Fraction for a value whose String is exact or not, so that
// a caller that has formatted the value does not format it again.
func (v Value) fraction(exact bool) string {
	if exact || v.rat == nil || v.rat.Num().BitLen()+v.rat.Denom().BitLen() > 200 {
		return ""
	}
	return v.rat.String()
}

func (v Value) format() (string, bool) {
	if v.day {
		return calendarDate(v), true
	}
	if v.rat == nil {
		return formatFloat(v.f, SignificantDigits), false
	}
	r := v.rat
	if r.IsInt() {
		return r.Num().String(), true
	}
	if k, ok := terminatingDecimals(r.Denom()); ok {
		return formatDecimal(r, k), true
	}
	return formatRat(r, SignificantDigits)
}

// terminatingDecimals reports whether 1/den has a finite decimal
// expansion of at most MaxFractionDigits digits, and how many.
func terminatingDecimals(den *big.Int) (int, bool) {
	twos := int(den.TrailingZeroBits())
	if twos > MaxFractionDigits {
		return 0, false
	}
	rest := new(big.Int).Rsh(den, uint(twos))
	five, m := big.NewInt(5), new(big.Int)
	fives := 0
	for rest.BitLen() > 1 { // rest > 1
		if fives == MaxFractionDigits {
			return 0, false
		}
		rest.DivMod(rest, five, m)
		if m.Sign() != 0 {
			return 0, false
		}
		fives++
	}
	return max(twos, fives), true
}

// formatDecimal prints r, whose denominator divides 10^k, with k decimals.
func formatDecimal(r *big.Rat, k int) string {
	n := new(big.Int).Abs(r.Num())
	n.Mul(n, pow10(k))
	n.Quo(n, r.Denom())
	digits := n.String()
	if len(digits) <= k {
		digits = strings.Repeat("0", k+1-len(digits)) + digits
	}
	s := digits[:len(digits)-k] + "." + digits[len(digits)-k:]
	if r.Sign() < 0 {
		return "-" + s
	}
	return s
}

// formatRat rounds r to sig significant digits, and reports whether
// that lost nothing (10^-350 prints exactly as 1e-350).
func formatRat(r *big.Rat, sig int) (string, bool) {
	if r.Sign() == 0 {
		return "0", true
	}
	abs := new(big.Rat).Abs(r)
	exp := int(math.Floor(ratLog10(abs)))
	var digits *big.Int
	var whole bool
	// The logarithm's estimate of the exponent may be one off either way
	// near a power of ten; the scaled digits say which.
	for range 4 {
		digits, whole = scaledDigits(abs, sig-1-exp)
		n := len(digits.String())
		if n == sig {
			break
		}
		if n > sig {
			exp++
		} else {
			exp--
		}
	}
	return render(r.Sign() < 0, strings.TrimRight(digits.String(), "0"), exp, sig), whole
}

// scaledDigits is round(r * 10^shift), half away from zero (r > 0), and
// whether r * 10^shift was whole.
func scaledDigits(r *big.Rat, shift int) (*big.Int, bool) {
	num := new(big.Int).Set(r.Num())
	den := new(big.Int).Set(r.Denom())
	if shift >= 0 {
		num.Mul(num, pow10(shift))
	} else {
		den.Mul(den, pow10(-shift))
	}
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	whole := m.Sign() == 0
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return q, whole
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// formatFloat rounds f to sig significant digits.
func formatFloat(f float64, sig int) string {
	if f == 0 {
		return "0"
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', sig-1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	return render(f < 0, digits, exp, sig)
}

// render writes ±d.ddd×10^exp, digits holding no trailing zeros.
func render(negative bool, digits string, exp, sig int) string {
	var b strings.Builder
	if negative {
		b.WriteByte('-')
	}
	switch {
	case exp >= sig || exp < -7:
		b.WriteByte(digits[0])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if exp >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(exp))
	case exp < 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-1))
		b.WriteString(digits)
	default:
		if len(digits) <= exp+1 {
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", exp+1-len(digits)))
		} else {
			b.WriteString(digits[:exp+1])
			b.WriteByte('.')
			b.WriteString(digits[exp+1:])
		}
	}
	return b.String()
}

// brief shortens a value for an error message: 6 significant digits once
// its printed form is long.
func brief(v Value) string {
	if v.rat != nil && v.rat.Num().BitLen()+v.rat.Denom().BitLen() > 80 {
		s, _ := formatRat(v.rat, 6)
		return s
	}
	s := v.String()
	if len(s) > 24 {
		return formatFloat(v.Float64(), 6)
	}
	return s
}

// digitCount prints a positive count with thousands separators (19,729),
// or in scientific notation once it is beyond exact float64 integers.
func digitCount[N int | float64](n N) string {
	f := math.Floor(float64(n))
	if f >= 1e15 {
		return formatFloat(f, 2)
	}
	s := strconv.FormatInt(int64(f), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
