package weather

import (
	"strconv"
	"strings"
	"time"
)

// Text renders the report as three lines: the place and local time, the
// conditions now, and the day's forecast.
//
//	Copenhagen, Denmark (55.6761°N, 12.5683°E), 2026-07-26 23:00 local time (Europe/Copenhagen)
//	Now: dense drizzle, 16.8°C, feels like 16.8°C, humidity 84%, wind 2.5 m/s from NNE (31°), precipitation 0.3 mm
//	Sunday 2026-07-26: slight rain, high 21.3°C, low 16.6°C, precipitation 0.8 mm (100% chance)
func (r Report) Text() string {
	var b strings.Builder
	b.WriteString(r.Place.Label())
	b.WriteString(" (" + formatCoordinates(r.Place.Latitude, r.Place.Longitude) + ")")
	if r.Time != "" {
		b.WriteString(", " + strings.Replace(r.Time, "T", " ", 1) + " local time")
	}
	if r.TimeZone != "" {
		b.WriteString(" (" + r.TimeZone + ")")
	}
	c := r.Current
	now := clauses(
		c.Weather,
		measure(c.Temperature, c.TemperatureUnit),
		prefixed("feels like ", measure(c.ApparentTemperature, c.TemperatureUnit)),
		prefixed("humidity ", measure(c.RelativeHumidity, "%")),
		wind(c.WindSpeed, c.WindSpeedUnit, c.WindDirection),
		prefixed("precipitation ", measure(c.Precipitation, c.PrecipitationUnit)),
	)
	if now != "" {
		b.WriteString("\nNow: " + now)
	}
	if d := r.Forecast; d != nil {
		rain := prefixed("precipitation ", measure(d.PrecipitationSum, d.PrecipitationUnit))
		if p := measure(d.PrecipitationProbability, "%"); p != "" {
			if rain == "" {
				rain = "precipitation"
			}
			rain += " (" + p + " chance)"
		}
		b.WriteString("\n" + dayLabel(d.Date) + ": " + clauses(
			d.Weather,
			prefixed("high ", measure(d.TemperatureMax, d.TemperatureUnit)),
			prefixed("low ", measure(d.TemperatureMin, d.TemperatureUnit)),
			rain,
		))
	}
	return b.String()
}

// dayLabel writes "Sunday 2026-07-26".
func dayLabel(date string) string {
	if t, err := time.Parse(isoDate, date); err == nil {
		return t.Weekday().String() + " " + date
	}
	return date
}

// clauses joins the non-empty parts with commas.
func clauses(parts ...string) string {
	kept := parts[:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ", ")
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// measure writes a value with its unit: "16.8°C", "84%", "2.5 m/s"; "" when
// the value is missing.
func measure(v *float64, unit string) string {
	if v == nil {
		return ""
	}
	s := formatRounded(*v, 2)
	switch {
	case unit == "":
		return s
	case unit == "%" || strings.HasPrefix(unit, "°"):
		return s + unit
	}
	return s + " " + unit
}

func wind(speed *float64, unit string, direction *float64) string {
	s := measure(speed, unit)
	if s == "" {
		return ""
	}
	s = "wind " + s
	if direction != nil {
		s += " from " + compass(*direction) + " (" + formatRounded(*direction, 0) + "°)"
	}
	return s
}

// compass names a direction in degrees on the 16-point compass rose.
func compass(deg float64) string {
	const points = "N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW"
	names := strings.Fields(points)
	i := int((deg+11.25)/22.5) % 16
	if i < 0 {
		i += 16
	}
	return names[i]
}

// Text renders a location as labelled lines.
//
//	Frederick, Maryland, United States
//	Coordinates: 39.4143°N, 77.4105°W; elevation 87 m
//	Country: United States (US)
//	Region: Maryland
//	Population: 69,479
//	Time zone: America/New_York
func (l Location) Text() string {
	var b strings.Builder
	b.WriteString(l.Label())
	b.WriteString("\nCoordinates: " + formatCoordinates(l.Latitude, l.Longitude))
	if l.Elevation != nil {
		b.WriteString("; elevation " + measure(l.Elevation, "m"))
	}
	if l.Country != "" {
		b.WriteString("\nCountry: " + l.Country)
		if l.CountryCode != "" {
			b.WriteString(" (" + l.CountryCode + ")")
		}
	}
	if l.Region != "" && l.Region != l.Name {
		b.WriteString("\nRegion: " + l.Region)
	}
	if l.Population > 0 {
		b.WriteString("\nPopulation: " + thousands(l.Population))
	}
	if l.TimeZone != "" {
		b.WriteString("\nTime zone: " + l.TimeZone)
	}
	return b.String()
}

// thousands writes n with comma separators: 69,479.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// mockReport is WeatherSearch's grounding mock (GEAR, arXiv:2307.08775, Appendix
// A.3): a report rendered by the same code as a real one, so it has the
// same words, numbers, units and symbols, for the place "{place}".
func mockReport() string {
	f := func(v float64) *float64 { return &v }
	code, dayCode := 2, 80
	return Report{
		Place:    Location{Name: "{place}", Latitude: 48.8534, Longitude: 2.3488},
		Time:     "2026-05-14T15:00",
		TimeZone: "Europe/Paris",
		Current: Conditions{
			Temperature: f(18.4), ApparentTemperature: f(17.6), TemperatureUnit: "°C",
			RelativeHumidity: f(62), WindSpeed: f(12.6), WindSpeedUnit: "km/h", WindDirection: f(248),
			Precipitation: f(0), PrecipitationUnit: "mm", WeatherCode: &code, Weather: WeatherWords(code),
		},
		Forecast: &Day{
			Date: "2026-05-14", WeatherCode: &dayCode, Weather: WeatherWords(dayCode),
			TemperatureMax: f(21.3), TemperatureMin: f(11.8), TemperatureUnit: "°C",
			PrecipitationSum: f(0.4), PrecipitationUnit: "mm", PrecipitationProbability: f(35),
		},
	}.Text()
}

// mockLocation is LocationSearch's grounding mock, rendered like a real
// answer for the place "{place}".
func mockLocation() string {
	elevation := 35.0
	return Location{
		Name: "{place}", Region: "Île-de-France", Country: "France", CountryCode: "FR",
		Latitude: 48.8534, Longitude: 2.3488, Elevation: &elevation,
		Population: 2138551, TimeZone: "Europe/Paris",
	}.Text()
}
