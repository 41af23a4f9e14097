package constrain

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools"
)

// dfaMatches runs a content DFA over s.
func dfaMatches(d *dfa, s string) bool {
	st := d.start
	for i := 0; i < len(s); i++ {
		if st = d.step(st, s[i]); st < 0 {
			return false
		}
	}
	return d.accept[st]
}

// TestPatternDFAMatchesRegexp compares each content DFA with Go's regexp
// (the parser's matcher) on random and mutated content, case folding
// included (the Kelvin sign K matches k, the long s ſ matches s).
func TestPatternDFAMatchesRegexp(t *testing.T) {
	t.Parallel()
	patterns := []string{tools.DateTimePattern, tools.DatePattern, `(?:metric|imperial|US customary|a\.b/c\+d-e_f)`, `(?i)k[a-c]+x?`, `.{2,3}`}
	samples := []string{"2022-01-02 22:00:00", "Jan 2 2006 03:04:05PM", "January 2, 2006 3:04 pm", "15:04:05, Jan 2, 2006",
		"3:04 PM, Jan 2, 2006", "3pm", "3:30 pm", "15:30", "15:30:00", "now", "NOON", "midnight", "2026-11-23", "today",
		"ſunday", "SUNDAY", "tueſday", "metric", "US customary", "a.b/c+d-e_f", "Kab", "kcx", "ab", "é\"", "\x00a", "a\\b"}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"0", "1", "9", ":", "-", " ", ",", ".", "a", "m", "p", "n", "o", "j", "J", "s", "ſ", "K", "k", "T", "é", "\xff", "\"", "\\", "\t"}
	for _, p := range patterns {
		d, err := compilePattern(p)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`^` + p + `$`)
		check := func(s string) {
			want := re.MatchString(s) && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 || r == 0x7f })
			if got := dfaMatches(d, s); got != want {
				t.Fatalf("pattern %s on %q: dfa %v, regexp %v", p, s, got, want)
			}
		}
		for _, s := range samples {
			check(s)
			for i := 0; i < 200; i++ {
				b := []byte(s)
				if len(b) > 0 {
					k := r.IntN(len(b))
					b = append(b[:k], append([]byte(alphabet[r.IntN(len(alphabet))]), b[k+1:]...)...)
				}
				check(string(b))
			}
		}
		for i := 0; i < 20000; i++ {
			var b strings.Builder
			for n := r.IntN(12); n > 0; n-- {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			check(b.String())
		}
	}
}

// TestUTF8Sequences checks the rune-range split against the encoder over
// every boundary of the encoding.
func TestUTF8Sequences(t *testing.T) {
	t.Parallel()
	ranges := [][2]rune{{0, 0x10FFFF}, {0x7F, 0x80}, {0x7FF, 0x800}, {0xD7FF, 0xE000}, {0xFFFF, 0x10000}, {0x41, 0x5A}, {0x3B1, 0x3C9}, {0x212A, 0x212A}, {0x1F600, 0x1F64F}}
	for _, rg := range ranges {
		var seqs [][]byteRange
		utf8Sequences(rg[0], rg[1], func(s []byteRange) { seqs = append(seqs, append([]byteRange(nil), s...)) })
		matches := func(b []byte) bool {
			for _, s := range seqs {
				if len(s) != len(b) {
					continue
				}
				ok := true
				for i := range s {
					if b[i] < s[i].lo || b[i] > s[i].hi {
						ok = false
					}
				}
				if ok {
					return true
				}
			}
			return false
		}
		for r := max(0, rg[0]-300); r <= min(0x10FFFF, rg[1]+300); r++ {
			if rg[1]-rg[0] > 0x10000 && r%97 != 0 && r != rg[0] && r != rg[1] {
				continue
			}
			if !utf8.ValidRune(r) {
				continue
			}
			b := utf8.AppendRune(nil, r)
			want := r >= rg[0] && r <= rg[1]
			if got := matches(b); got != want {
				t.Fatalf("range %x-%x, rune %x: %v", rg[0], rg[1], r, got)
			}
		}
		// Surrogates and overlong forms have no valid encoding to match.
		for _, b := range [][]byte{{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xC0, 0x80}, {0xE0, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80}} {
			if matches(b) {
				t.Fatalf("range %x-%x matches invalid UTF-8 % x", rg[0], rg[1], b)
			}
		}
	}
}

func TestCompilePatternRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, p := range []string{`^a`, `a\b`, `[`, `a{2000}`} {
		if _, err := compilePattern(p); err == nil {
			t.Errorf("pattern %q compiled", p)
		}
	}
}
