package place

import (
	"strings"

	"github.com/gear-chat/gear/internal/lazyregexp"
)

// Regional zone names. North American zones go by region names ("Pacific
// Time", "Eastern Standard Time", "5 pm Pacific") and short names ("PT",
// "ET"), which are also ordinary words or country codes: "pacific" is an
// ocean, "PT" is Portugal's ISO code. This file is the one place that
// reads them, for the tools (Lookup, LookupZone) and for grounding
// (ScanZoneNames), so a zone grounding finds in a query is the zone the
// tool answers for.

// regionalZones are the region names of zones, as IANA ids.
var regionalZones = map[string]string{
	"pacific":  "US/Pacific",
	"eastern":  "US/Eastern",
	"central":  "US/Central",
	"mountain": "US/Mountain",
	"atlantic": "Canada/Atlantic",
	"alaska":   "US/Alaska",
	"hawaii":   "US/Hawaii",
}

// shortZones are the short names of the four main North American zones.
var shortZones = map[string]string{"pt": "US/Pacific", "et": "US/Eastern", "ct": "US/Central", "mt": "US/Mountain"}

var (
	// namedZoneRe: a region name with "time" ("Pacific Time", "eastern
	// standard time", "Mountain-Daylight-Time").
	namedZoneRe = lazyregexp.New(`(?i)\b(pacific|eastern|central|mountain|atlantic|alaska|hawaii)(?:[ -](?:standard|daylight))?[ -]time\b`)
	// wholeNamedZoneRe is namedZoneRe as a whole name.
	wholeNamedZoneRe = lazyregexp.New(`(?i)^(pacific|eastern|central|mountain|atlantic|alaska|hawaii)(?:[ -](?:standard|daylight))?[ -]time$`)
	// bareZoneRe: a region name alone, a zone only right after a clock time.
	bareZoneRe = lazyregexp.New(`(?i)\b(pacific|eastern|central|mountain)\b`)
	// shortZoneRe: PT, ET, CT and MT in capitals, zones only right after
	// a clock time ("10:00 AM PT").
	shortZoneRe = lazyregexp.New(`\b(PT|ET|CT|MT)\b`)
	// offsetRe finds a UTC offset: "UTC+8", "GMT -05:00", "utc+5:30".
	offsetRe = lazyregexp.New(`(?i)\b(?:utc|gmt)\s?[+\-−]\s?[0-9]{1,2}(?::?[0-9]{2})?\b`)
	// zoneAbbrevRe finds time zone abbreviations that are not English
	// words, in any case: EST, pdt, CET, AEST, JST... and UTC or GMT alone.
	zoneAbbrevRe = lazyregexp.New(`(?i)\b(?:utc|gmt|est|edt|cst|cdt|mst|mdt|pst|pdt|akst|akdt|hst|bst|cet|cest|eet|eest|msk|jst|kst|aest|aedt|acst|acdt|awst|nzst|nzdt|sgt|hkt)\b`)
	// istRe: IST, India Standard Time, is also a German word ("wie spät
	// ist es"); in lower case it counts after a word that introduces a
	// zone ("9am GMT in ist").
	istRe = lazyregexp.New(`(?i)\b(?:in|to|from|into|and|vs|versus|or)\s+(ist)\b`)
)

// RegionalZone reads a whole name as a regional zone: "Pacific Time",
// "Eastern Standard Time", "central daylight time". It returns the IANA id.
func RegionalZone(name string) (string, bool) {
	m := wholeNamedZoneRe().FindStringSubmatch(strings.Join(strings.Fields(name), " "))
	if m == nil {
		return "", false
	}
	return regionalZones[strings.ToLower(m[1])], true
}

// shortZone reads "PT", "ET", "CT" or "MT" (any case) as its zone.
func shortZone(name string) (string, bool) {
	id, ok := shortZones[strings.ToLower(strings.TrimSpace(name))]
	return id, ok
}

