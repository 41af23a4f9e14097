package place

import "testing"

func TestRegionalZoneNames(t *testing.T) {
	t.Parallel()
	g := gazetteer(t)
	tests := []struct {
		in       string
		zone     bool // LookupZone rather than Lookup
		timeZone string
		cc       string
	}{
		{"Pacific Time", false, "US/Pacific", ""},
		{"pacific standard time", false, "US/Pacific", ""},
		{"Eastern  Daylight Time", false, "US/Eastern", ""},
		{"Mountain-Time", false, "US/Mountain", ""},
		{"Hawaii time", false, "US/Hawaii", ""},
		{"US/Pacific", false, "US/Pacific", ""},
		// A short name is a country code for Lookup, a zone for LookupZone.
		{"PT", false, "Europe/Lisbon", "PT"},
		{"PT", true, "US/Pacific", ""},
		{"et", true, "US/Eastern", ""},
		{"MT", true, "US/Mountain", ""},
		{"Pacific Time", true, "US/Pacific", ""},
		{"Portugal", true, "Europe/Lisbon", "PT"},
	}
	for _, tt := range tests {
		lookup := g.Lookup
		if tt.zone {
			lookup = g.LookupZone
		}
		p, ok := lookup(tt.in)
		if !ok || p.TimeZone != tt.timeZone || p.CountryCode != tt.cc {
			t.Errorf("lookup(%q, zone %v) = %+v, %v; want zone %s, country %q", tt.in, tt.zone, p, ok, tt.timeZone, tt.cc)
		}
	}
	if p, _ := g.LookupZone("PT"); p.Note == "" {
		t.Error("LookupZone(PT) does not say how it read PT")
	}
}

// TestScannedZonesResolve: every zone name ScanZoneNames finds resolves,
// by both Lookup and LookupZone, to the zone its own name reads as — what
// grounding writes is what the tools answer for.
func TestScannedZonesResolve(t *testing.T) {
	t.Parallel()
	g := gazetteer(t)
	tests := []struct {
		text  string
		clock [][2]int
		want  []string
	}{
		{"what time is it in pacific time", nil, []string{"US/Pacific"}},
		{"5 pm Eastern Standard Time to Central Time", nil, []string{"US/Eastern", "US/Central"}},
		{"5 pm pacific", [][2]int{{0, 4}}, []string{"US/Pacific"}},
		{"the pacific ocean", nil, nil},
		{"10:00 AM PT", [][2]int{{0, 8}}, []string{"US/Pacific"}},
		{"PT in the morning", nil, nil},
		{"9am GMT in ist", [][2]int{{0, 3}}, []string{"GMT", "IST"}},
		{"wie spät ist es", nil, nil},
		{"qu'est-ce que c’est", nil, nil},
	}
	for _, tt := range tests {
		got := ScanZoneNames(tt.text, tt.clock)
		if len(got) != len(tt.want) {
			t.Errorf("ScanZoneNames(%q) = %+v, want %v", tt.text, got, tt.want)
			continue
		}
		for i, m := range got {
			if m.Name != tt.want[i] {
				t.Errorf("ScanZoneNames(%q)[%d] = %q, want %q", tt.text, i, m.Name, tt.want[i])
			}
			written := tt.text[m.Start:m.End]
			byName, ok1 := g.LookupZone(m.Name)
			if !ok1 {
				t.Errorf("%q: the name %q does not resolve", tt.text, m.Name)
				continue
			}
			// The words as written resolve to the same zone when they
			// stand alone as a zone's name ("pacific time", "PT").
			if asWritten, ok := g.LookupZone(written); ok && asWritten.Kind != KindOffset && asWritten.TimeZone != byName.TimeZone {
				t.Errorf("%q: %q resolves to %s but grounding's name %q to %s", tt.text, written, asWritten.TimeZone, m.Name, byName.TimeZone)
			}
		}
	}
}

func TestScannedOffsetsAndAbbreviations(t *testing.T) {
	t.Parallel()
	g := gazetteer(t)
	for _, tt := range []struct{ text, want string }{
		{"noon utc+8", "UTC+8"},
		{"9:00 GMT -05:00 please", "GMT-05:00"},
		{"3pm pst", "PST"},
		{"what's the time in cet", "CET"},
	} {
		got := ScanZoneNames(tt.text, nil)
		if len(got) == 0 || got[0].Name != tt.want {
			t.Errorf("ScanZoneNames(%q) = %+v, want %s first", tt.text, got, tt.want)
			continue
		}
		for _, m := range got {
			if _, ok := g.LookupZone(m.Name); !ok {
				t.Errorf("%q: %s does not resolve", tt.text, m.Name)
			}
		}
	}
}
