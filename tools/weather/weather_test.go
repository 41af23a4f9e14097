package weather

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/webget"
	"github.com/gear-chat/gear/tools/webget/webgettest"
)

const testUA = "gear/test (+https://github.com/gear-chat/gear)"

// The recorded Copenhagen forecast was made on 2026-07-26.
var recordedDay = time.Date(2026, 7, 26, 12, 0, 0, 0, time.UTC)

// fakeGazetteer stands in for the embedded gazetteer.
type fakeGazetteer map[string]place.Place

func (g fakeGazetteer) Lookup(name string) (place.Place, bool) {
	p, ok := g[strings.ToLower(name)]
	return p, ok
}

var gazetteer = fakeGazetteer{
	"copenhagen": {Name: "Copenhagen", Kind: place.KindCity, Country: "Denmark", CountryCode: "DK", Region: "Capital Region",
		Lat: 55.6761, Lon: 12.5683, Population: 1153615, TimeZone: "Europe/Copenhagen"},
	// An abbreviation the time zone tools know, with no coordinates to forecast for.
	"cet": {Name: "CET", Kind: place.KindZone, TimeZone: "Europe/Paris"},
}

func testConfig(srv *webgettest.Server, o webget.Options) Config {
	o.HTTP = srv.Client()
	o.UserAgent = testUA
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	o.Backoff = time.Millisecond
	return Config{
		Web: webget.New(o), BaseURL: srv.URL, GeocodingURL: srv.URL + "/",
		Units: "metric", Places: gazetteer, Now: func() time.Time { return recordedDay },
	}
}

func forecastRoute(lat, lon, tz string, days string, imperial bool, replies ...webgettest.Reply) webgettest.Route {
	q := map[string]string{
		"latitude": lat, "longitude": lon, "timezone": tz, "forecast_days": days,
		"current": currentVars, "daily": dailyVars,
	}
	if imperial {
		q["temperature_unit"] = "fahrenheit"
		q["wind_speed_unit"] = "mph"
		q["precipitation_unit"] = "inch"
	}
	return webgettest.Route{Path: "/v1/forecast", Query: q, Replies: replies}
}

func geocodeRoute(name string, replies ...webgettest.Reply) webgettest.Route {
	return webgettest.Route{Path: "/v1/search", Query: map[string]string{"name": name, "count": "5", "language": "en", "format": "json"}, Replies: replies}
}

func call(tool string, args ...string) tools.Call {
	c := tools.Call{Tool: tool}
	names := []string{"place", "date"}
	for i, a := range args {
		c.Args = append(c.Args, tools.Arg{Name: names[i], Value: tools.String(a)})
	}
	return c
}

// errKind says what kind of error a case expects.
type errKind int

const (
	noError errKind = iota
	inputError
	runError
)

