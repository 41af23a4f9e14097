package offline

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/tools"
)

// Compound readings of calendar dates and clock times, written as
// templates like the range readings of compound.go: the days, weeks or
// hours between two dates the query writes ("how many days between march
// 3 and july 19 2025"), a date shifted by a number of days ("90 days after
// march 3 2025"), the length of a year or a month ("how many days in
// 2024") and the hours or minutes from one clock time to another ("how
// many hours from 10:30 pm to 6:15 am").

// calendarDate is a date the query writes; year 0 when it names none.
type calendarDate struct {
	year, month, day int
	start, end       int
}

var (
	monthNames = map[string]int{"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
		"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
		"oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}
	monthRe = `(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\.?`
	// "march 3", "march 3rd, 2025"; "3 march 2025", "3rd of march"; ISO.
	monthDayRe = regexp.MustCompile(`\b` + monthRe + `\s+([0-9]{1,2})(?:st|nd|rd|th)?\b(?:,?\s+([0-9]{4})\b)?`)
	dayMonthRe = regexp.MustCompile(`\b([0-9]{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\b(?:,?\s+([0-9]{4})\b)?`)
	isoDateRe  = regexp.MustCompile(`\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b`)
)

// calendarDates are the dates the query writes, in order.
func calendarDates(lower string) []calendarDate {
	var out []calendarDate
	add := func(y, m, d string, mon, start, end int) {
		day, _ := strconv.Atoi(d)
		year, _ := strconv.Atoi(y)
		if mon == 0 {
			mon, _ = strconv.Atoi(m)
		}
		for _, c := range out {
			if start < c.end && c.start < end {
				return // overlaps one already read
			}
		}
		if mon >= 1 && mon <= 12 && day >= 1 && day <= 31 {
			out = append(out, calendarDate{year: year, month: mon, day: day, start: start, end: end})
		}
	}
	for _, m := range isoDateRe.FindAllStringSubmatchIndex(lower, -1) {
		add(lower[m[2]:m[3]], lower[m[4]:m[5]], lower[m[6]:m[7]], 0, m[0], m[1])
	}
	for _, m := range monthDayRe.FindAllStringSubmatchIndex(lower, -1) {
		y := ""
		if m[6] >= 0 {
			y = lower[m[6]:m[7]]
		}
		add(y, "", lower[m[4]:m[5]], monthNames[lower[m[2]:m[3]]], m[0], m[1])
	}
	for _, m := range dayMonthRe.FindAllStringSubmatchIndex(lower, -1) {
		y := ""
		if m[6] >= 0 {
			y = lower[m[6]:m[7]]
		}
		add(y, "", lower[m[2]:m[3]], monthNames[lower[m[4]:m[5]]], m[0], m[1])
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].start < out[j-1].start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// dateDifference reads the days (weeks, hours…) between two dates the
// query writes, asked in a unit of time before the first ("how many days
// between march 3 and july 19", "number of weeks from 5 jan 2025 to 30
// march 2025"). A date without a year takes the other's; with no year at
// all, the count is the same in every year unless a February 29 may fall
// between, and the reading says so (reading.go).
func dateDifference(a *analysis) string {
	dates := calendarDates(a.lower)
	if len(dates) != 2 {
		return ""
	}
	var per unit
	found := false
	for _, t := range a.toks {
		if t.start >= dates[0].start {
			break
		}
		if u, ok := a.lx.units[t.text]; ok && u.dim == "time" {
			per, found = u, true
		}
	}
	if !found || !a.asksQuantity() && !a.hasWord("between", "from", "count", "number") {
		return ""
	}
	if per.size != "86400" {
		if s, err := strconv.ParseFloat(per.size, 64); err != nil || s > 86400*7 {
			return "" // months and years vary in length
		}
	}
	d1, d2 := dates[0], dates[1]
	switch {
	case d1.year == 0 && d2.year != 0:
		d1.year = d2.year
		if d1.month > d2.month || d1.month == d2.month && d1.day > d2.day {
			d1.year--
		}
	case d2.year == 0 && d1.year != 0:
		d2.year = d1.year
		if d2.month < d1.month || d2.month == d1.month && d2.day < d1.day {
			d2.year++
		}
	case d1.year == 0:
		// No year: a common year, in which the count is the same as in
		// any year where no February 29 falls between.
		d1.year, d2.year = commonYear, commonYear
		if d2.month < d1.month || d2.month == d1.month && d2.day < d1.day {
			d2.year++
		}
	}
	date := func(d calendarDate) string {
		return opTemplate(tools.OpDate) + "(" + strconv.Itoa(d.year) + ", " + strconv.Itoa(d.month) + ", " + strconv.Itoa(d.day) + ")"
	}
	expr := opTemplate(tools.OpDaysBetween) + "(" + date(d1) + ", " + date(d2) + ")"
	if per.size != "86400" {
		expr += " * 86400 / " + per.size
	}
	return expr
}

// dateShift reads a date some days or weeks before or after a calendar
// date the query writes: a number, a unit of time of whole days, a
// phrase of grammar/date-shifts.txt and the date ("90 days after march 3
// 2025", "6 weeks before 2026-01-10", "280 days after 10 june 2025").
// The date must name its year (the answer is a date of one year), and it
// must be the query's only date; months and years vary in length and are
// not read.
func dateShift(a *analysis) string {
	dates := calendarDates(a.lower)
	if len(dates) != 1 || dates[0].year == 0 {
		return ""
	}
	d := dates[0]
	for i, t := range a.toks {
		if t.end > d.start {
			break
		}
		u, ok := a.lx.units[t.text]
		if !ok || u.dim != "time" {
			continue
		}
		seconds, err := strconv.Atoi(u.size)
		if err != nil || seconds%86400 != 0 || seconds > 86400*14 {
			continue
		}
		var between []string
		for _, w := range a.toks[i+1:] {
			if w.start >= d.start {
				break
			}
			between = append(between, w.text)
		}
		sign, ok := dateShifts()[strings.Join(between, " ")]
		if !ok {
			continue
		}
		var count *number
		for k := range a.numbers {
			if a.numbers[k].last == i-1 {
				count = &a.numbers[k]
			}
		}
		if count == nil {
			return ""
		}
		days := count.value * float64(seconds/86400)
		if days != math.Trunc(days) || math.Abs(days) > 1e6 {
			return ""
		}
		op := " + "
		if sign < 0 {
			op = " - "
		}
		shift := numberText(a, *count)
		if seconds != 86400 {
			shift += " * " + strconv.Itoa(seconds/86400)
		}
		date := opTemplate(tools.OpDate) + "(" + strconv.Itoa(d.year) + ", " + strconv.Itoa(d.month) + ", " + strconv.Itoa(d.day) + ")"
		return opTemplate(tools.OpCalendarDate) + "(" + date + op + shift + ")"
	}
	return ""
}

// periodLength reads how many days (weeks, hours…) a calendar year or a
// month of a year has: "how many days in 2024", "hours in february 2028".
// The query asks a quantity; a unit of time of whole days or less comes
// before "in", and the year, with a month's name or not, ends the query.
func periodLength(a *analysis) string {
	if !a.asksQuantity() {
		return ""
	}
	n := len(a.toks)
	if n < 3 {
		return ""
	}
	year, err := strconv.Atoi(a.toks[n-1].text)
	if err != nil || len(a.toks[n-1].text) != 4 || year < 1 || year >= 9999 {
		return ""
	}
	month, k := 0, n-2
	if m, ok := monthNames[a.toks[k].text]; ok {
		month, k = m, k-1
	}
	if k < 1 || a.toks[k].text != "in" {
		return ""
	}
	u, ok := a.lx.units[a.toks[k-1].text]
	if !ok || u.dim != "time" {
		return ""
	}
	if s, err := strconv.ParseFloat(u.size, 64); err != nil || s > 86400 {
		return "" // weeks and longer do not divide a year
	}
	date := func(y, m int) string {
		return opTemplate(tools.OpDate) + "(" + strconv.Itoa(y) + ", " + strconv.Itoa(m) + ", 1)"
	}
	from, to := date(year, 1), date(year+1, 1)
	if month > 0 {
		from = date(year, month)
		to = date(year, month+1)
		if month == 12 {
			to = date(year+1, 1)
		}
	}
	expr := opTemplate(tools.OpDaysBetween) + "(" + from + ", " + to + ")"
	if u.size != "86400" {
		expr += " * 86400 / " + u.size
	}
	return expr
}

// clockTimeRe finds a clock time: "7:45", "10:30 pm", "6:15 a.m.", "10pm".
var clockTimeRe = regexp.MustCompile(`\b([0-9]{1,2})(?::([0-5][0-9]))?\s*(am|pm|a\.m\.|p\.m\.)?(?:\W|$)`)

// clockMinutes are the clock times the query writes, as minutes after
// midnight, in order: a time with a colon, or an hour with am or pm.
func clockMinutes(lower string) []int {
	var out []int
	for _, m := range clockTimeRe.FindAllStringSubmatch(lower, -1) {
		h, _ := strconv.Atoi(m[1])
		if m[2] == "" && m[3] == "" {
			continue // a bare number is no time
		}
		mins := 0
		if m[2] != "" {
			mins, _ = strconv.Atoi(m[2])
		}
		switch strings.ReplaceAll(m[3], ".", "") {
		case "am":
			if h < 1 || h > 12 {
				return nil
			}
			h %= 12
		case "pm":
			if h < 1 || h > 12 {
				return nil
			}
			h = h%12 + 12
		}
		if h > 23 {
			return nil
		}
		out = append(out, h*60+mins)
	}
	return out
}

// clockSpan reads the hours or minutes from one clock time to another
// ("how many hours from 10:30 pm to 6:15 am", "minutes between 7:45 and
// 16:15"): a unit of time before the times, "from … to" or "between … and"
// around them, and no date and no place (times in two places are a time
// zone's question). A time earlier than the first is the next day's
// (reading.go says so).
func clockSpan(a *analysis) string {
	if len(calendarDates(a.lower)) > 0 || len(a.places) > 0 || !a.asksQuantity() && !a.hasWord("from", "between") {
		return ""
	}
	times := clockMinutes(a.lower)
	if len(times) != 2 || !(a.hasWord("from") && a.hasWord("to", "till", "until") || a.hasWord("between") && a.hasWord("and")) {
		return ""
	}
	var per unit
	found := false
	for _, t := range a.toks {
		if u, ok := a.lx.units[t.text]; ok && u.dim == "time" {
			per, found = u, true
			break
		}
	}
	if !found || per.size != "60" && per.size != "3600" {
		return ""
	}
	t1, t2 := times[0], times[1]
	clock := func(m int) string { return "(" + strconv.Itoa(m/60) + " * 60 + " + strconv.Itoa(m%60) + ")" }
	expr := clock(t2) + " - " + clock(t1)
	if t2 < t1 {
		expr += " + 24 * 60"
	}
	if per.size == "3600" {
		return "(" + expr + ") / 60"
	}
	return expr
}

// commonYear is the year written for dates the query gives no year: a
// common year (not a leap year); any other common year gives the same
// count.
const commonYear = 2025

// leapMayMatter reports whether neither of the query's two dates names a
// year and a February 29 may fall between them.
func leapMayMatter(lower string) bool {
	dates := calendarDates(lower)
	if len(dates) != 2 || dates[0].year != 0 || dates[1].year != 0 {
		return false
	}
	d1, d2 := dates[0], dates[1]
	beforeLeap := func(d calendarDate) bool { return d.month <= 2 }
	wraps := d2.month < d1.month || d2.month == d1.month && d2.day < d1.day
	return wraps || beforeLeap(d1) && !beforeLeap(d2)
}
