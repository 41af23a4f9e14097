// Package norm is the one text normalisation the gazetteer uses, shared by
// its generator (which writes normalised keys) and its loader and scanner
// (which normalise queries the same way), so a key always meets its query.
//
// A text is cut into tokens: runs of letters and digits. Apostrophes inside
// a word are dropped ("St. John's" gives "st", "johns"); everything else —
// spaces, hyphens, underscores, slashes, dots, commas — separates tokens.
// Tokens are lower-cased with accents removed ("São" gives "sao"), and the
// word "saint" is spelled "st", so "Saint Lucia" meets "St Lucia".
package norm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Token is one word of a text: its byte span in the original and its
// normalised form.
type Token struct {
	Start, End int
	Norm       string
}

// Key is the normalised form of a whole name: its tokens joined by single
// spaces. "Ust-Nera" and "ust nera" have the same key.
func Key(s string) string {
	toks := Tokens(s, nil)
	switch len(toks) {
	case 0:
		return ""
	case 1:
		return toks[0].Norm
	}
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Norm)
	}
	return b.String()
}

// Tokens appends the tokens of s to dst.
func Tokens(s string, dst []Token) []Token {
	var buf []byte
	start := -1
	flush := func(end int) {
		if start >= 0 && len(buf) > 0 {
			n := string(buf)
			if n == "saint" {
				n = "st"
			}
			dst = append(dst, Token{Start: start, End: end, Norm: n})
		}
		start = -1
		buf = buf[:0]
	}
	lastWordEnd := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
				if start < 0 {
					start = i
				}
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
				lastWordEnd = i + 1
			case (c == '\'' || c == '`') && start >= 0 && i+1 < len(s) && isWordStart(s[i+1:]):
				// an apostrophe inside a word: dropped
			default:
				flush(lastWordEnd)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isApostrophe(r) && start >= 0 && i+size < len(s) && isWordStart(s[i+size:]):
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) && start >= 0:
			if start < 0 {
				start = i
			}
			buf = appendFolded(buf, r)
			lastWordEnd = i + size
		default:
			flush(lastWordEnd)
		}
		i += size
	}
	flush(lastWordEnd)
	return dst
}

func isApostrophe(r rune) bool {
	return r == '’' || r == 'ʼ' || r == 'ʻ' || r == '‘' || r == '´'
}

func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// special are letters that do not decompose into a base letter and a mark.
var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l",
	'đ': "d", 'Đ': "d", 'ı': "i", 'œ': "oe", 'Œ': "oe", 'þ': "th", 'Þ': "th",
	'ð': "d", 'Ð': "d", 'ħ': "h", 'Ħ': "h",
}

// appendFolded appends r lower-cased without its accents.
func appendFolded(buf []byte, r rune) []byte {
	if unicode.Is(unicode.Mn, r) {
		return buf
	}
	if s, ok := special[r]; ok {
		return append(buf, s...)
	}
	var tmp [utf8.UTFMax]byte
	n := utf8.EncodeRune(tmp[:], unicode.ToLower(r))
	d := norm.NFD.Bytes(tmp[:n])
	for len(d) > 0 {
		c, size := utf8.DecodeRune(d)
		d = d[size:]
		if unicode.Is(unicode.Mn, c) {
			continue
		}
		buf = utf8.AppendRune(buf, c)
	}
	return buf
}
