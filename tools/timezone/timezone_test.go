package timezone

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/place"
)

// places is loaded once for the package's tests; they only read it.
var places = sync.OnceValues(place.Load)

// fixedNow is the injected clock: 2024-07-15 12:00:00 UTC, a Monday.
var fixedNow = time.Date(2024, 7, 15, 12, 0, 0, 0, time.UTC)

func testOptions() Options {
	return Options{Places: places, Now: func() time.Time { return fixedNow }, Local: time.UTC}
}

func convert(t testing.TB, dt, from, to string) (tools.Result, error) {
	t.Helper()
	c := NewConverter(testOptions())
	call := tools.Call{Tool: "TimezoneConverter", Args: []tools.Arg{
		{Name: "datetime", Value: tools.String(dt)},
		{Name: "from_place", Value: tools.String(from)},
		{Name: "to_place", Value: tools.String(to)},
	}}
	return c.Run(context.Background(), call)
}

func TestConverter(t *testing.T) {
	tests := []struct {
		dt, from, to string
		want         string // the converted time, first on the line
		note         string // a part of a note, or "" for none
	}{
		// the paper's example
		{"2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York", "2022-01-02 09:00:00 EST (UTC-05:00, America/New_York)", ""},
		// US spring forward: 02:30 does not exist on 2024-03-10 in New York
		{"2024-03-10 02:30:00", "America/New_York", "UTC", "2024-03-10 07:30:00", "does not exist in America/New_York"},
		{"2024-03-10 01:59:59", "America/New_York", "UTC", "2024-03-10 06:59:59", ""},
		{"2024-03-10 03:00:00", "America/New_York", "UTC", "2024-03-10 07:00:00", ""},
		// US fall back: 01:30 happens twice on 2024-11-03; the first is EDT
		{"2024-11-03 01:30:00", "America/New_York", "UTC", "2024-11-03 05:30:00", "happens twice in America/New_York"},
		{"2024-11-03 05:30:00", "UTC", "America/New_York", "2024-11-03 01:30:00 EDT", ""},
		{"2024-11-03 06:30:00", "UTC", "America/New_York", "2024-11-03 01:30:00 EST", ""},
		// EU spring forward and fall back (01:00 UTC both times)
		{"2024-03-31 02:30", "Europe/Berlin", "UTC", "2024-03-31 01:30:00", "does not exist in Europe/Berlin"},
		{"2024-10-27 02:30", "Europe/Berlin", "UTC", "2024-10-27 00:30:00", "happens twice in Europe/Berlin"},
		{"2024-10-27 00:59:59", "UTC", "Europe/London", "2024-10-27 01:59:59 BST", ""},
		{"2024-10-27 01:00:00", "UTC", "Europe/London", "2024-10-27 01:00:00 GMT", ""},
		// Lord Howe moves its clocks by 30 minutes: +10:30 and +11:00
		{"2024-07-01 12:00", "UTC", "Lord Howe", "2024-07-01 22:30:00 (UTC+10:30, Australia/Lord_Howe)", ""},
		{"2024-01-01 12:00", "UTC", "LHI", "2024-01-01 23:00:00 (UTC+11:00, Australia/LHI)", ""},
		{"2024-10-06 02:15", "Australia/Lord_Howe", "UTC", "2024-10-05 15:45:00", "does not exist"},
		{"2024-04-07 01:45", "Australia/Lord_Howe", "UTC", "2024-04-06 14:45:00", "happens twice"},
		// half-hour and 45-minute zones
		{"2024-01-15 12:00", "UTC", "Kolkata", "2024-01-15 17:30:00 IST (UTC+05:30, Asia/Kolkata, Kolkata, India)", ""},
		{"2024-01-15 12:00", "UTC", "Kathmandu", "2024-01-15 17:45:00 (UTC+05:45, Asia/Kathmandu, Kathmandu, Nepal)", ""},
		{"2024-01-15 12:00", "UTC", "Pacific/Chatham", "2024-01-16 01:45:00 (UTC+13:45, Pacific/Chatham)", ""},
		{"2024-07-15 12:00", "UTC", "Pacific/Chatham", "2024-07-16 00:45:00 (UTC+12:45, Pacific/Chatham)", ""},
		{"2024-01-15 12:00", "UTC", "Australia/Eucla", "2024-01-15 20:45:00 (UTC+08:45, Australia/Eucla)", ""},
		{"2024-01-15 12:00", "UTC", "St. John's", "2024-01-15 08:30:00 NST (UTC-03:30", ""},
		{"2024-07-15 12:00", "UTC", "Newfoundland and Labrador", "2024-07-15 09:30:00 NDT (UTC-02:30", ""},
		// every way of writing a place
		{"2022-01-02 22:00:00", "Shanghai", "Boston", "2022-01-02 09:00:00 EST (UTC-05:00, America/New_York, Boston, United States)", ""},
		{"2016-11-16 07:34:02", "Tongatapu", "UTC", "2016-11-15 17:34:02", ""},
		{"2022-01-02 12:00", "Indianapolis", "UTC", "2022-01-02 17:00:00", ""},
		{"2022-01-02 12:00", "Tanzania", "Britain", "2022-01-02 09:00:00 GMT (UTC+00:00, Europe/London, United Kingdom)", ""},
		{"2022-07-02 12:00", "LA", "new york", "2022-07-02 15:00:00 EDT", ""},
		{"2022-07-02 12:00", "Asia/Calcutta", "UTC", "2022-07-02 06:30:00", ""},
		{"2022-07-02 12:00", "UTC+5:30", "UTC", "2022-07-02 06:30:00", ""},
		{"2022-07-02 12:00", "GMT-8", "UTC", "2022-07-02 20:00:00", "8 hours behind UTC"},
		{"2022-07-02 12:00", "Etc/GMT-8", "UTC", "2022-07-02 04:00:00", ""},
		{"2022-07-02 12:00", "PST", "UTC", "2022-07-02 20:00:00", "PST is ambiguous"},
		{"2022-07-02 12:00", "EST", "UTC", "2022-07-02 17:00:00", ""},
		{"2022-07-02 12:00", "JST", "UTC", "2022-07-02 03:00:00", ""},
		{"2022-07-02 12:00", "AEST", "UTC", "2022-07-02 02:00:00", ""},
		{"2022-01-02 12:00", "CET", "UTC", "2022-01-02 11:00:00", ""},
		{"2022-07-02 12:00", "CET", "UTC", "2022-07-02 10:00:00", ""}, // the IANA zone CET keeps summer time
		{"2022-07-02 12:00", "IST", "UTC", "2022-07-02 06:30:00", "IST is ambiguous: read as UTC+05:30"},
		{"2022-07-02 12:00", "Asia/Jerusalem", "UTC", "2022-07-02 09:00:00", ""},
		// datetime shapes, bare times on the source's today, now
		{"Jan 2 2022 10:00:00PM", "Asia/Shanghai", "America/New_York", "2022-01-02 09:00:00", ""},
		{"22:00:00, Jan 2, 2022", "Asia/Shanghai", "America/New_York", "2022-01-02 09:00:00", ""},
		{"3pm", "Asia/Tokyo", "UTC", "2024-07-15 06:00:00", ""},
		{"9:00 am", "Pacific/Kiritimati", "UTC", "2024-07-15 19:00:00", ""}, // already the 16th in Kiritimati
		{"midnight", "UTC", "Asia/Tokyo", "2024-07-15 09:00:00", ""},
		{"now", "Asia/Tokyo", "Europe/Paris", "2024-07-15 14:00:00 CEST", ""},
	}
	for _, tt := range tests {
		t.Run(tt.dt+" "+tt.from+" to "+tt.to, func(t *testing.T) {
			res, err := convert(t, tt.dt, tt.from, tt.to)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Text, tt.want) {
				t.Errorf("got  %s\nwant %s…", res.Text, tt.want)
			}
			if tt.note == "" && strings.Contains(res.Text, "Note:") || !strings.Contains(res.Text, tt.note) {
				t.Errorf("got %q; want a note containing %q", res.Text, tt.note)
			}
			conv, ok := res.Data.(Conversion)
			if !ok || !strings.HasPrefix(tt.want, conv.To.DateTime) {
				t.Errorf("data %+v does not hold the converted time", res.Data)
			}
		})
	}
}

