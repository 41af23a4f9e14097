package place

import (
	"strings"
	"sync"
	"testing"
)

// loaded shares one gazetteer between the tests of this package; each
// test reads it only.
var loaded = sync.OnceValues(Load)

func gazetteer(t testing.TB) *Gazetteer {
	t.Helper()
	g, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLookup(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		in       string
		name     string
		kind     Kind
		cc       string
		timeZone string
	}{
		// cities, accents, case, multi-word
		{"Boston", "Boston", KindCity, "US", "America/New_York"},
		{"adelaide", "Adelaide", KindCity, "AU", "Australia/Adelaide"},
		{"são paulo", "São Paulo", KindCity, "BR", "America/Sao_Paulo"},
		{"SAO PAULO", "São Paulo", KindCity, "BR", "America/Sao_Paulo"},
		{"Sao Paulo", "São Paulo", KindCity, "BR", "America/Sao_Paulo"},
		{"los angeles", "Los Angeles", KindCity, "US", "America/Los_Angeles"},
		{"  Zürich ", "Zürich", KindCity, "CH", "Europe/Zurich"},
		{"Kolkata", "Kolkata", KindCity, "IN", "Asia/Kolkata"},
		{"Ust-Nera", "Asia/Ust-Nera", KindZone, "", "Asia/Ust-Nera"},
		{"ust nera", "Asia/Ust-Nera", KindZone, "", "Asia/Ust-Nera"},
		// ambiguity by population: Paris, France (2.1M) over Paris, Texas
		{"Paris", "Paris", KindCity, "FR", "Europe/Paris"},
		{"Birmingham", "Birmingham", KindCity, "GB", "Europe/London"},
		// "City, Region" and "City, Country" choose among them
		{"Paris, Texas", "Paris", KindCity, "US", "America/Chicago"},
		{"Perth, Scotland", "Perth", KindCity, "GB", "Europe/London"},
		{"Birmingham, Alabama", "Birmingham", KindCity, "US", "America/Chicago"},
		// aliases
		{"LA", "Los Angeles", KindCity, "US", "America/Los_Angeles"},
		{"NYC", "New York City", KindCity, "US", "America/New_York"},
		{"new york", "New York City", KindCity, "US", "America/New_York"},
		{"New York State", "New York", KindRegion, "US", "America/New_York"},
		{"Britain", "United Kingdom", KindCountry, "GB", "Europe/London"},
		{"UK", "United Kingdom", KindCountry, "GB", "Europe/London"},
		{"USA", "United States", KindCountry, "US", "America/New_York"},
		{"U.S.", "United States", KindCountry, "US", "America/New_York"},
		{"Holland", "Netherlands", KindCountry, "NL", "Europe/Amsterdam"},
		// countries at their capital
		{"Tanzania", "Tanzania", KindCountry, "TZ", "Africa/Dar_es_Salaam"},
		{"Australia", "Australia", KindCountry, "AU", "Australia/Sydney"},
		{"turkey", "Turkey", KindCountry, "TR", "Europe/Istanbul"},
		{"Georgia", "Georgia", KindCountry, "GE", "Asia/Tbilisi"},
		// ISO codes only as the whole input in capitals
		{"IN", "India", KindCountry, "IN", "Asia/Kolkata"},
		{"IT", "Italy", KindCountry, "IT", "Europe/Rome"},
		{"DEU", "Germany", KindCountry, "DE", "Europe/Berlin"},
		// regions: in the zone most of their people live in
		{"Hawaii", "Hawaii", KindRegion, "US", "Pacific/Honolulu"},
		{"Indiana", "Indiana", KindRegion, "US", "America/Indiana/Indianapolis"},
		{"California", "California", KindRegion, "US", "America/Los_Angeles"},
		{"North Dakota", "North Dakota", KindRegion, "US", "America/Chicago"},
		{"Yukon", "Yukon", KindRegion, "CA", "America/Whitehorse"},
		{"Scotland", "Scotland", KindRegion, "GB", "Europe/London"},
		// a region loses to the city of its name in its own country
		{"Washington", "Washington", KindCity, "US", "America/New_York"},
		{"Washington State", "Washington", KindRegion, "US", "America/Los_Angeles"},
		// IANA ids, old aliases and their city parts
		{"Asia/Shanghai", "Asia/Shanghai", KindZone, "CN", "Asia/Shanghai"},
		{"asia/calcutta", "Asia/Calcutta", KindZone, "IN", "Asia/Calcutta"},
		{"America/New York", "America/New_York", KindZone, "US", "America/New_York"},
		{"Etc/GMT-8", "Etc/GMT-8", KindZone, "", "Etc/GMT-8"},
		{"EST", "EST", KindZone, "", "EST"},
		{"Shanghai", "Shanghai", KindCity, "CN", "Asia/Shanghai"},
		{"Calcutta", "Kolkata", KindCity, "IN", "Asia/Kolkata"},
		{"Tongatapu", "Pacific/Tongatapu", KindZone, "TO", "Pacific/Tongatapu"},
		{"Indianapolis", "Indianapolis", KindCity, "US", "America/Indiana/Indianapolis"},
		{"LHI", "Australia/LHI", KindZone, "", "Australia/LHI"},
		{"Lord Howe", "Australia/Lord_Howe", KindZone, "", "Australia/Lord_Howe"},
		{"Cordoba", "Córdoba", KindCity, "AR", "America/Argentina/Cordoba"},
		{"Pacific", "US/Pacific", KindZone, "", "US/Pacific"},
		{"Zulu", "Zulu", KindZone, "", "Zulu"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, ok := g.Lookup(tt.in)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.in)
			}
			if p.Name != tt.name || p.Kind != tt.kind || p.CountryCode != tt.cc || p.TimeZone != tt.timeZone {
				t.Errorf("Lookup(%q) = %s %s %s %s; want %s %s %s %s", tt.in,
					p.Name, p.Kind, p.CountryCode, p.TimeZone, tt.name, tt.kind, tt.cc, tt.timeZone)
			}
		})
	}
}

