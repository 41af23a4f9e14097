package offline

import (
	"sort"
	"strings"

	"github.com/gear-chat/gear/tools/place"
)

// The places of the spans stage: a place the query names (mention), the
// gazetteer's names merged with the time zones' (findPlaces), a country
// that only qualifies a unit ("5 US gallons") left out, and whether an
// offset lies in a date, time or place.

// mention is a place named in the query: its byte span and the name to
// call tools with.
type mention struct {
	Start, End int
	Name       string
	// Text is the mention as the query writes it.
	Text string
	// Zone marks a time zone alone — an offset, a zone's abbreviation or
	// name, a zone id — which is no location.
	Zone bool
}

// unitQualifiersDropped leaves out a country's short name that says whose
// measure the unit right after it is ("5 US gallons", "how many US
// gallons", "2 UK pints"), as measure.go reads it: a measure, not a place.
func unitQualifiersDropped(places []mention, t tokenStage) []mention {
	out := places[:0:0]
	for _, p := range places {
		k := -1
		for i, tok := range t.toks {
			if tok.start == p.Start && tok.end == p.End {
				k = i
			}
		}
		if k >= 0 && k+1 < len(t.toks) {
			next := t.toks[k+1].text
			u, us := t.lx.units[next]
			_, uk := t.lx.imperialUnits[next]
			if t.toks[k].text == "us" && us && u.dim == "volume" || t.toks[k].text == "uk" && uk {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// findPlaces merges the gazetteer's mentions with the zone names, UTC
// offsets and zone abbreviations in any case ("utc+8", "pst") that
// place.ScanZoneNames finds, in order of position,
// dropping overlaps (the longer mention wins). The tools resolve a name
// with the same gazetteer, so either form finds the same place.
func (e *Engine) findPlaces(query string, clockTimes [][2]int) []mention {
	var found []mention
	for _, z := range place.ScanZoneNames(query, clockTimes) {
		found = append(found, mention{Start: z.Start, End: z.End, Name: z.Name, Text: query[z.Start:z.End], Zone: true})
	}
	if e.places != nil {
		for _, m := range e.places.Scan(query) {
			// Cities, regions and countries by their display name; zones
			// ("Sakhalin" is Asia/Sakhalin) and offsets as written.
			name := m.Place.Name
			if m.Place.Kind == place.KindOffset || m.Place.Kind == place.KindZone || name == "" {
				name = strings.TrimSpace(m.Text)
			}
			// An offset or a zone id ("Asia/Shanghai") is a zone alone; a
			// zone's city part ("Gambier", "Ust-Nera") is a place too.
			zone := m.Place.Kind == place.KindOffset || m.Place.Kind == place.KindZone && strings.Contains(m.Text, "/")
			found = append(found, mention{Start: m.Start, End: m.End, Name: name, Text: m.Text, Zone: zone})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].Start != found[j].Start {
			return found[i].Start < found[j].Start
		}
		return found[i].End-found[i].Start > found[j].End-found[j].Start
	})
	var out []mention
	for _, m := range found {
		if len(out) > 0 && m.Start < out[len(out)-1].End {
			continue
		}
		out = append(out, m)
	}
	return out
}

// excluded reports whether byte offset pos lies in a date, time, offset or
// place name.
func (sp spanStage) excluded(pos int) bool {
	for _, s := range sp.spans {
		if pos >= s[0] && pos < s[1] {
			return true
		}
	}
	return false
}