func TestConverterErrors(t *testing.T) {
	tests := []struct{ dt, from, to, want string }{
		{"2022-01-02 22:00:00", "Atlantis, Greece", "UTC", `unknown place "Atlantis, Greece"`},
		{"2022-01-02 22:00:00", "UTC", "Narnia", `unknown place "Narnia": write a city`},
		{"2022-13-02 22:00:00", "UTC", "UTC", "month 13 does not exist"},
		{"2022-01-02 22:00:00", "UTC+15", "UTC", "-12:00 to +14:00"},
		{"2022-01-02 22:00:00", "", "UTC", "no place given"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := convert(t, tt.dt, tt.from, tt.to)
			if err == nil || !tools.IsInput(err) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v; want a one-line input error containing %q", err, tt.want)
			}
		})
	}
}

func TestCurrentTime(t *testing.T) {
	tests := []struct {
		place, home string
		want        string
	}{
		{"Tokyo", "", "2024-07-15 21:00:00 JST (UTC+09:00, Asia/Tokyo, Tokyo, Japan), Monday"},
		{"Adelaide", "", "2024-07-15 21:30:00 ACST (UTC+09:30, Australia/Adelaide, Adelaide, Australia), Monday"},
		{"UTC-3", "", "2024-07-15 09:00:00 (UTC-03:00), Monday"},
		{"Kiribati", "", "2024-07-16 00:00:00 (UTC+12:00, Pacific/Tarawa, Kiribati), Tuesday"},
		{"", "Lisbon", "2024-07-15 13:00:00 WEST (UTC+01:00, Europe/Lisbon, Lisbon, Portugal), Monday"},
		{"", "", "2024-07-15 12:00:00 UTC (UTC+00:00), Monday"},
	}
	for _, tt := range tests {
		t.Run(tt.place+"|"+tt.home, func(t *testing.T) {
			opts := testOptions()
			opts.Home = tt.home
			call := tools.Call{Tool: "CurrentTime"}
			if tt.place != "" {
				call.Args = []tools.Arg{{Name: "place", Value: tools.String(tt.place)}}
			}
			res, err := NewCurrentTime(opts).Run(context.Background(), call)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tt.want {
				t.Errorf("got  %s\nwant %s", res.Text, tt.want)
			}
			now := res.Data.(CurrentResult).Now
			if (now.Place != nil) != (tt.place+tt.home != "" && !strings.HasPrefix(tt.place, "UTC")) {
				t.Errorf("data place %+v for %q", now.Place, tt.place+tt.home)
			}
		})
	}
}

