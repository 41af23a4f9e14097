// Package timezone is gear's clock: CurrentTime(place) and
// TimezoneConverter(datetime, from_place, to_place), the Current Time –
// Timezone Converter pipeline of the GEAR paper. Both run locally: places
// resolve through the embedded GeoNames gazetteer (package place) and zone
// rules come from the system's zoneinfo or, where it has none, from the copy
// embedded in the binary (time/tzdata).
package timezone

import (
	"context"
	"strings"
	"sync"
	"time"

	// Zone rules inside the binary, so gear works where the OS has none.
	_ "time/tzdata"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

// Options configure both tools.
type Options struct {
	// Places loads the gazetteer; it is called on first use, so listing
	// the tools costs nothing. Share one loader between tools.
	Places func() (*place.Gazetteer, error)
	// Home is the place CurrentTime uses when the call names none
	// (config key home). Empty means the machine's zone, Local.
	Home string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Local is the machine's zone; nil means time.Local.
	Local *time.Location
}

// tool holds what both tools share: the lazily built resolver and clock.
type tool struct {
	opts     Options
	resolver func() (*Resolver, error)
}

func newTool(opts Options) tool {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Local == nil {
		opts.Local = time.Local
	}
	places := opts.Places
	return tool{opts: opts, resolver: sync.OnceValues(func() (*Resolver, error) {
		if places == nil {
			return nil, errNoGazetteer
		}
		g, err := places()
		if err != nil {
			return nil, err
		}
		return NewResolver(g), nil
	})}
}

type toolError string

func (e toolError) Error() string { return string(e) }

const errNoGazetteer = toolError("timezone: no gazetteer configured")

func (t tool) resolve(name string) (Zone, error) {
	r, err := t.resolver()
	if err != nil {
		return Zone{}, err
	}
	return r.Resolve(name)
}

// CurrentTime tells the time in a place now.
type CurrentTime struct{ tool }

// NewCurrentTime makes the CurrentTime tool.
func NewCurrentTime(opts Options) *CurrentTime { return &CurrentTime{newTool(opts)} }

// Spec describes CurrentTime.
func (c *CurrentTime) Spec() tools.Spec {
	return tools.Spec{
		Name:   "CurrentTime",
		Family: tools.FamilyTimezone,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Tells the current date, time and day of the week in a place: a city, country or region, " +
			"an IANA time zone, a UTC offset or a time zone abbreviation, with its zone and UTC offset. " +
			"With no place it uses the home place. The first step of the current time and time zone " +
			"converter pipeline: ask it what time it is somewhere right now.",
		Params: []tools.Param{{
			Name: "place", Type: tools.TypePlace, Optional: true,
			Description: `Where: "Tokyo", "New Zealand", "Asia/Kolkata", "UTC+5:30", "PST". Leave out for the home place.`,
		}},
		Examples: []tools.Example{
			{Query: "What's the time in Tokyo right now?", Call: `CurrentTime("Tokyo")`},
			{Query: "current local time in Buenos Aires", Call: `CurrentTime("Buenos Aires")`},
			{Query: "is it already evening in Sydney?", Call: `CurrentTime("Sydney")`},
			{Query: "what day of the week is it in New Zealand", Call: `CurrentTime("New Zealand")`},
			{Query: "quick time check, please", Call: `CurrentTime()`},
			{Query: "what time is it at UTC+5:30", Call: `CurrentTime("UTC+5:30")`},
		},
		OutputPattern: "time",
		Hints:         currentTimeHints(),
	}
}

// CurrentResult is CurrentTime's structured answer.
type CurrentResult struct {
	Now   Moment   `json:"now"`
	Notes []string `json:"notes,omitempty"`
}

// Run answers a CurrentTime call.
func (c *CurrentTime) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	name := strings.TrimSpace(call.Text("place"))
	var z Zone
	switch {
	case name != "":
		var err error
		if z, err = c.resolve(name); err != nil {
			return tools.Result{}, err
		}
	case c.opts.Home != "":
		var err error
		if z, err = c.resolve(c.opts.Home); err != nil {
			if tools.IsInput(err) {
				return tools.Result{}, tools.Inputf("home place %q (config key home) is unknown: set it to a city, an IANA zone or a UTC offset, or name a place in the call", clip(c.opts.Home))
			}
			return tools.Result{}, err
		}
	default:
		z = Zone{Input: "", Name: c.opts.Local.String(), Location: c.opts.Local}
		if z.Name == "Local" {
			z.Name = "local time"
		}
	}
	now := c.opts.Now().In(z.Location)
	res := CurrentResult{Now: moment(now, z)}
	text := describe(now, z) + ", " + now.Weekday().String()
	if z.Note != "" {
		res.Notes = append(res.Notes, z.Note)
		text += "\nNote: " + z.Note
	}
	return tools.Result{Text: text, Data: res}, nil
}

