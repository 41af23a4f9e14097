package store

import (
	"context"
	"database/sql"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseQuery(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	tests := []struct {
		in   string
		want Query
	}{
		{"adelaide", Query{Terms: []Term{{Words: []string{"adelaide"}}}}},
		{`weather "new york" adel*`, Query{Terms: []Term{{Words: []string{"weather"}}, {Words: []string{"new", "york"}}, {Words: []string{"adel"}, Prefix: true}}}},
		{"tool:weather tool:Wiki", Query{Tools: []string{"weather", "wiki"}}},
		{"conf<0.5 conf>=0.25", Query{Conf: []ConfFilter{{"<", 0.5}, {">=", 0.25}}}},
		{"confidence>0.8", Query{Conf: []ConfFilter{{">", 0.8}}}},
		{"rating:low rating:WRONG", Query{Ratings: []string{RatingLow, RatingWrong}}},
		{"mode:direct", Query{Modes: []Mode{ModeDirect}}},
		{"since:2026-11-01 until:2026-11-30", Query{Since: day("2026-11-01"), Before: day("2026-12-01")}},
		{"since:2026-11-01T10:00:00Z", Query{Since: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), Before: time.Time{}}},
		// Punctuation separates words, as in the index; operators are words.
		{"new-york 10:30", Query{Terms: []Term{{Words: []string{"new", "york"}}, {Words: []string{"10", "30"}}}}},
		{`NOT AND OR NEAR "unclosed phrase`, Query{Terms: []Term{{Words: []string{"NOT"}}, {Words: []string{"AND"}}, {Words: []string{"OR"}}, {Words: []string{"NEAR"}}, {Words: []string{"unclosed", "phrase"}}}}},
		{"http://example.com café", Query{Terms: []Term{{Words: []string{"http", "example", "com"}}, {Words: []string{"café"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseQuery(tt.in, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", "nothing to search for"},
		{`!!! "" ***`, "nothing to search for"},
		{"tool:", "tool: needs a tool name"},
		{"mode:fast", `mode "fast"`},
		{"rating:meh", "rating:meh: want rating:low"},
		{"since:2026-13-01", "since:2026-13-01: not a date"},
		{"until:yesterday", "until:yesterday: not a date"},
		{"conf<high", "confidence is a number from 0 to 1"},
		{"conf>1.5", "confidence is a number from 0 to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseQuery(tt.in, time.UTC)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "search: ") {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// searchFixture records five turns covering the filters.
func searchFixture(t *testing.T) (*Store, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	s := openTest(t, Options{Now: fixedClock(t0)})
	turns := map[string]int64{}
	add := func(name string, mode Mode, at time.Time, query, tool, family string, conf float64, response, answer string, rating *Rating) {
		conv, err := s.CreateConversation(ctx, NewConversation{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		s.now = func() time.Time { return at }
		ref, err := s.BeginTurn(ctx, conv, query, mode)
		if err != nil {
			t.Fatal(err)
		}
		rec := TurnRecord{TurnID: ref.TurnID, Status: StatusDone, Answer: answer}
		if tool != "" {
			rec.Route, rec.Tool, rec.ToolFamily, rec.Confidence, rec.Grounded = RouteTool, tool, family, conf, true
			rec.Calls = []ToolCall{{Tool: tool, Call: tool + "(…)", Check: CallValidated, Response: response}}
		}
		if err := s.FinishTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if rating != nil {
			rating.TurnID = ref.TurnID
			if err := s.Rate(ctx, *rating); err != nil {
				t.Fatal(err)
			}
		}
		turns[name] = ref.TurnID
	}
	day := func(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }
	add("weather", ModeChat, day(1), "what's the weather in Adelaide tomorrow", "Weather", "weather", 0.92,
		"Adelaide: 24 °C, sunny", "Tomorrow Adelaide will be sunny, 24 °C.", &Rating{Score: ScoreUp})
	add("wrongtool", ModeChat, day(3), "tell me about Adelaide's history", "Weather", "weather", 0.41,
		"Adelaide: 19 °C, cloudy", "Adelaide is cloudy today.", &Rating{Score: ScoreDown, WrongTool: true, WantedTool: "WikiSearch"})
	add("direct", ModeDirect, day(5), "time in Tokyo", "TimezoneConverter", "timezone", 0.77,
		"14:00 in Tokyo", "14:00 in Tokyo", nil)
	add("baseline", ModeBaseline, day(7), "write a poem about Adelaide", "", "", 0,
		"", "Adelaide, city of churches…", &Rating{Score: ScoreDown})
	add("calc", ModeChat, day(9), "what is 48 multiplied by 4", "Calculator", "calc", 0.99,
		"192 (kestrel)", "48 × 4 = 192.", nil)
	return s, turns
}

func TestSearchFilters(t *testing.T) {
	t.Parallel()
	s, turns := searchFixture(t)
	tests := []struct {
		query string
		want  []string // in order
	}{
		{"adelaide", nil}, // every Adelaide turn; order checked below
		{"adelaide tool:weather", []string{"weather", "wrongtool"}},
		{"adelaide conf<0.5", []string{"wrongtool"}},
		{"adelaide conf>0.8", []string{"weather"}},
		{"rating:low", []string{"baseline", "wrongtool"}},
		{"rating:high", []string{"weather"}},
		{"rating:wrong", []string{"wrongtool"}},
		{"rating:wrong rating:high", []string{"wrongtool", "weather"}},
		{"mode:direct", []string{"direct"}},
		{"mode:baseline adelaide", []string{"baseline"}},
		{"since:2026-11-05", []string{"calc", "baseline", "direct"}},
		{"until:2026-11-03", []string{"wrongtool", "weather"}},
		{"since:2026-11-02 until:2026-11-06", []string{"direct", "wrongtool"}},
		{"tool:timezone", []string{"direct"}},
		{"tool:TimezoneConverter tokyo", []string{"direct"}},
		{"tool:calc", []string{"calc"}},
		{"kestrel", []string{"calc"}}, // only in a tool response
		{"adel*", nil},
		{`"city of churches"`, []string{"baseline"}},
		{`"churches city"`, []string{}},
		{"zanzibar", []string{}},
		{"tool:weather tool:calc conf>0.9", []string{"calc", "weather"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, err := ParseQuery(tt.query, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.Search(context.Background(), q, 10)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, h := range hits {
				for name, id := range turns {
					if id == h.TurnID {
						got = append(got, name)
					}
				}
			}
			if tt.want == nil {
				slices.Sort(got)
				if !reflect.DeepEqual(got, []string{"baseline", "weather", "wrongtool"}) {
					t.Errorf("hits = %v, want the three Adelaide turns", got)
				}
				return
			}
			if !q.filtered() || len(q.Terms) > 0 {
				// Ranked: the order is by relevance, not checked here.
				slices.Sort(got)
				want := slices.Clone(tt.want)
				slices.Sort(want)
				tt.want = want
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hits = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSearchHitCarriesSnippetAndTurn(t *testing.T) {
	t.Parallel()
	s, turns := searchFixture(t)
	q, _ := ParseQuery("kestrel", nil)
	hits, err := s.Search(context.Background(), q, 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits = %+v, %v", hits, err)
	}
	h := hits[0]
	if h.TurnID != turns["calc"] || h.Source != "tool" || h.Tool != "Calculator" || h.ToolFamily != "calc" ||
		!h.Grounded || h.Confidence != 0.99 || h.Query != "what is 48 multiplied by 4" || h.Score <= 0 || h.Mode != ModeChat || h.Status != StatusDone {
		t.Errorf("hit = %+v", h)
	}
	if h.Snippet != "192 (kestrel)" || len(h.Highlights) != 1 || h.Snippet[h.Highlights[0].Start:h.Highlights[0].End] != "kestrel" {
		t.Errorf("snippet %q highlights %v", h.Snippet, h.Highlights)
	}
	q, _ = ParseQuery("rating:wrong", nil)
	hits, _ = s.Search(context.Background(), q, 5)
	if len(hits) != 1 || hits[0].Source != "turn" || hits[0].Snippet != "tell me about Adelaide's history" ||
		hits[0].Rating == nil || hits[0].Rating.WantedTool != "WikiSearch" {
		t.Errorf("filter-only hit = %+v", hits)
	}
}

func TestSearchRanksByRelevance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	var ids []int64
	for _, q := range []string{
		"a long question that mentions wombat once among many many other unrelated words here and there",
		"wombat wombat wombat",
		"nothing relevant at all",
	} {
		ref, err := s.BeginTurn(ctx, conv, q, ModeChat)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ref.TurnID)
	}
	q, _ := ParseQuery("wombat", nil)
	hits, err := s.Search(ctx, q, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].TurnID != ids[1] || hits[1].TurnID != ids[0] || !(hits[0].Score > hits[1].Score) {
		t.Errorf("hits = %+v", hits)
	}
	if hits[0].Source != "user" {
		t.Errorf("source = %q", hits[0].Source)
	}
}

func TestSearchDiacriticsAndCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	if _, err := s.BeginTurn(ctx, conv, "Wie ist das Wetter in MÜNCHEN und São Paulo?", ModeChat); err != nil {
		t.Fatal(err)
	}
	for _, query := range []string{"munchen", "München", "sao paulo", `"São Paulo"`, "WETTER"} {
		q, _ := ParseQuery(query, nil)
		if hits, err := s.Search(ctx, q, 5); err != nil || len(hits) != 1 {
			t.Errorf("%s: hits = %v, err = %v", query, hits, err)
		}
	}
}

func TestHighlights(t *testing.T) {
	t.Parallel()
	text, marks := highlights("…the \x02weather\x03 in \x02Adelaide\x03 is…")
	if text != "…the weather in Adelaide is…" || !reflect.DeepEqual(marks, []Highlight{{7, 14}, {18, 26}}) {
		t.Errorf("%q %v", text, marks)
	}
	if text, marks := highlights("stray \x03 end and \x02 open"); text != "stray  end and  open" || len(marks) != 0 {
		t.Errorf("%q %v", text, marks)
	}
}

// FuzzSearch checks that no typed query makes SQLite fail: whatever
// parses is searched without a syntax error.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{
		"adelaide", `"new york" adel*`, "tool:weather conf<0.5", `a" OR "b`, "NEAR(a b)", "a -b +c", "col:adelaide",
		"*", `"*"`, "^adelaide", "x*y*", "(a OR b) AND NOT c", "rating:low since:2026-11-01 until:2026-11-30", "🙂 café ﬁ",
	} {
		f.Add(seed)
	}
	s := openFuzzStore(f)
	f.Fuzz(func(t *testing.T, text string) {
		q, err := ParseQuery(text, time.UTC)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "search: ") {
				t.Fatalf("parse error without context: %v", err)
			}
			return
		}
		if _, err := s.Search(context.Background(), q, 5); err != nil {
			t.Fatalf("ParseQuery(%q) gave %q, which fails: %v", text, q.match(), err)
		}
	})
}

func openFuzzStore(f *testing.F) *Store {
	ctx := context.Background()
	s, err := Open(ctx, f.TempDir()+"/gear.db", Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	conv, _ := s.CreateConversation(ctx, NewConversation{})
	ref, err := s.BeginTurn(ctx, conv, "weather in New York and Adelaide, café", ModeChat)
	if err != nil {
		f.Fatal(err)
	}
	if err := s.FinishTurn(ctx, benchRecord(ref.TurnID)); err != nil {
		f.Fatal(err)
	}
	return s
}

// TestSearchBeyondRankedMatches: a word in more messages than are ranked
// still gives results, and filters apply before the bound, so an old turn
// a filter picks out is found behind many newer matches.
func TestSearchBeyondRankedMatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, Options{})
	err := s.write(ctx, false, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO conversations (id, mode, created_at, updated_at) VALUES (1, 'chat', 0, 0)`); err != nil {
			return err
		}
		for i := range rankedMatches + 100 {
			tool := "Weather"
			if i == 0 {
				tool = "Calculator"
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO turns (id, conversation_id, query, mode, tool, tool_family, created_at)
				VALUES (?, 1, 'wombat question', 'chat', ?, lower(?), ?)`, i+1, tool, tool, i); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO messages (conversation_id, turn_id, role, text, created_at)
				VALUES (1, ?, 'user', 'wombat question', ?)`, i+1, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := ParseQuery("wombat", nil)
	hits, err := s.Search(ctx, q, 20)
	if err != nil || len(hits) != 20 {
		t.Fatalf("%d hits, %v", len(hits), err)
	}
	q, _ = ParseQuery("wombat tool:calculator", nil)
	hits, err = s.Search(ctx, q, 20)
	if err != nil || len(hits) != 1 || hits[0].TurnID != 1 {
		t.Fatalf("old filtered turn: %+v, %v", hits, err)
	}
}

// Pieces splits a snippet at the highlights it can use and passes over the
// rest, so a bad range never cuts the text wrong.
func TestHitPieces(t *testing.T) {
	t.Parallel()
	snippet := "the weather in Adelaide"
	tests := []struct {
		name  string
		marks []Highlight
		want  []Piece
	}{
		{"none", nil, []Piece{{Text: snippet}}},
		{"one", []Highlight{{4, 11}}, []Piece{{Text: "the "}, {Text: "weather", Match: true}, {Text: " in Adelaide"}}},
		{"at the end", []Highlight{{15, 23}}, []Piece{{Text: "the weather in "}, {Text: "Adelaide", Match: true}, {Text: ""}}},
		{"out of order, out of range, empty", []Highlight{{15, 23}, {4, 11}, {20, 99}, {23, 23}},
			[]Piece{{Text: "the weather in "}, {Text: "Adelaide", Match: true}, {Text: ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Hit{Snippet: snippet, Highlights: tt.marks}).Pieces(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Pieces() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
