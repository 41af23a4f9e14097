package weather

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/webget"
)

// Search is the WeatherSearch tool.
type Search struct{ cfg Config }

// NewSearch returns the WeatherSearch tool.
func NewSearch(cfg Config) *Search { return &Search{cfg: cfg} }

// Spec describes WeatherSearch.
func (s *Search) Spec() tools.Spec {
	return tools.Spec{
		Name:   "WeatherSearch",
		Family: tools.FamilyWeather,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Weather Search API is used for answering questions about the weather in a place, now or on a coming day: " +
			"temperature and how warm or cold it feels, humidity, wind, rain or snow, and the day's high, low and chance of rain. " +
			"It reports the current conditions and the forecast for one day, today or up to 15 days ahead, from Open-Meteo.",
		Params: []tools.Param{
			{Name: "place", Type: tools.TypePlace, Description: `the city, region or country, e.g. "Lisbon" or "Frederick, Colorado"`},
			{Name: "date", Type: tools.TypeDate, Optional: true, Description: "the day to forecast: an ISO date, today, tomorrow or a weekday (default today)"},
		},
		Examples: []tools.Example{
			{Query: "Will I need an umbrella in Lisbon tomorrow?", Call: `WeatherSearch("Lisbon", "tomorrow")`},
			{Query: "How hot is it in Phoenix right now?", Call: `WeatherSearch("Phoenix")`},
			{Query: "What's the forecast for Oslo on Saturday?", Call: `WeatherSearch("Oslo", "saturday")`},
			{Query: "Is it windy in Wellington today?", Call: `WeatherSearch("Wellington", "today")`},
			{Query: "How humid is Singapore at the moment?", Call: `WeatherSearch("Singapore")`},
		},
		OutputPattern: "weather",
		Mock:          mockReport(),
		Hints:         searchHints(),
	}
}

// Report is WeatherSearch's structured result.
type Report struct {
	Place Location `json:"place"`
	// Time is the local time of the current conditions, "2026-07-26T23:00".
	Time     string     `json:"time"`
	TimeZone string     `json:"timezone"`
	Current  Conditions `json:"current"`
	Forecast *Day       `json:"forecast,omitempty"`
}

// Conditions are the weather now. Units are those Open-Meteo reported.
type Conditions struct {
	Temperature         *float64 `json:"temperature,omitempty"`
	ApparentTemperature *float64 `json:"apparent_temperature,omitempty"`
	TemperatureUnit     string   `json:"temperature_unit"`
	RelativeHumidity    *float64 `json:"relative_humidity,omitempty"`
	WindSpeed           *float64 `json:"wind_speed,omitempty"`
	WindSpeedUnit       string   `json:"wind_speed_unit"`
	WindDirection       *float64 `json:"wind_direction,omitempty"`
	Precipitation       *float64 `json:"precipitation,omitempty"`
	PrecipitationUnit   string   `json:"precipitation_unit"`
	WeatherCode         *int     `json:"weather_code,omitempty"`
	Weather             string   `json:"weather,omitempty"`
}

// Day is one day's forecast.
type Day struct {
	Date                     string   `json:"date"`
	WeatherCode              *int     `json:"weather_code,omitempty"`
	Weather                  string   `json:"weather,omitempty"`
	TemperatureMax           *float64 `json:"temperature_max,omitempty"`
	TemperatureMin           *float64 `json:"temperature_min,omitempty"`
	TemperatureUnit          string   `json:"temperature_unit"`
	PrecipitationSum         *float64 `json:"precipitation_sum,omitempty"`
	PrecipitationUnit        string   `json:"precipitation_unit"`
	PrecipitationProbability *float64 `json:"precipitation_probability,omitempty"`
}

// The variables asked of Open-Meteo.
const (
	currentVars = "temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m,wind_direction_10m"
	dailyVars   = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max"
)

// forecastResponse is the part of Open-Meteo's /v1/forecast answer gear reads.
type forecastResponse struct {
	Timezone     string            `json:"timezone"`
	CurrentUnits map[string]string `json:"current_units"`
	Current      *struct {
		Time          string   `json:"time"`
		Temperature   *float64 `json:"temperature_2m"`
		Humidity      *float64 `json:"relative_humidity_2m"`
		Apparent      *float64 `json:"apparent_temperature"`
		Precipitation *float64 `json:"precipitation"`
		WeatherCode   *int     `json:"weather_code"`
		WindSpeed     *float64 `json:"wind_speed_10m"`
		WindDirection *float64 `json:"wind_direction_10m"`
	} `json:"current"`
	DailyUnits map[string]string `json:"daily_units"`
	Daily      struct {
		Time        []string   `json:"time"`
		WeatherCode []*int     `json:"weather_code"`
		TempMax     []*float64 `json:"temperature_2m_max"`
		TempMin     []*float64 `json:"temperature_2m_min"`
		PrecipSum   []*float64 `json:"precipitation_sum"`
		PrecipProb  []*float64 `json:"precipitation_probability_max"`
	} `json:"daily"`
	Error  bool   `json:"error"`
	Reason string `json:"reason"`
}

