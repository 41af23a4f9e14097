package main

import (
	"log"
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools/place/internal/norm"
)

// rankOf is the population of a candidate's place (0 for a zone place).
func (g *gen) rankOf(c candidate) int64 {
	if c.idx < 0 {
		return 0
	}
	return g.places[c.idx].pop
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
		part, hasPart := zoneNamePart(z.id)
		named := -1 // the city the id's city part names, with the zone's data
		if hasPart {
			named = g.cityNamed(norm.Key(part), z.group)
		}
		rep := exact
		if rep < 0 {
			// a link such as Asia/Calcutta: at the city it names (Kolkata)
			rep = named
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
		tier := 2
		if named >= 0 {
			target = cityIdx[named]
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