// LookupZone resolves a name as a time zone tool reads it: like Lookup,
// except that the short names of the North American zones ("PT", "ET",
// "CT", "MT") are those zones, not the countries whose ISO codes they also
// are (Portugal, Ethiopia, Malta); the place's Note says so.
func (g *Gazetteer) LookupZone(name string) (Place, bool) {
	if id, ok := shortZone(name); ok {
		if i, ok := g.zoneIDs[strings.ToLower(id)]; ok {
			p := g.places[i]
			p.Note = strings.ToUpper(strings.TrimSpace(name)) + " is read as the zone " + id + ` ("` +
				strings.TrimSpace(name) + `" is also a country code: write the country's name for the country)`
			return p, true
		}
	}
	return g.Lookup(name)
}

// ZoneMention is a zone found in a text: its byte span and the name to
// call a tool with (an IANA id, an offset such as "UTC+8", or an
// abbreviation such as "PST"), which Lookup and LookupZone resolve to that
// zone.
type ZoneMention struct {
	Start, End int
	Name       string
}

// ScanZoneNames finds zones named in text: UTC offsets in any spelling
// ("utc+8", "GMT -05:00"), zone abbreviations in any case ("pst"), and
// regional zone names. Mentions may overlap; they come in the order of
// the kinds above. clockTimes are the
// byte spans of the clock times in the text: a bare region name counts
// right after one ("5 pm pacific") or at the end of a clause of a text
// that has one ("5 pm pacific = ? eastern"); a short name ("PT") right
// after one.
func ScanZoneNames(text string, clockTimes [][2]int) []ZoneMention {
	var out []ZoneMention
	for _, m := range offsetRe().FindAllStringIndex(text, -1) {
		name := strings.ToUpper(strings.Join(strings.Fields(text[m[0]:m[1]]), ""))
		out = append(out, ZoneMention{Start: m[0], End: m[1], Name: strings.ReplaceAll(name, "−", "-")})
	}
	for _, m := range zoneAbbrevRe().FindAllStringIndex(text, -1) {
		if before := text[:m[0]]; strings.HasSuffix(before, "'") || strings.HasSuffix(before, "’") {
			continue // "qu'est", "c'est": a word, not Eastern Standard Time
		}
		out = append(out, ZoneMention{Start: m[0], End: m[1], Name: strings.ToUpper(text[m[0]:m[1]])})
	}
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "time") && len(clockTimes) == 0 && !strings.Contains(lower, "ist") {
		return out // none of the expressions below can match
	}
	for _, m := range namedZoneRe().FindAllStringSubmatchIndex(text, -1) {
		out = append(out, ZoneMention{Start: m[0], End: m[1], Name: regionalZones[strings.ToLower(text[m[2]:m[3]])]})
	}
	afterClock := func(pos int) bool {
		for _, c := range clockTimes {
			if c[1] <= pos && strings.TrimSpace(text[c[1]:pos]) == "" {
				return true
			}
		}
		return false
	}
	for _, m := range bareZoneRe().FindAllStringSubmatchIndex(text, -1) {
		after := strings.TrimLeft(text[m[1]:], " ")
		atEnd := after == "" || strings.ContainsRune("?,.!=;)", rune(after[0]))
		if afterClock(m[0]) || atEnd && len(clockTimes) > 0 {
			out = append(out, ZoneMention{Start: m[0], End: m[1], Name: regionalZones[strings.ToLower(text[m[2]:m[3]])]})
		}
	}
	for _, m := range shortZoneRe().FindAllStringSubmatchIndex(text, -1) {
		if afterClock(m[0]) {
			id, _ := shortZone(text[m[2]:m[3]])
			out = append(out, ZoneMention{Start: m[0], End: m[1], Name: id})
		}
	}
	for _, m := range istRe().FindAllStringSubmatchIndex(text, -1) {
		out = append(out, ZoneMention{Start: m[2], End: m[3], Name: "IST"})
	}
	return out
}
