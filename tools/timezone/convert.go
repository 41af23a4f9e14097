package timezone

import (
	"fmt"
	"strings"
	"time"

	"github.com/gear-chat/gear/tools/place"
)

// Localized is a wall-clock time placed in a zone, with what happened on
// the way: a time in a daylight saving gap or overlap is stated, not
// silently moved.
type Localized struct {
	Time time.Time
	// Note explains a gap or an overlap, or is empty.
	Note string
}

// Localize places a wall-clock time in loc. A time that exists once is
// exact. In a gap (clocks jump forward past it) the time is read with the
// offset in force before the jump, which lands as far past the jump as it
// was meant to be after it (02:30 in a 02:00→03:00 gap is 03:30), the
// rule of RFC 5545 and java.time. In an overlap (clocks go back, the time
// happens twice) the earlier one is used. Either way Note says so.
func Localize(c Civil, loc *time.Location) Localized {
	wall := time.Date(c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second, 0, time.UTC).Unix()
	// The offsets in force around that wall time; transitions are never
	// closer together than a day and a half in tzdata's rules in use.
	before := offsetAt(loc, wall-36*3600)
	offsets := uniqueInts(before, offsetAt(loc, wall), offsetAt(loc, wall+36*3600))
	var valid []int64
	for _, off := range offsets {
		instant := wall - int64(off)
		if offsetAt(loc, instant) == off {
			valid = append(valid, instant)
		}
	}
	shown := c.String()
	switch len(valid) {
	case 1:
		return Localized{Time: time.Unix(valid[0], 0).In(loc)}
	case 0:
		t := time.Unix(wall-int64(before), 0).In(loc)
		return Localized{Time: t, Note: fmt.Sprintf("%s does not exist in %s (the clocks jump forward over it); read as %s %s",
			shown, loc, t.Format(layout), zoneLabel(t))}
	}
	first, second := valid[0], valid[0]
	for _, v := range valid {
		first, second = min(first, v), max(second, v)
	}
	t := time.Unix(first, 0).In(loc)
	t2 := time.Unix(second, 0).In(loc)
	return Localized{Time: t, Note: fmt.Sprintf("%s happens twice in %s (the clocks go back); used the first, %s, not the second, %s",
		shown, loc, zoneLabel(t), zoneLabel(t2))}
}

func offsetAt(loc *time.Location, unix int64) int {
	_, off := time.Unix(unix, 0).In(loc).Zone()
	return off
}

func uniqueInts(xs ...int) []int {
	var out []int
	for _, x := range xs {
		dup := false
		for _, y := range out {
			dup = dup || x == y
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}

// zoneLabel is "EST (UTC-05:00)", or "UTC+05:45" when the zone has no
// lettered abbreviation.
func zoneLabel(t time.Time) string {
	abbr, off := t.Zone()
	if isLetters(abbr) {
		return abbr + " (" + place.FormatOffset(off) + ")"
	}
	return place.FormatOffset(off)
}

// Moment is one side of a conversion, or the answer of CurrentTime: the
// structured data behind the text.
type Moment struct {
	DateTime     string       `json:"datetime"` // 2006-01-02 15:04:05, wall clock in Zone
	Weekday      string       `json:"weekday"`
	Abbreviation string       `json:"abbreviation,omitempty"` // "EST"; empty when the zone has none
	UTCOffset    string       `json:"utc_offset"`             // "-05:00"
	DST          bool         `json:"dst"`
	Zone         string       `json:"zone"` // IANA id, offset or abbreviation
	Place        *place.Place `json:"place,omitempty"`
	RFC3339      string       `json:"rfc3339"`
}

func moment(t time.Time, z Zone) Moment {
	abbr, off := t.Zone()
	m := Moment{
		DateTime:  t.Format(layout),
		Weekday:   t.Weekday().String(),
		UTCOffset: place.FormatOffset(off)[3:],
		DST:       t.IsDST(),
		Zone:      z.Name,
		RFC3339:   t.Format(time.RFC3339),
	}
	if isLetters(abbr) {
		m.Abbreviation = abbr
	}
	if z.Place.Kind != place.KindOffset && z.Place.Name != "" {
		p := z.Place
		m.Place = &p
	}
	return m
}

// describe writes one side: "2022-01-02 09:00:00 EST (UTC-05:00, America/New_York, Boston)".
func describe(t time.Time, z Zone) string {
	abbr, off := t.Zone()
	var b strings.Builder
	b.WriteString(t.Format(layout))
	if isLetters(abbr) {
		b.WriteByte(' ')
		b.WriteString(abbr)
	}
	b.WriteString(" (")
	b.WriteString(place.FormatOffset(off))
	if z.Name != "" && z.Name != abbr && z.Name != place.FormatOffset(off) {
		b.WriteString(", ")
		b.WriteString(z.Name)
	}
	if label := placeLabel(z); label != "" {
		b.WriteString(", ")
		b.WriteString(label)
	}
	b.WriteByte(')')
	return b.String()
}

// placeLabel names the place behind a zone when the zone's name does not
// already: "Boston, United States", "Tanzania", "Hawaii".
func placeLabel(z Zone) string {
	p := z.Place
	switch p.Kind {
	case place.KindCity:
		if p.Country != "" {
			return p.Name + ", " + p.Country
		}
		return p.Name
	case place.KindCountry, place.KindRegion:
		return p.Name
	}
	return ""
}