func TestCurrentTimeErrors(t *testing.T) {
	opts := testOptions()
	opts.Home = "Narnia"
	_, err := NewCurrentTime(opts).Run(context.Background(), tools.Call{Tool: "CurrentTime"})
	if !tools.IsInput(err) || !strings.Contains(err.Error(), "config key home") {
		t.Errorf("unknown home: %v", err)
	}
	_, err = NewCurrentTime(testOptions()).Run(context.Background(), tools.Call{Tool: "CurrentTime",
		Args: []tools.Arg{{Name: "place", Value: tools.String("Narnia")}}})
	if !tools.IsInput(err) || !strings.Contains(err.Error(), `unknown place "Narnia"`) {
		t.Errorf("unknown place: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewCurrentTime(testOptions()).Run(ctx, tools.Call{Tool: "CurrentTime"}); err == nil {
		t.Error("a cancelled context ran")
	}
	noPlaces := NewCurrentTime(Options{})
	if _, err := noPlaces.Run(context.Background(), tools.Call{Tool: "CurrentTime",
		Args: []tools.Arg{{Name: "place", Value: tools.String("Tokyo")}}}); err == nil || tools.IsInput(err) {
		t.Errorf("no gazetteer: %v", err)
	}
}

// TestSpecs checks that both specs are valid, that their examples parse,
// and that no example query is copied from the dev set.
func TestSpecs(t *testing.T) {
	reg, err := tools.NewRegistry(NewCurrentTime(testOptions()), NewConverter(testOptions()))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range reg.Specs() {
		if s.Family != tools.FamilyTimezone || s.OutputPattern != "time" || s.Mock != "" {
			t.Errorf("%s: family %s, pattern %q, mock %q", s.Name, s.Family, s.OutputPattern, s.Mock)
		}
		if n := len(s.Examples); n < 4 || n > 6 {
			t.Errorf("%s has %d examples", s.Name, n)
		}
		for _, ex := range s.Examples {
			for _, item := range devItems(t) {
				if strings.EqualFold(strings.TrimSpace(item.Query), strings.TrimSpace(ex.Query)) {
					t.Errorf("%s example %q is a dev-set query", s.Name, ex.Query)
				}
			}
		}
	}
}

// TestRegionalZoneNames: the names people give North American zones reach
// the same zone as the IANA id grounding writes for them.
func TestRegionalZoneNames(t *testing.T) {
	t.Parallel()
	g, err := places()
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(g)
	want, err := r.Resolve("US/Pacific")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"PT", "Pacific Time", "pacific standard time", "Pacific"} {
		z, err := r.Resolve(in)
		if err != nil {
			t.Errorf("Resolve(%q): %v", in, err)
			continue
		}
		if z.Name != want.Name {
			t.Errorf("Resolve(%q) = %s, want %s", in, z.Name, want.Name)
		}
	}
	if z, err := r.Resolve("Portugal"); err != nil || z.Name != "Europe/Lisbon" {
		t.Errorf("Resolve(Portugal) = %v, %v", z.Name, err)
	}
}
