package place

import (
	"fmt"
	"strings"
)

// MaxOffsetSeconds and MinOffsetSeconds bound a UTC offset: the offsets in
// use run from UTC-12:00 to UTC+14:00.
const (
	MaxOffsetSeconds = 14 * 3600
	MinOffsetSeconds = -12 * 3600
)

// ParseOffset reads a whole string as a UTC offset: "UTC", "GMT", "Z",
// "UTC+5", "UTC+05:30", "UTC+0530", "GMT-8", "UTC−3" (with a minus sign),
// or a bare signed offset "+05:30", "-08:00". The sign is the ordinary
// one: GMT-8 is eight hours behind UTC. (IANA's Etc/GMT-8, with its
// inverted sign, is a zone id, not an offset: Lookup resolves it as such.)
func ParseOffset(s string) (Place, bool) {
	s = strings.TrimSpace(s)
	n, p, ok := scanOffset(s, true)
	if !ok || n != len(s) {
		return Place{}, false
	}
	return p, true
}

// scanOffset reads an offset at the start of s and returns how many bytes
// it used. bare allows an offset without the UTC/GMT prefix.
func scanOffset(s string, bare bool) (int, Place, bool) {
	prefix := ""
	i := 0
	switch {
	case hasPrefixFold(s, "utc"), hasPrefixFold(s, "gmt"):
		prefix = strings.ToUpper(s[:3])
		i = 3
	case s == "Z" || s == "z":
		return 1, Place{Name: "UTC", Kind: KindOffset}, true
	case !bare:
		return 0, Place{}, false
	}
	// prefixOnly reads "UTC" or "GMT" alone, when what follows is not an
	// offset; without the prefix there is nothing to read.
	prefixOnly := func() (int, Place, bool) {
		if prefix == "" {
			return 0, Place{}, false
		}
		return i, Place{Name: prefix, Kind: KindOffset}, true
	}
	if prefix != "" && (i == len(s) || !isOffsetStart(s[i:])) {
		if i < len(s) && isWordByte(s[i]) {
			return 0, Place{}, false // "utcnow", "gmtime": not an offset
		}
		return prefixOnly()
	}
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	sign := 0
	switch {
	case strings.HasPrefix(s[j:], "+"):
		sign, j = 1, j+1
	case strings.HasPrefix(s[j:], "-"):
		sign, j = -1, j+1
	case strings.HasPrefix(s[j:], "−"): // U+2212 MINUS SIGN
		sign, j = -1, j+len("−")
	default:
		return prefixOnly()
	}
	h, m, used, ok := readHoursMinutes(s[j:])
	if !ok {
		return prefixOnly()
	}
	j += used
	if j < len(s) && isWordByte(s[j]) {
		return 0, Place{}, false
	}
	sec := sign * (h*3600 + m*60)
	if sec > MaxOffsetSeconds || sec < MinOffsetSeconds {
		return 0, Place{}, false
	}
	if prefix == "" {
		prefix = "UTC"
	}
	p := Place{Name: prefix + FormatOffset(sec)[3:], Kind: KindOffset, OffsetSeconds: sec}
	if prefix == "GMT" && sec != 0 && m == 0 {
		dir := "behind"
		if sec > 0 {
			dir = "ahead of"
		}
		inverse := fmt.Sprintf("Etc/GMT%+d", -sec/3600)
		p.Note = fmt.Sprintf("GMT%+d is read as %d hours %s UTC (%s); the IANA zone %s is the same offset, spelled with the opposite sign",
			sec/3600, abs(sec/3600), dir, FormatOffset(sec), inverse)
	}
	return j, p, true
}

// readHoursMinutes reads "5", "05", "5:30", "05:30" or "0530".
func readHoursMinutes(s string) (h, m, used int, ok bool) {
	digits := 0
	for digits < len(s) && digits < 4 && isDigit(s[digits]) {
		digits++
	}
	switch digits {
	case 1, 2:
		h = atoi(s[:digits])
		used = digits
		if used+3 <= len(s) && s[used] == ':' && isDigit(s[used+1]) && isDigit(s[used+2]) {
			m = atoi(s[used+1 : used+3])
			used += 3
		}
	case 4:
		h, m, used = atoi(s[:2]), atoi(s[2:4]), 4
	default:
		return 0, 0, 0, false
	}
	if m >= 60 {
		return 0, 0, 0, false
	}
	return h, m, used, true
}

// FormatOffset spells an offset east of UTC as "UTC+05:30" or "UTC-08:00".
func FormatOffset(sec int) string {
	sign := byte('+')
	if sec < 0 {
		sign, sec = '-', -sec
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, sec/3600, sec%3600/60)
}

func isOffsetStart(s string) bool {
	s = strings.TrimLeft(s, " ")
	return strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "−")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