// Converter converts a date and time from one place's clock to another's.
type Converter struct{ tool }

// NewConverter makes the TimezoneConverter tool.
func NewConverter(opts Options) *Converter { return &Converter{newTool(opts)} }

// Spec describes TimezoneConverter.
func (c *Converter) Spec() tools.Spec {
	return tools.Spec{
		Name:   "TimezoneConverter",
		Family: tools.FamilyTimezone,
		Source: tools.Builtin,
		Effect: tools.EffectReadOnly,
		Description: "Converts a date and time from one place's time zone to another's, daylight saving " +
			"included: what time it is there when it is a given time here. Places are cities, countries, " +
			"regions, IANA time zones, UTC offsets or abbreviations. The second step of the current time " +
			"and time zone converter pipeline.",
		Params: []tools.Param{
			{Name: "datetime", Type: tools.TypeDateTime,
				Description: `The time in from_place: "2022-01-02 22:00:00", "Jan 2 2022 10:00:00PM", "3pm", "15:30" (today), "now".`},
			{Name: "from_place", Type: tools.TypePlace, Description: "Where that time is read."},
			{Name: "to_place", Type: tools.TypePlace, Description: "Where to give the time."},
		},
		Examples: []tools.Example{
			{Query: "If it is 9:00 am in London, what time is it in Chicago?", Call: `TimezoneConverter("9:00 am", "London", "Chicago")`},
			{Query: "convert 2023-03-15 18:30 Berlin time to Singapore time", Call: `TimezoneConverter("2023-03-15 18:30", "Berlin", "Singapore")`},
			{Query: "my call is at 3pm PST, when is that in Paris?", Call: `TimezoneConverter("3pm", "PST", "Paris")`},
			{Query: "when it is noon in Mumbai what time is it in Toronto", Call: `TimezoneConverter("noon", "Mumbai", "Toronto")`},
			{Query: "The launch is Jul 4 2024 08:00:00PM New York time. What is that in Honolulu?", Call: `TimezoneConverter("Jul 4 2024 08:00:00PM", "New York", "Honolulu")`},
		},
		OutputPattern: "time",
		Hints:         converterHints(),
	}
}

// Conversion is TimezoneConverter's structured answer.
type Conversion struct {
	To    Moment   `json:"to"`
	From  Moment   `json:"from"`
	Notes []string `json:"notes,omitempty"`
}

// Run answers a TimezoneConverter call. The converted time comes first:
//
//	2022-01-02 09:00:00 EST (UTC-05:00, America/New_York) = 2022-01-02 22:00:00 CST (UTC+08:00, Asia/Shanghai)
func (c *Converter) Run(ctx context.Context, call tools.Call) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	dt, err := ParseDateTime(call.Text("datetime"))
	if err != nil {
		return tools.Result{}, err
	}
	from, err := c.resolve(call.Text("from_place"))
	if err != nil {
		return tools.Result{}, err
	}
	to, err := c.resolve(call.Text("to_place"))
	if err != nil {
		return tools.Result{}, err
	}
	src, to2, notes := c.convert(dt, from, to)
	res := Conversion{To: moment(to2, to), From: moment(src, from), Notes: notes}
	text := describe(to2, to) + " = " + describe(src, from)
	for _, n := range notes {
		text += "\nNote: " + n
	}
	return tools.Result{Text: text, Data: res}, nil
}

// convert places dt in from and reads the same instant in to.
func (c *Converter) convert(dt DateTime, from, to Zone) (src, dst time.Time, notes []string) {
	for _, n := range []string{from.Note, to.Note} {
		if n != "" {
			notes = append(notes, n)
		}
	}
	if dt.Now {
		src = c.opts.Now().In(from.Location)
		return src, src.In(to.Location), notes
	}
	civil := dt.Civil
	if dt.Today {
		today := c.opts.Now().In(from.Location)
		civil.Year, civil.Month, civil.Day = today.Date()
	}
	l := Localize(civil, from.Location)
	if l.Note != "" {
		notes = append(notes, l.Note)
	}
	return l.Time, l.Time.In(to.Location), notes
}