func checkErr(t *testing.T, err error, kind errKind, want string) {
	t.Helper()
	switch {
	case kind == noError && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case kind == noError:
		return
	case err == nil:
		t.Fatalf("no error, want one containing %q", want)
	case kind == inputError && !tools.IsInput(err):
		t.Errorf("error %q is not an InputError", err)
	case kind == runError && tools.IsInput(err):
		t.Errorf("error %q is an InputError; a run-time failure is not the caller's to fix", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q\nwant it to contain %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
}

func TestWeatherSearch(t *testing.T) {
	copenhagen := webgettest.Reply{Body: webgettest.Fixture(t, "forecast_current_hourly_daily_copenhagen.json")}
	frederick := webgettest.Reply{Body: webgettest.Fixture(t, "geocoding_search_frederick.json")}
	noMatch := webgettest.Reply{Body: webgettest.Fixture(t, "geocoding_search_empty.json")}
	badRequest := webgettest.Reply{Status: 400, Body: webgettest.Fixture(t, "forecast_error_400_invalid_variable.json")}
	unavailable := webgettest.Reply{Status: 503, Body: []byte("Service Unavailable")}
	cph := func(days string, replies ...webgettest.Reply) webgettest.Route {
		return forecastRoute("55.6761", "12.5683", "Europe/Copenhagen", days, false, replies...)
	}
	const cphHeader = "Copenhagen, Capital Region, Denmark (55.6761°N, 12.5683°E), 2026-07-26 23:00 local time (Europe/Copenhagen)\n" +
		"Now: dense drizzle, 16.8°C, feels like 16.8°C, humidity 84%, wind 2.5 m/s from NNE (31°), precipitation 0.3 mm\n"
	tests := []struct {
		name     string
		call     tools.Call
		opts     webget.Options
		units    string
		routes   []webgettest.Route
		kind     errKind
		want     string // the whole text, or a part of the error
		wantDate string
	}{
		{name: "known place, no geocoding", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", copenhagen)},
			want:   cphHeader + "Sunday 2026-07-26: slight rain, high 21.3°C, low 16.6°C, precipitation 0.8 mm (100% chance)", wantDate: "2026-07-26"},
		{name: "imperial units", call: call("WeatherSearch", "Copenhagen"), units: "imperial",
			routes: []webgettest.Route{forecastRoute("55.6761", "12.5683", "Europe/Copenhagen", "1", true, copenhagen)},
			want:   cphHeader + "Sunday 2026-07-26: slight rain, high 21.3°C, low 16.6°C, precipitation 0.8 mm (100% chance)", wantDate: "2026-07-26"},
		{name: "tomorrow", call: call("WeatherSearch", "copenhagen", "tomorrow"),
			routes: []webgettest.Route{cph("16", copenhagen)},
			want:   cphHeader + "Monday 2026-07-27: heavy rain, high 18.8°C, low 14.9°C, precipitation 25 mm (94% chance)", wantDate: "2026-07-27"},
		{name: "weekday", call: call("WeatherSearch", "Copenhagen", "Friday"),
			routes: []webgettest.Route{cph("16", copenhagen)},
			want:   cphHeader + "Friday 2026-07-31: overcast, high 22.2°C, low 18°C, precipitation 0.2 mm (25% chance)", wantDate: "2026-07-31"},
		{name: "weekday that is today", call: call("WeatherSearch", "Copenhagen", "sunday"),
			routes: []webgettest.Route{cph("16", copenhagen)}, wantDate: "2026-07-26"},
		{name: "ISO date", call: call("WeatherSearch", "Copenhagen", "2026-08-01"),
			routes: []webgettest.Route{cph("16", copenhagen)}, wantDate: "2026-08-01"},
		{name: "geocoding fallback", call: call("WeatherSearch", "Frederick"),
			routes: []webgettest.Route{geocodeRoute("Frederick", frederick), forecastRoute("39.41427", "-77.41054", "America/New_York", "1", false, copenhagen)},
			want: "Frederick, Maryland, United States (39.4143°N, 77.4105°W), 2026-07-26 23:00 local time (Europe/Copenhagen)\n" +
				"Now: dense drizzle, 16.8°C, feels like 16.8°C, humidity 84%, wind 2.5 m/s from NNE (31°), precipitation 0.3 mm\n" +
				"Sunday 2026-07-26: slight rain, high 21.3°C, low 16.6°C, precipitation 0.8 mm (100% chance)", wantDate: "2026-07-26"},
		{name: "place qualified by region", call: call("WeatherSearch", "Frederick, colorado"),
			routes:   []webgettest.Route{geocodeRoute("Frederick", frederick), forecastRoute("40.09915", "-104.9372", "America/Denver", "1", false, copenhagen)},
			wantDate: "2026-07-26"},
		{name: "gazetteer entry without coordinates is geocoded", call: call("WeatherSearch", "CET"),
			routes: []webgettest.Route{geocodeRoute("CET", noMatch)},
			kind:   inputError, want: `weather: no place called "CET" found; check the spelling or name a nearby city`},
		{name: "unknown place", call: call("WeatherSearch", "Atlantis"),
			routes: []webgettest.Route{geocodeRoute("Atlantis", noMatch)},
			kind:   inputError, want: `weather: no place called "Atlantis" found`},
		{name: "qualifier matching none", call: call("WeatherSearch", "Frederick, Texas"),
			routes: []webgettest.Route{geocodeRoute("Frederick", frederick)},
			kind:   inputError, want: `weather: no "Frederick" in "Texas"; found Frederick, Maryland, United States; Frederick, Oklahoma, United States; Frederick, Colorado, United States`},
		{name: "date beyond the recorded forecast", call: call("WeatherSearch", "Copenhagen", "2026-08-05"),
			routes: []webgettest.Route{cph("16", copenhagen)},
			kind:   inputError, want: "weather: 2026-08-05 is outside Open-Meteo's forecast range (2026-07-26 to 2026-08-01)"},
		{name: "date far outside the forecast, no request", call: call("WeatherSearch", "Copenhagen", "2027-01-01"),
			kind: inputError, want: "weather: 2027-01-01 is outside Open-Meteo's forecast range (2026-07-26 to 2026-08-10); ask for a day from today to 15 days ahead"},
		{name: "past date, no request", call: call("WeatherSearch", "Copenhagen", "2026-07-20"),
			kind: inputError, want: "weather: 2026-07-20 is outside Open-Meteo's forecast range"},
		{name: "not a calendar date", call: call("WeatherSearch", "Copenhagen", "2026-02-30"),
			kind: inputError, want: `weather: "2026-02-30" is not a calendar date`},
		{name: "400 from Open-Meteo", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", badRequest)},
			kind:   runError, want: "weather: Open-Meteo refused the request with HTTP 400 Bad Request: Cannot initialize IconSurfaceVariable from invalid String value winddiren_10m for key hourly; check tools.weather.base_url"},
		{name: "legacy answer without current conditions", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", webgettest.Reply{Body: webgettest.Fixture(t, "forecast_current_weather_berlin.json")})},
			kind:   runError, want: "weather: Open-Meteo sent an answer gear cannot read (no current conditions in the answer); check tools.weather.base_url"},
		{name: "malformed JSON", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", webgettest.Reply{Body: copenhagen.Body[:4000]})},
			kind:   runError, want: "weather: Open-Meteo sent an answer gear cannot read (unexpected end of JSON input); check tools.weather.base_url"},
		{name: "503 then success", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", unavailable, copenhagen)}, wantDate: "2026-07-26"},
		{name: "503 twice", call: call("WeatherSearch", "Copenhagen"),
			routes: []webgettest.Route{cph("1", unavailable, unavailable)},
			kind:   runError, want: "weather: Open-Meteo answered HTTP 503 Service Unavailable (2 attempts); the service is having trouble, try again later"},
		{name: "geocoding 503 twice", call: call("WeatherSearch", "Frederick"),
			routes: []webgettest.Route{geocodeRoute("Frederick", unavailable, unavailable)},
			kind:   runError, want: "weather: Open-Meteo geocoding answered HTTP 503 Service Unavailable (2 attempts)"},
		{name: "stalled server", call: call("WeatherSearch", "Copenhagen"), opts: webget.Options{Timeout: 50 * time.Millisecond},
			routes: []webgettest.Route{cph("1", webgettest.Reply{Stall: true}, webgettest.Reply{Stall: true})},
			kind:   runError, want: "weather: Open-Meteo did not answer within 50ms (2 attempts); check the network, or raise tools.timeout"},
		{name: "over-size body", call: call("WeatherSearch", "Copenhagen"), opts: webget.Options{MaxBytes: 4096},
			routes: []webgettest.Route{cph("1", copenhagen)},
			kind:   runError, want: "weather: Open-Meteo sent more than 4096 bytes; check tools.weather.base_url, or raise tools.max_response_bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, tt.routes...)
			cfg := testConfig(srv, tt.opts)
			if tt.units != "" {
				cfg.Units = tt.units
			}
			res, err := NewSearch(cfg).Run(context.Background(), tt.call)
			checkErr(t, err, tt.kind, tt.want)
			if err != nil {
				return
			}
			if tt.want != "" && res.Text != tt.want {
				t.Errorf("text:\n%s\nwant:\n%s", res.Text, tt.want)
			}
			rep, ok := res.Data.(Report)
			if !ok {
				t.Fatalf("data is %T, want Report", res.Data)
			}
			if rep.Forecast == nil || rep.Forecast.Date != tt.wantDate {
				t.Errorf("forecast %+v, want the day %s", rep.Forecast, tt.wantDate)
			}
		})
	}
}

func TestWeatherSearchCancelled(t *testing.T) {
	srv := webgettest.NewServer(t, testUA, forecastRoute("55.6761", "12.5683", "Europe/Copenhagen", "1", false, webgettest.Reply{Stall: true}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := NewSearch(testConfig(srv, webget.Options{Timeout: 5 * time.Second})).Run(ctx, call("WeatherSearch", "Copenhagen"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want one wrapping context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("cancellation took %v", elapsed)
	}
}

func TestNetworkDown(t *testing.T) {
	cfg := Config{
		Web:     webget.New(webget.Options{HTTP: &http.Client{Transport: webgettest.Down("dial tcp: connect: network is unreachable")}, UserAgent: testUA}),
		BaseURL: "https://api.open-meteo.com", GeocodingURL: "https://geocoding-api.open-meteo.com", Places: gazetteer,
	}
	tests := []struct {
		tool tools.Tool
		call tools.Call
		want string
	}{
		{NewSearch(cfg), call("WeatherSearch", "Copenhagen"),
			"weather: Open-Meteo unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather.base_url"},
		{NewSearch(cfg), call("WeatherSearch", "Frederick"),
			"weather: Open-Meteo geocoding unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather.geocoding_url"},
		{NewLocationSearch(cfg), call("LocationSearch", "Frederick"),
			"location: Open-Meteo geocoding unreachable: dial tcp: connect: network is unreachable; check the network or tools.weather.geocoding_url"},
	}
	for _, tt := range tests {
		_, err := tt.tool.Run(context.Background(), tt.call)
		checkErr(t, err, runError, tt.want)
		if err != nil && err.Error() != tt.want {
			t.Errorf("error %q\nwant %q", err, tt.want)
		}
	}
}

func TestLocationSearch(t *testing.T) {
	frederick := webgettest.Reply{Body: webgettest.Fixture(t, "geocoding_search_frederick.json")}
	noMatch := webgettest.Reply{Body: webgettest.Fixture(t, "geocoding_search_empty.json")}
	tests := []struct {
		name   string
		place  string
		routes []webgettest.Route
		kind   errKind
		want   string
	}{
		{name: "known place, no geocoding", place: "Copenhagen",
			want: "Copenhagen, Capital Region, Denmark\nCoordinates: 55.6761°N, 12.5683°E\nCountry: Denmark (DK)\nRegion: Capital Region\n" +
				"Population: 1,153,615\nTime zone: Europe/Copenhagen"},
		{name: "geocoded, with the other matches", place: "Frederick", routes: []webgettest.Route{geocodeRoute("Frederick", frederick)},
			want: "Frederick, Maryland, United States\nCoordinates: 39.4143°N, 77.4105°W; elevation 87 m\nCountry: United States (US)\n" +
				"Region: Maryland\nPopulation: 69,479\nTime zone: America/New_York\n" +
				"Other places called Frederick: Frederick, Oklahoma, United States; Frederick, Colorado, United States"},
		{name: "qualified by country code", place: "Frederick, US", routes: []webgettest.Route{geocodeRoute("Frederick", frederick)},
			want: "Frederick, Maryland, United States\nCoordinates: 39.4143°N, 77.4105°W; elevation 87 m\nCountry: United States (US)\n" +
				"Region: Maryland\nPopulation: 69,479\nTime zone: America/New_York\n" +
				"Other places called Frederick: Frederick, Oklahoma, United States; Frederick, Colorado, United States"},
		{name: "qualified by county", place: "Frederick, Weld", routes: []webgettest.Route{geocodeRoute("Frederick", frederick)},
			want: "Frederick, Colorado, United States\nCoordinates: 40.0992°N, 104.9372°W; elevation 1519 m\nCountry: United States (US)\n" +
				"Region: Colorado\nPopulation: 11,413\nTime zone: America/Denver"},
		{name: "unknown place", place: "Atlantis", routes: []webgettest.Route{geocodeRoute("Atlantis", noMatch)},
			kind: inputError, want: `location: no place called "Atlantis" found`},
		{name: "blank place", place: "  ", kind: inputError, want: "location: no place given"},
		{name: "nothing before the comma", place: ", France", kind: inputError, want: `location: ", France" names no place before the comma`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := webgettest.NewServer(t, testUA, tt.routes...)
			res, err := NewLocationSearch(testConfig(srv, webget.Options{})).Run(context.Background(), call("LocationSearch", tt.place))
			checkErr(t, err, tt.kind, tt.want)
			if err == nil && res.Text != tt.want {
				t.Errorf("text:\n%s\nwant:\n%s", res.Text, tt.want)
			}
		})
	}
}

func TestSpecs(t *testing.T) {
	cfg := Config{}
	reg, err := tools.NewRegistry(NewSearch(cfg), NewLocationSearch(cfg))
	if err != nil {
		t.Fatalf("specs do not register: %v", err)
	}
	for _, s := range reg.Specs() {
		if n := len(s.Examples); n < 4 || n > 6 {
			t.Errorf("%s has %d examples, want 4 to 6", s.Name, n)
		}
		c, err := reg.Parse(s.Examples[0].Call)
		if err != nil {
			t.Fatal(err)
		}
		mock := s.MockResponse(c)
		if !strings.Contains(mock, c.Text("place")) || strings.ContainsAny(mock, "{}") {
			t.Errorf("%s mock for %s: %q", s.Name, c, mock)
		}
	}
}

func TestWeatherWords(t *testing.T) {
	tests := map[int]string{0: "clear sky", 3: "overcast", 48: "depositing rime fog", 57: "dense freezing drizzle",
		77: "snow grains", 82: "violent rain showers", 95: "thunderstorm", 99: "thunderstorm with heavy hail", 4: "weather code 4"}
	for code, want := range tests {
		if got := WeatherWords(code); got != want {
			t.Errorf("WeatherWords(%d) = %q, want %q", code, got, want)
		}
	}
	known := 0
	for code := 0; code < 100; code++ {
		if !strings.HasPrefix(WeatherWords(code), "weather code") {
			known++
		}
	}
	if known != 28 {
		t.Errorf("%d codes described; Open-Meteo's table has 28", known)
	}
}

func TestCompass(t *testing.T) {
	tests := map[float64]string{0: "N", 11.2: "N", 11.25: "NNE", 31: "NNE", 90: "E", 202.5: "SSW", 348.75: "N", 359: "N", 360: "N"}
	for deg, want := range tests {
		if got := compass(deg); got != want {
			t.Errorf("compass(%v) = %s, want %s", deg, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	tests := map[int64]string{0: "0", 999: "999", 1000: "1,000", 69479: "69,479", 1153615: "1,153,615", -1234: "-1,234"}
	for n, want := range tests {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s, want %s", n, got, want)
		}
	}
}
