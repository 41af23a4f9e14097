package place

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

// MaxNameLen bounds a name Lookup reads, in bytes; longer input is not a
// place name.
const MaxNameLen = 200

// Scan flags of a key (see internal/gen).
const (
	flagAlias    = 1 << iota // the best reading is an alias
	flagCapsOnly             // matched in text only when written in capitals ("LA")
	flagStopWord             // a common English word: only capitalised mid-sentence
	flagNoScan               // never matched in running text
)

type keyEntry struct {
	first int32 // into Gazetteer.cands
	n     uint16
	flags uint8
}

// Gazetteer is the loaded table. It is read-only after Load, so one value
// may be shared by any number of goroutines.
type Gazetteer struct {
	places  []Place          // zone places (one per IANA id), then cities, countries, regions
	zoneIDs map[string]int32 // lower-case IANA id -> its zone place
	// keys are the normalised names, sorted (the table is written in
	// order), with their entries: a binary search costs less than
	// building a map of 64,000 names at every start.
	keys    []string
	entries []keyEntry
	cands   []int32
	// multi gives, for the first token of a multi-word key, the most
	// tokens any key starting with it has.
	multi   map[string]uint8
	iso2    map[string]int32 // ISO alpha-2 code -> country place
	iso3    map[string]int32 // ISO alpha-3 code -> country place
	abbrevs map[string]Place // time zone abbreviation -> offset place
}

// find returns the entry of a normalised name, given as a string or as a
// buffer the name is being built in (Scan's, searched without allocation).
func find[K string | []byte](g *Gazetteer, key K) (keyEntry, bool) {
	lo, hi := 0, len(g.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if g.keys[m] < string(key) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(g.keys) && g.keys[lo] == string(key) {
		return g.entries[lo], true
	}
	return keyEntry{}, false
}

// Len is the number of places in the table (zones included).
func (g *Gazetteer) Len() int { return len(g.places) }

// Lookup resolves a place name (see the package doc for the rules). It
// reports false for a name it does not know.
func (g *Gazetteer) Lookup(name string) (Place, bool) {
	s := strings.TrimSpace(name)
	if s == "" || len(s) > MaxNameLen {
		return Place{}, false
	}
	if p, ok := ParseOffset(s); ok {
		return p, true
	}
	if id, ok := RegionalZone(s); ok {
		if i, ok := g.zoneIDs[strings.ToLower(id)]; ok {
			return g.places[i], true
		}
	}
	upper := isCapitals(s)
	key := norm.Key(s)
	e, hasKey := find(g, key)
	if upper && hasKey && e.flags&flagAlias != 0 {
		return g.places[g.cands[e.first]], true
	}
	if upper && len(s) == 2 {
		if i, ok := g.iso2[s]; ok {
			return g.places[i], true
		}
	}
	if i, ok := g.zoneIDs[zoneIDForm(s)]; ok {
		return g.places[i], true
	}
	if upper {
		if p, ok := g.abbrevs[s]; ok {
			return p, true
		}
		if i, ok := g.iso3[s]; ok && len(s) == 3 {
			return g.places[i], true
		}
	}
	if hasKey {
		return g.places[g.cands[e.first]], true
	}
	if p, ok := g.abbrevs[strings.ToUpper(s)]; ok {
		return p, true
	}
	if comma := strings.LastIndexByte(s, ','); comma > 0 {
		return g.lookupWithin(s[:comma], s[comma+1:])
	}
	return Place{}, false
}

// lookupWithin resolves "City, Region" or "City, Country".
func (g *Gazetteer) lookupWithin(name, within string) (Place, bool) {
	area, ok := g.Lookup(within)
	if !ok || area.CountryCode == "" {
		return Place{}, false
	}
	e, ok := find(g, norm.Key(name))
	if !ok {
		return Place{}, false
	}
	for _, c := range g.cands[e.first : e.first+int32(e.n)] {
		p := g.places[c]
		if p.CountryCode != area.CountryCode {
			continue
		}
		if area.Kind == KindRegion && p.Region != area.Region {
			continue
		}
		return p, true
	}
	return Place{}, false
}

// Candidates returns every place a name can mean, best first (the first is
// what Lookup returns for a plain name).
func (g *Gazetteer) Candidates(name string) []Place {
	e, ok := find(g, norm.Key(name))
	if !ok {
		return nil
	}
	out := make([]Place, 0, e.n)
	for _, c := range g.cands[e.first : e.first+int32(e.n)] {
		out = append(out, g.places[c])
	}
	return out
}

// ZoneIDs returns every IANA zone id the table knows, sorted, including
// the legacy one-part ids (Turkey, Zulu) that Lookup reads as names.
func (g *Gazetteer) ZoneIDs() []string {
	ids := make([]string, 0, len(g.zoneIDs))
	for _, p := range g.places {
		if p.Kind != KindZone {
			break
		}
		ids = append(ids, p.TimeZone)
	}
	return ids
}

// zoneIDForm spells a name the way IANA ids are keyed: lower case, spaces
// as underscores ("america/new york" -> "america/new_york").
func zoneIDForm(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", "_"))
}

// isCapitals reports whether s has at least two letters, all capitals,
// and nothing but letters and dots ("UK", "U.S.A.", "PST").
func isCapitals(s string) bool {
	letters := 0
	for _, r := range s {
		switch {
		case r == '.':
		case unicode.IsUpper(r):
			letters++
		default:
			return false
		}
	}
	return letters >= 2
}

// hasLower reports whether s has a lower-case letter.
func hasLower(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLower(r) {
			return true
		}
		i += size
	}
	return false
}
