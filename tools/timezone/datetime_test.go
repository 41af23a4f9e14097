package timezone

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gear-chat/gear/tools"
)

func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in    string
		want  Civil
		today bool
		now   bool
	}{
		{"2006-01-02 15:04:05", Civil{2006, 1, 2, 15, 4, 5}, false, false},
		{"2006-01-02T15:04", Civil{2006, 1, 2, 15, 4, 0}, false, false},
		{"2006-01-02 7:04", Civil{2006, 1, 2, 7, 4, 0}, false, false},
		{"2006-01-02", Civil{2006, 1, 2, 0, 0, 0}, false, false},
		{"2024-02-29 12:00:00", Civil{2024, 2, 29, 12, 0, 0}, false, false},
		{"Jan 2 2006 03:04:05PM", Civil{2006, 1, 2, 15, 4, 5}, false, false},
		{"May 25 2038 11:22:40PM", Civil{2038, 5, 25, 23, 22, 40}, false, false},
		{"Dec 21 2005 01:56:59AM", Civil{2005, 12, 21, 1, 56, 59}, false, false},
		{"Oct 03 2022 12:04:08AM", Civil{2022, 10, 3, 0, 4, 8}, false, false},
		{"Oct 03 2022 12:04:08PM", Civil{2022, 10, 3, 12, 4, 8}, false, false},
		{"January 2, 2006 3:04 pm", Civil{2006, 1, 2, 15, 4, 0}, false, false},
		{"sept. 9, 2021, 9:00", Civil{2021, 9, 9, 9, 0, 0}, false, false},
		{"15:04:05, Jan 2, 2006", Civil{2006, 1, 2, 15, 4, 5}, false, false},
		{"3:04 PM, Jan 2, 2006", Civil{2006, 1, 2, 15, 4, 0}, false, false},
		{"3pm", Civil{Hour: 15}, true, false},
		{"12am", Civil{}, true, false},
		{"3:30 pm", Civil{Hour: 15, Minute: 30}, true, false},
		{"15:30", Civil{Hour: 15, Minute: 30}, true, false},
		{"15:30:09", Civil{Hour: 15, Minute: 30, Second: 9}, true, false},
		{"noon", Civil{Hour: 12}, true, false},
		{"MIDNIGHT", Civil{}, true, false},
		{" now ", Civil{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDateTime(tt.in)
			if err != nil {
				t.Fatalf("ParseDateTime(%q): %v", tt.in, err)
			}
			if got.Civil != tt.want || got.Today != tt.today || got.Now != tt.now {
				t.Errorf("ParseDateTime(%q) = %+v; want %+v today=%v now=%v", tt.in, got, tt.want, tt.today, tt.now)
			}
		})
	}
}

func TestParseDateTimeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2006-13-02 15:04:05", "month 13 does not exist"},
		{"2006-00-02", "month 0 does not exist"},
		{"2023-02-29", "February 2023 has days 1 to 28"},
		{"2006-04-31 10:00", "April 2006 has days 1 to 30"},
		{"0000-01-01", "year 0000"},
		{"2006-01-02 24:00", "hour 24 does not exist"},
		{"2006-01-02 23:60", "minute 60 does not exist"},
		{"2006-01-02 23:59:60", "second 60 does not exist"},
		{"13pm", "with am/pm the hour is 1 to 12"},
		{"0:30 am", "with am/pm the hour is 1 to 12"},
		{"Feb 30 2020 10:00:00AM", "February 2020 has days 1 to 29"},
		{"tomorrow at 5", "write e.g."},
		{"2006/01/02", "write e.g."},
		{"", "write e.g."},
		{"3", "write e.g."},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseDateTime(tt.in)
			if err == nil {
				t.Fatalf("ParseDateTime(%q) succeeded", tt.in)
			}
			if !tools.IsInput(err) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseDateTime(%q) error %q; want a one-line input error containing %q", tt.in, err, tt.want)
			}
		})
	}
}

var patternRe = regexp.MustCompile(`^` + tools.DateTimePattern + `$`)

// FuzzParseDateTime checks that every string the call syntax accepts as a
// datetime either parses to a real time or is refused with a one-line
// input error, and that nothing else parses.
func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{"2006-01-02 15:04:05", "2006-13-02", "Jan 2 2006 03:04:05PM", "15:04:05, Jan 2, 2006",
		"3pm", "0pm", "15:30", "99:99", "now", "noon", "midnight", "February 29, 2023 1:00 am", "sep 31 2021 12:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dt, err := ParseDateTime(s)
		accepted := patternRe.MatchString(strings.TrimSpace(s))
		if err != nil {
			if !tools.IsInput(err) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseDateTime(%q): %v is not a one-line input error", s, err)
			}
			return
		}
		if !accepted {
			t.Fatalf("ParseDateTime(%q) parsed a string the datetime pattern refuses", s)
		}
		if dt.Now {
			return
		}
		c := dt.Civil
		if !dt.Today {
			d := time.Date(c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second, 0, time.UTC)
			if d.Year() != c.Year || d.Month() != c.Month || d.Day() != c.Day {
				t.Fatalf("ParseDateTime(%q) = %+v, not a real date", s, c)
			}
		}
		if c.Hour > 23 || c.Minute > 59 || c.Second > 59 || c.Hour < 0 {
			t.Fatalf("ParseDateTime(%q) = %+v, not a real time", s, c)
		}
	})
}
