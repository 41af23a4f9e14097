package place

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

// Mention is a place found in free text: its byte span and the place.
type Mention struct {
	Start, End int
	Text       string
	Place      Place
}

// maxScanTokens bounds how many words one name may span in Scan.
const maxScanTokens = 6

// Scan finds the places named in free text ("what time is it in adelaide",
// "weather in new york tomorrow", "He is in Jerusalem, and I am in GMT-8"):
// at each word, the longest name that starts there wins, and mentions do
// not overlap. Matching ignores case and accents, with these exceptions,
// which keep ordinary words from reading as towns:
//
//   - names that are also common English words (among the 20,000 most
//     frequent lower-case words of SUBTLEX-US: "nice", "reading", "split",
//     "bath", "mobile", "orange", "man", "of") count only when written with
//     a capital letter and not at the start of a sentence ("the weather in
//     Nice"); country names are exempt ("turkey" is Turkey);
//   - a name that is only an alternate spelling of a town and a common
//     word, month and weekday names, names of fewer than three letters, and
//     legacy zone names ("Pacific" for US/Pacific) never count;
//   - short aliases ("LA", "NYC", "UK", "US"), time zone abbreviations
//     ("PST", "IST") and capitalised IANA ids ("EST", "CET") count only in
//     capitals, and ISO country codes never ("IN", "IT" are words);
//   - UTC/GMT offsets count in any case ("utc+5:30", "GMT-8"), and so do
//     IANA ids ("America/New_York").
//
// A name does not run across a comma or other clause punctuation.
func (g *Gazetteer) Scan(text string) []Mention {
	var tokBuf [32]norm.Token
	toks := norm.Tokens(text, tokBuf[:0])
	var mentions []Mention
	var key []byte
	for i := 0; i < len(toks); {
		t := toks[i]
		if end, p, ok := g.scanOffsetOrZone(text, t); ok {
			mentions = append(mentions, Mention{Start: t.Start, End: end, Text: text[t.Start:end], Place: p})
			for i < len(toks) && toks[i].Start < end {
				i++
			}
			continue
		}
		maxN := 1
		if m, ok := g.multi[t.Norm]; ok {
			maxN = min(int(m), maxScanTokens)
		}
		maxN = min(maxN, len(toks)-i)
		for j := i + 1; j < i+maxN; j++ {
			if breaksName(text[toks[j-1].End:toks[j].Start]) {
				maxN = j - i
				break
			}
		}
		matched := 0
		for n := maxN; n >= 1 && matched == 0; n-- {
			key = key[:0]
			for j := i; j < i+n; j++ {
				if j > i {
					key = append(key, ' ')
				}
				key = append(key, toks[j].Norm...)
			}
			start, end := t.Start, toks[i+n-1].End
			if e, ok := find(g, key); ok && g.scannable(e, text, start, end, i == 0 || sentenceBreak(text[toks[i-1].End:start])) {
				mentions = append(mentions, Mention{Start: start, End: end, Text: text[start:end], Place: g.places[g.cands[e.first]]})
				matched = n
				break
			}
			if n == 1 && end-start >= 2 && end-start <= 5 && isCapitals(text[start:end]) {
				// EST, CET, PST: read exactly as Lookup reads them (an
				// IANA id before an abbreviation), but never a country code.
				if p, ok := g.Lookup(text[start:end]); ok && (p.Kind == KindZone || p.Kind == KindOffset) {
					mentions = append(mentions, Mention{Start: start, End: end, Text: text[start:end], Place: p})
					matched = 1
				}
			}
		}
		if matched == 0 {
			matched = 1
		}
		i += matched
	}
	return mentions
}

// scanOffsetOrZone reads a UTC/GMT offset ("GMT-8") or an IANA id
// ("America/New_York") starting at token t, and returns where it ends.
func (g *Gazetteer) scanOffsetOrZone(text string, t norm.Token) (int, Place, bool) {
	if t.Norm == "utc" || t.Norm == "gmt" {
		if n, p, ok := scanOffset(text[t.Start:], false); ok {
			return t.Start + n, p, true
		}
	}
	if t.End < len(text) && text[t.End] == '/' {
		return g.scanZoneID(text, t.Start)
	}
	return 0, Place{}, false
}

// scanZoneID reads an IANA id ("America/New_York") at text[start:].
func (g *Gazetteer) scanZoneID(text string, start int) (int, Place, bool) {
	end := start
	for end < len(text) {
		c := text[end]
		if isWordByte(c) && c < 0x80 || c == '/' || c == '_' || c == '-' || c == '+' {
			end++
			continue
		}
		break
	}
	for end > start && text[end-1] == '/' || end > start && text[end-1] == '-' {
		end--
	}
	if i, ok := g.zoneIDs[strings.ToLower(text[start:end])]; ok {
		return end, g.places[i], true
	}
	return 0, Place{}, false
}

// scannable applies Scan's word rules to a key found at text[start:end].
func (g *Gazetteer) scannable(e keyEntry, text string, start, end int, sentenceStart bool) bool {
	switch {
	case e.flags&flagNoScan != 0:
		return false
	case e.flags&flagCapsOnly != 0:
		return !hasLower(text[start:end])
	case e.flags&flagStopWord != 0:
		r, _ := utf8.DecodeRuneInString(text[start:])
		return unicode.IsUpper(r) && !sentenceStart
	}
	return true
}

// breaksName reports whether the text between two words ends a name:
// clause punctuation, not spaces, hyphens, dots or apostrophes.
func breaksName(gap string) bool {
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case ',', ';', ':', '!', '?', '(', ')', '"', '\n', '[', ']':
			return true
		}
	}
	return false
}

// sentenceBreak reports whether the text between two words ends a
// sentence.
func sentenceBreak(gap string) bool {
	for i := 0; i < len(gap); i++ {
		switch gap[i] {
		case '.', '!', '?', '\n':
			return true
		}
	}
	return false
}
