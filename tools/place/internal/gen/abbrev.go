package main

import (
	"fmt"
	"log"
	"sort"
	"strings"
	"time"
)

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
