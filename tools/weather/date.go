package weather

import (
	"strings"
	"time"

	"github.com/gear-chat/gear/tools"
)

// ForecastDays is how many days Open-Meteo forecasts, today included (its
// forecast_days maximum).
const ForecastDays = 16

const isoDate = "2006-01-02"

// checkDate rejects, before any request, a date that cannot be in the
// forecast wherever the place is. The place's own date is at most a day
// off the UTC date, so only dates beyond that slack are rejected here; the
// forecast's own list of days settles the rest (pickDay).
func checkDate(asked string, now time.Time) error {
	if !looksISO(asked) {
		return nil
	}
	d, err := time.Parse(isoDate, asked)
	if err != nil {
		return tools.Inputf("weather: %q is not a calendar date; write it like 2026-07-26", asked)
	}
	today := now.UTC().Truncate(24 * time.Hour)
	first, last := today.AddDate(0, 0, -1), today.AddDate(0, 0, ForecastDays)
	if d.Before(first) || d.After(last) {
		return outOfRange(asked, today.Format(isoDate), today.AddDate(0, 0, ForecastDays-1).Format(isoDate))
	}
	return nil
}

func outOfRange(asked, first, last string) error {
	return tools.Inputf("weather: %s is outside Open-Meteo's forecast range (%s to %s); ask for a day from today to %d days ahead",
		asked, first, last, ForecastDays-1)
}

func looksISO(s string) bool { return len(s) == len(isoDate) && s[4] == '-' && s[7] == '-' }

// pickDay returns the index in days (the forecast's ISO dates, in order)
// of the day asked for: "" or "today", "tomorrow", a weekday (the next one,
// today included) or an ISO date. today is the place's local date.
func pickDay(asked, today string, days []string) (int, error) {
	if len(days) == 0 {
		return -1, nil
	}
	if today == "" {
		today = days[0]
	}
	t, err := time.Parse(isoDate, today)
	if err != nil {
		return -1, nil
	}
	var want string
	switch a := strings.ToLower(strings.TrimSpace(asked)); a {
	case "", "today":
		want = today
	case "tomorrow":
		want = t.AddDate(0, 0, 1).Format(isoDate)
	default:
		if wd, ok := weekday(a); ok {
			ahead := (int(wd) - int(t.Weekday()) + 7) % 7
			want = t.AddDate(0, 0, ahead).Format(isoDate)
		} else {
			want = a
		}
	}
	for i, d := range days {
		if d == want {
			return i, nil
		}
	}
	return -1, outOfRange(describeAsked(asked, want), days[0], days[len(days)-1])
}

// describeAsked names the day in an error: "tomorrow (2026-07-27)".
func describeAsked(asked, date string) string {
	if strings.EqualFold(asked, date) {
		return date
	}
	return asked + " (" + date + ")"
}

func weekday(s string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String(), s) {
			return d, true
		}
	}
	return 0, false
}
