package timezone

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// devItem is one line of testdata/timezone-dev.jsonl (see PROVENANCE.md).
type devItem struct {
	ID     string `json:"id"`
	Query  string `json:"query"`
	Answer string `json:"answer"`
}

func devItems(t testing.TB) []devItem {
	t.Helper()
	f, err := os.Open("testdata/timezone-dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []devItem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var it devItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

// devTemplates are the five query templates of GEAR's generator.py, as
// regular expressions: {0} datetime, {1} source, {2} destination. This
// reads the test data; gear itself never sees these patterns.
var devTemplates = []struct {
	re                 *regexp.Regexp
	dt, source, target int // submatch numbers
}{
	{regexp.MustCompile(`^What is the time in (.+) if it is (.+) in (.+)\?$`), 2, 3, 1},
	{regexp.MustCompile(`^It is (.+) in (.+)\. What is the time in (.+)\?$`), 1, 2, 3},
	{regexp.MustCompile(`^I want to talk to someone in (.+) at (.+) in (.+)\. What time is it there\?$`), 2, 3, 1},
	{regexp.MustCompile(`^My friend is in (.+), and I am in (.+)\. If it is (.+) here, what time is it there\?$`), 3, 2, 1},
	{regexp.MustCompile(`^I want to make a call to someone\. He is in (.+), and I am in (.+)\. If it is (.+) here, what time is it there\?$`), 3, 2, 1},
}

func parseDevQuery(q string) (dt, source, target string, ok bool) {
	for _, tpl := range devTemplates {
		if m := tpl.re.FindStringSubmatch(q); m != nil {
			return m[tpl.dt], m[tpl.source], m[tpl.target], true
		}
	}
	return "", "", "", false
}

// Why an item's answer and gear's may differ, computed per item from the
// data, before gear's answer is compared with the gold one.
const (
	reasonNone      = ""
	reasonGMTSign   = "GMT±N: the answer read it as IANA's Etc/GMT±N (inverted sign); gear reads GMT-8 as 8 hours behind UTC"
	reasonAfter2037 = "after 2037: pytz applied no daylight saving changes after 2037; Go's rules go on"
	reasonAmbiguous = "the generator's name fits several IANA ids that disagree at this time (e.g. Argentina, Indiana); its choice is unknown"
	reasonReading   = "gear reads this name as another place than the generator's IANA id"
	reasonGapLap    = "the time falls in a daylight saving gap or overlap, where pytz's is_dst=False and gear's rule differ"
	reasonRules     = "the answer cannot be reproduced from this binary's zone rules: the rules changed since pytz's data"
)

// generatorIDs are the IANA ids GEAR's generator may have meant by name:
// those whose second component (or whole one-part id) is the name, with
// underscores as spaces.
func generatorIDs(ids []string, name string) []string {
	var out []string
	for _, id := range ids {
		parts := strings.Split(id, "/")
		part := parts[0]
		if len(parts) > 1 {
			part = parts[1]
		}
		if strings.ReplaceAll(part, "_", " ") == name {
			out = append(out, id)
		}
	}
	return out
}

// pytzConvert converts as the generator did, with pytz's frozen rules
// after 2037 when frozen is set: past its last transition, pytz keeps the
// offset of 2037's end.
func pytzConvert(c Civil, from, to *time.Location, frozen bool) string {
	end2037 := time.Date(2038, 1, 1, 0, 0, 0, 0, time.UTC)
	offsetAt := func(loc *time.Location, t time.Time) int {
		if frozen && !t.Before(end2037) {
			t = end2037.Add(-time.Hour)
		}
		_, off := t.In(loc).Zone()
		return off
	}
	wall := time.Date(c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second, 0, time.UTC)
	instant := Localize(c, from).Time
	if frozen && !wall.Before(end2037) {
		instant = wall.Add(-time.Duration(offsetAt(from, wall)) * time.Second)
	}
	return instant.UTC().Add(time.Duration(offsetAt(to, instant)) * time.Second).Format(layout)
}

func TestDevSet(t *testing.T) {
	g, err := places()
	if err != nil {
		t.Fatal(err)
	}
	ids := g.ZoneIDs()
	resolver := NewResolver(g)
	counts := map[string]int{}
	agreed := 0
	for _, item := range devItems(t) {
		dtText, src, dst, ok := parseDevQuery(item.Query)
		if !ok {
			t.Fatalf("%s: no template fits %q", item.ID, item.Query)
		}
		res, err := convert(t, dtText, src, dst)
		if err != nil {
			t.Errorf("%s: TimezoneConverter(%q, %q, %q): %v", item.ID, dtText, src, dst, err)
			continue
		}
		gear := res.Data.(Conversion).To.DateTime

		reason := devReason(t, item, dtText, src, dst, ids, resolver)
		counts[reason]++
		switch {
		case reason == reasonNone && gear != item.Answer:
			t.Errorf("%s: TimezoneConverter(%q, %q, %q) = %s; the answer is %s\n%s", item.ID, dtText, src, dst, gear, item.Answer, res.Text)
		case reason == reasonNone:
			agreed++
		case gear == item.Answer:
			t.Logf("%s: agrees although %s", item.ID, reason)
			agreed++
		default:
			t.Logf("%s: differs (%s): gear %s, answer %s; %s -> %s", item.ID, reason, gear, item.Answer, src, dst)
		}
	}
	t.Logf("%d of %d items agree with the answers", agreed, len(devItems(t)))
	for r, n := range counts {
		if r != reasonNone {
			t.Logf("%3d expected to differ: %s", n, r)
		}
	}
	if counts[reasonNone] < 60 {
		t.Errorf("only %d items are expected to agree: the reasons are too broad", counts[reasonNone])
	}
}

// devReason says why gear may not give an item's answer, or "" when it
// must. Each reason is checked against the answer, so that the reason is
// an explanation and not an excuse.
func devReason(t *testing.T, item devItem, dtText, src, dst string, ids []string, resolver *Resolver) string {
	t.Helper()
	dt, err := ParseDateTime(dtText)
	if err != nil {
		t.Fatalf("%s: %v", item.ID, err)
	}
	srcIDs, dstIDs := generatorIDs(ids, src), generatorIDs(ids, dst)
	if len(srcIDs) == 0 || len(dstIDs) == 0 {
		t.Fatalf("%s: no IANA id is called %q or %q", item.ID, src, dst)
	}
	load := func(id string) *time.Location {
		loc, err := time.LoadLocation(id)
		if err != nil {
			t.Fatalf("%s: %v", item.ID, err)
		}
		return loc
	}
	answers := func(frozen bool) map[string]bool {
		set := map[string]bool{}
		for _, s := range srcIDs {
			for _, d := range dstIDs {
				set[pytzConvert(dt.Civil, load(s), load(d), frozen)] = true
			}
		}
		return set
	}
	gmt := regexp.MustCompile(`^GMT[+-][1-9][0-9]?$`)
	explain := func(reason string, holds bool) string {
		if !holds {
			t.Errorf("%s: %s, but that does not explain the answer %s", item.ID, reason, item.Answer)
		}
		return reason
	}
	current, frozen := answers(false), answers(true)
	switch {
	case gmt.MatchString(src) || gmt.MatchString(dst):
		return explain(reasonGMTSign, current[item.Answer] || frozen[item.Answer])
	case dt.Civil.Year >= 2038 && !sameKeys(current, frozen):
		return explain(reasonAfter2037, frozen[item.Answer])
	case len(current) > 1:
		return explain(reasonAmbiguous, current[item.Answer])
	}
	if Localize(dt.Civil, load(srcIDs[0])).Note != "" {
		return reasonGapLap
	}
	if !current[item.Answer] {
		return reasonRules
	}
	from, err1 := resolver.Resolve(src)
	to, err2 := resolver.Resolve(dst)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: %v %v", item.ID, err1, err2)
	}
	if pytzConvert(dt.Civil, from.Location, to.Location, false) != pytzConvert(dt.Civil, load(srcIDs[0]), load(dstIDs[0]), false) {
		return fmt.Sprintf("%s (%s is %s, %s is %s)", reasonReading, src, from.Name, dst, to.Name)
	}
	return reasonNone
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
