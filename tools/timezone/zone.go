package timezone

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

// Zone is a resolved time zone: where a place's clocks are.
type Zone struct {
	// Input is the place as written.
	Input string `json:"input"`
	// Name is the zone's name: an IANA id ("Asia/Shanghai"), or for a
	// fixed offset the offset or abbreviation read ("UTC+05:30", "PST").
	Name string `json:"zone"`
	// Place is what the input resolved to in the gazetteer.
	Place place.Place `json:"place"`
	// Note says how an ambiguous input was read (IST, GMT-8), or is empty.
	Note string `json:"note,omitempty"`
	// Location gives the zone's rules.
	Location *time.Location `json:"-"`
}

// Fixed reports whether the zone is a fixed offset with no daylight saving
// rules of its own.
func (z Zone) Fixed() bool { return z.Place.Kind == place.KindOffset }

// Resolver turns place names into zones. It caches loaded zone rules, so
// keep one per process; it is safe for concurrent use.
type Resolver struct {
	places *place.Gazetteer
	mu     sync.Mutex
	locs   map[string]*time.Location
}

// NewResolver makes a resolver over a loaded gazetteer.
func NewResolver(places *place.Gazetteer) *Resolver {
	return &Resolver{places: places, locs: map[string]*time.Location{}}
}

// Resolve reads a place as a zone. Accepted, in order (see
// place.Gazetteer.Lookup): a UTC/GMT offset ("UTC+5:30"; "GMT-8" is eight
// hours behind UTC), an alias or ISO code, an IANA id ("Asia/Shanghai",
// "Etc/GMT-8" with IANA's inverted sign, old ids such as "Asia/Calcutta"),
// a time zone abbreviation ("PST" is UTC-08:00 all year; an ambiguous one
// such as IST is read by the documented rule and Zone.Note says so), the
// city part of an IANA id ("Tongatapu", "LHI"), or any city, country or
// region name ("Boston", "Tanzania", "Britain", "new york"). An unknown
// place is a *tools.InputError saying what to write instead.
func (r *Resolver) Resolve(name string) (Zone, error) {
	in := strings.TrimSpace(name)
	p, ok := r.places.LookupZone(in)
	if !ok {
		return Zone{}, unknownPlace(in)
	}
	z := Zone{Input: in, Place: p, Note: p.Note}
	if p.Kind == place.KindOffset {
		z.Name = p.Name
		if isLetters(p.Name) {
			z.Location = time.FixedZone(p.Name, p.OffsetSeconds)
		} else {
			z.Location = time.FixedZone(place.FormatOffset(p.OffsetSeconds), p.OffsetSeconds)
		}
		return z, nil
	}
	loc, err := r.load(p.TimeZone)
	if err != nil {
		return Zone{}, fmt.Errorf("timezone: zone %s of %q: %w", p.TimeZone, in, err)
	}
	z.Name, z.Location = p.TimeZone, loc
	return z, nil
}

// load returns the rules of an IANA zone, from the system's zoneinfo when
// it has them, else from the copy embedded in the binary (time/tzdata).
func (r *Resolver) load(id string) (*time.Location, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if loc, ok := r.locs[id]; ok {
		return loc, nil
	}
	loc, err := time.LoadLocation(id)
	if err != nil {
		return nil, err
	}
	r.locs[id] = loc
	return loc, nil
}

func unknownPlace(in string) error {
	if in == "" {
		return tools.Inputf(`no place given: write a city ("Boston"), a country, an IANA zone ("Asia/Shanghai"), a UTC offset ("UTC+5:30") or an abbreviation ("PST")`)
	}
	if len(in) > 60 {
		in = in[:60] + "…"
	}
	return tools.Inputf(`unknown place %q: write a city ("Boston"), a country, an IANA zone ("Asia/Shanghai"), a UTC offset ("UTC+5:30", -12:00 to +14:00) or an abbreviation ("PST")`, in)
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'A' || c > 'Z' && c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}
