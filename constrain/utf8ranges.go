package constrain

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// foldRanges is the class of runes that fold to r, as regexp matches a
// case-insensitive literal (k also matches the Kelvin sign).
func foldRanges(r rune) []rune {
	runes := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		runes = append(runes, f)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	out := make([]rune, 0, 2*len(runes))
	for _, x := range runes {
		out = append(out, x, x)
	}
	return out
}

type byteRange struct{ lo, hi byte }

// utf8Sequences calls emit with byte-range sequences that together match
// exactly the UTF-8 encodings of the runes in [lo, hi]; surrogates, which
// have no valid encoding, are left out (the split of RE2 and Rust's
// utf8-ranges).
func utf8Sequences(lo, hi rune, emit func([]byteRange)) {
	if lo > hi {
		return
	}
	if hi > unicode.MaxRune {
		hi = unicode.MaxRune
	}
	if lo <= 0xDFFF && hi >= 0xD800 {
		utf8Sequences(lo, 0xD7FF, emit)
		utf8Sequences(0xE000, hi, emit)
		return
	}
	for _, max := range []rune{0x7F, 0x7FF, 0xFFFF} {
		if lo <= max && max < hi {
			utf8Sequences(lo, max, emit)
			utf8Sequences(max+1, hi, emit)
			return
		}
	}
	n := utf8.RuneLen(lo)
	for i := 1; i < n; i++ {
		m := rune(1)<<(6*i) - 1
		if lo&^m != hi&^m {
			if lo&m != 0 {
				utf8Sequences(lo, lo|m, emit)
				utf8Sequences((lo|m)+1, hi, emit)
				return
			}
			if hi&m != m {
				utf8Sequences(lo, (hi&^m)-1, emit)
				utf8Sequences(hi&^m, hi, emit)
				return
			}
		}
	}
	var a, z [utf8.UTFMax]byte
	utf8.EncodeRune(a[:], lo)
	utf8.EncodeRune(z[:], hi)
	seq := make([]byteRange, n)
	for i := 0; i < n; i++ {
		seq[i] = byteRange{a[i], z[i]}
	}
	emit(seq)
}
