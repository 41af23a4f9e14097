package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fakeTool struct{ spec Spec }

func (f fakeTool) Spec() Spec { return f.spec }
func (f fakeTool) Run(context.Context, Call) (Result, error) {
	return Result{Text: "ok"}, nil
}

// testSpecs covers every parameter type.
func testSpecs() []Spec {
	return []Spec{
		{Name: "Calculator", Family: FamilyCalc, Description: "arithmetic",
			Params:   []Param{{Name: "expression", Type: TypeExpression}},
			Examples: []Example{{Query: "2 plus 4", Call: "Calculator(2 + 4)"}}},
		{Name: "TimezoneConverter", Family: FamilyTimezone, Description: "convert",
			Params: []Param{{Name: "datetime", Type: TypeDateTime}, {Name: "from_place", Type: TypePlace}, {Name: "to_place", Type: TypePlace}}},
		{Name: "CurrentTime", Family: FamilyTimezone, Description: "clock",
			Params: []Param{{Name: "place", Type: TypePlace, Optional: true}}},
		{Name: "WeatherSearch", Family: FamilyWeather, Description: "weather",
			Params: []Param{{Name: "place", Type: TypePlace}, {Name: "date", Type: TypeDate, Optional: true}}},
		{Name: "Pow", Family: FamilyCalc, Description: "power",
			Params: []Param{{Name: "base", Type: TypeNumber}, {Name: "exponent", Type: TypeInteger}}},
		{Name: "Units", Family: "convert", Description: "units",
			Params: []Param{{Name: "unit", Type: TypeEnum, Enum: []string{"metric", "imperial"}}, {Name: "note", Type: TypeString, MaxLen: 5, Optional: true}}},
		{Name: "cafe.change_drink", Family: "mcp", Description: "change an order", Source: Source{Kind: SourceMCP, Name: "cafe"},
			Params: []Param{{Name: "drink", Type: TypeString}, {Name: "iced", Type: TypeBoolean, Optional: true}}},
		{Name: "get-weather", Family: "mcp", Description: "weather",
			Params: []Param{{Name: "day", Type: TypeString, Pattern: FormatDatePattern, Format: "date"}, {Name: "maxResults", Type: TypeInteger, Optional: true}}},
		{Name: "kv.set", Family: "mcp", Description: "store any JSON value",
			Params: []Param{{Name: "key", Type: TypeString}, {Name: "value", Type: TypeJSON, Optional: true},
				{Name: "ids", Type: TypeJSON, Items: TypeInteger, Optional: true}}},
	}
}

