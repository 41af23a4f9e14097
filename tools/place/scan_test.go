package place

import (
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		text string
		want []string // "text=zone" per mention, in order
	}{
		{"what time is it in adelaide", []string{"adelaide=Australia/Adelaide"}},
		{"weather in new york tomorrow", []string{"new york=America/New_York"}},
		{"He is in Jerusalem, and I am in GMT-8", []string{"Jerusalem=Asia/Jerusalem", "GMT-8=UTC-08:00"}},
		{"flights from São Paulo to los angeles", []string{"São Paulo=America/Sao_Paulo", "los angeles=America/Los_Angeles"}},
		// longest match first: New York City, not New York then City
		{"is it raining in New York City", []string{"New York City=America/New_York"}},
		{"convert 5pm America/New_York to Asia/Tokyo", []string{"America/New_York=America/New_York", "Asia/Tokyo=Asia/Tokyo"}},
		{"3pm PST in IST please", []string{"PST=UTC-08:00", "IST=UTC+05:30"}},
		{"call at 10 CET or 11 EST", []string{"CET=CET", "EST=EST"}},
		{"it is in IT and IN", nil},
		{"meet at 10:00 utc+5:30", []string{"utc+5:30=UTC+05:30"}},
		{"from LA to NYC", []string{"LA=America/Los_Angeles", "NYC=America/New_York"}},
		{"time in turkey", []string{"turkey=Europe/Istanbul"}},
		// common words are not places...
		{"that is a nice idea", nil},
		{"Nice weather today", nil},
		{"I was reading a book in the bath", nil},
		{"split the bill and date the man of the match", nil},
		{"my mobile phone is orange", nil},
		{"la la land is on us", nil},
		{"what is the date and time at the university", nil},
		{"what will the weather be in march", nil},
		{"He lives in the South", nil},
		// ...unless written as names mid-sentence
		{"the weather in Nice is nice", []string{"Nice=Europe/Paris"}},
		{"what time is it in Reading", []string{"Reading=Europe/London"}},
		{"tell me a joke", nil},
		{"", nil},
		// a name does not run across a comma
		{"Paris, Texas", []string{"Paris=Europe/Paris", "Texas=America/Chicago"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ms := g.Scan(tt.text)
			var got []string
			for _, m := range ms {
				if tt.text[m.Start:m.End] != m.Text {
					t.Errorf("mention %q has span %d:%d = %q", m.Text, m.Start, m.End, tt.text[m.Start:m.End])
				}
				zone := m.Place.TimeZone
				if m.Place.Kind == KindOffset {
					zone = FormatOffset(m.Place.OffsetSeconds)
				}
				got = append(got, m.Text+"="+zone)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Scan(%q) = %v; want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestScanDoesNotOverlap(t *testing.T) {
	g := gazetteer(t)
	text := "From Rio de Janeiro via Buenos Aires and Ho Chi Minh City to Port-au-Prince, Kuala Lumpur and St. John's"
	ms := g.Scan(text)
	if len(ms) < 6 {
		t.Errorf("Scan found %d mentions: %+v", len(ms), ms)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Start < ms[i-1].End {
			t.Errorf("mentions overlap: %q and %q", ms[i-1].Text, ms[i].Text)
		}
	}
}