// Run reports the weather for the call's place and date.
func (s *Search) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	asked := strings.TrimSpace(call.Text("date"))
	if err := checkDate(asked, s.cfg.now()); err != nil {
		return tools.Result{}, err
	}
	loc, _, err := resolver{cfg: s.cfg, prefix: "weather"}.resolve(ctx, call.Text("place"))
	if err != nil {
		return tools.Result{}, err
	}
	var resp forecastResponse
	if err := s.cfg.Web.GetJSON(ctx, forecastService(), s.forecastURL(loc, asked != ""), &resp); err != nil {
		return tools.Result{}, fmt.Errorf("weather: %w", err)
	}
	if resp.Error {
		return tools.Result{}, fmt.Errorf("weather: Open-Meteo refused the forecast for %s: %s; check tools.weather.base_url", loc.Label(), resp.Reason)
	}
	if resp.Current == nil {
		return tools.Result{}, fmt.Errorf("weather: %w", &webget.Error{Service: forecastService(), Kind: webget.KindMalformed,
			Err: errors.New("no current conditions in the answer")})
	}
	rep := Report{Place: loc, Time: resp.Current.Time, TimeZone: resp.Timezone, Current: resp.conditions()}
	today, _, _ := strings.Cut(resp.Current.Time, "T")
	i, err := pickDay(asked, today, resp.Daily.Time)
	if err != nil {
		return tools.Result{}, err
	}
	if i >= 0 {
		rep.Forecast = resp.day(i)
	} else if asked != "" {
		return tools.Result{}, fmt.Errorf("weather: %w", &webget.Error{Service: forecastService(), Kind: webget.KindMalformed,
			Err: errors.New("no daily forecast in the answer")})
	}
	return tools.Result{Text: rep.Text(), Data: rep}, nil
}

// forecastURL asks for the current conditions and the daily forecast: for
// today only, or for every day Open-Meteo forecasts when a day is named,
// so that "tomorrow" and weekdays are read in the place's own calendar.
func (s *Search) forecastURL(loc Location, dated bool) string {
	q := url.Values{}
	q.Set("latitude", strconv.FormatFloat(loc.Latitude, 'f', -1, 64))
	q.Set("longitude", strconv.FormatFloat(loc.Longitude, 'f', -1, 64))
	q.Set("current", currentVars)
	q.Set("daily", dailyVars)
	tz := loc.TimeZone
	if tz == "" {
		tz = "auto"
	}
	q.Set("timezone", tz)
	days := 1
	if dated {
		days = ForecastDays
	}
	q.Set("forecast_days", strconv.Itoa(days))
	if s.cfg.imperial() {
		q.Set("temperature_unit", "fahrenheit")
		q.Set("wind_speed_unit", "mph")
		q.Set("precipitation_unit", "inch")
	}
	return strings.TrimRight(s.cfg.BaseURL, "/") + "/v1/forecast?" + q.Encode()
}

func (r *forecastResponse) conditions() Conditions {
	c := r.Current
	cond := Conditions{
		Temperature:         c.Temperature,
		ApparentTemperature: c.Apparent,
		TemperatureUnit:     unit(r.CurrentUnits["temperature_2m"]),
		RelativeHumidity:    c.Humidity,
		WindSpeed:           c.WindSpeed,
		WindSpeedUnit:       unit(r.CurrentUnits["wind_speed_10m"]),
		WindDirection:       c.WindDirection,
		Precipitation:       c.Precipitation,
		PrecipitationUnit:   unit(r.CurrentUnits["precipitation"]),
		WeatherCode:         c.WeatherCode,
	}
	if c.WeatherCode != nil {
		cond.Weather = WeatherWords(*c.WeatherCode)
	}
	return cond
}

func (r *forecastResponse) day(i int) *Day {
	d := r.Daily
	day := &Day{
		Date:                     d.Time[i],
		WeatherCode:              at(d.WeatherCode, i),
		TemperatureMax:           at(d.TempMax, i),
		TemperatureMin:           at(d.TempMin, i),
		TemperatureUnit:          unit(r.DailyUnits["temperature_2m_max"]),
		PrecipitationSum:         at(d.PrecipSum, i),
		PrecipitationUnit:        unit(r.DailyUnits["precipitation_sum"]),
		PrecipitationProbability: at(d.PrecipProb, i),
	}
	if day.WeatherCode != nil {
		day.Weather = WeatherWords(*day.WeatherCode)
	}
	return day
}

// at is xs[i], or nil when the list is short.
func at[T any](xs []*T, i int) *T {
	if i < len(xs) {
		return xs[i]
	}
	return nil
}

// unit spells Open-Meteo's unit labels the usual way ("mp/h" is mph).
func unit(u string) string {
	if u == "mp/h" {
		return "mph"
	}
	return u
}
