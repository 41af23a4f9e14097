package place

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

//go:embed gazetteer.tsv.gz
var table []byte

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

// Load decodes the embedded table (a few tens of milliseconds; load once
// per process and share the value).
func Load() (*Gazetteer, error) {
	zr, err := gzip.NewReader(bytes.NewReader(table))
	if err != nil {
		return nil, fmt.Errorf("place: gazetteer table: %w", err)
	}
	// A gzip file ends with its uncompressed size: read into one buffer
	// of that size and keep it as the string every name points into.
	var raw strings.Builder
	if n := len(table); n >= 4 {
		raw.Grow(int(binary.LittleEndian.Uint32(table[n-4:])))
	}
	if _, err := io.Copy(&raw, zr); err != nil {
		return nil, fmt.Errorf("place: gazetteer table: %w", err)
	}
	return parse(raw.String())
}

func parse(data string) (*Gazetteer, error) {
	// The first line gives the table's sizes: H places keys candidates multi.
	var size [5]int
	if nl := strings.IndexByte(data, '\n'); nl > 0 && strings.HasPrefix(data, "H\t") {
		for i, f := range strings.Split(data[2:nl], "\t") {
			if i < len(size) {
				size[i], _ = strconv.Atoi(f)
			}
		}
		data = data[nl+1:]
	}
	g := &Gazetteer{
		zoneIDs: make(map[string]int32, 600),
		keys:    make([]string, 0, size[1]),
		entries: make([]keyEntry, 0, size[1]),
		cands:   make([]int32, 0, size[2]),
		places:  make([]Place, 0, size[0]),
		multi:   make(map[string]uint8, size[3]),
		iso2:    make(map[string]int32, 260),
		iso3:    make(map[string]int32, 260),
		abbrevs: make(map[string]Place, 64),
	}
	countryNames := map[string]string{}
	iso3 := map[string]string{}
	var fields [10]string
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		nl := strings.IndexByte(data, '\n')
		if nl < 0 {
			nl = len(data)
		}
		line := data[:nl]
		data = data[min(nl+1, len(data)):]
		f := splitTabs(line, fields[:0])
		bad := func() (*Gazetteer, error) {
			return nil, fmt.Errorf("place: gazetteer table line %d is malformed", lineNo)
		}
		switch f[0] {
		case "Z":
			if len(f) != 5 {
				return bad()
			}
			if strings.Contains(f[1], "/") || !hasLower(f[1]) {
				// One-part ids spelt as words (Turkey, Zulu) are names,
				// looked up as such, after the country of that name.
				g.zoneIDs[strings.ToLower(f[1])] = int32(len(g.places))
			}
			g.places = append(g.places, Place{Name: f[1], Kind: KindZone, CountryCode: f[4],
				Lat: deg(f[2]), Lon: deg(f[3]), TimeZone: f[1]})
		case "C":
			if len(f) != 4 {
				return bad()
			}
			countryNames[f[1]] = f[3]
			iso3[f[1]] = f[2]
		case "P":
			if len(f) != 9 {
				return bad()
			}
			zi, err := strconv.Atoi(f[8])
			if err != nil || zi < 0 || zi >= len(g.zoneIDs) {
				return bad()
			}
			pop, _ := strconv.ParseInt(f[7], 10, 64)
			p := Place{Name: f[2], CountryCode: f[3], Region: f[4], Lat: deg(f[5]), Lon: deg(f[6]),
				Population: pop, TimeZone: g.places[zi].TimeZone}
			switch f[1] {
			case "ci":
				p.Kind = KindCity
			case "co":
				p.Kind = KindCountry
				g.iso2[p.CountryCode] = int32(len(g.places))
				if c3 := iso3[p.CountryCode]; c3 != "" {
					g.iso3[c3] = int32(len(g.places))
				}
			case "re":
				p.Kind = KindRegion
			default:
				return bad()
			}
			g.places = append(g.places, p)
		case "K":
			if len(f) != 4 {
				return bad()
			}
			e := keyEntry{first: int32(len(g.cands))}
			for _, c := range f[2] {
				switch c {
				case 'a':
					e.flags |= flagAlias
				case '^':
					e.flags |= flagCapsOnly
				case '!':
					e.flags |= flagStopWord
				case '-':
					e.flags |= flagNoScan
				}
			}
			list := f[3]
			for list != "" {
				comma := strings.IndexByte(list, ',')
				if comma < 0 {
					comma = len(list)
				}
				i, err := strconv.Atoi(list[:comma])
				if err != nil {
					return bad()
				}
				g.cands = append(g.cands, int32(i))
				list = list[min(comma+1, len(list)):]
			}
			e.n = uint16(int32(len(g.cands)) - e.first)
			if n := len(g.keys); n > 0 && g.keys[n-1] >= f[1] {
				return nil, fmt.Errorf("place: gazetteer table line %d: names out of order", lineNo)
			}
			g.keys = append(g.keys, f[1])
			g.entries = append(g.entries, e)
			if sp := strings.IndexByte(f[1], ' '); sp > 0 {
				n := uint8(strings.Count(f[1], " ") + 1)
				if n > g.multi[f[1][:sp]] {
					g.multi[f[1][:sp]] = n
				}
			}
		case "A":
			if len(f) != 5 {
				return bad()
			}
			off, err := strconv.Atoi(f[2])
			if err != nil {
				return bad()
			}
			g.abbrevs[f[1]] = Place{Name: f[1], Kind: KindOffset, OffsetSeconds: off, Note: f[4]}
		default:
			return bad()
		}
	}
	for i := range g.places {
		p := &g.places[i]
		p.Country = countryNames[p.CountryCode]
	}
	for _, c := range g.cands {
		if c < 0 || int(c) >= len(g.places) {
			return nil, fmt.Errorf("place: gazetteer table names place %d of %d", c, len(g.places))
		}
	}
	return g, nil
}

func splitTabs(line string, dst []string) []string {
	for {
		i := strings.IndexByte(line, '\t')
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i+1:]
	}
}

// deg reads degrees × 10⁴.
func deg(s string) float64 {
	v, _ := strconv.Atoi(s)
	return float64(v) / 1e4
}

// find returns the entry of a normalised name.
func (g *Gazetteer) find(key string) (keyEntry, bool) {
	i, ok := slices.BinarySearch(g.keys, key)
	if !ok {
		return keyEntry{}, false
	}
	return g.entries[i], true
}

// findBytes is find for a name being built in a buffer (no allocation).
func (g *Gazetteer) findBytes(key []byte) (keyEntry, bool) {
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
	upper := isCapitals(s)
	key := norm.Key(s)
	e, hasKey := g.find(key)
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
	e, ok := g.find(norm.Key(name))
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
	e, ok := g.find(norm.Key(name))
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
