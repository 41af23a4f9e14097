package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Query is a parsed history search: free words (full-text) and filters.
//
// Syntax, space separated, in any order:
//
//	adelaide            a word: turns whose messages or tool responses hold it
//	"new york"          a phrase
//	adel*               a prefix
//	tool:weather        the chosen tool's name or family (case-insensitive)
//	conf<0.5 conf>=0.8  grounding confidence (<, <=, >, >=)
//	rating:low|high|wrong  thumbs down, thumbs up, flagged "wrong tool"
//	mode:chat|direct|baseline
//	since:2026-11-01    turns started on or after that day (or RFC 3339 time)
//	until:2026-11-30    turns started on or before that day
//
// Words are ANDed. Repeating tool:, rating: or mode: means any of them.
// Punctuation in words separates them, as it does in the index; nothing a
// user types is passed to SQLite's query syntax.
type Query struct {
	Terms   []Term
	Tools   []string
	Modes   []Mode
	Ratings []string
	Conf    []ConfFilter
	// Since is inclusive, Before exclusive; zero means unbounded.
	Since  time.Time
	Before time.Time
}

// Term is a word or phrase to find; Prefix makes the last word a prefix.
type Term struct {
	Words  []string
	Prefix bool
}

// ConfFilter compares grounding confidence: Op is <, <=, > or >=.
type ConfFilter struct {
	Op    string
	Value float64
}

// Rating filters.
const (
	RatingLow   = "low"
	RatingHigh  = "high"
	RatingWrong = "wrong"
)

// ParseQuery parses a search; dates are days in loc (nil means UTC).
func ParseQuery(text string, loc *time.Location) (Query, error) {
	if loc == nil {
		loc = time.UTC
	}
	var q Query
	for _, tok := range splitQuery(text) {
		if tok.quoted {
			if words := words(tok.text); len(words) > 0 {
				q.Terms = append(q.Terms, Term{Words: words})
			}
			continue
		}
		if err := q.addWord(tok.text, loc); err != nil {
			return Query{}, fmt.Errorf("search: %w", err)
		}
	}
	if q.Empty() {
		return Query{}, fmt.Errorf("search: nothing to search for in %q: give words or filters such as tool:weather", text)
	}
	return q, nil
}

// Empty reports whether the query has neither words nor filters.
func (q Query) Empty() bool {
	return len(q.Terms) == 0 && !q.filtered()
}

func (q Query) filtered() bool {
	return len(q.Tools)+len(q.Modes)+len(q.Ratings)+len(q.Conf) > 0 || !q.Since.IsZero() || !q.Before.IsZero()
}

func (q *Query) addWord(word string, loc *time.Location) error {
	lower := strings.ToLower(word)
	key, value, hasKey := strings.Cut(lower, ":")
	if hasKey {
		switch key {
		case "tool":
			if value == "" {
				return fmt.Errorf("tool: needs a tool name or family, e.g. tool:weather")
			}
			q.Tools = append(q.Tools, value)
			return nil
		case "mode":
			m := Mode(value)
			if err := checkMode(m); err != nil {
				return err
			}
			q.Modes = append(q.Modes, m)
			return nil
		case "rating":
			switch value {
			case RatingLow, RatingHigh, RatingWrong:
				q.Ratings = append(q.Ratings, value)
				return nil
			}
			return fmt.Errorf("rating:%s: want rating:low, rating:high or rating:wrong", value)
		case "since", "until":
			_, raw, _ := strings.Cut(word, ":")
			from, next, err := parseDay(raw, loc)
			if err != nil {
				return fmt.Errorf("%s:%s: %w", key, raw, err)
			}
			if key == "since" && (q.Since.IsZero() || from.After(q.Since)) {
				q.Since = from
			}
			if key == "until" && (q.Before.IsZero() || next.Before(q.Before)) {
				q.Before = next
			}
			return nil
		}
	}
	if op, value, ok := confComparison(lower); ok {
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || v < 0 || v > 1 {
			return fmt.Errorf("%s: confidence is a number from 0 to 1, e.g. conf<0.5", word)
		}
		q.Conf = append(q.Conf, ConfFilter{Op: op, Value: v})
		return nil
	}
	if ws := words(word); len(ws) > 0 {
		q.Terms = append(q.Terms, Term{Words: ws, Prefix: strings.HasSuffix(word, "*")})
	}
	return nil
}

// confComparison splits "conf<0.5" (or "confidence<0.5") into its
// operator and value.
func confComparison(word string) (op, value string, ok bool) {
	rest, found := strings.CutPrefix(word, "confidence")
	if !found {
		if rest, found = strings.CutPrefix(word, "conf"); !found {
			return "", "", false
		}
	}
	for _, op := range []string{"<=", ">=", "<", ">"} {
		if value, found := strings.CutPrefix(rest, op); found {
			return op, value, true
		}
	}
	return "", "", false
}

// parseDay reads YYYY-MM-DD (the day in loc: its start and the next day's
// start) or an RFC 3339 time (that instant, and just after it).
func parseDay(s string, loc *time.Location) (from, next time.Time, err error) {
	if d, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return d, d.AddDate(0, 0, 1), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, t.Add(time.Millisecond), nil
	}
	return time.Time{}, time.Time{}, fmt.Errorf("not a date: want YYYY-MM-DD, e.g. 2026-11-01")
}

type queryToken struct {
	text   string
	quoted bool
}

// splitQuery splits on spaces, keeping "double-quoted phrases" whole; an
// unclosed quote runs to the end.
func splitQuery(s string) []queryToken {
	var out []queryToken
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return out
		}
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return append(out, queryToken{s[1:], true})
			}
			out = append(out, queryToken{s[1 : end+1], true})
			s = s[end+2:]
			continue
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		out = append(out, queryToken{s[:end], false})
		s = s[end:]
	}
}

// words splits text into the runs of letters, digits and marks the
// full-text index sees as words.
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r))
	})
}

// match is the FTS4 MATCH expression: every term a quoted phrase, so the
// user's text can never be read as query syntax.
func (q Query) match() string {
	parts := make([]string, 0, len(q.Terms))
	for _, t := range q.Terms {
		p := `"` + strings.Join(t.Words, " ")
		if t.Prefix {
			p += "*"
		}
		parts = append(parts, p+`"`)
	}
	return strings.Join(parts, " ")
}
