// Package weather holds gear's Open-Meteo tools: WeatherSearch (current
// conditions and a day's forecast for a place) and LocationSearch (where a
// place is: coordinates, country, region, population, time zone). Places
// gear's gazetteer knows resolve with no network; others go through
// Open-Meteo's geocoding. Open-Meteo needs no API key.
package weather

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/webget"
)

// Gazetteer finds a place by name with no network; *place.Gazetteer is one.
type Gazetteer interface {
	Lookup(name string) (place.Place, bool)
}

// Config is what the tools need. BaseURL and GeocodingURL are roots
// ("https://api.open-meteo.com"), without the /v1/... path.
type Config struct {
	Web          *webget.Client
	BaseURL      string
	GeocodingURL string
	// Units is "metric" (the default) or "imperial".
	Units string
	// Places, when set, resolves known places without geocoding.
	Places Gazetteer
	// Now is the clock used to reject dates far outside the forecast
	// before any request; nil means time.Now.
	Now func() time.Time
}

func (c Config) imperial() bool { return c.Units == "imperial" }

func (c Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// forecastService and geocodingService name the two Open-Meteo APIs in
// errors; an error body's "reason" is Open-Meteo's explanation.
func forecastService() webget.Service {
	return webget.Service{Name: "Open-Meteo", URLKey: "tools.weather.base_url", Reason: webget.JSONReason("reason")}
}

func geocodingService() webget.Service {
	return webget.Service{Name: "Open-Meteo geocoding", URLKey: "tools.weather.geocoding_url", Reason: webget.JSONReason("reason")}
}

// Location is a resolved place.
type Location struct {
	Name        string   `json:"name"`
	Region      string   `json:"region,omitempty"`
	Country     string   `json:"country,omitempty"`
	CountryCode string   `json:"country_code,omitempty"`
	Latitude    float64  `json:"latitude"`
	Longitude   float64  `json:"longitude"`
	Elevation   *float64 `json:"elevation_m,omitempty"`
	Population  int64    `json:"population,omitempty"`
	TimeZone    string   `json:"timezone,omitempty"`
	// Kind is city, country, region, zone or place.
	Kind string `json:"kind,omitempty"`
	// Source is where the place was found: "gazetteer" or "geocoding".
	Source string `json:"source"`
}

// Label is the place as people write it: "Frederick, Maryland, United States".
func (l Location) Label() string {
	parts := []string{l.Name}
	for _, p := range []string{l.Region, l.Country} {
		if p != "" && !strings.EqualFold(p, parts[len(parts)-1]) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// resolver finds places: the gazetteer first, then geocoding.
type resolver struct {
	cfg    Config
	prefix string // "weather" or "location", for error messages
}

// resolve returns the best match for name and, from geocoding, the other
// places of that name.
func (r resolver) resolve(ctx context.Context, name string) (Location, []Location, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Location{}, nil, tools.Inputf("%s: no place given; name a city, region or country", r.prefix)
	}
	if r.cfg.Places != nil {
		if p, ok := r.cfg.Places.Lookup(name); ok && (p.Lat != 0 || p.Lon != 0) {
			return fromGazetteer(p), nil, nil
		}
	}
	return r.geocode(ctx, name)
}

func fromGazetteer(p place.Place) Location {
	return Location{
		Name:        p.Name,
		Region:      p.Region,
		Country:     p.Country,
		CountryCode: p.CountryCode,
		Latitude:    p.Lat,
		Longitude:   p.Lon,
		Population:  p.Population,
		TimeZone:    p.TimeZone,
		Kind:        string(p.Kind),
		Source:      "gazetteer",
	}
}

// geoResponse is Open-Meteo's /v1/search answer. A name with no match
// gets no "results" key at all.
type geoResponse struct {
	Results []geoResult `json:"results"`
	Error   bool        `json:"error"`
	Reason  string      `json:"reason"`
}

type geoResult struct {
	Name        string   `json:"name"`
	Latitude    float64  `json:"latitude"`
	Longitude   float64  `json:"longitude"`
	Elevation   *float64 `json:"elevation"`
	FeatureCode string   `json:"feature_code"`
	CountryCode string   `json:"country_code"`
	Timezone    string   `json:"timezone"`
	Population  int64    `json:"population"`
	Country     string   `json:"country"`
	Admin1      string   `json:"admin1"`
	Admin2      string   `json:"admin2"`
}

func (g geoResult) location() Location {
	return Location{
		Name:        g.Name,
		Region:      g.Admin1,
		Country:     g.Country,
		CountryCode: g.CountryCode,
		Latitude:    g.Latitude,
		Longitude:   g.Longitude,
		Elevation:   g.Elevation,
		Population:  g.Population,
		TimeZone:    g.Timezone,
		Kind:        featureKind(g.FeatureCode),
		Source:      "geocoding",
	}
}

// featureKind maps a GeoNames feature code to the gazetteer's kinds.
func featureKind(code string) string {
	switch {
	case strings.HasPrefix(code, "PPL"):
		return string(place.KindCity)
	case strings.HasPrefix(code, "PCL"):
		return string(place.KindCountry)
	case strings.HasPrefix(code, "ADM"):
		return string(place.KindRegion)
	}
	return "place"
}

// maxGeocodeResults is how many matches geocoding is asked for.
const maxGeocodeResults = 5

// geocode asks Open-Meteo for name. Open-Meteo matches the name alone, so
// in "Frederick, Colorado" the part after the comma picks among the
// matches by region, county, country or country code.
func (r resolver) geocode(ctx context.Context, name string) (Location, []Location, error) {
	search, qualifier := name, ""
	if i := strings.Index(name, ","); i >= 0 {
		search, qualifier = strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+1:])
	}
	if search == "" {
		return Location{}, nil, tools.Inputf("%s: %q names no place before the comma", r.prefix, name)
	}
	q := url.Values{}
	q.Set("name", search)
	q.Set("count", strconv.Itoa(maxGeocodeResults))
	q.Set("language", "en")
	q.Set("format", "json")
	u := strings.TrimRight(r.cfg.GeocodingURL, "/") + "/v1/search?" + q.Encode()
	var resp geoResponse
	if err := r.cfg.Web.GetJSON(ctx, geocodingService(), u, &resp); err != nil {
		return Location{}, nil, fmt.Errorf("%s: %w", r.prefix, err)
	}
	if resp.Error {
		return Location{}, nil, fmt.Errorf("%s: Open-Meteo geocoding refused %q: %s; check tools.weather.geocoding_url", r.prefix, search, resp.Reason)
	}
	if len(resp.Results) == 0 {
		return Location{}, nil, tools.Inputf("%s: no place called %q found; check the spelling or name a nearby city", r.prefix, search)
	}
	matches := make([]Location, 0, len(resp.Results))
	for _, g := range resp.Results {
		if qualifier == "" || g.matches(qualifier) {
			matches = append(matches, g.location())
		}
	}
	if len(matches) == 0 {
		found := make([]string, len(resp.Results))
		for i, g := range resp.Results {
			found[i] = g.location().Label()
		}
		return Location{}, nil, tools.Inputf("%s: no %q in %q; found %s", r.prefix, search, qualifier, strings.Join(found, "; "))
	}
	return matches[0], matches[1:], nil
}

func (g geoResult) matches(qualifier string) bool {
	for _, field := range []string{g.Admin1, g.Admin2, g.Country, g.CountryCode} {
		if field != "" && strings.EqualFold(field, qualifier) {
			return true
		}
	}
	return false
}

// formatCoordinates writes "39.4143°N, 77.4105°W".
func formatCoordinates(lat, lon float64) string {
	ns, ew := "N", "E"
	if lat < 0 {
		ns, lat = "S", -lat
	}
	if lon < 0 {
		ew, lon = "W", -lon
	}
	return formatRounded(lat, 4) + "°" + ns + ", " + formatRounded(lon, 4) + "°" + ew
}

// formatRounded writes f with at most places decimals and no trailing zeros.
func formatRounded(f float64, places int) string {
	s := strconv.FormatFloat(f, 'f', places, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