func testRegistry(t testing.TB) *Registry {
	t.Helper()
	var ts []Tool
	for _, s := range testSpecs() {
		ts = append(ts, fakeTool{s})
	}
	r, err := NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseAccepts(t *testing.T) {
	r := testRegistry(t)
	tests := []struct {
		in   string
		want Call
	}{
		{"Calculator(( 76.0 - 25.0 ))", Call{Tool: "Calculator", Args: []Arg{{"expression", Expression("( 76.0 - 25.0 )")}}}},
		{"Calculator(2^100)", Call{Tool: "Calculator", Args: []Arg{{"expression", Expression("2^100")}}}},
		{"Calculator(25% of 54,788)", Call{Tool: "Calculator", Args: []Arg{{"expression", Expression("25% of 54,788")}}}},
		{"Calculator(max(1, 2, 3) + sqrt(16))", Call{Tool: "Calculator", Args: []Arg{{"expression", Expression("max(1, 2, 3) + sqrt(16)")}}}},
		{`TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York")`,
			Call{Tool: "TimezoneConverter", Args: []Arg{{"datetime", String("2022-01-02 22:00:00")}, {"from_place", String("Asia/Shanghai")}, {"to_place", String("America/New_York")}}}},
		{`  TimezoneConverter ( "May 25 2038 11:22:40PM" ,"GMT-8","Jerusalem" )  `,
			Call{Tool: "TimezoneConverter", Args: []Arg{{"datetime", String("May 25 2038 11:22:40PM")}, {"from_place", String("GMT-8")}, {"to_place", String("Jerusalem")}}}},
		{`CurrentTime()`, Call{Tool: "CurrentTime"}},
		{`CurrentTime("Zürich")`, Call{Tool: "CurrentTime", Args: []Arg{{"place", String("Zürich")}}}},
		{`CurrentTime("say \"hi\"\n")`, Call{Tool: "CurrentTime", Args: []Arg{{"place", String("say \"hi\"\n")}}}},
		{`WeatherSearch("Berlin", "tomorrow")`, Call{Tool: "WeatherSearch", Args: []Arg{{"place", String("Berlin")}, {"date", String("tomorrow")}}}},
		{`Pow(2.5, -3)`, Call{Tool: "Pow", Args: []Arg{{"base", Number(2.5)}, {"exponent", Number(-3)}}}},
		{`Units("imperial", "abcde")`, Call{Tool: "Units", Args: []Arg{{"unit", String("imperial")}, {"note", String("abcde")}}}},
		{`{"tool": "Calculator", "args": {"expression": "2 + 4"}}`, Call{Tool: "Calculator", Args: []Arg{{"expression", Expression("2 + 4")}}}},
		{`{"tool":"Pow","args":{"base":2,"exponent":3}}`, Call{Tool: "Pow", Args: []Arg{{"base", Number(2)}, {"exponent", Number(3)}}}},
		{`{"tool": "CurrentTime", "args": {}}`, Call{Tool: "CurrentTime"}},
		{`{"tool": "WeatherSearch", "args": {"place": "Paris"}}`, Call{Tool: "WeatherSearch", Args: []Arg{{"place", String("Paris")}}}},
		{`cafe.change_drink("latte", true)`, Call{Tool: "cafe.change_drink", Args: []Arg{{"drink", String("latte")}, {"iced", Boolean(true)}}}},
		{`{"tool": "cafe.change_drink", "args": {"drink": "tea", "iced": false}}`, Call{Tool: "cafe.change_drink", Args: []Arg{{"drink", String("tea")}, {"iced", Boolean(false)}}}},
		{`Pow(base: 2.5, exponent: -3)`, Call{Tool: "Pow", Args: []Arg{{"base", Number(2.5)}, {"exponent", Number(-3)}}}},
		{`Pow(2.5, exponent:-3)`, Call{Tool: "Pow", Args: []Arg{{"base", Number(2.5)}, {"exponent", Number(-3)}}}},
		{`WeatherSearch(place: "Oslo")`, Call{Tool: "WeatherSearch", Args: []Arg{{"place", String("Oslo")}}}},
		{`get-weather(day: "2026-11-24", maxResults: 3)`, Call{Tool: "get-weather", Args: []Arg{{"day", String("2026-11-24")}, {"maxResults", Number(3)}}}},
		{`kv.set(key: "k", value: [true, null])`, Call{Tool: "kv.set", Args: []Arg{{"key", String("k")}, {"value", JSONValue("[true,null]")}}}},
		{`get-weather("2026-11-24", 3)`, Call{Tool: "get-weather", Args: []Arg{{"day", String("2026-11-24")}, {"maxResults", Number(3)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := r.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !got.Equal(tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
			// Both forms of the parsed call parse back to it.
			for _, form := range []string{got.String(), got.JSON()} {
				again, err := r.Parse(form)
				if err != nil {
					t.Fatalf("re-parse %s: %v", form, err)
				}
				if !again.Equal(got) {
					t.Fatalf("re-parse %s: got %#v", form, again)
				}
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	r := testRegistry(t)
	tests := []struct {
		in, want string
	}{
		{"Calculator(", "at column 12: empty expression"},
		{"Calculator()", "missing argument expression"},
		{"NoSuchTool(1)", `unknown tool "NoSuchTool"`},
		{"Calculator(1 +)", "expression ends where a number was expected"},
		{"Calculator(2 3)", "expected an operator"},
		{"Calculator(1,2)", `"," outside a function's arguments`},
		{"Calculator(1,2345)", "more than three digits"},
		{"Calculator(" + strings.Repeat("(", 33) + "1" + strings.Repeat(")", 33) + ")", "nested deeper than 32"},
		{"Calculator(" + strings.Repeat("1+", 1001) + "1)", "longer than 2000"},
		{"Calculator(1)+2)", `unmatched ")"`},
		{"Calculator(1.)", "digit after the decimal point"},
		{"Calculator(2e5)", `unexpected "e" after a number`},
		{"Calculator(\"1\")", "expected a number"},
		{`Pow(abc, 2)`, `at column 5: expected a number for base, found "abc"`},
		{`Pow(2, 1.5)`, "expected an integer for exponent"},
		{`Pow(2, 3, 4)`, "too many arguments: Pow takes 2"},
		{`Pow(2)`, "missing argument exponent"},
		{`Pow(2,)`, "expected an integer for exponent"},
		{`WeatherSearch()`, "missing argument place (place)"},
		{`WeatherSearch(Berlin)`, "expected a quoted place"},
		{`WeatherSearch("")`, "empty place"},
		{`WeatherSearch("Berlin", "someday")`, "expected a date like"},
		{`WeatherSearch("Berlin"`, `expected "," or ")"`},
		{`WeatherSearch("Berlin) `, "unterminated string"},
		{`WeatherSearch("` + strings.Repeat("x", 101) + `")`, "longer than 100"},
		{`TimezoneConverter("2022-01-02 22:00:00 tomorrow", "a", "b")`, "expected a date and time"},
		{`TimezoneConverter("2022-01-02\u002022:00:00", "a", "b")`, "expected a date and time"},
		{`Units("Metric")`, "expected one of metric, imperial"},
		{`Units("metric", "abcdef")`, "longer than 5"},
		{"CurrentTime(\"a\x01\")", "control character"},
		{`CurrentTime("\ud83d")`, "surrogate"},
		{`CurrentTime("\q")`, `unknown escape \q`},
		{"CurrentTime(\"\xff\")", "invalid UTF-8"},
		{`CurrentTime() extra`, "unexpected text after the call"},
		{`{"tool": "Calculator", "args": {"expression": 5}}`, "expected a quoted expression"},
		{`{"tool": "Calculator"}`, `expected ","`},
		{`{"args": {}, "tool": "Calculator"}`, `expected "tool"`},
		{`{"tool": "Pow", "args": {"exponent": 3, "base": 2}}`, `missing argument base`},
		{`{"tool": "Units", "args": {"note": "a", "unit": "metric"}}`, `missing argument unit`},
		{`{"tool": "Units", "args": {"unit": "metric", "unit": "metric"}}`, `argument unit comes after unit`},
		{`{"tool": "Units", "args": {"unit": "metric", "colour": "red"}}`, `Units has no parameter "colour"`},
		{`Pow(exponent: 3, base: 2)`, `missing argument base`},
		{`Pow(base: 2, base: 3)`, `argument base comes after base`},
		{`Pow(base: 2, 3)`, `expected a parameter name and ":"`},
		{`Pow(2, base: 3)`, `argument base comes after base`},
		{`Pow(bass: 2, exponent: 3)`, `Pow has no parameter "bass"`},
		{`Pow(base : 2, exponent: 3)`, `expected a number for base, found "base"`},
		{`Units(note: "a")`, `missing argument unit`},
		{`Calculator(expression: 2)`, `expected an operator`},
		{`{"tool": "Pow", "args": {"base": 2}}`, "missing argument exponent"},
		{`{"tool": "Pow", "args": {"base": 2, "exponent": 3, "x": 1}}`, "too many arguments"},
		{`{"tool": "Nope", "args": {}}`, `unknown tool "Nope"`},
		{"{\"tool\": \"Calculator\", \"args\": {\"expression\": \"1 +\n2\"}}", "one line"},
		{`{"tool": "CurrentTime", "args": {}} x`, "unexpected text after the call"},
		{"", "expected a tool name, found the end"},
		{`cafe.change_drink("latte", yes)`, `expected true or false for iced, found "yes"`},
		{`cafe.change_drink("latte", "true")`, `expected true or false for iced`},
		{`cafe.change_drink("latte", truee)`, `expected true or false for iced`},
		{`cafe.change("latte")`, `unknown tool "cafe.change"`},
		{`-x()`, `expected a tool name, found "-x"`},
		{`get-weather("2026-13-01")`, `expected a date like "2026-11-24" for day`},
		{`get-weather("2026\u002d11-01")`, `expected a date like`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := r.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse accepted %q", tt.in)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

func TestUnknownToolErrorIsTyped(t *testing.T) {
	_, err := testRegistry(t).Parse("Nope(1)")
	var ute *UnknownToolError
	if !errors.As(err, &ute) || ute.Name != "Nope" {
		t.Fatalf("got %v", err)
	}
}

func TestRegistryRejectsBadSpecs(t *testing.T) {
	good := testSpecs()[0]
	tests := []struct {
		name   string
		mutate func(*Spec)
		want   string
	}{
		{"bad name", func(s *Spec) { s.Name = "-abc" }, "tool name"},
		{"dotted name starting with a dot", func(s *Spec) { s.Name = ".abc" }, "tool name"},
		{"name too long", func(s *Spec) { s.Name = strings.Repeat("a", 65) }, "tool name"},
		{"no family", func(s *Spec) { s.Family = "" }, "no family"},
		{"no description", func(s *Spec) { s.Description = " " }, "no description"},
		{"expression not last", func(s *Spec) {
			s.Params = []Param{{Name: "e", Type: TypeExpression}, {Name: "n", Type: TypeNumber}}
			s.Examples = nil
		}, "must be the last"},
		{"required after optional", func(s *Spec) {
			s.Params = []Param{{Name: "a", Type: TypeNumber, Optional: true}, {Name: "b", Type: TypeNumber}}
			s.Examples = nil
		}, "follows an optional"},
		{"unknown type", func(s *Spec) { s.Params = []Param{{Name: "a", Type: "blob"}}; s.Examples = nil }, "unknown type"},
		{"empty enum", func(s *Spec) { s.Params = []Param{{Name: "a", Type: TypeEnum}}; s.Examples = nil }, "lists no values"},
		{"bad example", func(s *Spec) { s.Examples = []Example{{Query: "q", Call: "Calculator(1 +)"}} }, "example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := good
			tt.mutate(&s)
			_, err := NewRegistry(fakeTool{s})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewRegistry(fakeTool{good}, fakeTool{good}); err == nil {
		t.Fatal("duplicate names accepted")
	}
}

// TestKeywordsSkipOptionalParameters: the keyword form and the JSON form
// may leave out an optional parameter before a given one; such a call
// formats itself with keywords, and every form parses back to it.
func TestKeywordsSkipOptionalParameters(t *testing.T) {
	spec := Spec{Name: "search", Family: "web", Description: "search",
		Params: []Param{{Name: "query", Type: TypeString}, {Name: "page", Type: TypeInteger, Optional: true},
			{Name: "sort", Type: TypeEnum, Enum: []string{"stars", "updated"}, Optional: true}, {Name: "fork", Type: TypeBoolean, Optional: true}}}
	r, err := NewRegistry(fakeTool{spec})
	if err != nil {
		t.Fatal(err)
	}
	want := Call{Tool: "search", Args: []Arg{{"query", String("gear")}, {"sort", String("stars")}}, Named: true}
	for _, in := range []string{
		`search(query: "gear", sort: "stars")`,
		`search("gear", sort: "stars")`,
		`search( "gear" ,sort:"stars" )`,
		`{"tool": "search", "args": {"query": "gear", "sort": "stars"}}`,
	} {
		got, err := r.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !got.Equal(want) || !got.Named {
			t.Fatalf("%s: %#v", in, got)
		}
	}
	if want.String() != `search(query: "gear", sort: "stars")` {
		t.Fatalf("String %s", want.String())
	}
	if want.JSON() != `{"tool": "search", "args": {"query": "gear", "sort": "stars"}}` {
		t.Fatalf("JSON %s", want.JSON())
	}
	plain, err := r.Parse(`search(query: "gear", page: 2)`)
	if err != nil || plain.Named || plain.String() != `search("gear", 2)` || plain.Keywords() != `search(query: "gear", page: 2)` {
		t.Fatalf("%v %#v", err, plain)
	}
}

func TestMockResponse(t *testing.T) {
	s := Spec{Mock: "Weather in {place}: 12°C"}
	got := s.MockResponse(Call{Tool: "W", Args: []Arg{{"place", String("Oslo")}}})
	if got != "Weather in Oslo: 12°C" {
		t.Fatal(got)
	}
}

// FuzzParseRoundTrip: whatever parses formats back, in both forms, to a
// call that parses to the same call.
func FuzzParseRoundTrip(f *testing.F) {
	for _, s := range []string{
		"Calculator(( 76.0 - 25.0 ))", "Calculator(25% of 54,788)", "Calculator(max(1,2) mod 3 ** 2)",
		`TimezoneConverter("2022-01-02 22:00:00", "Asia/Shanghai", "America/New_York")`,
		`CurrentTime("Zürich \"q\" \u00e9")`, `Pow(-0, 12)`, `Units("metric")`,
		`{"tool": "WeatherSearch", "args": {"place": "Paris", "date": "today"}}`,
		`cafe.change_drink("x", false)`, `get-weather("2026-01-31", -4)`,
		`kv.set("k", {"a": [1, 2.5e-3, "x\u00e9", true, null], "": {}})`, `Units(unit: "metric", note: "x")`, `Pow(2, exponent: 3)`,
		`{"tool": "Units", "args": {"unit": "imperial"}}`, `kv.set("k", ids: [1, -2, 0])`, `kv.set("k", null, [])`, `{"tool": "kv.set", "args": {"key": "k", "value": -0}}`,
	} {
		f.Add(s)
	}
	r := testRegistry(f)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := r.Parse(in)
		if err != nil {
			var se *SyntaxError
			var ute *UnknownToolError
			if !errors.As(err, &se) && !errors.As(err, &ute) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		for _, form := range keywordForms(r, c) {
			again, err := r.Parse(form)
			if err != nil {
				t.Fatalf("%q parsed, but its form %q does not: %v", in, form, err)
			}
			if !again.Equal(c) {
				t.Fatalf("%q -> %q -> %#v, want %#v", in, form, again, c)
			}
		}
	})
}

// keywordForms are the ways to write c: positional (or keywords when it
// must), JSON, and with keywords, except that a tool whose first
// parameter is an expression takes no keywords there.
func keywordForms(r *Registry, c Call) []string {
	forms := []string{c.String(), c.JSON()}
	if s, ok := r.Spec(c.Tool); ok && (len(s.Params) == 0 || s.Params[0].Type != TypeExpression) {
		forms = append(forms, c.Keywords())
	}
	return forms
}
