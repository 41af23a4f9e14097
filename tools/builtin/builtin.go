// Package builtin builds gear's own tools from one set of options, so the
// commands that assemble a tool library name no particular tool: what a
// tool is and what it knows (its Spec, with its grounding hints) lives in
// its package, and this package only wires them up.
package builtin

import (
	"time"

	"github.com/gear-chat/gear/tools"
	"github.com/gear-chat/gear/tools/calc"
	"github.com/gear-chat/gear/tools/imagegen"
	"github.com/gear-chat/gear/tools/place"
	"github.com/gear-chat/gear/tools/timezone"
	"github.com/gear-chat/gear/tools/translate"
	"github.com/gear-chat/gear/tools/weather"
	"github.com/gear-chat/gear/tools/webget"
	"github.com/gear-chat/gear/tools/wiki"
)

// Options configure the built-in tools.
type Options struct {
	// Web is what the network tools fetch with.
	Web *webget.Client
	// Places loads the gazetteer on first use; share one loader between
	// the tools and grounding.
	Places func() (*place.Gazetteer, error)
	// Home is the place a clock call names when it names none.
	Home string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// WeatherURL and GeocodingURL are the weather service's endpoints,
	// WeatherUnits "metric" or "imperial" (empty: the tools' defaults).
	WeatherURL, GeocodingURL, WeatherUnits string
	// WikiURL is the encyclopedia's endpoint (empty: the default).
	WikiURL string
	// Translation configures the translation tool's services (its Web is
	// filled from Web when empty).
	Translation translate.Config
	// Image configures ImageGeneration (models.image; its Web is filled
	// from Web when empty).
	Image imagegen.Config
}

// Tools are gear's own tools, in the order `gear tools` lists them.
func Tools(o Options) []tools.Tool {
	wc := weather.Config{
		Web:          o.Web,
		BaseURL:      o.WeatherURL,
		GeocodingURL: o.GeocodingURL,
		Units:        o.WeatherUnits,
		Places:       LazyGazetteer(o.Places),
		Now:          o.Now,
	}
	tc := o.Translation
	if tc.Web == nil {
		tc.Web = o.Web
	}
	ic := o.Image
	if ic.Web == nil {
		ic.Web = o.Web
	}
	if ic.Now == nil {
		ic.Now = o.Now
	}
	return []tools.Tool{
		calc.New(),
		timezone.NewCurrentTime(timezone.Options{Places: o.Places, Home: o.Home, Now: o.Now}),
		timezone.NewConverter(timezone.Options{Places: o.Places, Now: o.Now}),
		weather.NewSearch(wc),
		weather.NewLocationSearch(wc),
		wiki.New(wiki.Config{Web: o.Web, BaseURL: o.WikiURL}),
		translate.New(tc),
		imagegen.New(ic),
	}
}

// Evaluate computes an arithmetic expression with the calculator's
// evaluator: the offline engine's preliminary answer to explicit
// arithmetic.
func Evaluate(expr string) (string, error) {
	v, err := calc.Eval(expr)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// LazyGazetteer looks names up in a gazetteer loaded on first use. A
// gazetteer that fails to load knows no place, so every place is geocoded
// (the time zone tools report the failure themselves).
type LazyGazetteer func() (*place.Gazetteer, error)

// Lookup resolves a name with the gazetteer loaded on first use.
func (load LazyGazetteer) Lookup(name string) (place.Place, bool) {
	if g := load.gazetteer(); g != nil {
		return g.Lookup(name)
	}
	return place.Place{}, false
}

// Scan finds place names in text with the gazetteer loaded on first use;
// one that fails to load finds none.
func (load LazyGazetteer) Scan(text string) []place.Mention {
	if g := load.gazetteer(); g != nil {
		return g.Scan(text)
	}
	return nil
}

// gazetteer is the loaded gazetteer, nil when there is none.
func (load LazyGazetteer) gazetteer() *place.Gazetteer {
	if load == nil {
		return nil
	}
	if g, err := load(); err == nil {
		return g
	}
	return nil
}

// ExampleCall is a call people can type as it is: the first usage example
// of the first built-in tool, for help texts.
func ExampleCall() string {
	if calls := ExampleCalls(1); len(calls) > 0 {
		return calls[0]
	}
	return ""
}

// ExampleCalls are the first usage example of each of the first n built-in
// tools that have one, for help texts: the tools' own examples, so help
// never names a tool the library does not have or spells a call it would
// refuse.
func ExampleCalls(n int) []string {
	var calls []string
	for _, t := range Tools(Options{}) {
		if len(calls) == n {
			break
		}
		if ex := t.Spec().Examples; len(ex) > 0 {
			calls = append(calls, ex[0].Call)
		}
	}
	return calls
}

// ExampleJSONCall is ExampleCall in the JSON call form.
func ExampleJSONCall() string {
	reg, err := tools.NewRegistry(Tools(Options{})...)
	if err != nil {
		return ""
	}
	call, err := reg.Parse(ExampleCall())
	if err != nil {
		return ""
	}
	return call.JSON()
}