func TestLookupOffsetsAndAbbreviations(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		in     string
		name   string
		offset int
		note   string // a part of the note, or "" for none
	}{
		{"UTC+5:30", "UTC+05:30", 19800, ""},
		{"utc+0530", "UTC+05:30", 19800, ""},
		{"GMT-8", "GMT-08:00", -8 * 3600, "behind UTC"},
		{"GMT+9", "GMT+09:00", 9 * 3600, "ahead of UTC"},
		{"UTC−3", "UTC-03:00", -3 * 3600, ""},
		{"+05:45", "UTC+05:45", 20700, ""},
		{"UTC", "UTC", 0, ""},
		{"GMT", "GMT", 0, ""},
		{"PST", "PST", -8 * 3600, "Asia/Manila"},
		{"pdt", "PDT", -7 * 3600, ""},
		{"IST", "IST", 19800, "IST is ambiguous"},
		{"CST", "CST", -6 * 3600, "Asia/Shanghai"},
		{"JST", "JST", 9 * 3600, ""},
		{"AEST", "AEST", 10 * 3600, ""},
		{"CEST", "CEST", 2 * 3600, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, ok := g.Lookup(tt.in)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.in)
			}
			if p.Kind != KindOffset || p.Name != tt.name || p.OffsetSeconds != tt.offset {
				t.Errorf("Lookup(%q) = %s %s %d; want offset %s %d", tt.in, p.Kind, p.Name, p.OffsetSeconds, tt.name, tt.offset)
			}
			if (tt.note == "") != (p.Note == "") || !strings.Contains(p.Note, tt.note) {
				t.Errorf("Lookup(%q) note %q; want one containing %q", tt.in, p.Note, tt.note)
			}
		})
	}
}

func TestLookupUnknown(t *testing.T) {
	g := gazetteer(t)
	for _, in := range []string{"", "   ", "Narnia", "Mordor", "in", "it", "UTC+15", "GMT+5:75", "Paris, Narnia",
		"Birmingham, Norway", strings.Repeat("a", MaxNameLen+1), "Asia/Nowhere", "\x00\xff"} {
		if p, ok := g.Lookup(in); ok {
			t.Errorf("Lookup(%q) = %+v; want not found", in, p)
		}
	}
}

// Atlantis is not a myth to GeoNames: Atlantis, Western Cape (67,000
// people). Lookup finds it, as it should.
func TestLookupAtlantisIsInSouthAfrica(t *testing.T) {
	p, ok := gazetteer(t).Lookup("Atlantis")
	if !ok || p.CountryCode != "ZA" || p.TimeZone != "Africa/Johannesburg" {
		t.Errorf("Lookup(Atlantis) = %+v, %v", p, ok)
	}
}

func TestCandidates(t *testing.T) {
	g := gazetteer(t)
	cs := g.Candidates("paris")
	if len(cs) < 2 || cs[0].CountryCode != "FR" {
		t.Fatalf("Candidates(paris) = %+v", cs)
	}
	texas := false
	for _, c := range cs {
		texas = texas || c.Region == "Texas"
	}
	if !texas {
		t.Errorf("Candidates(paris) lacks Paris, Texas: %+v", cs)
	}
	if g.Candidates("Narnia") != nil {
		t.Error("Candidates(Narnia) is not empty")
	}
}

func TestZoneIDs(t *testing.T) {
	ids := gazetteer(t).ZoneIDs()
	if len(ids) < 400 {
		t.Fatalf("%d zone ids", len(ids))
	}
	for i := 1; i < len(ids); i++ {
		if ids[i-1] >= ids[i] {
			t.Fatalf("zone ids not sorted at %d: %s, %s", i, ids[i-1], ids[i])
		}
	}
}
