package offline

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Clock times written the way they are said — "half past five", "quarter
// to nine", "ten past six", "five o'clock", "8 in the morning" — and the
// French and continental "14h" and "14h30". The tools read the shapes of
// tools.DateTimePattern only, so each is rewritten in one of them ("5:30",
// "8:45", "6:10", "5:00", "8 am", "14:00", "14:30"), with "am" or "pm"
// when the words say which half of the day ("in the morning", "in the
// evening", "at night").

// hourHRe finds "14h" and "14h30"; a glued "14h" is two tokens ("14",
// "h"), so it is read from the text.
var hourHRe = regexp.MustCompile(`(?i)\b([01]?[0-9]|2[0-3])h([0-5][0-9])?\b`)

// clockText is a clock time found in the query: its byte span and the
// text the tools read.
type clockText struct {
	start, end int
	text       string
}

// hourValue reads an hour of the twelve-hour clock in words or digits.
func hourValue(w string) (int, bool) {
	if v, scale, ok := wordValue(w); ok && !scale && v >= 1 && v <= 12 {
		return int(v), true
	}
	if n, err := strconv.Atoi(w); err == nil && n >= 0 && n <= 23 && len(w) <= 2 {
		return n, true
	}
	return 0, false
}

// minuteValue reads the minutes before "past" or "to": "half", "quarter",
// or a count in words or digits below 30.
func minuteValue(w string) (int, bool) {
	switch w {
	case "half":
		return 30, true
	case "quarter":
		return 15, true
	}
	if v, scale, ok := wordValue(w); ok && !scale && v >= 1 && v < 30 {
		return int(v), true
	}
	if n, err := strconv.Atoi(w); err == nil && n >= 1 && n < 30 {
		return n, true
	}
	return 0, false
}

// spokenTimes finds the spoken clock times of the query, in order.
func spokenTimes(query string, toks []token) []clockText {
	var out []clockText
	word := func(i int) string { return wordAt(toks, i) }
	for i := 0; i < len(toks); i++ {
		var h, m, end int
		switch {
		case word(i+1) == "past" || word(i+1) == "to" || word(i+1) == "minutes" && (word(i+2) == "past" || word(i+2) == "to"):
			// "half past five", "quarter to nine", "ten past six",
			// "twenty minutes to seven"; a bare count before "to" is a
			// range ("ten to twelve people"), so it needs "minutes".
			mins, ok := minuteValue(word(i))
			k := i + 1
			if word(k) == "minutes" {
				k++
			} else if word(k) == "to" && mins != 15 && mins != 30 {
				ok = false
			}
			if word(i) == "half" && word(k) == "to" {
				ok = false
			}
			hour, hok := hourValue(word(k + 1))
			if !ok || !hok || hour > 12 {
				continue
			}
			if word(k) == "past" {
				h, m = hour, mins
			} else {
				h, m = hour-1, 60-mins
				if h == 0 {
					h = 12
				}
			}
			end = k + 1
		case word(i+1) == "o'clock" || word(i+1) == "oclock":
			hour, ok := hourValue(word(i))
			if !ok || hour > 12 {
				continue
			}
			h, end = hour, i+1
		default:
			hour, ok := hourValue(word(i))
			if !ok || hour > 12 || !dayHalfAfter(toks, i+1) {
				continue
			}
			h, end = hour, i // "8 in the morning"
		}
		text := strconv.Itoa(h) + ":" + twoDigits(m)
		if half, width := dayHalf(toks, end+1); width > 0 {
			text += " " + half
			end += width
		}
		out = append(out, clockText{start: toks[i].start, end: toks[end].end, text: text})
		i = end
	}
	for _, m := range hourHRe.FindAllStringSubmatchIndex(query, -1) {
		text := query[m[2]:m[3]] + ":00"
		if m[4] >= 0 {
			text = query[m[2]:m[3]] + ":" + query[m[4]:m[5]]
		}
		out = append(out, clockText{start: m[0], end: m[1], text: text})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// dayHalf reads "am", "pm", "in the morning", "in the afternoon", "in
// the evening", "at night" at token i: the half of the day and the tokens
// it spans.
func dayHalf(toks []token, i int) (string, int) {
	word := func(k int) string { return wordAt(toks, k) }
	switch word(i) {
	case "am", "a.m":
		return "am", 1
	case "pm", "p.m":
		return "pm", 1
	case "in":
		if word(i+1) == "the" {
			switch word(i + 2) {
			case "morning":
				return "am", 3
			case "afternoon", "evening":
				return "pm", 3
			}
		}
	case "at":
		if word(i+1) == "night" {
			return "pm", 2
		}
	}
	return "", 0
}

func dayHalfAfter(toks []token, i int) bool {
	_, n := dayHalf(toks, i)
	return n > 0 && (i >= len(toks) || toks[i].text != "am" && toks[i].text != "pm") // "8 am" is the pattern's own
}

func twoDigits(n int) string {
	s := strconv.Itoa(n)
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}

// withClockTimes merges the spoken clock times into the date-times found
// by the pattern (spans and datetimes, in order), in order of position,
// skipping any that overlap one; it returns new slices.
func withClockTimes(query string, spans [][2]int, datetimes []string, found []clockText) ([][2]int, []string) {
	var merged []clockText
	for _, s := range spans {
		merged = append(merged, clockText{start: s[0], end: s[1], text: query[s[0]:s[1]]})
	}
	added := false
	for _, c := range found {
		overlap := false
		for _, s := range spans {
			if c.start < s[1] && s[0] < c.end {
				overlap = true
			}
		}
		if !overlap {
			merged = append(merged, c)
			added = true
		}
	}
	if !added {
		return spans, datetimes
	}
	sort.SliceStable(merged, func(i, j int) bool { return merged[i].start < merged[j].start })
	var outSpans [][2]int
	var outTimes []string
	for _, c := range merged {
		outSpans = append(outSpans, [2]int{c.start, c.end})
		outTimes = append(outTimes, strings.TrimSpace(c.text))
	}
	return outSpans, outTimes
}
