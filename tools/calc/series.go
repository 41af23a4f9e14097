package calc

import (
	"math"
	"math/big"
	"time"

	"github.com/gear-chat/gear/tools"
)

// Functions over ranges and calendar dates, which compound questions need
// ("the sum of 1 through 100", "days between march 3 and july 19"):
//
//	sum_range(first, last)        first + (first+1) + … + last
//	sum_range(first, last, step)  first + (first+step) + … up to last
//	product_range(first, last)    first × (first+1) × … × last (whole numbers)
//	date(year, month, day)        the day's number: days since 1970-01-01
//	days_between(d1, d2)          d2 − d1, two dates' numbers
//	iso_date(n)                   day number n written as its date, YYYY-MM-DD
//	                              (iso_date(date(2025, 3, 3) + 90) is 2025-06-01)
//	sin(x), cos(x), tan(x)        of an angle in radians (degrees × pi / 180)
//
// A sum of a range is computed by its closed form, exactly, however long
// the range; a product's size is bounded by MaxDigits before it is
// computed. Dates are proleptic Gregorian, years 1 to 9999.

// sumRange is sum_range(first, last[, step]).
func sumRange(args []Value) (Value, error) {
	first, last := args[0].asRat(), args[1].asRat()
	step := big.NewRat(1, 1)
	if len(args) == 3 {
		step = args[2].asRat()
	}
	what := func() string { return "sum_range(" + brief(args[0]) + ", " + brief(args[1]) + ")" }
	if step.Sign() <= 0 {
		return Value{}, tools.Inputf("%s: the step must be greater than 0", what())
	}
	if first.Cmp(last) > 0 {
		return Value{}, tools.Inputf("%s: the first number is larger than the last", what())
	}
	// n terms: first, first+step, … ≤ last; the sum is n·first + step·n(n−1)/2.
	span := new(big.Rat).Quo(new(big.Rat).Sub(last, first), step)
	n := new(big.Rat).SetInt(new(big.Int).Add(floorInt(span), big.NewInt(1)))
	nMinus1 := new(big.Rat).Sub(n, big.NewRat(1, 1))
	sum := new(big.Rat).Mul(n, first)
	tail := new(big.Rat).Mul(step, new(big.Rat).Mul(n, nMinus1))
	sum.Add(sum, tail.Quo(tail, big.NewRat(2, 1)))
	return settle(sum, what)
}

// productRange is product_range(first, last) of whole numbers.
func productRange(a, b Value) (Value, error) {
	what := func() string { return "product_range(" + brief(a) + ", " + brief(b) + ")" }
	first, last := a.asRat(), b.asRat()
	if !first.IsInt() || !last.IsInt() || !first.Num().IsInt64() || !last.Num().IsInt64() {
		return Value{}, tools.Inputf("%s: the range's ends must be whole numbers", what())
	}
	lo, hi := first.Num().Int64(), last.Num().Int64()
	if lo > hi {
		return Value{}, tools.Inputf("%s: the first number is larger than the last", what())
	}
	if lo <= 0 && hi >= 0 {
		return intValue(0), nil
	}
	negative := false
	if hi < 0 {
		lo, hi = -hi, -lo
		negative = (hi-lo+1)%2 == 1
	}
	// Bounded like a factorial: a product of numbers up to maxFactorial
	// has at most MaxDigits digits.
	if hi > maxFactorial {
		return Value{}, tools.Inputf("result too large: %s has more than %s digits", what(), digitCount(MaxDigits))
	}
	p := new(big.Int).MulRange(lo, hi)
	if negative {
		p.Neg(p)
	}
	return exact(new(big.Rat).SetInt(p)), nil
}

// dateNumber is date(year, month, day): the number of days since
// 1970-01-01 of a real calendar date.
func dateNumber(y, m, d Value) (Value, error) {
	what := func() string { return "date(" + brief(y) + ", " + brief(m) + ", " + brief(d) + ")" }
	var parts [3]int
	for i, v := range []Value{y, m, d} {
		r := v.asRat()
		if !r.IsInt() || !r.Num().IsInt64() {
			return Value{}, tools.Inputf("%s: year, month and day must be whole numbers", what())
		}
		parts[i] = int(r.Num().Int64())
	}
	year, month, day := parts[0], parts[1], parts[2]
	if year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31 {
		return Value{}, tools.Inputf("%s is not a date (year 1 to 9999, month 1 to 12, day 1 to 31)", what())
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return Value{}, tools.Inputf("%s is not a date: %s has no day %d", what(), time.Month(month), day)
	}
	// Midnight UTC: a whole number of days from the epoch, before it too.
	return intValue(t.Unix() / 86400), nil
}

// daysBetween is days_between(d1, d2): d2 − d1 of two dates' numbers.
func daysBetween(a, b Value) (Value, error) {
	for _, v := range []Value{a, b} {
		if !v.asRat().IsInt() {
			return Value{}, tools.Inputf("days_between(%s, %s): its arguments are dates, date(year, month, day)", brief(a), brief(b))
		}
	}
	return sub(b, a)
}

// isoDate is iso_date(n): the day numbered n (days since 1970-01-01, as
// date numbers them) as a value written as its date. The value is still
// the number: arithmetic on it is arithmetic on days.
func isoDate(n Value) (Value, error) {
	r := n.asRat()
	if !r.IsInt() {
		return Value{}, tools.Inputf("iso_date(%s): its argument is a day's number, a whole number such as date(2025, 3, 3) + 90", brief(n))
	}
	if r.Cmp(big.NewRat(minDay, 1)) < 0 || r.Cmp(big.NewRat(maxDay, 1)) > 0 {
		return Value{}, tools.Inputf("iso_date(%s): the day falls outside the years 1 to 9999", brief(n))
	}
	return Value{rat: r, day: true}, nil
}

// minDay and maxDay are the numbers of 0001-01-01 and 9999-12-31.
const (
	minDay = -719162
	maxDay = 2932896
)

// calendarDate writes a day value (isoDate checked its range) as YYYY-MM-DD.
func calendarDate(v Value) string {
	return time.Unix(v.rat.Num().Int64()*86400, 0).UTC().Format("2006-01-02")
}

// trig applies sin, cos or tan to an angle in radians. A sine
// or cosine within 1e-15 of 0 is 0 (cos(radians(90)) is 0, not 6e-17),
// and a tangent where the cosine is 0 is undefined.
func trig(name string, x Value) (Value, error) {
	what := func() string { return name + "(" + brief(x) + ")" }
	f := x.Float64()
	if math.IsInf(f, 0) || math.Abs(f) > 1e15 {
		return Value{}, tools.Inputf("%s: the angle is too large to be exact", what())
	}
	var r float64
	switch name {
	case "sin":
		r = math.Sin(f)
	case "cos":
		r = math.Cos(f)
	case "tan":
		if math.Abs(math.Cos(f)) < 1e-15 {
			return Value{}, tools.Inputf("%s is undefined: the cosine of the angle is 0", what())
		}
		r = math.Tan(f)
	}
	if math.Abs(r) < 1e-15 {
		return intValue(0), nil
	}
	return inexact(r), nil
}
