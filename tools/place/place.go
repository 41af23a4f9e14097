// Package place is gear's embedded gazetteer: cities, countries, regions
// and their IANA time zones, derived from GeoNames (www.geonames.org,
// CC BY 4.0), so places resolve with no network.
package place

// Kind says what a Place is.
type Kind string

const (
	KindCity    Kind = "city"
	KindCountry Kind = "country"
	KindRegion  Kind = "region" // a first-level division or a named region ("Britain", "Hawaii")
	KindZone    Kind = "zone"   // an IANA time zone id or its city part ("Asia/Shanghai", "Tongatapu")
)

// Place is one resolved place.
type Place struct {
	Name        string  `json:"name"`         // display name, e.g. "Adelaide"
	Kind        Kind    `json:"kind"`         // city, country, region or zone
	Country     string  `json:"country"`      // country name, e.g. "Australia"
	CountryCode string  `json:"country_code"` // ISO 3166-1 alpha-2, e.g. "AU"
	Region      string  `json:"region"`       // first-level division, e.g. "South Australia"
	Lat         float64 `json:"latitude"`
	Lon         float64 `json:"longitude"`
	Population  int64   `json:"population"`
	TimeZone    string  `json:"timezone"` // IANA id, e.g. "Australia/Adelaide"
}
