package offline

import (
	"context"
	"testing"

	"github.com/gear-chat/gear/tools"
)

// TestParamHints: what a tool's hints say its place parameters mean
// decides the call, whatever the parameters are called.
func TestParamHints(t *testing.T) {
	e := testEngine()
	forecast := tools.Spec{Name: "Forecast", Family: "weather", Description: "the weather forecast", OutputPattern: "weather",
		Params: []tools.Param{{Name: "where", Type: tools.TypePlace}}}
	here := forecast
	here.Hints = tools.Hints{Params: map[string]tools.ParamHint{"where": {Here: true}}}
	convert := tools.Spec{Name: "Shift", Family: "timezone", Description: "convert a time between zones", OutputPattern: "time",
		Params: []tools.Param{{Name: "when", Type: tools.TypeDateTime}, {Name: "b", Type: tools.TypePlace}, {Name: "a", Type: tools.TypePlace}},
		Hints:  tools.Hints{Params: map[string]tools.ParamHint{"a": {Role: tools.RoleFrom}, "b": {Role: tools.RoleTo}}}}
	tests := []struct {
		spec        tools.Spec
		query, want string
	}{
		{forecast, "will it rain tomorrow?", ""},
		{here, "will it rain tomorrow?", `Forecast("here")`},
		{here, "will it rain in Oslo tomorrow?", `Forecast("Oslo")`},
		{convert, "I am in Tokyo, what time is it in Paris when it is 9:00 here", `Shift("9:00", "Paris", "Tokyo")`},
		{convert, "what is 2024-05-01 09:00 in Lima in Paris time", `Shift("2024-05-01 09:00", "Paris", "Lima")`},
	}
	for _, tt := range tests {
		got, err := e.Call(context.Background(), tt.spec, tt.query)
		if err != nil || got != tt.want {
			t.Errorf("%s for %q = %q, %v; want %q", tt.spec.Name, tt.query, got, err, tt.want)
		}
	}
}

// TestForLibrary: an engine over a library without the weather tool does
// not read weather questions as such; ForLibrary with it does.
func TestForLibrary(t *testing.T) {
	bare := New(Options{})
	full := bare.ForLibrary(builtinSpecs())
	q := "will it be foggy in Oslo tomorrow"
	if k := bare.analysisOf(q).kind; k == kindWeather {
		t.Errorf("an engine with no weather tool read %q as a weather question", q)
	}
	if k := full.analysisOf(q).kind; k != kindWeather {
		t.Errorf("ForLibrary(built-ins) read %q as kind %d", q, k)
	}
	if bare.analysisOf(q).kind == kindWeather {
		t.Error("ForLibrary changed the engine it was called on")
	}
}

// TestAnswerExamples: the preliminary answer has the shape of the
// library's own example of that shape.
func TestAnswerExamples(t *testing.T) {
	clock := tools.Spec{Name: "Clock", Family: "clock", Description: "the time", OutputPattern: "time",
		Hints: tools.Hints{Subjects: []tools.Subject{{Name: "clock", Answer: tools.AnswerTime, Example: "7:45 pm",
			Words: []string{"time", "clock"}, Cues: []string{"time is it"}}}}}
	e := New(Options{Tools: []tools.Spec{clock}})
	if got, _ := e.Preliminary(context.Background(), "what time is it in Oslo"); got != "7:45 pm" {
		t.Errorf("preliminary %q, want the clock's example", got)
	}
	if got, _ := New(Options{}).Preliminary(context.Background(), "how many legs does a spider have"); got != shapeNumber {
		t.Errorf("preliminary %q with no hints, want %q", got, shapeNumber)
	}
}

// TestModelNamesTheLibrary: the encoder's cache name changes with the
// library's hints, so vectors of one library are never read for another.
func TestModelNamesTheLibrary(t *testing.T) {
	a, b := New(Options{Tools: builtinSpecs()}), New(Options{Tools: builtinSpecs()[:1]})
	if a.Model() == b.Model() {
		t.Errorf("two libraries, one cache name %q", a.Model())
	}
	if a.Model() != New(Options{Tools: builtinSpecs()}).Model() {
		t.Error("one library, two cache names")
	}
	if !IsEncoderModel(a.Model()) || !IsEncoderModel(EncoderModel) || IsEncoderModel("text-embedding-3-small") {
		t.Error("IsEncoderModel")
	}
}

// TestHostileHints: hints a file or a server wrote carelessly or
// maliciously — empty entries, capitals, the phrase separator, overlong
// and endless lists, an unknown shape — never break the engine, and an
// empty cue does not make every query a clock question.
func TestHostileHints(t *testing.T) {
	huge := make([]string, 200000)
	for i := range huge {
		huge[i] = "w" + tools.FormatNumber(float64(i))
	}
	long := string(make([]byte, 10000))
	spec := tools.Spec{Name: "Odd", Family: "odd", Description: "odd", OutputPattern: "time",
		Params: []tools.Param{{Name: "place", Type: tools.TypePlace}},
		Hints: tools.Hints{Params: map[string]tools.ParamHint{"place": {Here: true}}, Subjects: []tools.Subject{
			{Name: ""},
			{Name: "Odd  Subject", Answer: "colour", Words: append([]string{"", "  ", "=", "RAIN", long}, huge...),
				Cues: []string{"", " "}, Openers: []string{""}, Asking: []string{"", "|"}, Idioms: []string{"a|b", ""},
				Spellings: []string{"", "x", "ÿ"}, Things: []string{""}, Modifiers: []string{""}, Example: long},
			{Name: "clock", Answer: tools.AnswerTime, Cues: []string{""}, Openers: []string{"", "   "}},
		}}}
	e := New(Options{Tools: []tools.Spec{spec}})
	ctx := context.Background()
	for _, q := range []string{"hello there", "RAIN tomorrow", "tempreture", "ÿÿÿÿÿ", "a b", ""} {
		if _, err := e.Preliminary(ctx, q); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(ctx, []string{q}); err != nil {
			t.Fatal(err)
		}
		if call, err := e.Call(ctx, spec, q); err != nil || call != "" {
			t.Errorf("%q: call %q, %v; an empty cue made it a question of the tool's answer", q, call, err)
		}
	}
}

// TestPlaceKinds: a location parameter never takes a time zone alone; a
// zone parameter does, and a zone's city is a place for both.
func TestPlaceKinds(t *testing.T) {
	e := testEngine()
	sp := specs()
	tests := []struct{ tool, query, want string }{
		{"WeatherSearch", "what time is it in utc+5:30", ""},
		{"CurrentTime", "what time is it in utc+5:30", `CurrentTime("UTC+5:30")`},
		{"LocationSearch", "convert 3pm est to pst", ""},
		{"WeatherSearch", "what is the forecast for Gambier", `WeatherSearch("Gambier")`},
		{"WeatherSearch", "He is in GMT-7 and I am in Brisbane, is it raining there?", `WeatherSearch("Brisbane")`},
	}
	for _, tt := range tests {
		got, err := e.Call(context.Background(), sp[tt.tool], tt.query)
		if err != nil || got != tt.want {
			t.Errorf("%s for %q = %q, %v; want %q", tt.tool, tt.query, got, err, tt.want)
		}
	}
}
