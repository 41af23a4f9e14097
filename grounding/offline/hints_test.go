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
