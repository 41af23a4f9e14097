package place

import (
	"testing"
	"unicode/utf8"
)

// FuzzScan checks Scan on any text: mentions are in order, do not
// overlap, cover their own text, and each names something Lookup knows.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"what time is it in adelaide", "He is in Jerusalem, and I am in GMT-8",
		"weather in new york tomorrow", "UTC+5:30 or utc-0800 or GMT", "Asia/Calcutta/", "St. John's, Ust-Nera",
		"São Paulo\xff", "LA NYC U.S.A. PST IST CET", "the weather in Nice is nice"} {
		f.Add(s)
	}
	g := gazetteer(f)
	f.Fuzz(func(t *testing.T, text string) {
		end := 0
		for _, m := range g.Scan(text) {
			if m.Start < end || m.End <= m.Start || m.End > len(text) || text[m.Start:m.End] != m.Text {
				t.Fatalf("Scan(%q): bad mention %+v after offset %d", text, m, end)
			}
			end = m.End
			if utf8.ValidString(m.Text) && len(m.Text) <= MaxNameLen {
				if _, ok := g.Lookup(m.Text); !ok {
					t.Fatalf("Scan(%q) found %q, which Lookup does not know", text, m.Text)
				}
			}
		}
		g.Lookup(text)
	})
}
