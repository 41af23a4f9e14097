package timezone

import (
	"strconv"
	"strings"
	"time"

	"github.com/gear-chat/gear/internal/lazyregexp"
	"github.com/gear-chat/gear/tools"
)

// Civil is a wall-clock date and time with no zone: what a person writes.
type Civil struct {
	Year   int
	Month  time.Month
	Day    int
	Hour   int
	Minute int
	Second int
}

func (c Civil) String() string {
	return time.Date(c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second, 0, time.UTC).Format(layout)
}

// layout is how gear writes a date and time.
const layout = "2006-01-02 15:04:05"

// DateTime is a parsed datetime argument.
type DateTime struct {
	// Now is true for "now": the current instant, in whatever zone.
	Now bool
	// Civil is the wall-clock time meant, for everything but "now".
	Civil Civil
	// Today is true when only a time was written ("3pm", "noon"): the
	// date is today's in the source zone.
	Today bool
}

// The shapes of tools.DateTimePattern, with the parts captured.
var (
	isoRe = lazyregexp.New(`(?i)^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[ T]([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?$`)
	// Jan 2 2006 03:04:05PM, January 2, 2006 3:04 pm
	monthFirstRe = lazyregexp.New(`(?i)^` + monthAlt + `\.? ([0-9]{1,2}),? ([0-9]{4}),? ([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))? ?(am|pm)?$`)
	// 15:04:05, Jan 2, 2006
	timeFirstRe = lazyregexp.New(`(?i)^([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))? ?(am|pm)?,? ` + monthAlt + `\.? ([0-9]{1,2}),? ([0-9]{4})$`)
	// 3pm, 3:30 pm, 15:30, 15:30:00
	timeOnlyRe = lazyregexp.New(`(?i)^([0-9]{1,2})(?::([0-9]{2})(?::([0-9]{2}))?)? ?(am|pm)?$`)
)

const monthAlt = `(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)`

var dateTimeRe = lazyregexp.New(`^` + tools.DateTimePattern + `$`)

// ParseDateTime reads a datetime in one of the shapes of
// tools.DateTimePattern (case-insensitive):
//
//	2006-01-02 15:04:05   2006-01-02T15:04   2006-01-02 (midnight)
//	Jan 2 2006 03:04:05PM   January 2, 2006 3:04 pm
//	15:04:05, Jan 2, 2006   3:04 PM, Jan 2, 2006
//	3pm   3:30 pm   15:30   15:30:00 (today)   now   noon   midnight
//
// Anything else, or a date or time that does not exist (month 13, 25:00,
// February 30, 0:30 pm), is a *tools.InputError with a one-line message.
func ParseDateTime(s string) (DateTime, error) {
	in := strings.TrimSpace(s)
	if !dateTimeRe().MatchString(in) {
		return DateTime{}, tools.Inputf(`datetime %q: write e.g. "2022-01-02 22:00:00", "Jan 2 2022 10:00:00PM", "22:00:00, Jan 2, 2022", "3pm", "15:30" or "now"`, clip(in))
	}
	switch strings.ToLower(in) {
	case "now":
		return DateTime{Now: true}, nil
	case "noon":
		return DateTime{Civil: Civil{Hour: 12}, Today: true}, nil
	case "midnight":
		return DateTime{Civil: Civil{}, Today: true}, nil
	}
	var c Civil
	var ampm string
	today := false
	if m := isoRe().FindStringSubmatch(in); m != nil {
		c.Year, c.Month, c.Day = num(m[1]), time.Month(num(m[2])), num(m[3])
		c.Hour, c.Minute, c.Second = num(m[4]), num(m[5]), num(m[6])
	} else if m := monthFirstRe().FindStringSubmatch(in); m != nil {
		c.Month, c.Day, c.Year = monthNumber(m[1]), num(m[2]), num(m[3])
		c.Hour, c.Minute, c.Second, ampm = num(m[4]), num(m[5]), num(m[6]), m[7]
	} else if m := timeFirstRe().FindStringSubmatch(in); m != nil {
		c.Hour, c.Minute, c.Second, ampm = num(m[1]), num(m[2]), num(m[3]), m[4]
		c.Month, c.Day, c.Year = monthNumber(m[5]), num(m[6]), num(m[7])
	} else if m := timeOnlyRe().FindStringSubmatch(in); m != nil {
		if m[2] == "" && m[4] == "" {
			// "15" alone is not a time; the pattern does not allow it either.
			return DateTime{}, tools.Inputf(`datetime %q: write a time as "3pm" or "15:00"`, clip(in))
		}
		c.Hour, c.Minute, c.Second, ampm = num(m[1]), num(m[2]), num(m[3]), m[4]
		today = true
	} else {
		// The pattern matched but no shape did: the two lists disagree.
		return DateTime{}, tools.Inputf(`datetime %q: write e.g. "2022-01-02 22:00:00" or "3pm"`, clip(in))
	}
	if err := c.applyAMPM(in, ampm); err != nil {
		return DateTime{}, err
	}
	if err := c.check(in, today); err != nil {
		return DateTime{}, err
	}
	return DateTime{Civil: c, Today: today}, nil
}

func (c *Civil) applyAMPM(in, ampm string) error {
	if ampm == "" {
		return nil
	}
	if c.Hour < 1 || c.Hour > 12 {
		return tools.Inputf("datetime %q: with am/pm the hour is 1 to 12; write %02d:%02d without am/pm", clip(in), c.Hour%24, c.Minute)
	}
	pm := strings.EqualFold(ampm, "pm")
	switch {
	case c.Hour == 12 && !pm:
		c.Hour = 0
	case c.Hour != 12 && pm:
		c.Hour += 12
	}
	return nil
}

func (c Civil) check(in string, timeOnly bool) error {
	if !timeOnly {
		if c.Year < 1 {
			return tools.Inputf("datetime %q: year 0000 is not a year; write 0001 to 9999", clip(in))
		}
		if c.Month < 1 || c.Month > 12 {
			return tools.Inputf("datetime %q: month %d does not exist; months are 01 to 12", clip(in), int(c.Month))
		}
		if last := daysIn(c.Month, c.Year); c.Day < 1 || c.Day > last {
			return tools.Inputf("datetime %q: %s %d has days 1 to %d", clip(in), c.Month, c.Year, last)
		}
	}
	if c.Hour > 23 {
		return tools.Inputf("datetime %q: hour %d does not exist; hours are 0 to 23", clip(in), c.Hour)
	}
	if c.Minute > 59 {
		return tools.Inputf("datetime %q: minute %d does not exist; minutes are 00 to 59", clip(in), c.Minute)
	}
	if c.Second > 59 {
		return tools.Inputf("datetime %q: second %d does not exist; seconds are 00 to 59", clip(in), c.Second)
	}
	return nil
}

func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func monthNumber(s string) time.Month {
	switch strings.ToLower(s)[:3] {
	case "jan":
		return time.January
	case "feb":
		return time.February
	case "mar":
		return time.March
	case "apr":
		return time.April
	case "may":
		return time.May
	case "jun":
		return time.June
	case "jul":
		return time.July
	case "aug":
		return time.August
	case "sep":
		return time.September
	case "oct":
		return time.October
	case "nov":
		return time.November
	}
	return time.December
}

// num reads a run of at most four digits; "" is 0.
func num(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// clip shortens text quoted in a message to one readable piece.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
