package constrain

import "fmt"

// ByteSet is a set of bytes, one bit each.
type ByteSet [4]uint64

func (b *ByteSet) add(c byte) { b[c>>6] |= 1 << (c & 63) }

// Has reports whether c is in the set.
func (b ByteSet) Has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// Len is the number of bytes in the set.
func (b ByteSet) Len() int {
	n := 0
	for _, w := range b {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// ByteRange is an inclusive range of bytes.
type ByteRange struct{ Lo, Hi byte }

// Ranges lists the set as sorted, maximal ranges.
func (b ByteSet) Ranges() []ByteRange {
	var out []ByteRange
	for c := 0; c < 256; c++ {
		if !b.Has(byte(c)) {
			continue
		}
		start := c
		for c+1 < 256 && b.Has(byte(c+1)) {
			c++
		}
		out = append(out, ByteRange{byte(start), byte(c)})
	}
	return out
}

// String spells the set as a character class, e.g. [\t\n\r "(].
func (b ByteSet) String() string {
	out := []byte{'['}
	for _, r := range b.Ranges() {
		out = appendClassByte(out, r.Lo)
		if r.Hi > r.Lo {
			if r.Hi > r.Lo+1 {
				out = append(out, '-')
			}
			out = appendClassByte(out, r.Hi)
		}
	}
	return string(append(out, ']'))
}

func appendClassByte(out []byte, c byte) []byte {
	switch {
	case c == '\t':
		return append(out, `\t`...)
	case c == '\n':
		return append(out, `\n`...)
	case c == '\r':
		return append(out, `\r`...)
	case c == '\\' || c == ']' || c == '-' || c == '^':
		return append(out, '\\', c)
	case c < 0x20 || c >= 0x7f:
		return append(out, fmt.Sprintf(`\x%02x`, c)...)
	}
	return append(out, c)
}
