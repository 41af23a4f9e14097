package tools

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxIntegerValue is the largest magnitude an integer literal can have
// (MaxIntegerDigits digits).
const MaxIntegerValue = 999_999_999_999_999

// Bounded reports an integer parameter with a minimum or a maximum, which
// the parser and the machine check exactly.
func (p Param) Bounded() bool { return p.Type == TypeInteger && (p.Min != nil || p.Max != nil) }

// IntegerRange is a bounded integer parameter's range, clipped to what an
// integer literal can hold.
func (p Param) IntegerRange() (lo, hi int64) {
	lo, hi = -MaxIntegerValue, MaxIntegerValue
	if p.Min != nil {
		lo = max(lo, int64(math.Ceil(*p.Min)))
	}
	if p.Max != nil {
		hi = min(hi, int64(math.Floor(*p.Max)))
	}
	return lo, hi
}

// IntegerRangePattern is the lexical form of the integers in [lo, hi]
// (Go regexp syntax): IntegerPattern's literals whose value is in range,
// "-0" among them when 0 is. It matches nothing when lo > hi.
func IntegerRangePattern(lo, hi int64) string {
	var alts []string
	if hi >= 0 && lo <= hi {
		alts = append(alts, naturalRange(uint64(max(lo, 0)), uint64(hi))...)
	}
	if lo < 0 && lo <= hi {
		for _, a := range naturalRange(uint64(-min(hi, -1)), uint64(-lo)) {
			alts = append(alts, "-"+a)
		}
	}
	if lo <= 0 && hi >= 0 {
		alts = append(alts, "-0")
	}
	if len(alts) == 0 {
		return `[^\x00-\x{10FFFF}]` // nothing
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// naturalRange is the decimal spellings (no leading zeros) of [a, b].
func naturalRange(a, b uint64) []string {
	var out []string
	for n := len(strconv.FormatUint(a, 10)); n <= len(strconv.FormatUint(b, 10)); n++ {
		first := uint64(math.Pow10(n - 1))
		if n == 1 {
			first = 0
		}
		last := uint64(math.Pow10(n)) - 1
		lo, hi := max(a, first), min(b, last)
		if lo > hi {
			continue
		}
		out = append(out, sameLength(fmt.Sprintf("%0*d", n, lo), fmt.Sprintf("%0*d", n, hi))...)
	}
	return out
}

// sameLength is the spellings of the numbers from lo to hi, both n
// digits long.
func sameLength(lo, hi string) []string {
	if lo == hi {
		return []string{lo}
	}
	if strings.Trim(lo, "0") == "" && strings.Trim(hi, "9") == "" {
		return []string{fmt.Sprintf("[0-9]{%d}", len(lo))}
	}
	if lo[0] == hi[0] {
		var out []string
		for _, rest := range sameLength(lo[1:], hi[1:]) {
			out = append(out, lo[:1]+rest)
		}
		return out
	}
	var out []string
	n := len(lo) - 1
	for _, rest := range sameLength(lo[1:], strings.Repeat("9", n)) {
		out = append(out, lo[:1]+rest)
	}
	if lo[0]+1 <= hi[0]-1 {
		digits := fmt.Sprintf("[%c-%c]", lo[0]+1, hi[0]-1)
		if n > 0 {
			digits += fmt.Sprintf("[0-9]{%d}", n)
		}
		out = append(out, digits)
	}
	for _, rest := range sameLength(strings.Repeat("0", n), hi[1:]) {
		out = append(out, hi[:1]+rest)
	}
	return out
}

// RangeText says what a bounded integer parameter accepts, for messages
// of the parser and the machine alike.
func (p Param) RangeText() string {
	lo, hi := p.IntegerRange()
	switch {
	case p.Min != nil && p.Max != nil:
		return fmt.Sprintf("expected an integer from %d to %d", lo, hi)
	case p.Min != nil:
		return fmt.Sprintf("expected an integer of at least %d", lo)
	}
	return fmt.Sprintf("expected an integer of at most %d", hi)
}
