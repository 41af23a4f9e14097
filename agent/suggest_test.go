package agent

import (
	"strings"
	"testing"

	"github.com/gear-chat/gear/constrain"
	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/wiki"
)

// The call suggested after a rejected emission parses,
// and carries the user's words where they fit.
func TestSuggestedCallParses(t *testing.T) {
	t.Parallel()
	reg, err := tools.NewRegistry(calc.New(), timezone.NewCurrentTime(timezone.Options{}),
		timezone.NewConverter(timezone.Options{}), weather.NewSearch(weather.Config{}),
		weather.NewLocationSearch(weather.Config{}), wiki.New(wiki.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range reg.Specs() {
		got := suggestedCall(spec, `where is "the place"`)
		if _, err := reg.Parse(got); err != nil {
			t.Errorf("%s: the suggestion %q does not parse: %v", spec.Name, got, err)
		}
	}
	loc, _ := reg.Spec("LocationSearch")
	if got := suggestedCall(loc, "Adelaide"); got != `LocationSearch("Adelaide")` {
		t.Errorf("got %q, want the user's words as the place", got)
	}
}

// A call of another tool is not called "unknown".
func TestCallOfAnotherToolIsNamed(t *testing.T) {
	t.Parallel()
	spec := weather.NewSearch(weather.Config{}).Spec()
	m, err := constrain.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = accept(m, spec, `CurrentTime("Paris")`)
	if err == nil || err.Error() != "the call names CurrentTime, but the tool to call is WeatherSearch" {
		t.Errorf("got %v", err)
	}
}

// A grounding failure is said once, without its
// prefix repeated.
func TestGroundingErrorPrefixOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{chat: "openai", modelGrounding: true, noDB: true,
		script: map[reqKind]func(modelRequest) reply{kindEmbed: func(modelRequest) reply {
			return reply{status: 400, body: []byte(`{"error": {"message": "input too long", "type": "invalid_request_error"}}`)}
		}}})
	_, rec := h.ask(Request{Text: "what is 17 * 23"})
	if rec.Error == "" || strings.Contains(rec.Error, "grounding: grounding:") || !strings.HasPrefix(rec.Error, "grounding: ") {
		t.Errorf("error %q: want one grounding: prefix", rec.Error)
	}
}
